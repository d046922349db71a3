"""Reductions: sums, means and maxima over axes, variance, argmax and
argmin (part of ``mindspore.ops``). Every reduction accumulates in index
order, so each mode and jit_level gives the same bits."""

from .. import dtype as mstype
from .._tensor import Tensor, unary, op, as_dtype
from ._args import _i64_array, _axes, _tensor, _int
from .math_func import sub, mul, div, sqrt, cast

__all__ = [
    "reduce_sum", "reduce_mean", "reduce_max", "sum", "mean", "amax", "var",
    "std", "argmax", "argmin"
]


def _reduce(name, x, axis, keep_dims):
    x = _tensor(x, "ops." + name)
    axes = _axes(axis, x.ndim, "ops." + name)
    attrs = "{axes = " + _i64_array(axes) + (", keep_dims}" if keep_dims
                                             else "}")
    return unary(op("ms." + name, attrs, "ops." + name), x)


def reduce_sum(x, axis=(), keep_dims=False):
    """Sum over `axis` (an int, a tuple, or () for all axes), in x's dtype;
    bools count as int64."""
    x = _tensor(x, "ops.reduce_sum")
    if x.dtype is mstype.bool_:
        x = as_dtype(x, mstype.int64)
    return _reduce("reduce_sum", x, axis, keep_dims)


def reduce_mean(x, axis=(), keep_dims=False):
    """Mean over `axis`; integer and bool tensors average in float32."""
    x = _tensor(x, "ops.reduce_mean")
    if not x.dtype.is_float:
        x = as_dtype(x, mstype.float32)
    return _reduce("reduce_mean", x, axis, keep_dims)


def reduce_max(x, axis=(), keep_dims=False):
    return _reduce("reduce_max", x, axis, keep_dims)


def sum(input, dim=None, keepdim=False, *, dtype=None):
    """ops.sum: sum over `dim` (None: all); bools and integers sum to an
    int64, exactly (with int64 wraparound)."""
    input = _tensor(input, "ops.sum")
    if not input.dtype.is_float:
        input = as_dtype(input, mstype.int64)
    total = reduce_sum(input, () if dim is None else dim, keepdim)
    return total if dtype is None else cast(total, dtype)


def mean(input, axis=None, keep_dims=False):
    return reduce_mean(input, () if axis is None else axis, keep_dims)


def amax(input, axis=None, keepdims=False, *, initial=None, where=None):
    return reduce_max(input, () if axis is None else axis, keepdims)


def var(input, axis=None, ddof=0, keepdims=False):
    """Variance: mean((x - mean(x))^2) * n / (n - ddof) over axis."""
    axes = _axes(axis, input.ndim, "ops.var")
    n = 1
    for a in axes:
        n *= input.shape[a]
    centered = sub(input, reduce_mean(input, axes, True))
    result = reduce_sum(mul(centered, centered), axes, keepdims)
    return div(result, float(max(n - int(ddof), 0)))


def std(input, axis=None, ddof=0, keepdims=False):
    """sqrt(var(input, axis, ddof, keepdims))."""
    return sqrt(var(input, axis, ddof, keepdims))


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
