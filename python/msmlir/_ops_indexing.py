"""Comparisons, logic, where/select, cast, one_hot, argmax/argmin and
training-mode dropout and batch norm (part of ``mindspore.ops``).

Every function here is one ``ms`` op or a composition of them, so graph mode
captures it. Operands of different dtypes are promoted first, with ms.cast,
by msmlir.dtype.result_type (MindSpore's rule).
"""

import numbers

import numpy as np

from . import dtype as mstype
from ._tensor import (Tensor, binary, unary, nary, op, as_dtype,
                      scalar_tensor)

_COMPARE = {name: op("ms." + name, "", "ops." + name)
            for name in ("equal", "not_equal", "greater", "greater_equal",
                         "less", "less_equal")}
_AND = op("ms.logical_and", "", "ops.logical_and")
_OR = op("ms.logical_or", "", "ops.logical_or")
_NOT = op("ms.logical_not", "", "ops.logical_not")
_SELECT = op("ms.select", "", "ops.select")

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


def _compare(name, input, other):
    a, b = _promoted("ops." + name, input, other)
    return binary(_COMPARE[name], a, b)


def equal(input, other):
    """input == other elementwise (numpy broadcasting); a bool Tensor."""
    return _compare("equal", input, other)


def not_equal(input, other):
    return _compare("not_equal", input, other)


def greater(input, other):
    return _compare("greater", input, other)


def greater_equal(input, other):
    return _compare("greater_equal", input, other)


def less(input, other):
    return _compare("less", input, other)


def less_equal(input, other):
    return _compare("less_equal", input, other)


eq, ne, gt, ge, lt, le = (equal, not_equal, greater, greater_equal, less,
                          less_equal)


def _as_bool(x, what):
    x = _as_tensor(x, None, what)
    return x if x.dtype is mstype.bool_ else cast(x, mstype.bool_)


def logical_and(input, other):
    """Elementwise and; non-bool operands count as `x != 0`."""
    return binary(_AND, _as_bool(input, "ops.logical_and"),
                  _as_bool(other, "ops.logical_and"))


def logical_or(input, other):
    return binary(_OR, _as_bool(input, "ops.logical_or"),
                  _as_bool(other, "ops.logical_or"))


def logical_not(input):
    return unary(_NOT, _as_bool(input, "ops.logical_not"))


def where(condition, input, other):
    """ops.where: `input` where `condition` is true, else `other`; the
    three broadcast like numpy and the values are promoted to one dtype."""
    cond = _as_bool(condition, "ops.where")
    x, y = _promoted("ops.where", input, other)
    return nary(_SELECT, (cond, x, y))


def select(cond, x, y):
    """ops.select(cond, x, y): the same as ops.where."""
    return where(cond, x, y)


def cast(input, dtype):
    """ops.cast: `input` converted to `dtype` (float to int truncates
    toward zero; to bool is x != 0)."""
    dt = mstype.to_dtype(dtype)
    if not isinstance(input, Tensor):
        return Tensor(input, dt)
    if dt is input.dtype:
        return input
    return unary(op("ms.cast", "{to = " + dt.mlir + "}", "ops.cast"), input)


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


def _f32(value):
    return format(float(np.float32(value)), ".9e") + " : f32"


def one_hot(indices, depth, on_value=1, off_value=0, axis=-1):
    """ops.one_hot: float32 with a new dimension of size `depth` at `axis`;
    on_value at each index, off_value elsewhere (an index outside
    [0, depth) gives a row of off_value)."""
    what = "ops.one_hot"
    if not isinstance(indices, Tensor):
        indices = Tensor(indices)
    if indices.dtype not in (mstype.int32, mstype.int64):
        raise TypeError(f"{what}: indices must be int32 or int64, got "
                        f"{indices.dtype}")
    depth = _int(depth, "depth", what)
    axis = _int(axis, "axis", what)
    if depth < 0:
        raise ValueError(f"{what}: depth must be >= 0, got {depth}")
    if not -1 <= axis <= indices.ndim:
        raise ValueError(f"{what}: axis {axis} is out of range for "
                         f"{indices.ndim}-d indices (expected -1 to "
                         f"{indices.ndim})")
    attrs = (f"{{depth = {depth} : i64, axis = {axis} : i64, on_value = "
             f"{_f32(_number(on_value, 'on_value', what))}, off_value = "
             f"{_f32(_number(off_value, 'off_value', what))}}}")
    return unary(op("ms.one_hot", attrs, what), indices)


def _arg_reduce(name, input, axis, keepdims, index_type):
    what = "ops." + name
    if not isinstance(input, Tensor):
        input = Tensor(input)
    if input.dtype is mstype.bool_:
        input = cast(input, mstype.int32)
    if axis is None:
        # Over every element, as one flat axis (keepdims is ignored).
        flat = input.reshape((-1,)) if input.ndim != 1 else input
        attrs = f"{{axis = 0 : i64, output_type = {index_type}}}"
        return unary(op("ms." + name, attrs, what), flat)
    axis = _int(axis, "axis", what)
    nd = input.ndim
    if not -max(nd, 1) <= axis < max(nd, 1):
        raise ValueError(f"{what}: axis {axis} is out of range for a "
                         f"{nd}-d tensor")
    if nd == 0:
        return cast(Tensor(0), mstype.int64 if index_type == "i64" else
                    mstype.int32)
    attrs = (f"{{axis = {axis} : i64, output_type = {index_type}"
             + (", keep_dims}" if keepdims else "}"))
    return unary(op("ms." + name, attrs, what), input)


def argmax(input, dim=None, keepdim=False):
    """ops.argmax: int64 indices of the maxima along `dim` (None: of the
    flattened tensor); ties give the first index."""
    return _arg_reduce("argmax", input, dim, keepdim, "i64")


def argmin(input, axis=None, keepdims=False):
    """ops.argmin: int32 indices of the minima (MindSpore's Argmin
    default), ties giving the first."""
    return _arg_reduce("argmin", input, axis, keepdims, "i32")


#===---------------------------------------------------------------------===#
# Training mode
#===---------------------------------------------------------------------===#

def dropout_op(p, training, public):
    attrs = "{p = " + _f32(p) + (", training}" if training else "}")
    return op("ms.dropout", attrs, public)


def dropout(input, p=0.5, training=True, seed=None):
    """ops.dropout: with `training`, each element is zeroed with
    probability p and the others scaled by 1 / (1 - p); the identity
    otherwise. Masks come from the global seed (set_seed) and a counter
    that advances once per call (see msmlir/_random.py); `seed` replaces
    the global seed for this call's key."""
    from . import _random
    p = float(p)
    if not 0.0 <= p < 1.0:
        raise ValueError(f"ops.dropout: p must be in [0, 1), got {p}")
    if not training or p == 0.0:
        return unary(dropout_op(p, False, "ops.dropout"), input)
    return binary(dropout_op(p, True, "ops.dropout"), input,
                  _random.state_tensor(seed))


def batch_statistics(x):
    """The per-channel (dim 1) mean and biased variance of `x`, in ms ops:
    mean = sum / count, var = sum((x - mean)^2) / count, each sum in order."""
    from . import ops
    axes = (0,) + tuple(range(2, x.ndim))
    mean = ops.reduce_mean(x, axes, True)
    centered = x - mean
    var = ops.reduce_mean(centered * centered, axes, True)
    return mean, var, centered


def batch_norm_train(x, gamma, beta, eps):
    """Training-mode batch norm: y normalized with the batch's mean and
    biased variance; also returns them ([C]) and the element count per
    channel."""
    from . import ops
    mean, var, centered = batch_statistics(x)
    c = x.shape[1]
    shape = (1, c) + (1,) * (x.ndim - 2)
    y = centered / ops.sqrt(var + eps)
    y = y * ops.reshape(gamma, shape) + ops.reshape(beta, shape)
    count = x.size // c
    return y, ops.reshape(mean, (c,)), ops.reshape(var, (c,)), count
