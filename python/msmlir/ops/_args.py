"""Argument checks and attribute text shared by the op families: axes,
ints, pairs, numbers, operand promotion, and the MLIR attribute syntax of
integer arrays and f32 values."""

import numbers

import numpy as np

from .. import dtype as mstype
from .._tensor import Tensor, as_dtype, check_int_fits, scalar_tensor


def _i64_array(values):
    if not values:
        return "array<i64>"
    values = [int(v) for v in values]
    for v in values:
        check_int_fits(v, mstype.int64)  # attributes are i64
    return "array<i64: " + ", ".join(str(v) for v in values) + ">"


def _f32(value):
    return format(float(np.float32(value)), ".9e") + " : f32"


def _axis(axis, ndim, what):
    if isinstance(axis, Tensor):
        axis = int(axis)
    if not isinstance(axis, numbers.Integral):
        raise TypeError(f"{what}: axis must be an int, got "
                        f"{type(axis).__name__}")
    axis = int(axis)
    if not -max(ndim, 1) <= axis < max(ndim, 1):
        raise ValueError(f"{what}: axis {axis} is out of range for a "
                         f"rank-{ndim} tensor")
    return axis + ndim if axis < 0 else axis


def _axes(axis, ndim, what):
    """Normalized, sorted reduction axes; () or None means all."""
    if axis is None:
        axis = ()
    if isinstance(axis, (numbers.Integral, Tensor)):
        axis = (axis,)
    axes = sorted({_axis(a, ndim, what) for a in axis})
    if not axes:
        axes = list(range(ndim))
    return tuple(axes)


def _instance(value, kind, name, what):
    """`value` if it is a `kind` (a class, say Tensor or bool); else a
    TypeError that names the argument and the op."""
    if not isinstance(value, kind):
        raise TypeError(f"{what}: {name} must be a {kind.__name__}, got "
                        f"{type(value).__name__}")
    return value


def _tensor(x, what):
    if isinstance(x, Tensor):
        return x
    if isinstance(x, (numbers.Number, list, tuple)):
        return Tensor(x)
    raise TypeError(f"{what}: expected a Tensor, got {type(x).__name__}")


def _as_tensor(x, like, what):
    """`x` as a Tensor (for the logical ops: a number alone takes its own
    dtype)."""
    if isinstance(x, Tensor):
        return x
    if isinstance(x, (numbers.Number, list, tuple, np.ndarray, np.generic)):
        return Tensor(x)
    raise TypeError(f"{what}: expected a Tensor or a number, got "
                    f"{type(x).__name__}")


def _promoted(what, *values):
    """The operands (Tensors, numbers, arrays) as Tensors of the dtype they
    promote to (msmlir.dtype.result_type), with ms.cast where a tensor
    changes dtype."""
    values = [Tensor(v) if isinstance(v, (list, tuple, np.ndarray)) else v
              for v in values]
    kinds = []
    for v in values:
        if isinstance(v, Tensor):
            kinds.append(v.dtype)
        elif mstype.scalar_category(v) is not None:
            kinds.append(v)
        else:
            raise TypeError(f"{what}: expected a Tensor or a number, got "
                            f"{type(v).__name__}")
    target = mstype.result_type(*kinds)
    return [as_dtype(v, target) if isinstance(v, Tensor) else
            scalar_tensor(v, target) for v in values]


def _int(value, name, what):
    if isinstance(value, Tensor):
        value = int(value)
    if not isinstance(value, numbers.Integral) or isinstance(value, bool):
        raise TypeError(f"{what}: {name} must be an int, got "
                        f"{type(value).__name__}")
    return int(value)


def _number(value, name, what):
    if isinstance(value, Tensor):
        value = value.item()
    if not isinstance(value, numbers.Real):
        raise TypeError(f"{what}: {name} must be a number, got "
                        f"{type(value).__name__}")
    return float(value)


def _positive_pair(value, name, what):
    """An int or a tuple of 2 positive ints as (h, w)."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        pair = (int(value), int(value))
    elif (isinstance(value, (tuple, list)) and len(value) == 2 and
          all(isinstance(v, numbers.Integral) and not isinstance(v, bool)
              for v in value)):
        pair = (int(value[0]), int(value[1]))
    else:
        raise ValueError(f"{what}: {name} must be an int or a tuple of 2 "
                         f"ints, got {value!r}")
    if pair[0] <= 0 or pair[1] <= 0:
        raise ValueError(f"{what}: {name} must be positive, got {value!r}")
    return pair


def _pad_mode(pad_mode, allowed, what):
    if not isinstance(pad_mode, str) or pad_mode.lower() not in allowed:
        raise ValueError(f"{what}: pad_mode must be one of "
                         f"{', '.join(repr(m) for m in allowed)}, got "
                         f"{pad_mode!r}")
    return pad_mode.lower()


def _real_arg(value, name, what):
    if not isinstance(value, numbers.Real) or isinstance(value, bool):
        raise TypeError(f"{what}: {name} must be a number, got "
                        f"{type(value).__name__}")
    return float(value)
