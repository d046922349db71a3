"""nn.Conv2d, nn.Conv1d and nn.Conv2dTranspose (MindSpore's names,
defaults and parameter layouts)."""

import numbers

from .. import dtype as mstype
from .. import ops
from ..ops._args import _pad_mode, _positive_pair
from ..ops.nn_func import _PAD_MODES, _conv2d_op, _conv_padding, _conv_transpose2d, _output_padding
from .._tensor import Parameter, Tensor, binary, nary
from .cell import Cell
from .layers import default_bias, default_weight_init, initializer

__all__ = ["Conv2d", "Conv1d", "Conv2dTranspose"]


def _positive_int(value, name, what):
    if not isinstance(value, numbers.Integral) or isinstance(value, bool) \
            or value <= 0:
        raise ValueError(f"{what}: {name} must be a positive int, got "
                         f"{value!r}")
    return int(value)



def _conv_parameters(shape, out_channels, has_bias, weight_init, bias_init,
                     dtype):
    """The weight Parameter of `shape` and the optional bias [out_channels]
    (default: uniform in +-1/sqrt(fan_in), fan_in = shape[1:] product), as
    Conv2d and Conv2dTranspose make them."""
    init = default_weight_init() if weight_init is None else weight_init
    weight = Parameter(initializer(init, shape, dtype), name="weight")
    if not has_bias:
        return weight, None
    fan_in = shape[1] * shape[2] * shape[3]
    return weight, Parameter(default_bias(bias_init, out_channels, fan_in,
                                          dtype), name="bias")

def _set_geometry(cell, what, in_channels, out_channels, kernel_size,
                  stride, pad_mode, padding, dilation, group):
    """The checked channel counts, group, kernel, stride, dilation and
    padding of a 2-D convolution Cell (Conv2d, Conv2dTranspose)."""
    cell.in_channels = _positive_int(in_channels, "in_channels", what)
    cell.out_channels = _positive_int(out_channels, "out_channels", what)
    cell.group = _positive_int(group, "group", what)
    for value, name in ((cell.in_channels, "in_channels"),
                        (cell.out_channels, "out_channels")):
        if value % cell.group:
            raise ValueError(f"{what}: {name}={value} is not divisible "
                             f"by group={cell.group}")
    cell.kernel_size = _positive_pair(kernel_size, "kernel_size", what)
    cell.stride = _positive_pair(stride, "stride", what)
    cell.dilation = _positive_pair(dilation, "dilation", what)
    cell.pad_mode = _pad_mode(pad_mode, _PAD_MODES, what)
    cell._pads = _conv_padding(padding, cell.pad_mode, what)
    cell.padding = padding


def _check_input(x, cell, name, spatial="H, W"):
    """x is [N, in_channels, *spatial], or a ValueError naming the Cell."""
    shape = x.shape
    if len(shape) != 2 + len(spatial.split(", ")) or \
            shape[1] != cell.in_channels:
        raise ValueError(
            f"input of shape {list(shape)} does not match in_channels="
            f"{cell.in_channels}: {name} expects [N, {cell.in_channels}, "
            f"{spatial}] (weight is {list(cell.weight.shape)})")


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
        _set_geometry(self, what, in_channels, out_channels, kernel_size,
                      stride, pad_mode, padding, dilation, group)
        if data_format != "NCHW":
            raise ValueError(f"{what}: data_format must be 'NCHW', got "
                             f"{data_format!r} (ms supports only NCHW)")
        self.data_format = data_format
        self.has_bias = bool(has_bias)
        self.weight_init = weight_init
        self.bias_init = bias_init
        shape = (self.out_channels, self.in_channels // self.group) + \
            self.kernel_size
        self.weight, self.bias = _conv_parameters(
            shape, self.out_channels, self.has_bias, self.weight_init,
            bias_init, dtype)
        self._op = _conv2d_op(self.pad_mode, self._pads, self.stride,
                                  self.dilation, self.group, what)

    def construct(self, x):
        _check_input(x, self, "Conv2d")
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


class Conv1d(Cell):
    """1-D convolution on [N, C, L] input (MindSpore 2.x nn.Conv1d).

    weight: [out_channels, in_channels / group, kernel_size], initialized
    as Conv2d's; bias (has_bias=True): [out_channels]. pad_mode 'same' (the
    default), 'valid', or 'pad' with `padding` zeros on both ends. Runs as
    the 2-D convolution of [N, C, 1, L] by [O, C / group, 1, K], so it
    shares conv2d's kernels, rounding and gradient.
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1,
                 pad_mode="same", padding=0, dilation=1, group=1,
                 has_bias=False, weight_init=None, bias_init=None,
                 dtype=mstype.float32):
        super().__init__()
        what = "nn.Conv1d"
        for value, name in ((kernel_size, "kernel_size"), (stride, "stride"),
                            (dilation, "dilation")):
            _positive_int(value, name, what)
        if not isinstance(padding, numbers.Integral) or padding < 0:
            raise ValueError(f"{what}: padding must be an int >= 0, got "
                             f"{padding!r}")
        # Validate here so that errors name nn.Conv1d, not the Conv2d below.
        mode = _pad_mode(pad_mode, _PAD_MODES, what)
        _conv_padding(int(padding), mode, what)
        group = _positive_int(group, "group", what)
        for value, name in ((in_channels, "in_channels"),
                            (out_channels, "out_channels")):
            if _positive_int(value, name, what) % group:
                raise ValueError(f"{what}: {name}={value} is not divisible "
                                 f"by group={group}")
        conv = Conv2d(in_channels, out_channels, (1, int(kernel_size)),
                      (1, int(stride)), pad_mode, (0, 0, int(padding),
                                                   int(padding)),
                      (1, int(dilation)), group, has_bias, weight_init,
                      bias_init, dtype=dtype)
        self.in_channels, self.out_channels = conv.in_channels, \
            conv.out_channels
        self.kernel_size, self.stride = int(kernel_size), int(stride)
        self.dilation, self.group = int(dilation), conv.group
        self.pad_mode, self.padding = conv.pad_mode, int(padding)
        self.has_bias = conv.has_bias
        w = conv.weight.asnumpy()
        self.weight = Parameter(Tensor(w.reshape(w.shape[0], w.shape[1],
                                                 w.shape[3]), dtype),
                                name="weight")
        self.bias = conv.bias
        self._op = conv._op

    def construct(self, x):
        shape = x.shape
        _check_input(x, self, "Conv1d", "L")
        x4 = ops.reshape(x, (shape[0], shape[1], 1, shape[2]))
        w = self.weight.shape
        w4 = ops.reshape(self.weight, (w[0], w[1], 1, w[2]))
        if self.has_bias:
            y = nary(self._op, (x4, w4, self.bias))
        else:
            y = binary(self._op, x4, w4)
        s = y.shape
        return ops.reshape(y, (s[0], s[1], s[3]))

    def extend_repr(self):
        return (f"input_channels={self.in_channels}, output_channels="
                f"{self.out_channels}, kernel_size={self.kernel_size}, "
                f"stride={self.stride}, pad_mode={self.pad_mode}, padding="
                f"{self.padding}, dilation={self.dilation}, group="
                f"{self.group}, has_bias={self.has_bias}")


class Conv2dTranspose(Cell):
    """2-D transposed convolution on NCHW input (MindSpore's
    nn.Conv2dTranspose): the gradient of Conv2d with respect to its input,
    one ms.conv2d_backprop_input (+ bias).

    weight: [in_channels, out_channels / group, kh, kw], HeUniform(sqrt(5))
    by default with fan_in = out_channels / group * kh * kw; bias (only with
    has_bias=True): [out_channels], U(-1/sqrt(fan_in), 1/sqrt(fan_in)).
    The output is H * stride with pad_mode 'same' (the default),
    H * stride + max(dilation * (kh - 1) + 1 - stride, 0) with 'valid', and
    (H - 1) * stride - (top + bottom) + dilation * (kh - 1) + 1 +
    output_padding with 'pad'; output_padding (smaller than stride) only
    with 'pad', its rows computed like the others (as torch does).
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1,
                 pad_mode="same", padding=0, output_padding=0, dilation=1,
                 group=1, has_bias=False, weight_init=None, bias_init=None,
                 dtype=mstype.float32):
        super().__init__()
        what = "nn.Conv2dTranspose"
        _set_geometry(self, what, in_channels, out_channels, kernel_size,
                      stride, pad_mode, padding, dilation, group)
        self._output_padding = _output_padding(
            output_padding, self.stride, self.pad_mode, what)
        self.output_padding = output_padding
        self.has_bias = bool(has_bias)
        self.weight_init = weight_init
        self.bias_init = bias_init
        shape = (self.in_channels, self.out_channels // self.group) + \
            self.kernel_size
        self.weight, self.bias = _conv_parameters(
            shape, self.out_channels, self.has_bias, self.weight_init,
            bias_init, dtype)

    def construct(self, x):
        _check_input(x, self, "Conv2dTranspose")
        return _conv_transpose2d(
            x, self.weight, self.bias, self.stride, self.pad_mode,
            self._pads, self._output_padding, self.dilation, self.group,
            "Conv2dTranspose")

    def extend_repr(self):
        return (f"input_channels={self.in_channels}, output_channels="
                f"{self.out_channels}, kernel_size={self.kernel_size}, "
                f"stride={self.stride}, pad_mode={self.pad_mode}, padding="
                f"{self.padding}, output_padding={self.output_padding}, "
                f"dilation={self.dilation}, group={self.group}, has_bias="
                f"{self.has_bias}, weight_init={self.weight_init}, "
                f"bias_init={self.bias_init}")
