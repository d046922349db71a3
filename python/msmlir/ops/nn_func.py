"""Neural-network ops: convolution, normalization, softmax, activations
composed from ms ops, dropout and interpolation (part of
``mindspore.ops``)."""

import math
import numbers

import numpy as np

from .. import dtype as mstype
from .. import _random
from .._tensor import Tensor, binary, unary, nary, op, check_int_fits, float_only
from ._args import (_i64_array, _f32, _axis, _tensor, _positive_pair, _pad_mode,
                    _real_arg)
from .math_func import (add, sub, mul, div, maximum, minimum, relu, neg, abs,
                        sigmoid, exp, log, sqrt, cast)
from .array_func import reshape
from .reduction_func import reduce_mean
from .parameter_func import assign

__all__ = [
    "conv2d", "conv_transpose2d", "batch_norm", "layer_norm", "softmax",
    "log_softmax", "leaky_relu", "silu", "elu", "softplus", "dropout",
    "interpolate"
]


#===---------------------------------------------------------------------===#
# Convolution
#===---------------------------------------------------------------------===#


_PAD_MODES = ("same", "valid", "pad")


def _conv_padding(padding, pad_mode, what):
    """padding as (top, bottom, left, right): an int, (h, w) or a 4-tuple;
    nonzero only with pad_mode 'pad' (as in MindSpore)."""
    def is_int(v):
        return isinstance(v, numbers.Integral) and not isinstance(v, bool)

    if is_int(padding):
        pads = (int(padding),) * 4
    elif isinstance(padding, (tuple, list)) and len(padding) in (2, 4) and \
            all(is_int(v) for v in padding):
        pads = tuple(int(v) for v in padding)
        if len(pads) == 2:
            pads = (pads[0], pads[0], pads[1], pads[1])
    else:
        raise ValueError(f"{what}: padding must be an int or a tuple of 2 "
                         f"or 4 ints, got {padding!r}")
    if any(p < 0 for p in pads):
        raise ValueError(f"{what}: padding must not be negative, got "
                         f"{padding!r}")
    if pad_mode != "pad" and any(pads):
        raise ValueError(f"{what}: padding must be 0 when pad_mode is "
                         f"'{pad_mode}', got {padding!r}; use pad_mode='pad' "
                         "for explicit padding")
    return pads


def _conv2d_op(pad_mode, padding, stride, dilation, group, public):
    """The ms.conv2d Op for normalized arguments."""
    check_int_fits(int(group), mstype.int64)
    return op("ms.conv2d",
              f'{{pad_mode = "{pad_mode}", padding = {_i64_array(padding)}, '
              f"stride = {_i64_array(stride)}, dilation = "
              f"{_i64_array(dilation)}, group = {int(group)} : i64}}",
              public)


def _pool2d_op(kind, kernel_size, stride, pad_mode, public):
    """The ms.max_pool2d / ms.avg_pool2d Op for normalized arguments."""
    return op(f"ms.{kind}_pool2d",
              f"{{kernel_size = {_i64_array(kernel_size)}, stride = "
              f'{_i64_array(stride)}, pad_mode = "{pad_mode}"}}', public)


def conv2d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0,
           dilation=1, groups=1):
    """2-D convolution, NCHW (MindSpore 2.x ops.conv2d): input [N, C, H, W],
    weight [O, C / groups, kh, kw], bias [O] or None. stride and dilation
    are an int or (h, w); padding an int, (h, w) or (top, bottom, left,
    right), nonzero only with pad_mode 'pad'. 'same' gives ceil(H / stride)
    with the odd row or column of padding at the bottom / right."""
    what = "ops.conv2d"
    mode = _pad_mode(pad_mode, _PAD_MODES, what)
    pads = _conv_padding(padding, mode, what)
    stride = _positive_pair(stride, "stride", what)
    dilation = _positive_pair(dilation, "dilation", what)
    if not isinstance(groups, numbers.Integral) or groups <= 0:
        raise ValueError(f"{what}: groups must be a positive int, got "
                         f"{groups!r}")
    o = _conv2d_op(mode, pads, stride, dilation, groups, what)
    if bias is None:
        return binary(o, input, weight)
    return nary(o, (input, weight, bias))


def _transposed_length(size, kernel, stride, dilation, pad_mode, pads,
                       output_padding):
    """The output length of a transposed conv along one dim (MindSpore's
    nn.Conv2dTranspose rule): the input length of the conv2d it reverses."""
    span = dilation * (kernel - 1) + 1
    if pad_mode == "same":
        return size * stride
    if pad_mode == "valid":
        return size * stride + max(span - stride, 0)
    return (size - 1) * stride - pads + span + output_padding


def _conv_transpose2d(input, weight, bias, stride, pad_mode, pads,
                      output_padding, dilation, group, what):
    """ms.conv2d_backprop_input of input [N, Cin, H, W] by weight
    [Cin, Cout / group, kh, kw]: the adjoint of the conv2d with this
    geometry, whose input shape is the result's."""
    shape = input.shape
    if len(shape) != 4 or len(weight.shape) != 4 or \
            shape[1] != weight.shape[0]:
        raise ValueError(f"{what}: input of shape {list(shape)} does not "
                         f"match weight {list(weight.shape)}: expected [N, "
                         f"{weight.shape[0] if len(weight.shape) == 4 else 'C'}"
                         ", H, W]")
    out = [shape[0], weight.shape[1] * group]
    for d in range(2):
        out.append(_transposed_length(
            shape[2 + d], weight.shape[2 + d], stride[d], dilation[d],
            pad_mode, pads[2 * d] + pads[2 * d + 1], output_padding[d]))
    if min(out[2:]) <= 0:
        raise ValueError(f"{what}: the output of input {list(shape)} would "
                         f"be {out}")
    o = op("ms.conv2d_backprop_input",
           f'{{shape = {_i64_array(out)}, pad_mode = "{pad_mode}", padding = '
           f"{_i64_array(pads)}, stride = {_i64_array(stride)}, dilation = "
           f"{_i64_array(dilation)}, group = {int(group)} : i64}}", what)
    y = binary(o, input, weight)
    if bias is not None:
        y = add(y, reshape(bias, (1, out[1], 1, 1)))
    return y


def _output_padding(value, stride, pad_mode, what):
    pair = (value, value) if isinstance(value, numbers.Integral) else value
    if not (isinstance(pair, (tuple, list)) and len(pair) == 2 and all(
            isinstance(v, numbers.Integral) and 0 <= v for v in pair)):
        raise ValueError(f"{what}: output_padding must be an int or a tuple "
                         f"of 2 ints >= 0, got {value!r}")
    pair = (int(pair[0]), int(pair[1]))
    if any(pair) and pad_mode != "pad":
        raise ValueError(f"{what}: output_padding must be 0 when pad_mode is "
                         f"'{pad_mode}', got {value!r}")
    if pair[0] >= stride[0] or pair[1] >= stride[1]:
        raise ValueError(f"{what}: output_padding {value!r} must be smaller "
                         f"than stride {stride}")
    return pair


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0,
                     output_padding=0, groups=1, dilation=1):
    """2-D transposed convolution (mint.nn.functional.conv_transpose2d's
    signature): input [N, Cin, H, W], weight [Cin, Cout / groups, kh, kw],
    bias [Cout] or None; padding an int or (h, w) removed from both sides;
    H_out = (H - 1) * stride - 2 * padding + dilation * (kh - 1) +
    output_padding + 1."""
    what = "ops.conv_transpose2d"
    stride = _positive_pair(stride, "stride", what)
    dilation = _positive_pair(dilation, "dilation", what)
    pads = _conv_padding(padding, "pad", what)
    if not isinstance(groups, numbers.Integral) or groups <= 0:
        raise ValueError(f"{what}: groups must be a positive int, got "
                         f"{groups!r}")
    out_pad = _output_padding(output_padding, stride, "pad", what)
    return _conv_transpose2d(input, weight, bias, stride, "pad", pads,
                             out_pad, dilation, int(groups), what)


#===---------------------------------------------------------------------===#
# Normalization and softmax
#===---------------------------------------------------------------------===#


def batch_norm(input_x, running_mean, running_var, weight, bias,
               training=False, momentum=0.1, eps=1e-5):
    """Batch normalization over dim 1 (MindSpore 2.x ops.batch_norm). At
    inference: (x - running_mean) / sqrt(running_var + eps) * weight + bias.
    With training=True the batch's mean and biased variance normalize, and
    the running statistics (Parameters) become
    (1 - momentum) * running + momentum * batch (the variance unbiased)."""
    if training:
        y, mean, var, count = batch_norm_train(
            input_x, weight, bias, eps)
        m = float(momentum)
        unbiased = var * (count / (count - 1)) if count > 1 else var
        assign(running_mean, running_mean * (1.0 - m) + mean * m)
        assign(running_var, running_var * (1.0 - m) + unbiased * m)
        return y
    o = op("ms.batch_norm", "{epsilon = " + _f32(eps) + "}",
           "ops.batch_norm")
    return nary(o, (input_x, weight, bias, running_mean, running_var))


def batch_statistics(x):
    """The per-channel (dim 1) mean and biased variance of `x`, in ms ops:
    mean = sum / count, var = sum((x - mean)^2) / count, each sum in order."""
    axes = (0,) + tuple(range(2, x.ndim))
    mean = reduce_mean(x, axes, True)
    centered = x - mean
    var = reduce_mean(centered * centered, axes, True)
    return mean, var, centered


def batch_norm_train(x, gamma, beta, eps):
    """Training-mode batch norm: y normalized with the batch's mean and
    biased variance; also returns them ([C]) and the element count per
    channel."""
    mean, var, centered = batch_statistics(x)
    c = x.shape[1]
    shape = (1, c) + (1,) * (x.ndim - 2)
    y = centered / sqrt(var + eps)
    y = y * reshape(gamma, shape) + reshape(beta, shape)
    count = x.size // c
    return y, reshape(mean, (c,)), reshape(var, (c,)), count


def _layer_norm_op(begin_norm_axis, begin_params_axis, epsilon, public):
    return op("ms.layer_norm",
              f"{{begin_norm_axis = {int(begin_norm_axis)} : i64, "
              f"begin_params_axis = {int(begin_params_axis)} : i64, "
              f"epsilon = {_f32(epsilon)}}}", public)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Layer normalization over the trailing dims `normalized_shape`
    (MindSpore 2.x ops.layer_norm): population mean and variance, then
    (x - mean) / sqrt(var + eps) * weight + bias; weight and bias (shape
    normalized_shape) default to ones and zeros."""
    what = "ops.layer_norm"
    input = _tensor(input, what)
    if isinstance(normalized_shape, numbers.Integral):
        normalized_shape = (normalized_shape,)
    normalized_shape = tuple(int(d) for d in normalized_shape)
    k = len(normalized_shape)
    if k == 0 or k > input.ndim or \
            tuple(input.shape[input.ndim - k:]) != normalized_shape:
        raise ValueError(f"{what}: normalized_shape {list(normalized_shape)}"
                         f" does not match the trailing dimensions of input "
                         f"of shape {list(input.shape)}")
    if weight is None:
        weight = Tensor(np.ones(normalized_shape, np.float32))
    if bias is None:
        bias = Tensor(np.zeros(normalized_shape, np.float32))
    axis = input.ndim - k
    return nary(_layer_norm_op(axis, axis, eps, what), (input, weight, bias))


def softmax(input, axis=-1, *, dtype=None):
    input = float_only(_tensor(input, "ops.softmax"), "ops.softmax")
    axis = _axis(axis, input.ndim, "ops.softmax")
    return unary(op("ms.softmax", f"{{axis = {axis} : i64}}", "ops.softmax"),
                 input)


def log_softmax(logits, axis=-1):
    logits = float_only(_tensor(logits, "ops.log_softmax"),
                        "ops.log_softmax")
    axis = _axis(axis, logits.ndim, "ops.log_softmax")
    return unary(op("ms.log_softmax", f"{{axis = {axis} : i64}}",
                    "ops.log_softmax"), logits)


#===---------------------------------------------------------------------===#
# Activations composed from ms ops (differentiable through their parts)
#===---------------------------------------------------------------------===#


def leaky_relu(input, alpha=0.2):
    """x for x >= 0, alpha * x below (MindSpore's default alpha 0.2):
    max(x, alpha * x) for alpha <= 1, min(x, alpha * x) above."""
    alpha = _real_arg(alpha, "alpha", "ops.leaky_relu")
    scaled = mul(input, alpha)
    return maximum(input, scaled) if alpha <= 1 else minimum(input, scaled)


def silu(input):
    """x * sigmoid(x)."""
    return mul(input, sigmoid(input))


def elu(input_x, alpha=1.0):
    """x for x > 0, alpha * (exp(x) - 1) below: relu(x) + min(alpha *
    (exp(x) - 1), 0), which is the same for alpha > 0. exp(x) - 1 is not
    expm1, so tiny negative x lose relative (not absolute) accuracy."""
    alpha = _real_arg(alpha, "alpha", "ops.elu")
    if alpha <= 0:
        raise ValueError(f"ops.elu: alpha must be > 0, got {alpha}")
    negative = minimum(mul(sub(exp(input_x), 1.0), alpha), 0.0)
    return add(relu(input_x), negative)


def softplus(input, beta=1, threshold=20):
    """log(1 + exp(beta * x)) / beta, computed as (relu(bx) +
    log(1 + exp(-|bx|))) / beta so it never overflows. Above `threshold`
    MindSpore returns x itself; this form already equals x there to within
    float32 rounding, so threshold only has to be a number."""
    what = "ops.softplus"
    beta = _real_arg(beta, "beta", what)
    _real_arg(threshold, "threshold", what)
    if beta <= 0:
        raise ValueError(f"{what}: beta must be > 0, got {beta}")
    if not input.dtype.is_float:
        # As for exp and log, integers compute in float32 (promoting first:
        # neg(abs(x)) would wrap for uint8).
        input = cast(input, mstype.float32)
    bx = input if beta == 1 else mul(input, beta)
    soft = add(relu(bx), log(add(exp(neg(abs(bx))), 1.0)))
    return soft if beta == 1 else div(soft, beta)


#===---------------------------------------------------------------------===#
# Dropout and interpolation
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
    p = float(p)
    if not 0.0 <= p < 1.0:
        raise ValueError(f"ops.dropout: p must be in [0, 1), got {p}")
    if not training or p == 0.0:
        return unary(dropout_op(p, False, "ops.dropout"), input)
    return binary(dropout_op(p, True, "ops.dropout"), input,
                  _random.state_tensor(seed))


_MODES = ("nearest", "bilinear")


def _pair(value, name, what, kind):
    if isinstance(value, (list, tuple)):
        values = list(value)
    else:
        values = [value, value]
    if len(values) != 2 or not all(isinstance(v, kind) and
                                   not isinstance(v, bool) for v in values):
        raise TypeError(f"{what}: {name} must be a {kind.__name__} or two "
                        f"of them for the H and W dims, got {value!r}")
    return values


def _output_size(x, size, scale_factor, what):
    if (size is None) == (scale_factor is None):
        raise ValueError(f"{what}: give exactly one of size and scale_factor")
    if size is not None:
        out = [int(v) for v in _pair(size, "size", what, numbers.Integral)]
        if min(out) <= 0:
            raise ValueError(f"{what}: size must be positive, got {size!r}")
        return out, None
    scales = [float(v) for v in _pair(scale_factor, "scale_factor", what,
                                      numbers.Real)]
    if min(scales) <= 0:
        raise ValueError(f"{what}: scale_factor must be positive, got "
                         f"{scale_factor!r}")
    out = [int(math.floor(d * s)) for d, s in zip(x.shape[2:], scales)]
    if min(out) <= 0:
        raise ValueError(f"{what}: scale_factor {scale_factor!r} makes an "
                         f"empty output from input shape {list(x.shape)}")
    return out, scales


def interpolate(input, size=None, scale_factor=None, mode="nearest",
                align_corners=None, recompute_scale_factor=None):
    """ops.interpolate on 4-D NCHW input: mode 'nearest' (torch's) or
    'bilinear' (align_corners False by default). With scale_factor (and
    recompute_scale_factor not set) the source coordinates use
    1 / scale_factor, as torch does; otherwise in_size / out_size."""
    what = "ops.interpolate"
    if not isinstance(input, Tensor):
        raise TypeError(f"{what}: expected a Tensor, got "
                        f"{type(input).__name__}")
    if input.ndim != 4:
        raise ValueError(f"{what}: input must be 4-D NCHW, got shape "
                         f"{list(input.shape)}")
    if mode not in _MODES:
        raise ValueError(f"{what}: mode must be one of {_MODES} (4-D "
                         f"input), got {mode!r}")
    if mode == "nearest" and align_corners is not None:
        raise ValueError(f"{what}: align_corners can only be set with mode "
                         "'bilinear'")
    out, scales = _output_size(input, size, scale_factor, what)
    attrs = [f"size = array<i64: {out[0]}, {out[1]}>", f'mode = "{mode}"']
    if align_corners:
        attrs.append("align_corners")
    elif scales is not None and not recompute_scale_factor:
        ratios = ", ".join(repr(1.0 / s) for s in scales)
        attrs.append(f"scales = array<f64: {ratios}>")
    return unary(op("ms.interpolate", "{" + ", ".join(attrs) + "}", what),
                 input)
