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

import linecache
import os
import sys

from . import dtype as mstype
from ._runtime import STATE, MSError, GraphSyntaxError, HostTensor, executor

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
# Concrete tensors up to this many elements are inlined as arith.constant.
_INLINE_CONSTANT_LIMIT = 256


class Sym:
    """A symbolic tensor: an SSA value of the graph being captured."""

    __slots__ = ("name", "dtype", "shape", "graph", "mlir_type")

    def __init__(self, name, dtype, shape, graph):
        self.name = name
        self.dtype = dtype          # native dtype code
        self.shape = tuple(shape)
        self.graph = graph
        self.mlir_type = tensor_type(dtype, self.shape)

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


class GraphBreak(BaseException):
    """Raised inside capture when the code needs a tensor's value (LAX:
    the jit wrapper catches it and runs the call in PyNative mode). A
    BaseException so that user code's ``except Exception`` cannot swallow
    it."""

    def __init__(self, message, where):
        super().__init__(message)
        self.message = message
        self.where = where


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
    statement. LAX: raises GraphBreak, and the call falls back to PyNative.
    """
    graph = STATE.graph
    filename, line = user_location()
    source = linecache.getline(filename, line).strip() if line else ""
    where = f"{filename}:{line}"
    statement = f" `{source}`" if source else ""
    if graph is None or graph.syntax_level != "LAX":
        level = graph.syntax_level if graph is not None else "STRICT"
        raise GraphSyntaxError(
            f"{where}: in graph mode (jit_syntax_level={level}), the "
            f"statement{statement} {what}, but a tensor has no value while "
            f"the graph is captured. {advice} Or use "
            "JitConfig(jit_syntax_level='LAX') to run such calls in "
            "PyNative mode, or run this code in PyNative mode.")
    raise GraphBreak(f"{where}: the statement{statement} {what}", where)


class Graph:
    """The function being captured, as MLIR text under construction."""

    def __init__(self, name, syntax_level):
        self.name = name
        self.syntax_level = syntax_level
        self.body = []
        self.inputs = []         # Sym per input tensor, in order
        self.params = []         # (Parameter, Sym)
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
        # Top-level lines (attribute aliases) that inlined functions need.
        self.preamble = []

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
            if t.graph is not self:
                raise MSError("a symbolic tensor from another graph capture "
                              "was used here; tensors created while a "
                              "function is jitted cannot outlive it")
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
        if t.size <= _INLINE_CONSTANT_LIMIT:
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
        args = ", ".join(s.name for s in operands)
        types = ", ".join(s.mlir_type for s in operands)
        attrs = f" {call.attributes}" if call.attributes else ""
        self.body.append(
            f'    {result.name} = "{call.name}"({args}){attrs} : ({types}) '
            f"-> {result.mlir_type} {self.location()}")
        self.op_count += 1
        return result

    # -- the function ------------------------------------------------------
    def arguments(self):
        """Graph arguments in order: inputs, parameters, captured constants."""
        return ([s for s in self.inputs] + [s for _, s in self.params] +
                [s for _, s in self.captures])

    def source(self, results, entry="construct"):
        args = []
        for sym in self.inputs:
            args.append(f"{sym.name}: {sym.mlir_type}")
        for param, sym in self.params:
            args.append(f"{sym.name}: {sym.mlir_type} "
                        f"{{ms.param = {_quote(param.name)}}}")
        for _, sym in self.captures:
            args.append(f"{sym.name}: {sym.mlir_type}")
        result_types = ", ".join(s.mlir_type for s in results)
        lines = list(self.preamble)
        lines += [f"// Captured from {self.name} by msmlir.jit",
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
        return "\n".join(lines) + "\n"
