"""Neural-network functions composed of the dialect's ops (part of
``mindspore.ops``): the functional pools, channel dropout, pixel shuffles,
pairwise distances, and comparisons (isclose, intopk)."""

import numpy as np

from .. import dtype as mstype
from .._tensor import Tensor, unary
from ._args import _positive_pair
from .array_composed import cdist
from .array_func import gather, ones, reshape, transpose
from .math_func import abs, add, cast, equal, less_equal, logical_or, mul
from .nn_func import _pool2d_op, dropout
from .sort_func import topk

__all__ = ["avg_pool2d", "max_pool2d", "avg_pool1d", "max_pool1d",
           "dropout1d", "dropout2d", "dropout3d", "pixel_shuffle",
           "pixel_unshuffle", "pdist", "isclose", "approximate_equal",
           "intopk", "l2_normalize", "sequence_mask"]


def _pool(kind, x, kernel_size, stride, what):
    kernel = _positive_pair(kernel_size, "kernel_size", what)
    stride = kernel if stride is None else \
        _positive_pair(stride, "stride", what)
    return unary(_pool2d_op(kind, kernel, stride, "valid", what), x)


def avg_pool2d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    """Average pooling of NCHW input (padding 0 only)."""
    if padding not in (0, (0, 0)) or ceil_mode or divisor_override:
        raise ValueError("ops.avg_pool2d: padding, ceil_mode and "
                         "divisor_override other than their defaults are "
                         "not supported by msmlir")
    return _pool("avg", input_x, kernel_size, stride, "ops.avg_pool2d")


def max_pool2d(x, kernel_size, stride=None, padding=0, dilation=1,
               ceil_mode=False, return_indices=False):
    """Max pooling of NCHW input (padding 0, dilation 1 only)."""
    if padding not in (0, (0, 0)) or dilation not in (1, (1, 1)) or \
            ceil_mode or return_indices:
        raise ValueError("ops.max_pool2d: padding, dilation, ceil_mode and "
                         "return_indices other than their defaults are not "
                         "supported by msmlir")
    return _pool("max", x, kernel_size, stride, "ops.max_pool2d")


def _pool1d(kind, x, kernel_size, stride, what):
    """[N, C, L] pooled as [N, C, 1, L]."""
    k = kernel_size if isinstance(kernel_size, int) else kernel_size[0]
    s = k if stride is None else (stride if isinstance(stride, int)
                                  else stride[0])
    y = _pool(kind, reshape(x, x.shape[:-1] + (1, x.shape[-1])), (1, k),
              (1, s), what)
    return reshape(y, y.shape[:-2] + (y.shape[-1],))


def avg_pool1d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False,
               count_include_pad=True):
    if padding or ceil_mode:
        raise ValueError("ops.avg_pool1d: padding and ceil_mode are not "
                         "supported by msmlir")
    return _pool1d("avg", input_x, kernel_size, stride, "ops.avg_pool1d")


def max_pool1d(x, kernel_size, stride=None):
    return _pool1d("max", x, kernel_size, stride, "ops.max_pool1d")


def _channel_dropout(input, p, training, spatial):
    """Whole channels zeroed with probability p, the rest scaled by
    1 / (1 - p): a dropout of a [N, C, 1, ...] tensor of ones."""
    if not training or p == 0:
        return input
    if input.ndim < 2 + spatial - 1:
        raise ValueError(f"dropout{spatial}d needs at least "
                         f"{spatial + 1}-D input, got {input.ndim}-D")
    mask_shape = tuple(input.shape[:-spatial]) + (1,) * spatial
    mask = dropout(ones(mask_shape, input.dtype), p, True)
    return mul(input, mask)


def dropout1d(input, p=0.5, training=True):
    return _channel_dropout(input, p, training, 1)


def dropout2d(input, p=0.5, training=True):
    return _channel_dropout(input, p, training, 2)


def dropout3d(input, p=0.5, training=True):
    return _channel_dropout(input, p, training, 3)


def pixel_shuffle(input, upscale_factor):
    """[..., C r^2, H, W] -> [..., C, H r, W r]."""
    r = upscale_factor
    *lead, c, h, w = input.shape
    if c % (r * r):
        raise ValueError("For 'pixel_shuffle', the channels must be "
                         f"divisible by upscale_factor^2, but got {c}.")
    n = int(np.prod(lead)) if lead else 1
    x = reshape(input, (n, c // (r * r), r, r, h, w))
    x = transpose(x, (0, 1, 4, 2, 5, 3))
    return reshape(x, tuple(lead) + (c // (r * r), h * r, w * r))


def pixel_unshuffle(input, downscale_factor):
    """[..., C, H r, W r] -> [..., C r^2, H, W]."""
    r = downscale_factor
    *lead, c, h, w = input.shape
    if h % r or w % r:
        raise ValueError("For 'pixel_unshuffle', the height and width must "
                         "be divisible by downscale_factor, but got "
                         f"{h} and {w}.")
    n = int(np.prod(lead)) if lead else 1
    x = reshape(input, (n, c, h // r, r, w // r, r))
    x = transpose(x, (0, 1, 3, 5, 2, 4))
    return reshape(x, tuple(lead) + (c * r * r, h // r, w // r))


def pdist(input, p=2.0):
    """The p-norm distances between the rows of [..., N, M] input, for
    each pair i < j, in row-major order."""
    n = input.shape[-2]
    d = cdist(input, input, p)
    i, j = np.triu_indices(n, 1)
    flat = reshape(d, tuple(d.shape[:-2]) + (n * n,))
    return gather(flat, Tensor((i * n + j).astype(np.int32)), flat.ndim - 1)


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """|input - other| <= atol + rtol * |other|."""
    close = less_equal(abs(input - other), add(mul(abs(other), rtol), atol))
    close = logical_or(close, equal(input, other))
    if equal_nan:
        both = (input != input) & (other != other)
        close = logical_or(close, both)
    return close


def approximate_equal(x, y, tolerance=1e-5):
    return abs(x - y) < tolerance


def intopk(x1, x2, k):
    """Whether each row's target x2[i] is among x1[i]'s k largest."""
    _, top = topk(x1, k)
    targets = reshape(cast(x2, mstype.int32), (-1, 1))
    hits = cast(equal(top, targets), mstype.float32)
    return hits.sum(-1) > 0


def l2_normalize(x, axis=0, epsilon=1e-4):
    """x / sqrt(max(sum(x^2), epsilon))."""
    squares = (x * x).sum(axis, keepdims=True) if isinstance(axis, int) \
        else (x * x).sum(tuple(axis), keepdims=True)
    return x / ((squares.clamp(epsilon, None)) ** 0.5)


def sequence_mask(lengths, maxlen=None):
    """[..., maxlen] bools: position j < lengths[...]."""
    if maxlen is None:
        maxlen = int(np.max(lengths.asnumpy()))
    positions = Tensor(np.arange(maxlen, dtype=np.int64))
    return positions < reshape(cast(lengths, mstype.int64),
                               tuple(lengths.shape) + (1,))


