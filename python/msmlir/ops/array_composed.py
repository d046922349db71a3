"""Array, creation, reduction and linear-algebra functions composed of the
dialect's ops (part of ``mindspore.ops``): slices, reversals (a gather with
reversed indices), triangles (a select with a constant mask), products of
matrices, norms and distances."""

import builtins
import math
import numbers

import numpy as np

from .. import dtype as mstype
from .._tensor import Tensor
from ._args import _axis
from .array_func import (_slice, broadcast_to, concat, expand_dims, full,
                         index_select, reshape, split, squeeze, transpose,
                         where, zeros_like)
from .linalg_func import matmul
from .math_func import (abs, add, cast, exp, log, maximum, mul, neg,
                        not_equal, pow, sqrt, sub)
from .reduction_func import amax, reduce_max, reduce_sum
from .reduction_func import sum as ops_sum
from .sort_func import gather_elements, sort

__all__ = ["narrow", "flip", "fliplr", "flipud", "swapaxes", "swapdims",
           "t", "unbind", "numel", "ravel", "roll", "rot90", "tril", "triu",
           "diagonal", "eye", "full_like", "linspace", "range", "meshgrid",
           "repeat_interleave", "repeat_elements", "expand", "tensor_split",
           "hsplit", "vsplit", "dsplit", "gather_d", "count_nonzero", "amin",
           "logsumexp", "norm", "dot", "mm", "mv", "bmm", "inner", "outer",
           "kron", "addmm", "addbmm", "baddbmm", "addmv", "addr", "cdist",
           "dist", "diff", "cosine_similarity", "bias_add", "clip_by_value",
           "clip_by_global_norm", "square_sum_all", "trapz", "msort"]


def narrow(input, axis, start, length):
    """length elements of axis from start."""
    axis = _axis(axis, input.ndim, "ops.narrow")
    begin = [0] * input.ndim
    end = list(input.shape)
    begin[axis], end[axis] = start, start + length
    return _slice(input, begin, end, [1] * input.ndim)


def flip(input, dims):
    """input reversed along each of dims."""
    dims = (dims,) if isinstance(dims, numbers.Integral) else dims
    for d in dims:
        d = _axis(d, input.ndim, "ops.flip")
        reverse = Tensor(np.arange(input.shape[d] - 1, -1, -1,
                                   dtype=np.int32))
        input = index_select(input, d, reverse)
    return input


def fliplr(input):
    return flip(input, (1,))


def flipud(input):
    return flip(input, (0,))


def swapaxes(input, axis0, axis1):
    perm = list(builtins.range(input.ndim))
    a, b = _axis(axis0, input.ndim, "ops.swapaxes"), \
        _axis(axis1, input.ndim, "ops.swapaxes")
    perm[a], perm[b] = perm[b], perm[a]
    return transpose(input, tuple(perm))


swapdims = swapaxes


def t(input):
    """The transpose of a 2-D tensor (1-D ones as they are)."""
    if input.ndim > 2:
        raise ValueError("For 't', the dimension of 'input' must be at most "
                         f"2, but got {input.ndim}.")
    return input if input.ndim < 2 else transpose(input, (1, 0))


def unbind(input, dim=0):
    """The slices along dim, without it."""
    dim = _axis(dim, input.ndim, "ops.unbind")
    return tuple(squeeze(p, dim) for p in split(input, 1, dim))


def numel(input):
    return input.size


def ravel(input):
    return reshape(input, (-1,))


def roll(input, shifts, dims=None):
    """Elements shifted along dims, wrapping around (flattened first when
    dims is None)."""
    if dims is None:
        return reshape(roll(ravel(input), shifts, 0), input.shape)
    shifts = (shifts,) if isinstance(shifts, numbers.Integral) else shifts
    dims = (dims,) if isinstance(dims, numbers.Integral) else dims
    for shift, d in zip(shifts, dims):
        d = _axis(d, input.ndim, "ops.roll")
        n = input.shape[d]
        k = shift % n if n else 0
        if k:
            head, tail = split(input, [n - k, k], d)
            input = concat((tail, head), d)
    return input


def rot90(input, k=1, dims=(0, 1)):
    """Rotated by 90 degrees k times in the plane of dims."""
    a, b = dims
    k %= 4
    if k == 1:
        return swapaxes(flip(input, (b,)), a, b)
    if k == 2:
        return flip(input, (a, b))
    if k == 3:
        return flip(swapaxes(input, a, b), (b,))
    return input


def _triangle(input, diagonal, lower):
    rows, cols = input.shape[-2:]
    mask = np.tri(rows, cols, diagonal, dtype=bool) if lower else \
        ~np.tri(rows, cols, diagonal - 1, dtype=bool)
    return where(Tensor(mask), input, zeros_like(input))


def tril(input, diagonal=0):
    """The lower triangle of the last two dims (and `diagonal` above)."""
    return _triangle(input, diagonal, True)


def triu(input, diagonal=0):
    return _triangle(input, diagonal, False)


def diagonal(input, offset=0, dim1=0, dim2=1):
    """The diagonal of the (dim1, dim2) planes, as the last dim."""
    d1, d2 = _axis(dim1, input.ndim, "ops.diagonal"), \
        _axis(dim2, input.ndim, "ops.diagonal")
    rest = [i for i in builtins.range(input.ndim) if i not in (d1, d2)]
    moved = transpose(input, tuple(rest + [d1, d2]))
    rows, cols = input.shape[d1], input.shape[d2]
    r = np.arange(builtins.max(0, -offset), rows)
    r = r[r + offset < cols]
    flat = reshape(moved, tuple(moved.shape[:-2]) + (rows * cols,))
    return index_select(flat, -1, Tensor((r * cols + r + offset)
                                         .astype(np.int32)))


def eye(n, m=None, dtype=mstype.float32):
    m = n if m is None else m
    return Tensor(np.eye(n, m), dtype)


def full_like(input, fill_value, *, dtype=None):
    return full(input.shape, fill_value, dtype=dtype or input.dtype)


def linspace(start, end, steps):
    """steps evenly spaced values from start to end (float32)."""
    return Tensor(np.linspace(float(start), float(end), int(steps))
                  .astype(np.float32))


def range(start, end, step):
    """ops.range: start, start + step, ... below end (the dtype of start)."""
    values = np.arange(start, end, step)
    return Tensor(values.astype(np.float32 if isinstance(start, float)
                                else np.int64))


def meshgrid(*inputs, indexing="xy"):
    """Coordinate grids of 1-D inputs ('xy': the first two swapped, as
    numpy)."""
    if len(inputs) == 1 and isinstance(inputs[0], (tuple, list)):
        inputs = tuple(inputs[0])
    if indexing not in ("xy", "ij"):
        raise ValueError("For 'meshgrid', the 'indexing' must be 'xy' or "
                         f"'ij', but got {indexing}.")
    sizes = [x.shape[0] for x in inputs]
    if indexing == "xy" and len(inputs) > 1:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    out = []
    for i, x in enumerate(inputs):
        axis = i
        if indexing == "xy" and i < 2 and len(inputs) > 1:
            axis = 1 - i
        shape = [1] * len(inputs)
        shape[axis] = x.shape[0]
        out.append(broadcast_to(reshape(x, tuple(shape)), tuple(sizes)))
    return tuple(out)


def repeat_interleave(input, repeats, axis=None):
    """Each element repeated `repeats` times along axis (flattened when
    axis is None)."""
    if axis is None:
        input, axis = ravel(input), 0
    axis = _axis(axis, input.ndim, "ops.repeat_interleave")
    index = np.repeat(np.arange(input.shape[axis]), repeats)
    return index_select(input, axis, Tensor(index.astype(np.int32)))


def repeat_elements(x, rep, axis=0):
    return repeat_interleave(x, rep, axis)


def expand(input_x, size):
    """broadcast_to with -1 keeping a size."""
    if isinstance(size, Tensor):
        size = tuple(int(v) for v in size.asnumpy())
    return broadcast_to(input_x, tuple(size))


def tensor_split(input, indices_or_sections, axis=0):
    """numpy.array_split's pieces: n nearly equal sections, or cuts at the
    given indices."""
    axis = _axis(axis, input.ndim, "ops.tensor_split")
    n = input.shape[axis]
    if isinstance(indices_or_sections, numbers.Integral):
        k = int(indices_or_sections)
        sizes = [n // k + (1 if i < n % k else 0) for i in builtins.range(k)]
    else:
        cuts = [0] + [builtins.min(int(c), n) for c in indices_or_sections] \
            + [n]
        sizes = [builtins.max(b - a, 0) for a, b in zip(cuts, cuts[1:])]
    return tuple(narrow(input, axis, builtins.sum(sizes[:i]), s)
                 for i, s in enumerate(sizes))


def hsplit(input, indices_or_sections):
    return tensor_split(input, indices_or_sections, 1 if input.ndim > 1
                        else 0)


def vsplit(input, indices_or_sections):
    return tensor_split(input, indices_or_sections, 0)


def dsplit(input, indices_or_sections):
    return tensor_split(input, indices_or_sections, 2)


def gather_d(x, dim, index):
    return gather_elements(x, dim, index)


def count_nonzero(x, axis=(), keep_dims=False, dtype=mstype.int32):
    """The number of nonzero elements along axis (() or None: all),
    counted exactly."""
    dim = None if axis in ((), None) else axis
    return cast(ops_sum(not_equal(x, 0), dim, keep_dims), dtype)


def amin(input, axis=None, keepdims=False, *, initial=None, where=None):
    return neg(amax(neg(input), axis, keepdims))


def logsumexp(input, axis, keep_dims=False):
    """log(sum(exp(x))) along axis, shifted by the maximum."""
    top = reduce_max(input, axis, True)
    total = reduce_sum(exp(sub(input, top)), axis, True)
    out = add(log(total), top)
    return out if keep_dims else squeeze(out, axis)


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """Vector norms: 2 (the default, also 'fro' over all elements), inf,
    -inf, 0 (the count of nonzeros) or any p."""
    axis = () if dim is None else dim
    if ord in (None, 2, "fro"):
        return sqrt(reduce_sum(mul(A, A), axis, keepdim))
    if ord == math.inf:
        return reduce_max(abs(A), axis, keepdim)
    if ord == -math.inf:
        return neg(reduce_max(neg(abs(A)), axis, keepdim))
    if ord == 0:
        return reduce_sum(cast(not_equal(A, 0), A.dtype), axis, keepdim)
    if isinstance(ord, numbers.Real):
        return pow(reduce_sum(pow(abs(A), ord), axis, keepdim), 1.0 / ord)
    raise ValueError(f"For 'norm', the 'ord' {ord!r} is not supported.")


def dot(input, other):
    return matmul(input, other)


def mm(input, mat2):
    if input.ndim != 2 or mat2.ndim != 2:
        raise ValueError("For 'mm', both inputs must be 2-D.")
    return matmul(input, mat2)


def mv(mat, vec):
    return matmul(mat, vec)


def bmm(input_x, mat2):
    if input_x.ndim < 3:
        raise ValueError("For 'bmm', the inputs must be at least 3-D.")
    return matmul(input_x, mat2)


def inner(input, other):
    """The sum of products over the last dims."""
    if input.ndim == 0 or other.ndim == 0:
        return mul(input, other)
    if other.ndim == 1:
        return reduce_sum(mul(input, other), -1)
    return matmul(input, swapaxes(other, -1, -2))


def outer(input, vec2):
    return mul(reshape(input, (-1, 1)), reshape(vec2, (1, -1)))


def kron(input, other):
    """The Kronecker product of two 2-D tensors."""
    (a, b), (c, d) = input.shape, other.shape
    blocks = mul(reshape(input, (a, 1, b, 1)), reshape(other, (1, c, 1, d)))
    return reshape(blocks, (a * c, b * d))


def _scaled(beta, input, alpha, product):
    return add(mul(input, beta), mul(product, alpha))


def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    return _scaled(beta, input, alpha, mm(mat1, mat2))


def addbmm(input, batch1, batch2, *, beta=1, alpha=1):
    return _scaled(beta, input, alpha, reduce_sum(bmm(batch1, batch2), 0))


def baddbmm(input, batch1, batch2, beta=1, alpha=1):
    return _scaled(beta, input, alpha, bmm(batch1, batch2))


def addmv(input, mat, vec, *, beta=1, alpha=1):
    return _scaled(beta, input, alpha, mv(mat, vec))


def addr(x, vec1, vec2, *, beta=1, alpha=1):
    return _scaled(beta, x, alpha, outer(vec1, vec2))


def cdist(x1, x2, p=2.0):
    """Pairwise p-norm distances of the rows of x1 and x2 ([..., P, M]
    and [..., R, M] give [..., P, R])."""
    diff = sub(expand_dims(x1, -2), expand_dims(x2, -3))
    return norm(diff, p, -1)


def dist(input, other, p=2):
    return norm(sub(input, other), p)


def diff(x, n=1, axis=-1, prepend=None, append=None):
    """The n-th forward difference along axis."""
    axis = _axis(axis, x.ndim, "ops.diff")
    if prepend is not None:
        x = concat((prepend, x), axis)
    if append is not None:
        x = concat((x, append), axis)
    for _ in builtins.range(n):
        size = x.shape[axis]
        x = sub(narrow(x, axis, 1, size - 1), narrow(x, axis, 0, size - 1))
    return x


def cosine_similarity(x1, x2, dim=1, eps=1e-08):
    """x1 . x2 / max(|x1| |x2|, eps) along dim."""
    dot_product = reduce_sum(mul(x1, x2), dim)
    lengths = mul(norm(x1, 2, dim), norm(x2, 2, dim))
    return dot_product / maximum(lengths, eps)


def bias_add(input_x, bias, data_format="NCHW"):
    """input_x + bias along the channel dim (dim 1; the last for NHWC)."""
    if data_format == "NHWC" or input_x.ndim < 2:
        return add(input_x, bias)
    return add(input_x, reshape(bias, (-1,) + (1,) * (input_x.ndim - 2)))


def clip_by_value(x, clip_value_min=None, clip_value_max=None):
    """x clamped to [min, max] (a tuple or list of tensors: each one)."""
    if isinstance(x, (tuple, list)):
        return type(x)(clip_by_value(v, clip_value_min, clip_value_max)
                       for v in x)
    if clip_value_min is not None:
        x = maximum(x, clip_value_min)
    if clip_value_max is not None:
        x = where(x > clip_value_max, clip_value_max, x)
    return x


def square_sum_all(*tensors):
    """The sum of squares of each tensor (ops.SquareSumAll)."""
    return tuple(reduce_sum(mul(x, x)) for x in tensors)


def clip_by_global_norm(x, clip_norm=1.0, use_norm=None):
    """The tensors scaled by clip_norm / max(global norm, clip_norm), the
    global norm being that of all of them together."""
    if use_norm is None:
        squares = square_sum_all(*x)
        total = squares[0]
        for s in squares[1:]:
            total = add(total, s)
        use_norm = sqrt(total)
    scale = clip_norm / maximum(use_norm, clip_norm)
    return tuple(mul(v, cast(scale, v.dtype)) for v in x)


def trapz(y, x=None, *, dx=None, dim=-1):
    """The trapezoid-rule integral of y along dim, with sample points x
    (a tensor) or spacing dx (default 1)."""
    dim = _axis(dim, y.ndim, "ops.trapz")
    n = y.shape[dim]
    mid = mul(add(narrow(y, dim, 1, n - 1), narrow(y, dim, 0, n - 1)), 0.5)
    if x is not None:
        return reduce_sum(mul(mid, diff(x, 1, -1 if x.ndim == 1 else dim)),
                          dim)
    return mul(reduce_sum(mid, dim), 1.0 if dx is None else dx)


def msort(input):
    """input sorted along dim 0, ascending."""
    return sort(input, 0)[0]
