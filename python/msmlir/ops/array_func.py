"""Shapes, data movement, indexing and creation: reshape, transpose,
concat, slicing, padding, broadcasting, gathering, where/select, one_hot,
and the creation functions (part of ``mindspore.ops``;
MSDataMovementOps.td, MSIndexingOps.td)."""

import math
import numbers

import numpy as np

from .. import dtype as mstype
from .._tensor import Tensor, binary, unary, nary, op
from ._args import (_i64_array, _f32, _axis, _axes, _tensor, _promoted, _int,
                    _number)
from .math_func import _as_bool, cast

__all__ = [
    "reshape", "transpose", "permute", "flatten", "expand_dims",
    "unsqueeze", "squeeze", "concat", "cat", "stack", "split", "chunk",
    "tile", "strided_slice", "broadcast_to", "pad", "gather",
    "index_select", "where", "select", "masked_fill", "masked_select",
    "one_hot", "zeros", "ones", "full", "zeros_like", "ones_like", "arange",
    "fill"
]


#===---------------------------------------------------------------------===#
# Shapes
#===---------------------------------------------------------------------===#


_FLATTEN = op("ms.flatten")


def _target_shape(shape, size, what):
    shape = tuple(int(d) for d in shape)
    if shape.count(-1) > 1:
        raise ValueError(f"{what}: only one dimension can be -1, got "
                         f"{list(shape)}")
    if any(d < -1 for d in shape):
        raise ValueError(f"{what}: invalid shape {list(shape)}")
    if -1 in shape:
        known = math.prod(d for d in shape if d != -1)
        if known == 0 or size % known:
            raise ValueError(f"{what}: cannot reshape {size} elements to "
                             f"{list(shape)}")
        shape = tuple(size // known if d == -1 else d for d in shape)
    if math.prod(shape) != size:
        raise ValueError(f"{what}: cannot reshape {size} elements to "
                         f"{list(shape)}")
    return shape


def reshape(input, shape):
    """The same elements in a new shape (one dimension may be -1)."""
    input = _tensor(input, "ops.reshape")
    if isinstance(shape, numbers.Integral):
        shape = (shape,)
    shape = _target_shape(shape, input.size, "ops.reshape")
    return unary(op("ms.reshape", "{shape = " + _i64_array(shape) + "}",
                    "ops.reshape"), input)


def transpose(input, input_perm):
    """Permutes the dimensions (ops.transpose(x, (1, 0)))."""
    input = _tensor(input, "ops.transpose")
    perm = tuple(_axis(p, input.ndim, "ops.transpose") for p in input_perm)
    if sorted(perm) != list(range(input.ndim)):
        raise ValueError(f"ops.transpose: {list(input_perm)} is not a "
                         f"permutation of the {input.ndim} dimensions")
    return unary(op("ms.transpose", "{perm = " + _i64_array(perm) + "}",
                    "ops.transpose"), input)


def permute(input, axis):
    return transpose(input, axis)


def flatten(input, order="C", *, start_dim=1, end_dim=-1):
    """Flattens dims start_dim..end_dim (by default all but the first, like
    nn.Flatten)."""
    input = _tensor(input, "ops.flatten")
    if order != "C":
        raise ValueError("ops.flatten: only order='C' is supported")
    nd = input.ndim
    if nd == 0:
        return reshape(input, (1,))
    s = _axis(start_dim, nd, "ops.flatten")
    e = _axis(end_dim, nd, "ops.flatten")
    if s > e:
        raise ValueError("ops.flatten: start_dim is after end_dim")
    if s == 1 and e == nd - 1 and nd >= 2:
        return unary(_FLATTEN, input)
    shape = input.shape
    new = shape[:s] + (math.prod(shape[s:e + 1]),) + shape[e + 1:]
    return reshape(input, new)


def expand_dims(input_x, axis):
    shape = list(input_x.shape)
    axis = _axis(axis, len(shape) + 1, "ops.expand_dims")
    shape.insert(axis, 1)
    return reshape(input_x, shape)


unsqueeze = expand_dims


def squeeze(input, axis=None):
    shape = input.shape
    if axis is None:
        new = [d for d in shape if d != 1]
    else:
        axes = _axes(axis, len(shape), "ops.squeeze") if axis != () else ()
        for a in axes:
            if shape[a] != 1:
                raise ValueError(f"ops.squeeze: dimension {a} has size "
                                 f"{shape[a]}, not 1")
        new = [d for i, d in enumerate(shape) if i not in axes]
    return reshape(input, new)


def concat(tensors, axis=0):
    """Joins tensors along an axis (ops.concat / ops.cat)."""
    tensors = list(tensors)
    if not tensors:
        raise ValueError("ops.concat: needs at least one tensor")
    tensors = [_tensor(t, "ops.concat") for t in tensors]
    if len(tensors) == 1:
        return tensors[0]
    axis = _axis(axis, tensors[0].ndim, "ops.concat")
    o = op("ms.concat", f"{{axis = {axis} : i64}}", "ops.concat")
    return nary(o, tensors)


cat = concat


#===---------------------------------------------------------------------===#
# Slicing, padding, broadcasting, gathering
#===---------------------------------------------------------------------===#


def _slice_op(begin, end, strides):
    return op("ms.slice", f"{{begin = {_i64_array(begin)}, end = "
              f"{_i64_array(end)}, strides = {_i64_array(strides)}}}",
              "ops.strided_slice")


def _slice(x, begin, end, strides):
    if list(begin) == [0] * len(begin) and list(end) == list(x.shape) and \
            list(strides) == [1] * len(strides):
        return x
    return unary(_slice_op(begin, end, strides), x)


def strided_slice(input_x, begin, end, strides):
    """input_x[begin[d]:end[d]:strides[d]] in every dimension d (positive
    strides; begin and end are clamped and may be negative, as in
    Python slicing)."""
    what = "ops.strided_slice"
    shape = input_x.shape
    if not len(begin) == len(end) == len(strides) == len(shape):
        raise ValueError(f"{what}: begin, end and strides need one entry per "
                         f"dimension of the rank-{len(shape)} input")
    b, e, s = [], [], []
    for d, size in enumerate(shape):
        if strides[d] <= 0:
            raise ValueError(f"{what}: strides must be positive, got "
                             f"{list(strides)}")
        start, stop, step = slice(begin[d], end[d], strides[d]).indices(size)
        b.append(start)
        e.append(max(start, stop))
        s.append(step)
    return _slice(input_x, b, e, s)


def broadcast_to(input, shape):
    """numpy broadcasting of input to shape; -1 keeps input's size."""
    what = "ops.broadcast_to"
    input = _tensor(input, what)
    shape = [int(d) for d in shape]
    offset = len(shape) - input.ndim
    if offset < 0:
        raise ValueError(f"{what}: cannot broadcast {list(input.shape)} to "
                         f"{shape}")
    for i, d in enumerate(shape):
        if d == -1:
            if i < offset:
                raise ValueError(f"{what}: -1 in a new leading dimension of "
                                 f"{shape}")
            shape[i] = input.shape[i - offset]
    if tuple(shape) == tuple(input.shape):
        return input
    return unary(op("ms.broadcast_to", f"{{shape = {_i64_array(shape)}}}",
                    what), input)


def pad(input_x, padding, mode="constant", value=None):
    """Constant padding; padding pairs go from the last dimension backwards,
    (left, right, top, bottom, ...), as MindSpore 2.x and PyTorch take
    them. Only mode 'constant' is supported."""
    what = "ops.pad"
    if mode != "constant":
        raise ValueError(f"{what}: mode {mode!r} is not supported (only "
                         "'constant')")
    padding = [int(p) for p in padding]
    rank = input_x.ndim
    if len(padding) % 2 or len(padding) > 2 * rank:
        raise ValueError(f"{what}: padding needs an even number of entries, "
                         f"at most {2 * rank}, got {len(padding)}")
    if any(p < 0 for p in padding):
        raise ValueError(f"{what}: negative padding {padding} is not "
                         "supported")
    low, high = [0] * rank, [0] * rank
    for i in range(len(padding) // 2):
        low[rank - 1 - i], high[rank - 1 - i] = padding[2 * i:2 * i + 2]
    if not any(low) and not any(high):
        return input_x
    fill = 0.0 if value is None else float(value)
    return unary(op("ms.pad", f"{{low = {_i64_array(low)}, high = "
                    f"{_i64_array(high)}, value = {_f32(fill)}}}", what),
                 input_x)


def _index_tensor(indices, what):
    if not isinstance(indices, Tensor):
        indices = Tensor(np.asarray(indices, dtype=np.int32))
    if indices.dtype not in (mstype.int32, mstype.int64):
        raise TypeError(f"{what}: indices must be int32 or int64, got "
                        f"{indices.dtype}")
    return indices


def gather(input_params, input_indices, axis, batch_dims=0):
    """input_params[..., indices, ...] along axis: the result shape is
    params.shape[:axis] + indices.shape + params.shape[axis + 1:]. Indices
    outside [0, size) give zeros, as MindSpore's CPU Gather does."""
    what = "ops.gather"
    if batch_dims != 0:
        raise ValueError(f"{what}: batch_dims must be 0")
    indices = _index_tensor(input_indices, what)
    axis = _axis(axis, input_params.ndim, what)
    return binary(op("ms.gather", f"{{axis = {axis} : i64}}", what),
                  input_params, indices)


def index_select(input, axis, index):
    """The entries of input at the 1-D `index` along axis."""
    index = _index_tensor(index, "ops.index_select")
    if index.ndim != 1:
        raise ValueError("ops.index_select: index must be 1-D, got shape "
                         f"{list(index.shape)}")
    return gather(input, index, axis)


def stack(tensors, axis=0):
    """Joins same-shaped tensors along a new axis."""
    tensors = [_tensor(t, "ops.stack") for t in tensors]
    if not tensors:
        raise ValueError("ops.stack: needs at least one tensor")
    axis = _axis(axis, tensors[0].ndim + 1, "ops.stack")
    return concat([expand_dims(t, axis) for t in tensors], axis)


def _split_at(x, sizes, axis):
    parts, start = [], 0
    for size in sizes:
        begin = [0] * x.ndim
        end = list(x.shape)
        begin[axis], end[axis] = start, start + size
        parts.append(_slice(x, begin, end, [1] * x.ndim))
        start += size
    return tuple(parts)


def split(tensor, split_size_or_sections, axis=0):
    """Pieces of split_size (the last may be smaller), or of the listed
    sizes, along axis."""
    what = "ops.split"
    axis = _axis(axis, tensor.ndim, what)
    n = tensor.shape[axis]
    if isinstance(split_size_or_sections, numbers.Integral):
        size = int(split_size_or_sections)
        if size <= 0:
            raise ValueError(f"{what}: split_size must be positive")
        sizes = [min(size, n - i) for i in range(0, n, size)]
    else:
        sizes = [int(s) for s in split_size_or_sections]
        # `sum` here is ops.sum: add the Python ints by hand.
        total = 0
        for s in sizes:
            total += s
        if total != n or any(s < 0 for s in sizes):
            raise ValueError(f"{what}: sections {sizes} do not add up to "
                             f"{n}, the size of axis {axis}")
    return _split_at(tensor, sizes, axis)


def chunk(input, chunks, axis=0):
    """At most `chunks` pieces of ceil(size / chunks) along axis."""
    what = "ops.chunk"
    if not isinstance(chunks, numbers.Integral) or chunks <= 0:
        raise ValueError(f"{what}: chunks must be a positive int")
    axis = _axis(axis, input.ndim, what)
    n = input.shape[axis]
    return split(input, max(1, -(-n // int(chunks))), axis)


def tile(input, dims):
    """Repeats input dims[d] times along each dimension (leading dims of
    input or dims count as 1): a broadcast to [dims[0], size0, ...] then a
    reshape, so no element is computed."""
    dims = [int(d) for d in dims]
    if any(d < 0 for d in dims):
        raise ValueError("ops.tile: dims must not be negative")
    shape = list(input.shape)
    rank = max(len(shape), len(dims))
    shape = [1] * (rank - len(shape)) + shape
    dims = [1] * (rank - len(dims)) + dims
    interleaved = []
    for d, s in zip(dims, shape):
        interleaved += [1, s]
    x = reshape(input, interleaved)
    target = []
    for d, s in zip(dims, shape):
        target += [d, s]
    return reshape(broadcast_to(x, target),
                   [d * s for d, s in zip(dims, shape)])


_SELECT = op("ms.select", "", "ops.select")


def where(condition, input, other):
    """ops.where: `input` where `condition` is true, else `other`; the
    three broadcast like numpy and the values are promoted to one dtype."""
    cond = _as_bool(condition, "ops.where")
    x, y = _promoted("ops.where", input, other)
    return nary(_SELECT, (cond, x, y))


def select(cond, x, y):
    """ops.select(cond, x, y): the same as ops.where."""
    return where(cond, x, y)


def masked_fill(input_x, mask, value):
    """input_x with `value` where the bool `mask` (broadcast like numpy) is
    True: one ms.select."""
    if not isinstance(mask, Tensor) or mask.dtype != mstype.bool_:
        raise TypeError("ops.masked_fill: mask must be a bool Tensor")
    return where(mask, value, input_x)


def masked_select(input, mask):
    """The elements of input where the bool mask (broadcast together with
    input) is True, as a 1-D Tensor: a gather of the True positions. The
    result's size depends on the mask's values, so graph mode cannot
    capture it (see docs/python.md)."""
    if not isinstance(mask, Tensor) or mask.dtype != mstype.bool_:
        raise TypeError("ops.masked_select: mask must be a bool Tensor")
    shape = tuple(np.broadcast_shapes(tuple(input.shape), tuple(mask.shape)))
    if tuple(mask.shape) != shape:
        mask = cast(broadcast_to(cast(mask, mstype.float32), shape),
                    mstype.bool_)
    return broadcast_to(input, shape)[mask]


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


#===---------------------------------------------------------------------===#
# Creation
#===---------------------------------------------------------------------===#


def _creation_dtype(dtype, default):
    return default if dtype is None else mstype.to_dtype(dtype)


def _size_tuple(size):
    if isinstance(size, numbers.Integral):
        return (int(size),)
    return tuple(int(d) for d in size)


def zeros(size, dtype=None):
    dt = _creation_dtype(dtype, mstype.float32)
    return Tensor(np.zeros(_size_tuple(size), dt.values_np), dt)


def ones(size, dtype=None):
    dt = _creation_dtype(dtype, mstype.float32)
    return Tensor(np.ones(_size_tuple(size), dt.values_np), dt)


def full(size, fill_value, *, dtype=None):
    dt = _creation_dtype(dtype, mstype.float32 if isinstance(
        fill_value, float) else mstype.int64)
    return Tensor(np.full(_size_tuple(size), fill_value, dt.values_np), dt)


def zeros_like(input, *, dtype=None):
    return zeros(input.shape, _creation_dtype(dtype, input.dtype))


def ones_like(input, *, dtype=None):
    return ones(input.shape, _creation_dtype(dtype, input.dtype))


def arange(start=0, end=None, step=1, *, dtype=None):
    """start, start + step, ... below end; int64 for ints, float32
    otherwise, as MindSpore."""
    if end is None:
        start, end = 0, start
    floats = any(isinstance(v, float) for v in (start, end, step))
    dt = _creation_dtype(dtype, mstype.float32 if floats else mstype.int64)
    return Tensor(np.arange(start, end, step).astype(dt.values_np), dt)


def fill(type, shape, value):
    """MindSpore's ops.fill(type, shape, value)."""
    return full(shape, value, dtype=type)
