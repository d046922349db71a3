"""nn.MaxPool2d and nn.AvgPool2d (MindSpore's names and defaults)."""

import numpy as np

from .. import ops
from ..ops._args import _pad_mode, _positive_pair
from ..ops.nn_func import _pool2d_op
from .._tensor import Tensor, unary
from .cell import Cell

__all__ = ["MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d"]


class _Pool2d(Cell):
    """2-D pooling over NCHW ([N, C, H, W] or [C, H, W]) windows.

    kernel_size and stride are an int or (h, w). pad_mode 'valid' (the
    default) pads nothing; 'same' keeps ceil(H / stride) rows, the odd row
    or column of padding at the bottom / right, and padded positions never
    count (max ignores them, avg divides by the real elements). ms has no
    explicit padding ('pad'), ceil_mode or dilation: those arguments only
    accept their defaults.
    """

    _kind = None
    _what = None

    def _setup(self, kernel_size, stride, pad_mode, data_format, defaults):
        what = self._what
        self.kernel_size = _positive_pair(kernel_size, "kernel_size",
                                              what)
        self.stride = _positive_pair(stride, "stride", what)
        if isinstance(pad_mode, str) and pad_mode.lower() == "pad":
            raise ValueError(f"{what}: pad_mode 'pad' is not supported; use "
                             "'valid' or 'same'")
        self.pad_mode = _pad_mode(pad_mode, ("valid", "same"), what)
        if data_format != "NCHW":
            raise ValueError(f"{what}: data_format must be 'NCHW', got "
                             f"{data_format!r} (ms supports only NCHW)")
        self.data_format = data_format
        for name, value, default in defaults:
            if name == "padding" and isinstance(value, (tuple, list)) and \
                    all(v == 0 for v in value):
                value = 0
            if value != default:
                raise ValueError(f"{what}: {name}={value!r} is not supported"
                                 f" (only {name}={default!r})")
        self._op = _pool2d_op(self._kind, self.kernel_size, self.stride,
                                  self.pad_mode, what)

    def construct(self, x):
        shape = x.shape
        if len(shape) == 3:
            y = unary(self._op, ops.reshape(x, (1,) + tuple(shape)))
            return ops.reshape(y, y.shape[1:])
        if len(shape) != 4:
            raise ValueError(f"input of shape {list(shape)} is not "
                             f"[N, C, H, W] or [C, H, W]: "
                             f"{type(self).__name__} pools 2-D NCHW input")
        return unary(self._op, x)

    def extend_repr(self):
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, "
                f"pad_mode={self.pad_mode}")


class MaxPool2d(_Pool2d):
    """The maximum over each kernel_size window (MindSpore's
    nn.MaxPool2d)."""

    _kind = "max"
    _what = "nn.MaxPool2d"

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0,
                 dilation=1, return_indices=False, ceil_mode=False,
                 data_format="NCHW"):
        super().__init__()
        self._setup(kernel_size, stride, pad_mode, data_format,
                    (("padding", padding, 0), ("dilation", dilation, 1),
                     ("return_indices", return_indices, False),
                     ("ceil_mode", ceil_mode, False)))


class AvgPool2d(_Pool2d):
    """The mean over each kernel_size window (MindSpore's nn.AvgPool2d)."""

    _kind = "avg"
    _what = "nn.AvgPool2d"

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0,
                 ceil_mode=False, count_include_pad=True,
                 divisor_override=None, data_format="NCHW"):
        super().__init__()
        # count_include_pad only matters for explicit padding, which ms
        # does not have; any value is accepted.
        self.count_include_pad = count_include_pad
        self._setup(kernel_size, stride, pad_mode, data_format,
                    (("padding", padding, 0), ("ceil_mode", ceil_mode, False),
                     ("divisor_override", divisor_override, None)))


class AdaptiveAvgPool2d(Cell):
    """Averages [N, C, H, W] (or [C, H, W]) into output_size (an int, or
    (h, w) where None keeps that dim). Output cell (i, j) averages rows
    floor(i * H / h) to ceil((i + 1) * H / h) - 1, and likewise columns,
    as MindSpore and PyTorch do. Sizes that divide the input are one
    avg_pool2d; others multiply by [h, H] and [W, w] averaging matrices."""

    def __init__(self, output_size):
        super().__init__()
        what = "nn.AdaptiveAvgPool2d"
        if isinstance(output_size, (tuple, list)):
            sizes = tuple(output_size)
        else:
            sizes = (output_size, output_size)
        if len(sizes) != 2 or not all(
                s is None or (isinstance(s, int) and not isinstance(s, bool)
                              and s > 0) for s in sizes):
            raise ValueError(f"{what}: output_size must be a positive int or "
                             f"a pair of positive ints / None, got "
                             f"{output_size!r}")
        self.output_size = sizes

    def construct(self, x):
        shape = tuple(x.shape)
        if len(shape) == 3:
            y = self.construct(ops.reshape(x, (1,) + shape))
            return ops.reshape(y, y.shape[1:])
        if len(shape) != 4:
            raise ValueError(f"input of shape {list(shape)} is not "
                             "[N, C, H, W] or [C, H, W]: AdaptiveAvgPool2d "
                             "pools 2-D NCHW input")
        h, w = shape[2], shape[3]
        oh = self.output_size[0] or h
        ow = self.output_size[1] or w
        if h % oh == 0 and w % ow == 0:
            kernel = (h // oh, w // ow)
            if kernel == (1, 1):
                return x
            return unary(_pool2d_op("avg", kernel, kernel, "valid",
                                        "nn.AdaptiveAvgPool2d"), x)
        rows = Tensor(_averaging_matrix(h, oh))
        cols = Tensor(_averaging_matrix(w, ow).T.copy())
        return ops.matmul(ops.matmul(rows, x), cols)

    def extend_repr(self):
        return f"output_size={self.output_size}"


def _averaging_matrix(size, out):
    """[out, size]: row i averages input rows floor(i * size / out) to
    ceil((i + 1) * size / out) - 1."""
    m = np.zeros((out, size), np.float32)
    for i in range(out):
        start = (i * size) // out
        end = -((-(i + 1) * size) // out)
        m[i, start:end] = 1.0 / (end - start)
    return m
