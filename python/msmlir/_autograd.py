"""Gradients: ``grad``, ``value_and_grad`` and ``ParameterTuple``.

Both modes differentiate the same way: the function is written down as an
ms-dialect function (the text ``_graph.Graph`` produces), the compiler's
ms-autodiff pass (``_msmlir.autodiff``) appends ``@construct_grad``, whose
signature is ``(args..., sens...) -> (results..., grads of wrt...)``, and
that function is run. So PyNative and Graph gradients come from the same
rules and the same kernels.

- Graph capture (inside ``jit``, a GRAPH_MODE Cell, or a GRAPH_MODE call of
  the grad function): the function is captured into a nested graph, which is
  differentiated; the gradient function's body is then inlined into the
  enclosing graph. A train step (forward, backward and optimizer update)
  therefore compiles to one native function.
- PyNative: a tape. While the function runs, every op is run at once and
  also recorded (``Tape.record``, called by _tensor.unary/binary/nary) into
  a Graph. Backward differentiates that graph and runs the gradient function
  kernel by kernel on the PyNative executor (exc_mode no_sink, the
  executor's cached kernels). That gradient function takes the forward
  values it reads as arguments (ms-autodiff's saved-forward form), and the
  tape passes the values its ops computed: no forward op runs twice.
  Differentiated tapes are cached by their text, so a training loop parses
  and differentiates its step once.
"""

from collections import OrderedDict

import numpy as np

from . import _msmlir as native
from . import _autograph
from . import dtype as mstype
from ._graph import Graph, Sym, user_location
from ._runtime import (STATE, MSError, GraphSyntaxError, HostTensor,
                       GRAPH_MODE, compile_options, executor,
                       graph_compiler, pynative_level, parse_syntax_level)
from ._tensor import Tensor, Parameter, _onew, host_from_numpy
from ._jit import Compiled

__all__ = ["grad", "value_and_grad", "ParameterTuple"]

_HT = HostTensor
_FLOAT_CODES = tuple(t.code for t in mstype.float_type)
_ENTRY = "construct"
_GRAD_ENTRY = _ENTRY + "_grad"


#===---------------------------------------------------------------------===#
# The compiler entry point
#===---------------------------------------------------------------------===#

_DIFFERENTIATED = OrderedDict()  # (source, wrt, saved) -> result (LRU)
_DIFFERENTIATED_LIMIT = 256


def differentiate(source, wrt, saved_forward=False):
    """The module text of `source` (one function, @construct) with
    @construct_grad added: the gradient with respect to the arguments
    `wrt`. With `saved_forward`, (text, saved): @construct_grad takes the
    forward values it reads as arguments after @construct's, and `saved`
    lists them as (op, result) positions in @construct's body. The only
    calls into the ms-autodiff pass; results are cached."""
    key = (source, tuple(wrt), saved_forward)
    text = _DIFFERENTIATED.get(key)
    if text is not None:
        _DIFFERENTIATED.move_to_end(key)
        return text
    name = "autodiff_saved" if saved_forward else "autodiff"
    autodiff = getattr(native, name, None)
    if autodiff is None:
        raise MSError("this build of msmlir has no ms-autodiff pass "
                      f"(_msmlir.{name})")
    text = autodiff(source, _ENTRY, list(wrt), _GRAD_ENTRY)
    _DIFFERENTIATED[key] = text
    if len(_DIFFERENTIATED) > _DIFFERENTIATED_LIMIT:
        _DIFFERENTIATED.popitem(last=False)
    return text


#===---------------------------------------------------------------------===#
# ParameterTuple
#===---------------------------------------------------------------------===#

class ParameterTuple(tuple):
    """A tuple of Parameters (MindSpore's ``mindspore.ParameterTuple``)."""

    def __new__(cls, iterable):
        items = tuple(iterable)
        for p in items:
            if not isinstance(p, Parameter):
                raise TypeError("ParameterTuple takes Parameters, got "
                                f"{type(p).__name__}")
        return super().__new__(cls, items)

    def clone(self, prefix, init="same"):
        """Copies of the Parameters named "<prefix>.<name>"."""
        out = []
        for p in self:
            c = p.clone(init)
            c.name = f"{prefix}.{p.name}"
            out.append(c)
        return ParameterTuple(out)


#===---------------------------------------------------------------------===#
# Recording
#===---------------------------------------------------------------------===#

class _GradGraph(Graph):
    """The function being differentiated, written down as a Graph.

    `bound` maps Tensors (by identity) to their values in this graph: the
    function's arguments and, on a PyNative tape, the results of recorded
    ops. A symbolic tensor of an enclosing graph (a closure) becomes an
    extra argument (`outer_refs`)."""

    def __init__(self, name, syntax_level):
        super().__init__(name, syntax_level)
        self.bound = {}
        self.outer_refs = []   # (Tensor of the enclosing graph, Sym)
        self.used = set()      # names of values some op reads
        # PyNative: each Parameter's buffer when the function first read it
        # (an ops.assign later in the function rebinds the Parameter).
        self.param_hosts = {}
        # PyNative: the value each line of `body` computed (None for the
        # constants), which the gradient function takes instead of running
        # the forward ops again.
        self.line_values = []

    def release(self):
        """Drops what the graph holds. Its Syms point back at it, so without
        this a PyNative step's graph, with the forward values it kept, would
        live until Python's cycle collector ran: tens of MiB of peak RSS."""
        for held in (self.body, self.inputs, self.params, self.captures,
                     self._param_index, self._const_index, self._keep,
                     self.bound, self.outer_refs, self.param_hosts,
                     self.line_values, self.assigns):
            held.clear()

    def bind(self, tensor, sym):
        self.bound[id(tensor)] = sym
        self._keep.append(tensor)

    def value_of(self, tensor, param_class):
        sym = self.bound.get(id(tensor))
        if sym is not None:
            return sym
        t = tensor._t
        if t.__class__ is Sym and t.graph is not self:
            sym = self.add_input(t.dtype, t.shape)
            self.bind(tensor, sym)
            self.outer_refs.append((tensor, sym))
            return sym
        if isinstance(tensor, param_class) and t.__class__ is HostTensor:
            self.param_hosts.setdefault(id(tensor), t)
        return super().value_of(tensor, param_class)

    def add_op(self, call, operands, result_spec=None):
        for s in operands:
            self.used.add(s.name)
        return super().add_op(call, operands, result_spec)

    def write_attribute(self, slot, before, value):
        filename, line = user_location()
        raise GraphSyntaxError(
            f"{filename}:{line}: a function being differentiated assigns "
            f"the Tensor attribute {slot.name} of "
            f"{type(slot.owner).__name__}; keep state that changes in "
            "training in a Parameter and update it with ops.assign")


class Tape:
    """PyNative: records each op the function runs (see _tensor.unary)."""

    __slots__ = ("graph",)

    def __init__(self, graph):
        self.graph = graph

    def record(self, o, operands, result):
        g = self.graph
        syms = [g.value_of(x, Parameter) for x in operands]
        t = result._t
        values = g.line_values
        missing = len(g.body) - len(values)
        if missing:
            values.extend([None] * missing)  # constants value_of added
        g.bind(result, g.add_op(o.call, syms, (t.dtype, t.shape)))
        values.append(t)


#===---------------------------------------------------------------------===#
# grad / value_and_grad
#===---------------------------------------------------------------------===#

def _positions(grad_position):
    if grad_position is None:
        return None
    single = not isinstance(grad_position, (tuple, list))
    items = (grad_position,) if single else tuple(grad_position)
    for p in items:
        if not isinstance(p, int) or isinstance(p, bool):
            raise TypeError("grad_position must be an int, a tuple of ints "
                            f"or None, got {grad_position!r}")
        if p < 0:
            raise ValueError(f"grad_position {p} is negative")
    if not items:
        raise ValueError("grad_position is an empty tuple")
    return items, single


def _weights(weights):
    if weights is None:
        return None
    single = isinstance(weights, Parameter)
    items = (weights,) if single else tuple(weights)
    for w in items:
        if not isinstance(w, Parameter):
            raise TypeError("weights must be a Parameter, a ParameterTuple "
                            "or a list of Parameters, got an element of "
                            f"type {type(w).__name__}")
    return items, single


def _zeros_like(t):
    return Tensor(np.zeros(t.shape, dtype=t.dtype.values_np), t.dtype)


_ONES = {}


def _ones_host(dtype, shape):
    key = (dtype, tuple(shape))
    h = _ONES.get(key)
    if h is None:
        dt = mstype.BY_CODE[dtype]
        h = _ONES[key] = host_from_numpy(np.ones(shape, np.float32), dt)
    return h


def _float_output(t, index, name):
    if not isinstance(t, Tensor):
        raise TypeError(
            f"{name}: output {index} of the function is a "
            f"{type(t).__name__}, not a Tensor; only Tensor outputs can be "
            "differentiated (use has_aux=True to return other values after "
            "the first output)")
    if not t.dtype.is_float:
        raise TypeError(f"{name}: output {index} has dtype {t.dtype}; only "
                        "float outputs can be differentiated")


class _GradFunction:
    """What grad / value_and_grad return. (Slots: ms.jit(grad_fn) copies a
    function's __dict__ onto the jitted wrapper, which must not get these
    attributes.)"""

    __slots__ = ("fn", "positions", "weights", "has_aux", "with_value",
                 "public", "name", "_compiled", "_kernels", "__weakref__")

    def __init__(self, fn, grad_position, weights, has_aux, with_value):
        if not callable(fn):
            raise TypeError(f"grad needs a function, got {type(fn).__name__}")
        self.fn = fn
        self.positions = _positions(grad_position)
        self.weights = _weights(weights)
        if self.positions is None and self.weights is None:
            raise ValueError("grad_position and weights cannot both be None")
        self.has_aux = bool(has_aux)
        self.with_value = with_value
        self.public = "ms.value_and_grad" if with_value else "ms.grad"
        self.name = getattr(fn, "__qualname__", type(fn).__name__)
        self._compiled = None
        self._kernels = OrderedDict()  # PyNative: text -> (graph, saved)

    # -- dispatch ------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        st = STATE
        if st.graph is not None:
            return self._captured(st.graph, args, kwargs)
        if st.mode == GRAPH_MODE and not st.eager and st.tape is None:
            if self._compiled is None:
                self._compiled = Compiled(
                    lambda *a, **k: self._captured(STATE.graph, a, k), None,
                    f"{self.public}({self.name})")
            return self._compiled(*args, **kwargs)
        return self._pynative(args, kwargs)

    # -- common pieces ---------------------------------------------------------
    def _check_positions(self, args):
        if self.positions is None:
            return ()
        items = self.positions[0]
        for p in items:
            if p >= len(args):
                raise ValueError(
                    f"{self.public}: grad_position {p} is out of range: "
                    f"{self.name} was called with {len(args)} positional "
                    "argument(s)")
            a = args[p]
            if not isinstance(a, Tensor):
                raise TypeError(
                    f"{self.public}: argument {p} (grad_position) is a "
                    f"{type(a).__name__}, not a Tensor")
            if not a.dtype.is_float:
                raise TypeError(
                    f"{self.public}: argument {p} (grad_position) has dtype "
                    f"{a.dtype}; only float tensors have gradients")
        return items

    def _outputs(self, out):
        """(list of output Tensors, how many are differentiated)."""
        if isinstance(out, tuple):
            outs = list(out)
        else:
            outs = [out]
        if not outs:
            raise TypeError(f"{self.public}: the function returned an empty "
                            "tuple")
        n = 1 if self.has_aux else len(outs)
        for i in range(n):
            _float_output(outs[i], i, self.public)
        return outs, n

    def _wrt(self, graph, arg_syms, param_syms):
        """The indices of the differentiated arguments in `graph` (only the
        ones some op reads; the others get zeros), and for each requested
        gradient its index among those or None."""
        inputs = graph.inputs
        n_inputs = len(inputs)
        param_index = {id(p): n_inputs + i
                       for i, (p, _) in enumerate(graph.params)}
        wanted = [inputs.index(s) for s in arg_syms]
        for p in param_syms:
            wanted.append(param_index.get(id(p)))
        args = graph.arguments()
        wrt, slots = [], []
        for index in wanted:
            if index is None or args[index].name not in graph.used:
                slots.append(None)
                continue
            if index not in wrt:
                wrt.append(index)
            slots.append(wrt.index(index))
        return wrt, slots

    def _assemble(self, outs, tuple_out, grads, like):
        """The user-visible result from the outputs and the gradients
        (None: zero, shaped like the matching entry of `like`)."""
        grads = [g if g is not None else _zeros_like(t)
                 for g, t in zip(grads, like)]
        n_pos = len(self.positions[0]) if self.positions else 0
        pos_grads, w_grads = grads[:n_pos], grads[n_pos:]
        parts = []
        if self.positions is not None:
            parts.append(pos_grads[0] if self.positions[1] else
                         tuple(pos_grads))
        if self.weights is not None:
            parts.append(w_grads[0] if self.weights[1] else tuple(w_grads))
        gradients = parts[0] if len(parts) == 1 else tuple(parts)
        value = tuple(outs) if tuple_out else outs[0]
        if self.with_value:
            return value, gradients
        if self.has_aux:
            return gradients, tuple(outs[1:])
        return gradients

    # -- graph capture -----------------------------------------------------------
    def _captured(self, outer, args, kwargs):
        """Inside a graph capture: differentiate a nested capture of the
        function and inline its gradient function into `outer`."""
        positions = self._check_positions(args)
        graph = _GradGraph(f"{self.public}({self.name})",
                           outer.syntax_level)
        graph.parent = outer
        if outer.cell_paths:
            graph.cell_paths.append(outer.cell_paths[-1])
        sargs = list(args)
        arg_map = []  # (outer Tensor, inner Sym)
        for i, a in enumerate(args):
            if isinstance(a, Tensor):
                t = a._t
                s = _onew(Tensor)
                s._t = graph.add_input(t.dtype, t.shape)
                arg_map.append((a, s._t))
                sargs[i] = s
        STATE.graph = graph
        try:
            # Tensor-conditioned `if`s become scf.if (ms-autodiff
            # differentiates them), as in any captured function.
            out = _autograph.convert(self.fn)(*sargs, **kwargs)
        finally:
            STATE.graph = outer
        # Its scf ops (and their reverse) are inlined into `outer`.
        outer.control_flow = outer.control_flow or graph.control_flow
        tuple_out = isinstance(out, tuple)
        outs, n_diff = self._outputs(out)
        results = [graph.value_of(o, Parameter) if isinstance(o, Tensor)
                   else None for o in outs]
        tensor_results = [s for s in results if s is not None]
        # An output that is an argument itself has a gradient (its sens).
        graph.used.update(s.name for s in tensor_results)
        n_out = len(tensor_results)
        # Parameter updates inside the function (ops.assign) are extra
        # results with zero sens, assigned in the enclosing graph.
        assigned = list(graph.assigns.values())
        tensor_results = tensor_results + [sym for _, sym in assigned]
        arg_syms = [sargs[p]._t for p in positions]
        weights = self.weights[0] if self.weights else ()
        wrt, slots = self._wrt(graph, arg_syms, weights)
        like = [args[p] for p in positions] + list(weights)
        outer_args = [self._outer_value(outer, graph, s, arg_map)
                      for s in graph.arguments()]
        if wrt:
            text = differentiate(graph.source(tensor_results, _ENTRY), wrt)
            for i, s in enumerate(tensor_results):
                # sens: ones for the differentiated outputs, zeros for aux
                # (float results only; the others take none).
                if s.dtype not in _FLOAT_CODES:
                    continue
                outer_args.append(outer.value_of(Tensor(
                    np.full(s.shape, 1 if i < n_diff else 0, np.float32),
                    mstype.BY_CODE[s.dtype]), Parameter))
            arguments = graph.arguments()
            result_like = tensor_results + [arguments[i] for i in wrt]
            syms = outer.call(text, _GRAD_ENTRY, outer_args, result_like)
        else:
            # Nothing reaches a differentiated argument: the forward
            # function alone is called, and every gradient is zero.
            syms = outer.call(graph.source(tensor_results, _ENTRY), _ENTRY,
                              outer_args, tensor_results)
        value_syms = syms[:n_out]
        for (param, _), sym in zip(assigned, syms[n_out:len(tensor_results)]):
            outer.assign(param, sym)
        grad_syms = syms[len(tensor_results):]
        grads = [None if k is None else _wrap(grad_syms[k]) for k in slots]
        it = iter(value_syms)
        new_outs = [_wrap(next(it)) if s is not None else o
                    for o, s in zip(outs, results)]
        return self._assemble(new_outs, tuple_out, grads, like)

    @staticmethod
    def _outer_value(outer, graph, sym, arg_map):
        for a, s in arg_map:
            if s is sym:
                return outer.value_of(a, Parameter)
        for a, s in graph.outer_refs:
            if s is sym:
                return outer.value_of(a, Parameter)
        for p, s in graph.params:
            if s is sym:
                return outer.value_of(p, Parameter)
        for h, s in graph.captures:
            if s is sym:
                t = _onew(Tensor)
                t._t = h
                return outer.value_of(t, Parameter)
        raise MSError("internal error: an argument of the differentiated "
                      "function has no value in the enclosing graph")

    # -- PyNative -----------------------------------------------------------------
    def _pynative(self, args, kwargs):
        st = STATE
        if st.tape is not None:
            raise MSError(f"{self.public}: a grad function was called while "
                          "another one is being recorded; higher-order "
                          "gradients are not supported")
        positions = self._check_positions(args)
        syntax = parse_syntax_level(st.syntax_level)
        graph = _GradGraph(f"{self.public}({self.name})", syntax)
        for a in args:
            if isinstance(a, Tensor) and id(a) not in graph.bound:
                t = a._t
                if t.__class__ is not _HT:
                    raise MSError(f"{self.public}: a symbolic tensor was "
                                  "passed outside of graph capture")
                graph.bind(a, graph.add_input(t.dtype, t.shape))
        try:
            return self._pynative_on(graph, positions, args, kwargs)
        finally:
            graph.release()

    def _pynative_on(self, graph, positions, args, kwargs):
        st = STATE
        st.tape = Tape(graph)
        try:
            out = self.fn(*args, **kwargs)
        finally:
            st.tape = None
        tuple_out = isinstance(out, tuple)
        outs, n_diff = self._outputs(out)
        tensor_results = [graph.value_of(o, Parameter) for o in outs
                          if isinstance(o, Tensor)]
        graph.used.update(s.name for s in tensor_results)
        arg_syms = [graph.bound[id(args[p])] for p in positions]
        weights = self.weights[0] if self.weights else ()
        wrt, slots = self._wrt(graph, arg_syms, weights)
        like = [args[p] for p in positions] + list(weights)
        if not wrt:
            return self._assemble(outs, tuple_out, [None] * len(slots), like)
        source = graph.source(tensor_results, _ENTRY)
        compiled, saved = self._kernel_graph(source, wrt)
        hosts = [self._host_of(graph, s, args) for s in graph.arguments()]
        values = graph.line_values
        for index, result in saved:
            h = values[index] if result == 0 and index < len(values) else None
            if h is None:
                raise MSError("internal error: the gradient function reads "
                              f"forward value ({index}, {result}), which the "
                              "tape did not keep")
            hosts.append(h)
        for i, s in enumerate(tensor_results):
            if s.dtype not in _FLOAT_CODES:
                continue
            h = _ones_host(s.dtype, s.shape)
            if i >= n_diff:
                h = host_from_numpy(np.zeros(s.shape, np.float32),
                                    mstype.BY_CODE[s.dtype])
            hosts.append(h)
        values = compiled.run(hosts)
        grad_hosts = values[len(tensor_results):]
        grads = [None if k is None else _wrap(grad_hosts[k]) for k in slots]
        # The outputs are the values the ops computed as they ran (the
        # gradient function returns those same buffers).
        return self._assemble(outs, tuple_out, grads, like)

    @staticmethod
    def _host_of(graph, sym, args):
        for a in args:
            if isinstance(a, Tensor) and graph.bound.get(id(a)) is sym:
                return a._t
        for p, s in graph.params:
            if s is sym:
                return graph.param_hosts.get(id(p), p._t)
        for h, s in graph.captures:
            if s is sym:
                return h
        raise MSError("internal error: a tape argument has no value")

    def _kernel_graph(self, source, wrt):
        level = pynative_level()
        threads = STATE.num_threads
        key = (source, tuple(wrt), level, threads)
        entry = self._kernels.get(key)
        if entry is not None:
            self._kernels.move_to_end(key)
            return entry
        text, saved = differentiate(source, wrt, saved_forward=True)
        try:
            compiled = graph_compiler().compile(
                text, compile_options(level, threads, "no_sink"), _GRAD_ENTRY,
                f"<{self.public} {self.name}>", executor(level, threads))
        except MSError as e:
            raise MSError(f"{self.public}({self.name}): the gradient "
                          f"function failed to load: {e}") from None
        entry = self._kernels[key] = (compiled, saved)
        if len(self._kernels) > 16:
            self._kernels.popitem(last=False)
        return entry


def _wrap(value):
    r = _onew(Tensor)
    r._t = value
    return r


def grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False):
    """The gradient of `fn` (MindSpore's ``mindspore.grad``).

    grad_position: an int, a tuple of ints, or None: which positional
    arguments to differentiate. weights: a Parameter, a ParameterTuple or a
    list of Parameters (``net.trainable_params()``). Returns the gradients of
    the inputs, of the weights, or ``(inputs_grads, weights_grads)`` when
    both are asked for. has_aux: only the first output is differentiated
    and the call returns ``(gradients, aux)`` with aux the other outputs.
    """
    if return_ids:
        raise NotImplementedError("grad(return_ids=True) is not supported")
    return _GradFunction(fn, grad_position, weights, has_aux, False)


def value_and_grad(fn, grad_position=0, weights=None, has_aux=False,
                   return_ids=False):
    """Like ``grad``, but the call returns ``(value, gradients)`` with value
    the function's output (MindSpore's ``mindspore.value_and_grad``)."""
    if return_ids:
        raise NotImplementedError(
            "value_and_grad(return_ids=True) is not supported")
    return _GradFunction(fn, grad_position, weights, has_aux, True)
