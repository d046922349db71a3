"""``jit`` and ``JitConfig``: compile a Python function into one graph.

The first call for a given set of input shapes/dtypes runs the function once
on symbolic tensors (see _graph.py), compiles the captured MLIR with the native
Compiler (a CompiledGraph) and caches it. Later calls with the same input
types only gather the buffers (inputs, then the parameters the graph reads)
and call the compiled code.
"""

import functools
import inspect
import os
import warnings
import weakref
from collections import OrderedDict

from . import _msmlir as native
from ._autograph import convert
from . import _fallback, _syntax, _trace
from ._graph import Graph, Sym
from ._runtime import (STATE, MSError, HostTensor,
                       DEFAULT_JIT_LEVEL, compile_options, executor,
                       graph_compiler,
                       parse_exc_mode, parse_jit_level, parse_syntax_level,
                       compile_cache_dir)
from ._tensor import AttributeSlot, Tensor, _onew
from ._mutable import (is_mutable_scalar, is_jit_class_instance,
                       scalar_tensor, capture_copy)

__all__ = ["jit", "JitConfig", "compile_count", "compile_cache_stats"]

_HT = HostTensor
_call_tensors = native.call_tensors


class JitConfig:
    """Graph compilation options (MindSpore's ``mindspore.JitConfig``).

    jit_level: "" (the context's, else O2), "O0" (each op its own kernel),
    "O1" (adds fusion) or "O2" (adds whole-graph optimizations); every level
    runs the same vectorized kernels. Any other value raises ValueError.
    exc_mode: "auto" (the context's, else no_sink at O0 and sink at O1/O2),
    "sink" (the whole graph as one native function) or "no_sink" (kernel by
    kernel from the host, on the PyNative executor's kernels).
    jit_syntax_level: "" (the context's, LAX by default), "STRICT",
    "COMPATIBLE" or "LAX": what happens when captured code needs a tensor's
    value (see docs/python.md).
    """

    def __init__(self, jit_level="", exc_mode="auto", jit_syntax_level="",
                 debug_level="RELEASE", infer_boost="off", **kwargs):
        self.jit_level = (None if jit_level == "" else
                          parse_jit_level(jit_level))
        self.exc_mode = parse_exc_mode(exc_mode)
        self.syntax_level = (None if jit_syntax_level in ("", None) else
                             parse_syntax_level(jit_syntax_level))
        self.jit_syntax_level = jit_syntax_level
        self.jit_config_dict = dict(jit_level=jit_level,
                                    exc_mode=exc_mode,
                                    jit_syntax_level=jit_syntax_level,
                                    debug_level=debug_level,
                                    infer_boost=infer_boost, **kwargs)

    def __repr__(self):
        return (f"JitConfig(jit_level={self.jit_level or ''!r}, exc_mode="
                f"{self.exc_mode!r}, jit_syntax_level="
                f"{self.jit_syntax_level!r})")


def _resolve(config):
    """(jit_level, syntax_level, threads, exc_mode) from a JitConfig (or
    None) and the context. exc_mode "auto" is resolved by the native
    compiler."""
    level = syntax = None
    mode = "auto"
    if config is not None:
        level = config.jit_level
        syntax = config.syntax_level
        mode = config.exc_mode
    if level is None:
        level = STATE.jit_level or DEFAULT_JIT_LEVEL
    if syntax is None:
        syntax = parse_syntax_level(STATE.syntax_level)
    if mode == "auto":
        mode = STATE.exc_mode
    return level, syntax, STATE.num_threads, mode


def compile_count():
    """How many graphs this process has compiled (every jit and GRAPH_MODE
    Cell together)."""
    return STATE.compiles


_CACHE_STATS = {"hit": 0, "miss": 0, "rebuilt": 0, "compile_seconds": 0.0}


def compile_cache_stats():
    """The persistent compile cache in this process: graphs loaded from it
    ("hit"), compiled and stored ("miss"), compiled again because a bad
    entry was found ("rebuilt"), and the seconds spent in those compiles and
    loads ("compile_seconds")."""
    return dict(_CACHE_STATS)


def _count_cache(module):
    status, note = module.compile_cache
    if status == "off":
        return
    _CACHE_STATS[status] += 1
    _CACHE_STATS["compile_seconds"] += sum(module.compile_times)
    if note:
        # A rebuilt entry or a failed store: the graph works, say why once.
        warnings.warn(f"compile cache: {note}", RuntimeWarning, stacklevel=4)


#===---------------------------------------------------------------------===#
# Argument and result structures
#===---------------------------------------------------------------------===#

def _flatten(obj, leaves):
    """The cache key of an argument; appends its tensors to `leaves`. A
    mutable() scalar is a tensor-like input: a 0-d Tensor leaf keyed by its
    type, not its value. A jit_class instance is keyed by its attributes."""
    if isinstance(obj, Tensor):
        t = obj._t
        if t.__class__ is not _HT:
            raise MSError("a symbolic tensor was passed to a jitted function "
                          "outside of graph capture")
        leaves.append(obj)
        return t.type_string()
    if is_mutable_scalar(obj):
        leaf = scalar_tensor(obj)
        leaves.append(leaf)
        return ("mutable", leaf._t.type_string())
    if is_jit_class_instance(obj):
        return (type(obj), tuple((name, _flatten(value, leaves))
                                 for name, value in vars(obj).items()))
    if isinstance(obj, (list, tuple)):
        return (type(obj), tuple(_flatten(o, leaves) for o in obj))
    if isinstance(obj, dict):
        return (dict, tuple((k, _flatten(obj[k], leaves))
                            for k in sorted(obj, key=repr)))
    try:
        hash(obj)
        return ("const", type(obj), obj)
    except TypeError:
        return ("id", id(obj))


#===---------------------------------------------------------------------===#
# Input signatures (jit input_signature, Cell.set_inputs)
#===---------------------------------------------------------------------===#

def check_signature_spec(spec, where):
    """The input signature `spec` (a Tensor or a sequence of Tensors) as a
    tuple of (dtype, shape) pairs; None dims take any size."""
    if isinstance(spec, Tensor):
        spec = (spec,)
    if not isinstance(spec, (list, tuple)):
        raise TypeError(f"{where}: needs Tensors, got {type(spec).__name__}")
    out = []
    for i, t in enumerate(spec):
        if not isinstance(t, Tensor):
            raise TypeError(f"{where}: input {i} must be a Tensor, got "
                            f"{type(t).__name__}")
        out.append((t.dtype, tuple(t.shape)))
    return tuple(out)


def _shape_text(dtype, shape):
    return f"{dtype}[{', '.join('None' if d is None else str(d) for d in shape)}]"


def _check_signature(name, fn, sig, args, kwargs):
    """Raises TypeError unless `args` match `sig` (MindSpore: the shape and
    dtype of actual inputs must match input_signature)."""
    if kwargs:
        raise TypeError(f"{name}: with an input_signature the inputs are "
                        f"positional Tensors; got keyword arguments "
                        f"{sorted(kwargs)}")
    if len(args) != len(sig):
        raise TypeError(f"{name}: input_signature describes {len(sig)} "
                        f"inputs, got {len(args)}")
    try:
        names = list(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        names = []
    for i, (arg, (dtype, shape)) in enumerate(zip(args, sig)):
        what = f"argument {i}" + (f" '{names[i]}'" if i < len(names) else "")
        if not isinstance(arg, Tensor):
            raise TypeError(f"{name}: {what} must be a Tensor (input_signature "
                            f"{_shape_text(dtype, shape)}), got "
                            f"{type(arg).__name__}")
        got = tuple(arg.shape)
        if (arg.dtype != dtype or len(got) != len(shape) or
                any(w is not None and w != g for w, g in zip(shape, got))):
            raise TypeError(f"{name}: {what} has {_shape_text(arg.dtype, got)}"
                            f" but the input_signature expects "
                            f"{_shape_text(dtype, shape)} (None: any size)")


def _substitute(obj, it):
    """`obj` with its tensors (and mutable scalars) replaced, in order, by
    the items of `it`; jit_class instances by copies holding them."""
    if isinstance(obj, Tensor) or is_mutable_scalar(obj):
        return next(it)
    if is_jit_class_instance(obj):
        return capture_copy(obj, lambda value: _substitute(value, it))
    if isinstance(obj, (list, tuple)):
        items = [_substitute(o, it) for o in obj]
        return items if isinstance(obj, list) else (
            type(obj)(*items) if hasattr(obj, "_fields") else tuple(items))
    if isinstance(obj, dict):
        # In _flatten's order (keys sorted), so each key gets its own tensor.
        values = {k: _substitute(obj[k], it) for k in sorted(obj, key=repr)}
        return {k: values[k] for k in obj}
    return obj


def _outputs(obj, graph, results):
    """The structure of a captured function's result: symbolic tensors
    become ('result', index) and are appended to `results`."""
    if isinstance(obj, Tensor):
        t = obj._t
        if t.__class__ is Sym:
            if t.graph is not graph:
                raise MSError("a jitted function returned a symbolic tensor "
                              "of another graph")
            results.append(t)
            return ("result", len(results) - 1)
        return ("const", obj)
    if isinstance(obj, (list, tuple)):
        return (type(obj), [_outputs(o, graph, results) for o in obj],
                hasattr(obj, "_fields"))
    if isinstance(obj, dict):
        return (dict, {k: _outputs(v, graph, results)
                       for k, v in obj.items()})
    return ("const", obj)


def _rebuild(spec, values):
    kind = spec[0]
    if kind == "result":
        r = _onew(Tensor)
        r._t = values[spec[1]]
        return r
    if kind == "const":
        return spec[1]
    if kind is dict:
        return {k: _rebuild(v, values) for k, v in spec[1].items()}
    items = [_rebuild(s, values) for s in spec[1]]
    if kind is list:
        return items
    return kind(*items) if spec[2] else kind(items)


#===---------------------------------------------------------------------===#
# Cache entries
#===---------------------------------------------------------------------===#

def _tensor_of(host):
    r = _onew(Tensor)
    r._t = host
    return r


class _Entry:
    """One compiled graph: the module, what it reads besides the inputs, and
    how to rebuild the result."""

    __slots__ = ("module", "params", "captures", "out", "single", "source",
                 "tensor_type", "checked", "assigns", "inputs")

    def __init__(self, module, params, captures, out, source, assigns=()):
        self.module = module
        self.params = params        # Parameter objects; read ._t per call
        self.captures = captures    # HostTensors frozen at capture time
        self.out = out
        # Parameters the graph updates (ops.assign): its last results.
        self.assigns = list(assigns)
        self.single = out[0] == "result" and not self.assigns
        self.tensor_type = Tensor if self.single else None
        self.source = source
        # STATE.param_epoch when the capture was made (or last re-checked).
        self.checked = STATE.param_epoch

    def run(self, leaves):
        args = [x._t for x in leaves]
        for p in self.params:
            args.append(p._t)
        if self.captures:
            args.extend(self.captures)
        values = self.module.run(args) if self.module is not None else ()
        if self.assigns:
            values = self.bind(values)
        if self.single:
            r = _onew(Tensor)
            r._t = values[0]
            return r
        return _rebuild(self.out, values)


    def bind(self, values):
        """Makes each assigned Parameter hold its new value; returns the
        function's own results.

        Where the compiled function updates a Parameter in place
        (ms-update-parameters-in-place), its result is the Parameter's own
        buffer, or a copy of it when something else shared that buffer or
        the call took the slow path (native call_tensors decides;
        JitModule.h). Any other new value is an output buffer the function
        allocates; the Parameter is rebound to it and its old buffer goes
        back to the caching allocator (CachingAllocator.h, exact-size
        reuse), which hands it out again as the next step's output buffer,
        so a steady-state step allocates nothing new. Packed copies (O2's
        prepacked weights) notice a new buffer by identity and are made
        again, and an update in place invalidates them all; Tensors that
        shared the old buffer keep the old values, as they would after
        Parameter.set_data.
        """
        n = len(values) - len(self.assigns)
        for param, host in zip(self.assigns, values[n:]):
            param._t = host
        return values[:n]


    def run_steps(self, native_iterator, steps):
        """Dataset sink mode: up to `steps` calls in one native loop, each
        on the next row of `native_iterator` (a dataset iterator's native
        half), the Parameters this graph assigns carried from call to call.
        They hold the last values after. The loop stops early at a row
        this graph was not compiled for (a last partial batch). Returns
        (the last call's output, or None when none ran; calls made; that
        row as Tensors, or None)."""
        n = len(self.module.signature()[1]) - len(self.assigns)
        updates = [(self._param_index(p), n + j)
                   for j, p in enumerate(self.assigns)]
        outputs, params, ran, unmatched = self.module.run_steps(
            native_iterator, steps, self.params, self.captures, updates)
        for (index, _), param in zip(updates, self.assigns):
            param._t = params[index]
        if unmatched is not None:
            unmatched = [_tensor_of(h) for h in unmatched]
        if not ran:
            return None, 0, unmatched
        values = list(outputs[:n])
        if self.single:
            return _tensor_of(values[0]), ran, unmatched
        return _rebuild(self.out, values), ran, unmatched

    def can_run_steps(self):
        """Whether run_steps can carry every assigned Parameter: each is
        one of the graph's inputs."""
        return self.module is not None and all(
            any(p is q for q in self.params) for p in self.assigns)

    def _param_index(self, param):
        return next(i for i, q in enumerate(self.params) if q is param)


class _Segmented:
    """LAX: this input signature ran a statement in Python (JIT Fallback,
    _fallback.py), so every call runs the function again, its segments on
    compiled code kept by their text. `first`: the first call's last
    segment, not run yet when the entry is made."""

    __slots__ = ("first",)

    def __init__(self, first):
        self.first = first


#===---------------------------------------------------------------------===#
# The process-wide bound on cached graphs
#===---------------------------------------------------------------------===#

# Every cached entry of every Compiled, least recently used first:
# (Compiled's token, config, key) -> weakref to the Compiled. A compiled
# graph holds native code and its buffers' types (about 1 MB), so the
# number kept is bounded by STATE.graph_cache_size.
_LRU = OrderedDict()
_tokens = iter(range(1 << 62))


_touch = _LRU.move_to_end  # marks a key as the most recently used

# JIT Fallback segments kept per Compiled (each is one native module).
_SEGMENTS_KEPT = 32


def _remember(lru_key, compiled):
    _LRU[lru_key] = weakref.ref(compiled)
    evict(keep=lru_key)


def _drop(lru_key):
    compiled = _LRU.pop(lru_key)()
    if compiled is None:
        return
    cache = compiled._caches.get(lru_key[1])
    entry = cache.pop(lru_key[2], None) if cache is not None else None
    fast = compiled._fast
    if fast is not None and (fast[4] is entry or fast[5] == lru_key):
        compiled._fast = None


def evict(size=None, keep=None):
    """Drops the least recently used graphs until at most `size` (default:
    the context's graph_cache_size) are cached, never `keep` (the one just
    compiled). Dropping the last reference to a CompiledGraph frees its native
    code."""
    limit = STATE.graph_cache_size if size is None else size
    excess = len(_LRU) - limit
    if excess <= 0:
        return
    victims = []
    for lru_key in _LRU:  # oldest first
        if lru_key != keep:
            victims.append(lru_key)
            if len(victims) == excess:
                break
    for lru_key in victims:
        _drop(lru_key)


def cached_graph_count():
    """How many graphs (every jit and GRAPH_MODE Cell together) are cached."""
    return sum(1 for ref in _LRU.values() if ref() is not None)


class Compiled:
    """A function plus its graph cache. `owner` is the Cell whose construct
    this is (its path prefixes the ops' locations)."""

    def __init__(self, fn, config=None, name=None, owner=None,
                 input_signature=None):
        self.fn = fn
        self.config = config
        # ((dtype, shape), ...) from jit(input_signature=...); a Cell owner's
        # set_inputs is read per call.
        self.input_signature = input_signature
        self.owner = owner
        self.name = name or getattr(fn, "__qualname__", repr(fn))
        self._caches = {}
        self._token = next(_tokens)
        self.compile_count = 0
        # Statements run in Python by JIT Fallback (LAX), every call.
        self.fallback_count = 0
        # JIT Fallback's compiled segments: (config, source) -> CompiledGraph.
        self._segments = OrderedDict()
        # The last entry called with tensors only: (context epoch, owner's
        # training flag, owner's JitConfig, argument count, entry, its key
        # in the process-wide LRU order).
        self._fast = None

    @property
    def cache_size(self):
        return sum(len(c) for c in self._caches.values())

    def _config(self):
        config = self.config
        if config is None and self.owner is not None:
            config = self.owner._jit_config
        return _resolve(config)

    def __call__(self, *args, **kwargs):
        st = STATE
        if st.graph is not None or st.eager or st.tape is not None:
            # Inside a capture the call is inlined; inside a LAX fallback or
            # a PyNative gradient tape it runs eagerly (op by op, so that
            # the tape sees every op). Captured, its control flow is
            # converted (see _autograph.py).
            if st.graph is not None:
                return convert(self.fn)(*args, **kwargs)
            return self.fn(*args, **kwargs)
        recorder = _trace.RECORDER
        if recorder is not None:
            return recorder.timed(_trace.GRAPHS, self.name, self._call, args,
                                  kwargs)
        fast = self._fast
        if fast is not None and not kwargs and fast[0] == st.epoch:
            # Fast path: tensor arguments only, as in the last call. The
            # native side checks their types against the graph's signature
            # and returns None when they differ (a new shape).
            owner = self.owner
            if owner is None or (owner.training is fast[1] and
                                 owner._jit_config is fast[2]):
                entry = fast[4]
                if len(args) == fast[3]:
                    out = _call_tensors(entry.module, args, entry.params,
                                        entry.captures, entry.tensor_type)
                    if out is not None:
                        _touch(fast[5])
                        if entry.assigns:
                            out = entry.bind(out)
                        return out if entry.single else _rebuild(entry.out,
                                                                 out)
        return self._call(args, kwargs)

    def _call(self, args, kwargs):
        st = STATE
        cfg = self._config()
        cache = self._caches.get(cfg)
        if cache is None:
            cache = self._caches[cfg] = {}
        leaves = []
        sig = self.input_signature
        if sig is None and self.owner is not None:
            sig = self.owner.__dict__.get("_input_signature")
        if sig is not None:
            # One graph for every input that matches the signature.
            _check_signature(self.name, self.fn, sig, args, kwargs)
            _flatten(args, leaves)
            key = ("input_signature", sig)
        elif kwargs:
            key = (_flatten(args, leaves), _flatten(kwargs, leaves))
        else:
            key = _flatten(args, leaves)
        if self.owner is not None:
            key = (key, self.owner.training)
        lru_key = (self._token, cfg, key)
        entry = cache.get(key)
        shapes = [s for _, s in sig] if sig is not None else None
        if entry is None:
            entry = self._compile(args, kwargs, leaves, cfg, shapes)
            cache[key] = entry
            _remember(lru_key, self)
        else:
            _touch(lru_key)
            if (entry.__class__ is _Entry and
                    entry.checked != st.param_epoch):
                entry = cache[key] = self._recheck(entry, args, kwargs,
                                                   leaves, cfg, shapes)
        if entry.__class__ is _Entry:
            if (not kwargs and entry.module is not None and
                    len(leaves) == len(args) and
                    all(a is b for a, b in zip(args, leaves))):
                owner = self.owner
                self._fast = (st.epoch,
                              owner.training if owner is not None else None,
                              owner._jit_config if owner is not None else None,
                              len(args), entry, lru_key)
            return entry.run(leaves)
        return self._run_segmented(entry, args, kwargs, leaves, cfg, shapes)

    def _run_segmented(self, segmented, args, kwargs, leaves, cfg, shapes):
        """A call of an input signature that needs JIT Fallback: the
        function runs again, segment by segment (see _fallback.py)."""
        first = segmented.first
        if first is not None:
            segmented.first = None
            return first.run(first.inputs)
        captured = self._capture(args, kwargs, leaves, cfg, shapes,
                                 first_call=False)
        entry = self._last_segment(*captured, cfg)
        return entry.run(entry.inputs)

    def _last_segment(self, graph, out_spec, results, source, cfg):
        """The entry that runs what follows the last JIT Fallback; its
        `inputs` are the values it starts from."""
        module = None
        if results:
            module = self.segment_module(source, cfg, graph.control_flow)
        entry = _Entry(module, _read(graph),
                       [h for h, _ in graph.captures], out_spec, source,
                       _assigned(graph))
        entry.inputs = _fallback.carried_inputs(graph)
        return entry

    def segment_module(self, source, cfg, control_flow):
        """The compiled code of a JIT Fallback segment, compiled once per
        text."""
        key = (cfg, source)
        module = self._segments.get(key)
        if module is None:
            module = self._compile_source(source, cfg, control_flow)
            self._segments[key] = module
            if len(self._segments) > _SEGMENTS_KEPT:
                self._segments.popitem(last=False)
        else:
            self._segments.move_to_end(key)
        return module

    def _compile(self, args, kwargs, leaves, cfg, shapes=None):
        recorder = _trace.RECORDER
        if recorder is not None:
            return recorder.timed(_trace.COMPILES, self.name,
                                  self._capture_and_compile, args, kwargs,
                                  leaves, cfg, shapes)
        return self._capture_and_compile(args, kwargs, leaves, cfg, shapes)

    def _capture_and_compile(self, args, kwargs, leaves, cfg, shapes=None):
        """_compile without the Profiler's span."""
        captured = self._capture(args, kwargs, leaves, cfg, shapes)
        graph = captured[0]
        if graph.segment:
            return _Segmented(self._last_segment(*captured, cfg))
        graph, out_spec, results, source = captured
        module = None
        if results:
            module = self._compile_source(source, cfg, graph.control_flow)
        return _Entry(module, _read(graph),
                      [h for h, _ in graph.captures], out_spec, source,
                      _assigned(graph))

    def _recheck(self, entry, args, kwargs, leaves, cfg, shapes=None):
        """`entry` after a Parameter or Cell was replaced, removed or
        changed type: the function is captured again (raising what PyNative
        would, such as an AttributeError for a deleted Parameter); the
        compiled code is kept when the graph is the same, and the new
        Parameter objects are read from then on."""
        captured = self._capture(args, kwargs, leaves, cfg, shapes)
        graph = captured[0]
        if graph.segment:
            return _Segmented(self._last_segment(*captured, cfg))
        graph, out_spec, results, source = captured
        if source != entry.source:
            module = None
            if results:
                module = self._compile_source(source, cfg,
                                              graph.control_flow)
        else:
            module = entry.module
        return _Entry(module, _read(graph),
                      [h for h, _ in graph.captures], out_spec, source,
                      _assigned(graph))

    def _capture(self, args, kwargs, leaves, cfg, shapes=None,
                 first_call=True):
        """Runs the function on symbolic tensors: (graph, output structure,
        result Syms, MLIR source). `shapes` (from an input signature) give
        the inputs' shapes, None dims as ?. Under LAX a statement that needs
        a value runs in Python (_fallback.py); then graph.segment > 0, and
        the graph is the last segment, whose inputs are arguments."""
        level, syntax, threads, _ = cfg
        _syntax.check_arguments(self.fn, self.name, syntax, args, kwargs)
        graph = Graph(self.name, syntax)
        syms = []
        for i, leaf in enumerate(leaves):
            t = leaf._t
            s = _onew(Tensor)
            s._t = graph.add_input(
                t.dtype, shapes[i] if shapes is not None else t.shape)
            syms.append(s)
        if syntax == "LAX":
            _fallback.enable(graph, self, cfg, leaves, warn=first_call)
        it = iter(syms)
        sargs = _substitute(args, it)
        skwargs = _substitute(kwargs, it) if kwargs else {}
        if self.owner is not None and self.owner._scope:
            graph.cell_paths.append(self.owner._scope)
        for obj in (self.owner,) + tuple(args):
            if getattr(type(obj), "__ms_cell__", False):
                read_cell_attributes(graph, obj)
        STATE.graph = graph
        try:
            # Tensor-dependent control flow becomes scf ops (_autograph.py).
            out = convert(self.fn)(*sargs, **skwargs)
        finally:
            STATE.graph = None
            graph.restore_attributes()
        _syntax.check_result(self.fn, self.name, syntax, out)
        results = []
        out_spec = _outputs(out, graph, results)
        # Parameter updates (ops.assign), then the Tensor attributes the
        # function assigned, are the last results.
        results.extend(sym for _, sym in graph.assigns.values())
        results.extend(graph.attribute_results())
        return graph, out_spec, results, graph.source(results)

    def _compile_source(self, source, cfg, control_flow=False):
        level, _, threads, mode = cfg
        if control_flow:
            # The kernel-by-kernel runner (no_sink, O0's default) runs ms
            # ops only: a graph with scf.if / scf.while runs sunk, as one
            # native function (its kernels are the same; docs/python.md).
            mode = "sink"
        STATE.compiles += 1
        self.compile_count += 1
        dump_dir = ""
        if STATE.save_graphs:
            base = os.path.join(STATE.save_graphs_path,
                                f"{_safe(self.name)}_{STATE.compiles}")
            os.makedirs(base, exist_ok=True)
            with open(base + ".mlir", "w") as f:
                f.write(source)
            dump_dir = base
        try:
            # A no_sink graph runs on the PyNative executor of its level.
            module = graph_compiler().compile(
                source, compile_options(level, threads, mode, dump_dir),
                "construct", f"<jit {self.name}>", executor(level, threads),
                compile_cache_dir())
        except MSError as e:
            raise MSError(f"graph compile of {self.name} failed: {e}") \
                from None
        _count_cache(module)
        return module

    def sink_entry(self):
        """The graph the last call ran, when a native step loop can run it
        (dataset sink mode): called on Tensors only, one compiled graph
        (not JIT Fallback's segments). Else None."""
        fast = self._fast
        if fast is None or fast[0] != STATE.epoch:
            return None
        entry = fast[4]
        return entry if entry.can_run_steps() else None

    def graphs(self):
        """The captured MLIR source of every cached graph (for inspection)."""
        return [e.source for c in self._caches.values() for e in c.values()
                if isinstance(e, _Entry)]


def _assigned(graph):
    """What a captured graph assigns, in result order: Parameters, then
    the slots of Tensor attributes (each takes a `_t`)."""
    return ([param for param, _ in graph.assigns.values()] +
            [slot for slot, _, _ in graph.attribute_writes.values()])


def _read(graph):
    """What a captured graph reads besides its inputs, in argument order:
    Parameters, then the slots of Tensor attributes (each gives a `_t`)."""
    return ([param for param, _ in graph.params] +
            [slot for slot, _, _ in graph.attributes])


def read_cell_attributes(graph, cell):
    """While `graph` is captured, the plain Tensor attributes of Cell
    `cell` and its sub-Cells hold arguments of the outermost graph, which
    reads them at each call: a new value (of the same type) needs no new
    capture, and ops on them are recorded, not folded. Called for the Cell
    being compiled and for every Cell called while a graph is captured."""
    root = graph.root()
    slots = []
    for _, sub in cell.cells_and_names():
        if id(sub) in root.attribute_cells:
            continue
        root.attribute_cells.add(id(sub))
        for name, value in vars(sub).items():
            if value.__class__ is Tensor and value._t.__class__ is HostTensor:
                slots.append(AttributeSlot(sub, name))
    root.read_attributes(slots, _wrap_sym)


def _wrap_sym(sym):
    t = _onew(Tensor)
    t._t = sym
    return t


def _safe(name):
    return "".join(c if c.isalnum() or c in "._-" else "_" for c in name)


class JitFunction(Compiled):
    """What ``jit`` returns: callable like the function (with its own graph
    cache), and a descriptor so that ``@jit`` on a method (``construct``)
    gets one cache per instance."""

    def __init__(self, fn, jit_config=None, input_signature=None):
        super().__init__(fn, jit_config, input_signature=input_signature)
        self.jit_config = jit_config
        self._attr = f"_ms_jit_{id(self)}"
        functools.update_wrapper(self, fn)

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        d = obj.__dict__
        bound = d.get(self._attr)
        if bound is None:
            owner = obj if hasattr(obj, "_scope") else None
            bound = Compiled(self.fn.__get__(obj, objtype), self.jit_config,
                             getattr(self.fn, "__qualname__", None), owner,
                             self.input_signature)
            d[self._attr] = bound
        return bound



def jit(fn=None, *, jit_config=None, mode="PSJit", input_signature=None,
        hash_args=None, compile_once=False, **kwargs):
    """Compiles `function` into a graph (MindSpore's ``mindspore.jit``).

    As a decorator (``@ms.jit``, ``@ms.jit(jit_config=JitConfig(...))``) on
    functions or on a Cell's ``construct``, or as a transform
    (``run_with_jit = ms.jit(run)``). A jitted call always runs in graph
    mode, whatever the context's mode.
    """
    if kwargs:
        raise TypeError(f"jit() got unexpected arguments {sorted(kwargs)}")
    if jit_config is not None and not isinstance(jit_config, JitConfig):
        raise TypeError("jit_config must be a JitConfig")
    if isinstance(input_signature, dict):
        raise TypeError("jit: input_signature as a dict (incremental mode) "
                        "is not supported; give a Tensor or a tuple of "
                        "Tensors")
    signature = (check_signature_spec(input_signature, "jit input_signature")
                 if input_signature is not None else None)

    def wrap(function):
        if getattr(type(function), "__ms_cell__", False):
            cell = function
            return Compiled(lambda *a, **k: cell(*a, **k), jit_config,
                            type(cell).__name__, input_signature=signature)
        if not callable(function):
            raise TypeError("jit needs a function, got "
                            f"{type(function).__name__}")
        return JitFunction(function, jit_config, signature)

    if fn is None:
        return wrap
    return wrap(fn)
