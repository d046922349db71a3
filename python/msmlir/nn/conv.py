"""nn.Conv2d (MindSpore's names, defaults and parameter layout)."""

import math
import numbers

from .. import dtype as mstype
from .. import ops
from .._tensor import Parameter, Tensor, binary, nary
from .cell import Cell
from .layers import _uniform, initializer

__all__ = ["Conv2d"]


def _positive_int(value, name, what):
    if not isinstance(value, numbers.Integral) or isinstance(value, bool) \
            or value <= 0:
        raise ValueError(f"{what}: {name} must be a positive int, got "
                         f"{value!r}")
    return int(value)


class Conv2d(Cell):
    """2-D convolution on NCHW input: out = conv(x, weight) (+ bias).

    weight: [out_channels, in_channels / group, kh, kw], HeUniform(sqrt(5))
    by default (U(-1/sqrt(fan_in), 1/sqrt(fan_in)), fan_in = in_channels /
    group * kh * kw); bias (only with has_bias=True): [out_channels],
    U(-1/sqrt(fan_in), 1/sqrt(fan_in)) by default. pad_mode 'same' (the
    default) keeps ceil(H / stride) rows, the odd row or column of padding
    at the bottom / right; 'valid' pads nothing; 'pad' uses `padding` (an
    int, (h, w) or (top, bottom, left, right)).
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1,
                 pad_mode="same", padding=0, dilation=1, group=1,
                 has_bias=False, weight_init=None, bias_init=None,
                 data_format="NCHW", dtype=mstype.float32):
        super().__init__()
        what = "nn.Conv2d"
        self.in_channels = _positive_int(in_channels, "in_channels", what)
        self.out_channels = _positive_int(out_channels, "out_channels", what)
        self.group = _positive_int(group, "group", what)
        for value, name in ((self.in_channels, "in_channels"),
                            (self.out_channels, "out_channels")):
            if value % self.group:
                raise ValueError(f"{what}: {name}={value} is not divisible "
                                 f"by group={self.group}")
        self.kernel_size = ops._positive_pair(kernel_size, "kernel_size",
                                              what)
        self.stride = ops._positive_pair(stride, "stride", what)
        self.dilation = ops._positive_pair(dilation, "dilation", what)
        self.pad_mode = ops._pad_mode(pad_mode, ops._PAD_MODES, what)
        self._pads = ops._conv_padding(padding, self.pad_mode, what)
        self.padding = padding
        if data_format != "NCHW":
            raise ValueError(f"{what}: data_format must be 'NCHW', got "
                             f"{data_format!r} (ms supports only NCHW)")
        self.data_format = data_format
        self.has_bias = bool(has_bias)
        self.weight_init = "he_uniform" if weight_init is None else \
            weight_init
        self.bias_init = bias_init
        shape = (self.out_channels, self.in_channels // self.group) + \
            self.kernel_size
        self.weight = Parameter(initializer(self.weight_init, shape, dtype),
                                name="weight")
        self.bias = None
        if self.has_bias:
            fan_in = shape[1] * shape[2] * shape[3]
            if bias_init is None:
                data = Tensor(_uniform((self.out_channels,),
                                       1.0 / math.sqrt(fan_in)), dtype)
            else:
                data = initializer(bias_init, (self.out_channels,), dtype)
            self.bias = Parameter(data, name="bias")
        self._op = ops._conv2d_op(self.pad_mode, self._pads, self.stride,
                                  self.dilation, self.group, what)

    def construct(self, x):
        shape = x.shape
        if len(shape) != 4 or shape[1] != self.in_channels:
            raise ValueError(
                f"input of shape {list(shape)} does not match in_channels="
                f"{self.in_channels}: Conv2d expects [N, {self.in_channels}, "
                f"H, W] (weight is {list(self.weight.shape)})")
        if self.has_bias:
            return nary(self._op, (x, self.weight, self.bias))
        return binary(self._op, x, self.weight)

    def extend_repr(self):
        return (f"input_channels={self.in_channels}, output_channels="
                f"{self.out_channels}, kernel_size={self.kernel_size}, "
                f"stride={self.stride}, pad_mode={self.pad_mode}, padding="
                f"{self.padding}, dilation={self.dilation}, group="
                f"{self.group}, has_bias={self.has_bias}, weight_init="
                f"{self.weight_init}, bias_init={self.bias_init}, format="
                f"{self.data_format}")
