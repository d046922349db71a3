"""What each jit_syntax_level accepts at a graph's boundary.

MindSpore's levels (set_context / JitConfig jit_syntax_level):

- STRICT: the basic syntax only. A graph's arguments and results are
  Tensors, Python scalars (int, float, bool), strings, None and tuples of
  them; Cells, functions and ``@jit_class`` instances may be passed too.
  A list or dict, or any other Python object, is an error naming the
  argument (or result) and the function's file:line, saying what to change.
- COMPATIBLE: adds lists and dicts (their in-place operations run while the
  function is captured).
- LAX (the default): adds any Python object (a constant of the graph, by
  identity), and JIT Fallback for statements that need a tensor's value
  (_fallback.py).

``ms.mutable`` containers are graph inputs at every level. The checks run
when a graph is captured, never on the calls that reuse it.
"""

import inspect
import numbers
import types

import numpy as np

from . import dtype as mstype
from ._runtime import GraphSyntaxError
from ._tensor import Tensor

__all__ = ["check_arguments", "check_result"]

_SCALARS = (numbers.Number, np.generic, str, bytes, type(None),
            type(Ellipsis), slice, mstype.Type, np.ndarray)
_CALLABLES = (types.FunctionType, types.BuiltinFunctionType,
              types.MethodType, types.ModuleType, type)


def _basic(value):
    return (isinstance(value, (Tensor,) + _SCALARS + _CALLABLES) or
            getattr(type(value), "__ms_cell__", False) or
            getattr(type(value), "__ms_class__", False) or
            getattr(type(value), "__ms_mutable__", False))


def _items(container):
    return (container.items() if isinstance(container, dict) else
            enumerate(container))


def _offence(value, level, path):
    """(path, what, advice) of the first value `level` does not accept."""
    mutable = getattr(type(value), "__ms_mutable__", False)
    if isinstance(value, (list, dict)) and not mutable and level == "STRICT":
        kind = type(value).__name__
        return (path, f"a {kind}",
                f"Pass a tuple{'' if kind == 'list' else ' of values'}, "
                "mark it with ms.mutable(...), or use "
                "jit_syntax_level='COMPATIBLE' or 'LAX'.")
    if isinstance(value, (tuple, list, dict)):
        for key, item in _items(value):
            found = _offence(item, level, f"{path}[{key!r}]")
            if found:
                return found
        return None
    if _basic(value):
        return None
    return (path, f"a {type(value).__name__} object",
            "Decorate its class with @ms.jit_class, pass its Tensors and "
            "numbers instead, or use jit_syntax_level='LAX'.")


def _where(fn):
    fn = getattr(fn, "__func__", fn)
    code = getattr(fn, "__code__", None)
    if code is None:
        return "<unknown>"
    try:
        filename = inspect.getsourcefile(fn) or code.co_filename
    except TypeError:
        filename = code.co_filename
    return f"{filename}:{code.co_firstlineno}"


def _raise(fn, name, level, path, what, advice):
    raise GraphSyntaxError(
        f"{_where(fn)}: in graph mode (jit_syntax_level={level}), {path} of "
        f"{name} is {what}, which this level does not accept. {advice}")


def check_arguments(fn, name, level, args, kwargs):
    """Raises GraphSyntaxError for an argument `level` does not accept."""
    if level == "LAX":
        return
    for i, value in enumerate(args):
        found = _offence(value, level, f"argument {i}")
        if found:
            _raise(fn, name, level, *found)
    for key, value in kwargs.items():
        found = _offence(value, level, f"argument {key!r}")
        if found:
            _raise(fn, name, level, *found)


def check_result(fn, name, level, out):
    """Raises GraphSyntaxError for a result `level` does not accept."""
    if level == "LAX":
        return
    found = _offence(out, level, "the result")
    if found:
        _raise(fn, name, level, *found)
