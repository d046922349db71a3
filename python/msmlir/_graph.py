"""Graph capture: symbolic values and the MLIR text of a captured function.

While a jitted function runs on symbolic tensors, every ms op appends one
line of generic-form MLIR to the current ``Graph``:

    %v3 = "ms.relu"(%v2) : (tensor<64x512xf32>) -> tensor<64x512xf32>
        loc("dense_relu_sequential.1"("/path/net.py":21:0))

Result types come from the op's own shape inference (``Executor.infer``), so
nothing here computes shapes. Parameters become graph arguments tagged
``{ms.param = "<cell path>.weight"}``; other concrete tensors become
constants (small ones inline, large ones as extra arguments).
"""

import itertools
import linecache
import os
import sys
import weakref

from . import _msmlir as native
from . import dtype as mstype
from ._runtime import STATE, MSError, GraphSyntaxError, executor

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
# Concrete tensors up to this many elements are inlined as arith.constant.
_INLINE_CONSTANT_LIMIT = 256


_link_counter = itertools.count()


class Sym:
    """A symbolic tensor: an SSA value of the graph being captured."""

    __slots__ = ("name", "dtype", "shape", "graph", "mlir_type", "region",
                 "segment", "__weakref__")

    def __init__(self, name, dtype, shape, graph):
        self.name = name
        self.dtype = dtype          # native dtype code
        self.shape = tuple(shape)
        self.graph = graph
        self.mlir_type = tensor_type(dtype, self.shape)
        # The scf region it is defined in (None: the function's body).
        regions = getattr(graph, "regions", None)
        self.region = regions[-1] if regions else None
        # Which of the graph's segments made it (see _fallback.py).
        self.segment = graph.segment

    @property
    def size(self):
        """The element count; None while a dim is dynamic (a None batch)."""
        n = 1
        for d in self.shape:
            if d is None:
                return None
            n *= d
        return n


_ELEMENT = {t.code: t.mlir for t in mstype.all_types}
_BOOL = mstype.bool_.code


def tensor_type(dtype, shape):
    # A None dim (Tensor(shape=[None, ...]), Cell.set_inputs) is MLIR's ?.
    dims = "".join("?x" if d is None else f"{d}x" for d in shape)
    return f"tensor<{dims}{_ELEMENT[dtype]}>"


def _bool_literal(value):
    """A (nested) list of bools as an MLIR dense literal."""
    if isinstance(value, list):
        return "[" + ", ".join(_bool_literal(v) for v in value) + "]"
    return "true" if value else "false"


def _quote(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def user_frame(depth=1):
    """The innermost frame outside the msmlir package."""
    frame = sys._getframe(depth)
    while frame is not None and frame.f_code.co_filename.startswith(
            _PACKAGE_DIR):
        frame = frame.f_back
    return frame


def user_location():
    frame = user_frame(2)
    if frame is None:
        return "<unknown>", 0
    return frame.f_code.co_filename, frame.f_lineno


def value_dependent(what, advice):
    """Called when captured code needs the value of a symbolic tensor.

    STRICT / COMPATIBLE: raises GraphSyntaxError naming file:line and the
    statement. LAX: JIT Fallback (_fallback.py): the graph captured so far
    runs, every live symbolic tensor gets its value, and this returns; the
    caller reads the value and the statement runs in Python. Where that is
    impossible (inside a tensor-conditioned branch or loop, or inside a
    function being differentiated) it is an error naming the statement.
    """
    graph = STATE.graph
    filename, line = user_location()
    source = linecache.getline(filename, line).strip() if line else ""
    where = f"{filename}:{line}"
    statement = f" `{source}`" if source else ""
    if graph is None:
        # Not being captured: the tensor is a value of a graph captured
        # earlier, kept past its capture (in a list, a global, ...).
        raise MSError(
            f"{where}: the statement{statement} {what}, but the tensor is "
            "a symbolic value of a graph captured earlier and has no value "
            "outside it. Return it from the jitted function (or the Cell's "
            "construct) instead of keeping it.")
    if graph.syntax_level != "LAX":
        level = graph.syntax_level
        raise GraphSyntaxError(
            f"{where}: in graph mode (jit_syntax_level={level}), the "
            f"statement{statement} {what}, but a tensor has no value while "
            f"the graph is captured. {advice} Or use "
            "JitConfig(jit_syntax_level='LAX') to run such a statement in "
            "Python (JIT Fallback), or run this code in PyNative mode.")
    if graph.fallback is None or graph.regions:
        inside = ("a tensor-conditioned if/while/for"
                  if graph.fallback is not None else
                  "a function that is being differentiated")
        raise GraphSyntaxError(
            f"{where}: in graph mode (jit_syntax_level=LAX), the "
            f"statement{statement} {what}. JIT Fallback runs such a "
            "statement in Python between two compiled graphs, but not "
            f"inside {inside}, which compiles as a whole. {advice}")
    graph.fallback(where, statement, what)


def concrete(tensor):
    """The value of a Tensor after value_dependent returned (JIT Fallback
    ran the graph so far): a HostTensor."""
    t = tensor._t
    if t.__class__ is Sym:
        value = t.graph.carried.get(id(t)) if t.graph.carried else None
        if value is None:
            raise MSError(f"internal error: JIT Fallback left {t.name} "
                          "without a value")
        return value
    return t


class Region:
    """The ops of one region of an scf op while it is captured. Constants
    made inside stay inside (values defined in a region are not visible
    after it)."""

    def __init__(self, graph, arg_types=()):
        self.graph = graph
        self.lines = []
        self.consts = None
        self.args = [Sym(graph._fresh("a"), dtype, shape, graph)
                     for dtype, shape in arg_types]
        for arg in self.args:
            arg.region = self
        self._saved = []

    def __enter__(self):
        g = self.graph
        g.regions.append(self)
        self._saved.append((g.body, g._const_index))
        if self.consts is None:
            self.consts = dict(g._const_index)
        g.body, g._const_index = self.lines, self.consts
        return self

    def __exit__(self, *exc):
        g = self.graph
        g.body, g._const_index = self._saved.pop()
        g.regions.pop()
        return False


def value_dependent_scope():
    """A tensor computed inside a branch or loop body of tensor-dependent
    control flow was used after it other than through a variable."""
    filename, line = user_location()
    source = linecache.getline(filename, line).strip() if line else ""
    statement = f" `{source}`" if source else ""
    raise GraphSyntaxError(
        f"{filename}:{line}: in graph mode, the statement{statement} uses a "
        "tensor computed inside a branch or loop body of a tensor-"
        "conditioned if/while/for outside of it (kept in an attribute, a "
        "list or a closure). Only the variables a branch or loop body "
        "assigns leave it: assign the tensor to a variable in every "
        "branch instead.")


class Graph:
    """The function being captured, as MLIR text under construction."""

    def __init__(self, name, syntax_level):
        self.name = name
        self.syntax_level = syntax_level
        self.body = []
        self.inputs = []         # Sym per input tensor, in order
        self.params = []         # (Parameter, Sym)
        # The plain Tensor attributes of the Cells being captured: while
        # the function runs they hold arguments of the graph,
        # [(slot, Sym, their value before capture)] (_tensor.AttributeSlot),
        # read at each call; and (id(owner), name) -> [slot, value before
        # capture, the Tensor assigned] for those the function assigns
        # (extra results, which the attributes hold after each call).
        self.attributes = []
        self.attribute_writes = {}
        self._attributes_before = []  # (slot, value), every segment's
        self.attribute_cells = set()  # ids of the Cells already read
        # The graph this one is nested in (a function differentiated inside
        # it), or None.
        self.parent = None
        self.captures = []       # (HostTensor, Sym): large constants
        self._param_index = {}   # id(Parameter) -> Sym
        self._const_index = {}   # id(Tensor) -> Sym
        self._keep = []          # keeps ids stable while capturing
        self._counter = 0
        self.cell_paths = []     # Cell path stack while capturing
        self.op_count = 0
        # ops.assign(param, value) inside the capture: Parameter -> the Sym
        # it holds after the call (an extra graph result; see _jit.py).
        self.assigns = {}
        # Functions this graph calls, linked in by C++ when the graph is
        # written out (runtime/FunctionLinking.h): (module text, function,
        # symbol), and the symbols' private declarations.
        self.callees = []
        self.declarations = []
        # Whether the graph has scf.if / scf.while (see _control_flow.py).
        self.control_flow = False
        # The scf regions being captured, innermost last.
        self.regions = []
        # JIT Fallback (LAX, _fallback.py): the callable that runs the
        # graph so far when a statement needs a value; the segments run so
        # far; weak references to the op results of this segment.
        self.fallback = None
        self.segment = 0
        self.made = None
        self.inline_constants = True
        self.top_body = self.body
        # id(input Sym) -> its HostTensor, while JIT Fallback is possible:
        # the call's inputs, then the values an earlier segment computed.
        self.carried = None

    def new_segment(self):
        """Starts the graph again after a JIT Fallback: what came before
        has run, and its values are concrete tensors now. They become
        arguments, never inline constants, so that the next segment's text
        is the same on every call."""
        self.segment += 1
        self.carried = {}
        self.body = self.top_body = []
        self.inputs = []
        self.params = []
        self.attributes = []
        self.captures = []
        self._param_index = {}
        self._const_index = {}
        self._keep = []
        self.assigns = {}
        self.callees = []
        self.declarations = []
        self.made = []
        self.inline_constants = False
        self.control_flow = False

    def track(self, sym):
        """Remembers an op result while JIT Fallback may need its value."""
        if self.made is not None:
            self.made.append(weakref.ref(sym))
        return sym

    # -- values ------------------------------------------------------------
    def _fresh(self, prefix):
        self._counter += 1
        return f"%{prefix}{self._counter}"

    def add_input(self, dtype, shape):
        sym = Sym(self._fresh("x"), dtype, shape, self)
        self.inputs.append(sym)
        return sym

    def value_of(self, tensor, param_class):
        """The Sym standing for an operand: itself if symbolic, a parameter
        argument for a Parameter, a constant otherwise."""
        t = tensor._t
        if t.__class__ is Sym:
            if t.graph is not self or t.segment != self.segment:
                raise MSError("a symbolic tensor from another graph capture "
                              "was used here; tensors created while a "
                              "function is jitted cannot outlive it")
            if t.region is not None and t.region not in self.regions:
                value_dependent_scope()
            return t
        if isinstance(tensor, param_class):
            sym = self._param_index.get(id(tensor))
            if sym is None:
                sym = Sym(self._fresh("p"), t.dtype, t.shape, self)
                self._param_index[id(tensor)] = sym
                self.params.append((tensor, sym))
                self._keep.append(tensor)
            return sym
        sym = self._const_index.get(id(tensor))
        if sym is not None:
            return sym
        self._keep.append(tensor)
        if self.inline_constants and t.size <= _INLINE_CONSTANT_LIMIT:
            sym = Sym(self._fresh("c"), t.dtype, t.shape, self)
            if t.dtype == _BOOL:
                # i1 attributes are bit-packed, so not hex: a nested list.
                literal = _bool_literal(memoryview(t).tolist())
            else:
                raw = bytes(memoryview(t).cast("B")) if t.size else b""
                literal = '"0x' + raw.hex().upper() + '"'
            self.body.append(
                f'    {sym.name} = "arith.constant"() {{value = '
                f'dense<{literal}> : {sym.mlir_type}}} : () -> '
                f"{sym.mlir_type}")
        else:
            sym = Sym(self._fresh("k"), t.dtype, t.shape, self)
            self.captures.append((t, sym))
        self._const_index[id(tensor)] = sym
        return sym

    def root(self):
        """The outermost graph being captured with this one."""
        graph = self
        while graph.parent is not None:
            graph = graph.parent
        return graph

    def read_attributes(self, slots, wrap):
        """Makes each Tensor attribute in `slots` hold a new argument of
        the graph while the function is captured (`wrap` makes the Tensor
        around its Sym), so that ops on it are recorded, never folded: the
        graph reads the attribute's value at each call."""
        for slot in slots:
            before = slot.owner.__dict__[slot.name]
            t = before._t
            sym = Sym(self._fresh("t"), t.dtype, t.shape, self)
            self.attributes.append((slot, sym, before))
            self._attributes_before.append((slot, before))
            slot.owner.__dict__[slot.name] = wrap(sym)

    def write_attribute(self, slot, before, value):
        """`slot.owner.<slot.name> = value` (a Tensor of this graph) while
        capturing: the graph returns value's Sym as an extra result, which
        the attribute holds after each call. `before` is the attribute's
        value now."""
        key = (id(slot.owner), slot.name)
        write = self.attribute_writes.get(key)
        if write is None:
            for read, original in self._attributes_before:
                if read.owner is slot.owner and read.name == slot.name:
                    before = original
            self.attribute_writes[key] = [slot, before, value]
        else:
            write[2] = value

    def attribute_results(self):
        """The Syms the assigned attributes hold, in result order."""
        return [value._t for _, _, value in self.attribute_writes.values()]

    def restore_attributes(self):
        """After the capture, every attribute it read or assigned holds its
        value from before the capture again."""
        for slot, before in self._attributes_before:
            slot.restore(before)
        for slot, before, _ in self.attribute_writes.values():
            slot.restore(before)

    def assign(self, param, sym):
        """ops.assign(param, value) while capturing: the graph returns `sym`
        as an extra result bound to `param`, and later reads of `param` in
        this graph see `sym`."""
        self.assigns[id(param)] = (param, sym)
        self._param_index[id(param)] = sym
        self._keep.append(param)

    # -- ops ---------------------------------------------------------------
    def location(self):
        filename, line = user_location()
        loc = f"{_quote(filename)}:{line}:0"
        path = self.cell_paths[-1] if self.cell_paths else ""
        if path:
            loc = f"{_quote(path)}({loc})"
        return f"loc({loc})"

    def add_op(self, call, operands, result_spec=None):
        """Appends `call` applied to `operands` (Syms); returns its result.
        `result_spec` is (dtype, shape) when the caller already knows it
        (the PyNative tape records ops it has run); otherwise the op's own
        shape inference gives it."""
        if result_spec is None:
            specs = [(s.dtype, s.shape) for s in operands]
            (dtype, shape, _), = executor("O0").infer(call, specs)
        else:
            dtype, shape = result_spec
        result = Sym(self._fresh("v"), dtype, shape, self)
        if self.made is not None:
            self.made.append(weakref.ref(result))
        args = ", ".join(s.name for s in operands)
        types = ", ".join(s.mlir_type for s in operands)
        attrs = f" {call.attributes}" if call.attributes else ""
        self.body.append(
            f'    {result.name} = "{call.name}"({args}){attrs} : ({types}) '
            f"-> {result.mlir_type} {self.location()}")
        self.op_count += 1
        return result

    def call(self, module, function, args, like):
        """A call of `function` of the module text `module` on the Syms
        `args`, with results typed like the Syms `like`; returns them. The
        function's body replaces the call when the graph is written out."""
        symbol = f"__ms_linked_{next(_link_counter)}"
        arg_types = ", ".join(s.mlir_type for s in args)
        result_types = ", ".join(s.mlir_type for s in like)
        self.declarations.append(f"func.func private @{symbol}({arg_types}) "
                                 f"-> ({result_types})")
        self.callees.append((module, function, symbol))
        results, lhs = self._results(like)
        names = ", ".join(s.name for s in args)
        self.body.append(f'    {lhs}"func.call"({names}) {{callee = @{symbol}}}'
                         f" : ({arg_types}) -> ({result_types}) "
                         f"{self.location()}")
        self.op_count += 1
        return results

    # -- control flow (see _control_flow.py) -------------------------------
    def region(self, arg_types=()):
        """A region under construction; ops go into it while it is
        entered (`with`), and it can be entered again."""
        return Region(self, arg_types)

    def extract_element(self, sym):
        """The i1 in a one-element bool tensor (a branch condition)."""
        name = self._fresh("b")
        indices = ""
        if sym.shape:
            zero = self._fresh("i")
            self.body.append(f'    {zero} = "arith.constant"() {{value = 0 '
                             f': index}} : () -> index')
            indices = "".join(f", {zero}" for _ in sym.shape)
        index_types = "".join(", index" for _ in sym.shape)
        self.body.append(
            f'    {name} = "tensor.extract"({sym.name}{indices}) : '
            f"({sym.mlir_type}{index_types}) -> i1 {self.location()}")
        return name

    def _results(self, like):
        """Result Syms named after one fresh value (`%r3` or `%r3#i`) and
        the assignment text before the op."""
        name = self._fresh("r")
        n = len(like)
        results = [self.track(Sym(name if n == 1 else f"{name}#{i}",
                                  s.dtype, s.shape, self))
                   for i, s in enumerate(like)]
        lhs = "" if n == 0 else (f"{name} = " if n == 1 else
                                 f"{name}:{n} = ")
        return results, lhs

    @staticmethod
    def _terminator(op, syms, leading=(), leading_types=()):
        names = ", ".join(list(leading) + [s.name for s in syms])
        types = ", ".join(list(leading_types) + [s.mlir_type for s in syms])
        return f'      "{op}"({names}) : ({types}) -> ()'

    def emit_if(self, cond, then_region, then_yields, else_region,
                else_yields):
        """scf.if on the i1 `cond`; returns its result Syms."""
        self.control_flow = True
        results, lhs = self._results(then_yields)
        types = ", ".join(s.mlir_type for s in then_yields)
        self.body.append(f'    {lhs}"scf.if"({cond}) ({{')
        self.body.extend(then_region.lines)
        self.body.append(self._terminator("scf.yield", then_yields))
        self.body.append("    }, {")
        self.body.extend(else_region.lines)
        self.body.append(self._terminator("scf.yield", else_yields))
        self.body.append(f"    }}) : (i1) -> ({types}) {self.location()}")
        return results

    def emit_while(self, inits, before, cond, passed, after, yields):
        """scf.while from `inits`: `before` computes the i1 `cond` and
        passes `passed` on, `after` (the body) yields `yields`."""
        self.control_flow = True
        results, lhs = self._results(inits)
        types = ", ".join(s.mlir_type for s in inits)

        def block(region):
            args = ", ".join(f"{a.name}: {a.mlir_type}" for a in region.args)
            return f"  ^bb0({args}):" if args else "  ^bb0:"
        self.body.append(f'    {lhs}"scf.while"('
                         f'{", ".join(s.name for s in inits)}) ({{')
        self.body.append(block(before))
        self.body.extend(before.lines)
        self.body.append(self._terminator("scf.condition", passed, [cond],
                                          ["i1"]))
        self.body.append("    }, {")
        self.body.append(block(after))
        self.body.extend(after.lines)
        self.body.append(self._terminator("scf.yield", yields))
        self.body.append(f"    }}) : ({types}) -> ({types}) "
                         f"{self.location()}")
        return results

    # -- the function ------------------------------------------------------
    def arguments(self):
        """Graph arguments in order: inputs, parameters, Tensor attributes,
        captured constants."""
        return ([s for s in self.inputs] + [s for _, s in self.params] +
                [s for _, s, _ in self.attributes] +
                [s for _, s in self.captures])

    def source(self, results, entry="construct"):
        args = []
        for sym in self.inputs:
            args.append(f"{sym.name}: {sym.mlir_type}")
        for param, sym in self.params:
            args.append(f"{sym.name}: {sym.mlir_type} "
                        f"{{ms.param = {_quote(param.name)}}}")
        for sym in [s for _, s, _ in self.attributes] + \
                [s for _, s in self.captures]:
            args.append(f"{sym.name}: {sym.mlir_type}")
        result_types = ", ".join(s.mlir_type for s in results)
        lines = [f"// Captured from {self.name} by msmlir.jit",
                 f"func.func @{entry}(" + ",\n    ".join(args) +
                 f") -> ({result_types}) {{"]
        lines.extend(self.body)
        if results:
            lines.append("    func.return " +
                         ", ".join(s.name for s in results) + " : " +
                         result_types)
        else:
            lines.append("    func.return")
        lines.append("}")
        lines.extend(self.declarations)
        text = "\n".join(lines) + "\n"
        if self.callees:
            text = native.link_functions(text, self.callees)
        return text
