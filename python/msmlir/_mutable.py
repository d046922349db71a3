"""ms.mutable and ms.jit_class (MindSpore's names and meaning).

A jitted function's arguments that are not Tensors are constants of its
graph: each new value compiles a new graph. ``mutable(value)`` marks a
scalar, or the scalars inside a tuple, list or dict, as variables instead:
each becomes an input of the graph (a 0-d Tensor while the function is
captured: float32 for floats, int64 for ints, bool for bools), so a new
value reuses the compiled graph. Like MindSpore, it takes effect in graph
capture only: in PyNative the marked values are the plain values.

``@jit_class`` lets instances of a plain class be used in graph capture:
passed as arguments, their attributes are read and their methods called on
the graph's values. A Tensor attribute is an input of the graph (a new
Tensor of the same type reuses it); any other attribute is a constant (a
new value compiles a new graph).
"""

import numbers

from . import dtype as mstype
from ._tensor import Tensor


__all__ = ["mutable", "jit_class"]


class _MutableInt(int):
    __slots__ = ()
    __ms_mutable__ = True


class _MutableFloat(float):
    __slots__ = ()
    __ms_mutable__ = True


class _MutableBool(int):
    """A mutable bool (bool cannot be subclassed): 0 or 1 that prints and
    compares as False or True."""
    __slots__ = ()
    __ms_mutable__ = True

    def __repr__(self):
        return "True" if self else "False"

    __str__ = __repr__


class _MutableTuple(tuple):
    __slots__ = ()
    __ms_mutable__ = True


class _MutableList(list):
    __ms_mutable__ = True


class _MutableDict(dict):
    __ms_mutable__ = True


def is_mutable(obj):
    """Whether `obj` was made by mutable()."""
    return getattr(obj.__class__, "__ms_mutable__", False)


def is_mutable_scalar(obj):
    return obj.__class__ in (_MutableInt, _MutableFloat, _MutableBool)


def _is_tensor(obj):
    return isinstance(obj, Tensor)


def _mark(value, where):
    if _is_tensor(value):
        return value  # already a variable
    if isinstance(value, bool):
        return _MutableBool(value)
    if isinstance(value, numbers.Integral):
        return _MutableInt(value)
    if isinstance(value, numbers.Real):
        return _MutableFloat(value)
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        return _MutableTuple(_mark(v, where) for v in value)
    if isinstance(value, list):
        return _MutableList(_mark(v, where) for v in value)
    if isinstance(value, dict):
        return _MutableDict((k, _mark(v, where)) for k, v in value.items())
    raise TypeError(f"mutable: {where} must be a Tensor, a scalar (int, "
                    "float, bool), or a tuple, list or dict of them, got "
                    f"{type(value).__name__} {value!r}")


def _signature(value):
    """What must agree between the elements of a dynamic-length sequence."""
    if _is_tensor(value):
        return ("Tensor", tuple(value.shape), str(value.dtype))
    if isinstance(value, (tuple, list)):
        return (type(value).__name__, tuple(_signature(v) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple((k, _signature(v)) for k, v in value.items()))
    return (type(value).__name__,)


def mutable(input_data, dynamic_len=False):
    """Marks `input_data` (a Tensor, scalar, or tuple/list/dict of them,
    nested) as a variable input of a jitted function: changing its value
    does not compile a new graph. With dynamic_len=True the elements of a
    tuple or list must agree in type and shape; as in MindSpore, a new
    length still compiles a new graph (dynamic length is not supported)."""
    if not isinstance(dynamic_len, bool):
        raise TypeError(f"mutable: dynamic_len must be a bool, got "
                        f"{dynamic_len!r}")
    if dynamic_len:
        if not isinstance(input_data, (tuple, list)):
            raise TypeError("mutable: dynamic_len=True needs a tuple or "
                            f"list, got {type(input_data).__name__}")
        signatures = {_signature(v) for v in input_data}
        if len(signatures) > 1:
            raise ValueError("mutable: with dynamic_len=True every element "
                             "must have the same type and shape, got "
                             f"{sorted(map(str, signatures))}")
    return _mark(input_data, "input_data")


def scalar_tensor(value):
    """The graph input standing for a mutable scalar: MindSpore's dtypes
    for Python scalars."""
    if value.__class__ is _MutableBool:
        return Tensor(bool(value), mstype.bool_)
    if value.__class__ is _MutableInt:
        return Tensor(int(value), mstype.int64)
    return Tensor(float(value), mstype.float32)


def jit_class(cls):
    """Class decorator: instances of `cls` may be used in graph capture
    (passed to jitted functions and Cells; attributes read, methods
    called). `cls` must be a plain class, not an nn.Cell."""
    if not isinstance(cls, type):
        raise TypeError(f"jit_class: expected a class, got "
                        f"{type(cls).__name__} {cls!r}")
    if getattr(cls, "__ms_cell__", False):
        raise TypeError(f"jit_class: {cls.__name__} is an nn.Cell; Cells "
                        "are graph-capable already and need no jit_class")
    if not hasattr(cls, "__dict__") or "__slots__" in vars(cls):
        raise TypeError(f"jit_class: {cls.__name__} uses __slots__; "
                        "jit_class needs instances with a __dict__")
    cls.__ms_class__ = True
    return cls


def is_jit_class_instance(obj):
    return (getattr(type(obj), "__ms_class__", False) and
            not isinstance(obj, type))


def capture_copy(obj, substitute):
    """A shallow copy of a jit_class instance whose attributes went
    through `substitute` (Tensors replaced by the graph's values), so that
    its methods compute on the graph during capture."""
    copy = object.__new__(type(obj))
    for name, value in vars(obj).items():
        object.__setattr__(copy, name, substitute(value))
    return copy

