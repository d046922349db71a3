"""cumsum, argsort, sort, topk, gather_elements, and max/min with indices
(part of ``mindspore.ops``).

cumsum, argsort and gather_elements are one ``ms`` op each
(MSScanSortOps.td). sort and topk are an argsort plus a gather_elements of
the values at the indices; max/min are ms.argmax/argmin plus a
gather_elements. Gradients therefore reach exactly the selected elements
(gather_elements' rule), as in MindSpore and torch. Indices are int32, as
MindSpore's Sort, TopK and ArgMaxWithValue return them.
"""

import numbers

from .. import dtype as mstype
from .._tensor import Tensor, binary, unary, op
from ._args import _instance, _int
from .math_func import cast

__all__ = ["cumsum", "argsort", "sort", "topk", "gather_elements", "max",
           "min"]

_INDEX = "i32"


def _input(x, what):
    if isinstance(x, Tensor):
        t = x
    elif isinstance(x, (numbers.Number, list, tuple)):
        t = Tensor(x)
    else:
        raise TypeError(f"{what}: expected a Tensor, got {type(x).__name__}")
    if t.dtype is mstype.bool_:
        t = cast(t, mstype.int32)
    return t


def _axis(axis, ndim, what, name="axis"):
    axis = _int(axis, name, what)
    if ndim == 0:
        raise ValueError(f"{what}: input must have rank 1 or more")
    if not -ndim <= axis < ndim:
        raise ValueError(f"{what}: {name} {axis} is out of range for a "
                         f"{ndim}-d tensor (expected [{-ndim}, {ndim}))")
    return axis + ndim if axis < 0 else axis


#===---------------------------------------------------------------------===#
# cumsum
#===---------------------------------------------------------------------===#

def _cumsum_op(axis, exclusive, reverse):
    flags = "".join(f", {f}" for f, on in (("exclusive", exclusive),
                                           ("reverse", reverse)) if on)
    return op("ms.cumsum", f"{{axis = {axis} : i64{flags}}}", "ops.cumsum")


def cumsum(x, axis, dtype=None):
    """ops.cumsum: cumulative sums along `axis`, in order (so every mode
    gives the same bits); `dtype` casts the input first. bool sums as
    int64."""
    what = "ops.cumsum"
    x = x if isinstance(x, Tensor) else Tensor(x)
    if dtype is not None:
        x = cast(x, dtype)
    elif x.dtype is mstype.bool_:
        x = cast(x, mstype.int64)
    axis = _axis(axis, x.ndim, what)
    return unary(_cumsum_op(axis, False, False), x)


#===---------------------------------------------------------------------===#
# Ordering: argsort, sort, topk
#===---------------------------------------------------------------------===#

def _argsort_op(axis, descending, k):
    attrs = f"axis = {axis} : i64"
    if descending:
        attrs += ", descending"
    if k is not None:
        attrs += f", k = {k} : i64"
    return op("ms.argsort", "{" + attrs + f", output_type = {_INDEX}}}",
              "ops.argsort")


def _gather_elements_op(axis, public="ops.gather_elements"):
    return op("ms.gather_elements", f"{{axis = {axis} : i64}}", public)


def argsort(input, axis=-1, descending=False):
    """ops.argsort: int32 indices that sort `input` along `axis` (stable;
    NaN counts as the largest)."""
    what = "ops.argsort"
    input = _input(input, what)
    axis = _axis(axis, input.ndim, what)
    _instance(descending, bool, "descending", what)
    return unary(_argsort_op(axis, descending, None), input)


def sort(input_x, axis=-1, descending=False):
    """ops.sort: (values, int32 indices) sorted along `axis`, stable, NaN
    last ascending and first descending (as torch)."""
    what = "ops.sort"
    x = _input(input_x, what)
    axis = _axis(axis, x.ndim, what)
    _instance(descending, bool, "descending", what)
    indices = unary(_argsort_op(axis, descending, None), x)
    return binary(_gather_elements_op(axis, what), x, indices), indices


def topk(input, k, dim=None, largest=True, sorted=True):
    """ops.topk: the `k` largest (or smallest) elements along `dim` (the
    last by default) and their int32 indices, sorted; ties give the lower
    index first. `sorted=False` allows any order; this one is sorted."""
    what = "ops.topk"
    x = _input(input, what)
    axis = _axis(-1 if dim is None else dim, x.ndim, what, "dim")
    k = _int(k, "k", what)
    _instance(largest, bool, "largest", what)
    _instance(sorted, bool, "sorted", what)
    if not 0 <= k <= x.shape[axis]:
        raise ValueError(f"{what}: k {k} is out of range for dim {axis} of "
                         f"size {x.shape[axis]} (expected [0, "
                         f"{x.shape[axis]}])")
    indices = unary(_argsort_op(axis, largest, k), x)
    return binary(_gather_elements_op(axis, what), x, indices), indices


def gather_elements(input, dim, index):
    """ops.gather_elements: input[..., index[..., j, ...], ...] along
    `dim`; `index` has input's rank and sizes except along `dim`. An index
    out of range gives 0."""
    what = "ops.gather_elements"
    x = input if isinstance(input, Tensor) else Tensor(input)
    index = index if isinstance(index, Tensor) else Tensor(index)
    axis = _axis(dim, x.ndim, what, "dim")
    return binary(_gather_elements_op(axis), x, index)


#===---------------------------------------------------------------------===#
# max / min with indices
#===---------------------------------------------------------------------===#

def _extreme(name, input, axis, keepdims, initial, where):
    what = "ops." + name
    if initial is not None or where is not None:
        raise NotImplementedError(f"{what}: initial and where are not "
                                  "supported")
    x = _input(input, what)
    arg = "ms.argmax" if name == "max" else "ms.argmin"
    if axis is None:
        # Over every element; the index is 0, as MindSpore documents.
        flat = x.reshape((-1,)) if x.ndim != 1 else x
        best = unary(op(arg, f"{{axis = 0 : i64, keep_dims, output_type = "
                             f"{_INDEX}}}", what), flat)
        value = binary(_gather_elements_op(0, what), flat, best)
        return value.reshape(()), Tensor(0, mstype.int32)
    axis = _axis(axis, x.ndim, what)
    _instance(keepdims, bool, "keepdims", what)
    kept = unary(op(arg, f"{{axis = {axis} : i64, keep_dims, output_type = "
                         f"{_INDEX}}}", what), x)
    values = binary(_gather_elements_op(axis, what), x, kept)
    if keepdims:
        return values, kept
    shape = tuple(d for i, d in enumerate(x.shape) if i != axis)
    return values.reshape(shape), kept.reshape(shape)


def max(input, axis=None, keepdims=False, *, initial=None, where=None):
    """ops.max: (values, int32 indices) of the maxima along `axis`; ties
    give the first index, NaN counts as the maximum. axis=None: the maximum
    of every element and index 0 (MindSpore's rule)."""
    return _extreme("max", input, axis, keepdims, initial, where)


def min(input, axis=None, keepdims=False, *, initial=None, where=None):
    """ops.min: (values, int32 indices) of the minima, as ops.max."""
    return _extreme("min", input, axis, keepdims, initial, where)
