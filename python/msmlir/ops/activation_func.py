"""Activation functions composed of the dialect's ops (part of
``mindspore.ops``), with MindSpore's signatures and defaults."""

from .array_func import reshape, split, where, zeros_like
from .math_composed import expm1
from .math_func import (abs, add, clamp, div, exp, greater, less, maximum,
                        minimum, mul, neg, sigmoid, sub, tanh)
from .nn_func import softmax, softplus

__all__ = ["relu6", "hardtanh", "hardshrink", "soft_shrink", "softshrink",
           "hardswish", "hardsigmoid", "mish", "selu", "celu", "logsigmoid",
           "softsign", "tanhshrink", "threshold", "glu", "softmin",
           "fast_gelu", "prelu"]

# SELU's constants (Klambauer et al.), as MindSpore's.
_SELU_ALPHA = 1.67326324235437728481704299167
_SELU_SCALE = 1.05070098735548049341933498529


def relu6(x):
    """min(max(x, 0), 6)."""
    return clamp(x, 0.0, 6.0)


def hardtanh(input, min_val=-1.0, max_val=1.0):
    return clamp(input, min_val, max_val)


def hardshrink(input, lambd=0.5):
    """x where |x| > lambd, else 0."""
    return where(greater(abs(input), lambd), input, zeros_like(input))


def soft_shrink(input, lambd=0.5):
    """x - lambd above lambd, x + lambd below -lambd, else 0."""
    shrunk = where(greater(input, lambd), sub(input, lambd),
                   zeros_like(input))
    return where(less(input, -lambd), add(input, lambd), shrunk)


softshrink = soft_shrink


def hardswish(x):
    """x * relu6(x + 3) / 6."""
    return div(mul(x, relu6(add(x, 3.0))), 6.0)


def hardsigmoid(input):
    """relu6(x + 3) / 6."""
    return div(relu6(add(input, 3.0)), 6.0)


def mish(x):
    """x * tanh(softplus(x))."""
    return mul(x, tanh(softplus(x)))


def selu(input_x):
    """scale * (max(0, x) + min(0, alpha * (exp(x) - 1)))."""
    negative = minimum(mul(expm1(input_x), _SELU_ALPHA), 0.0)
    return mul(add(maximum(input_x, 0.0), negative), _SELU_SCALE)


def celu(x, alpha=1.0):
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1))."""
    if alpha == 0:
        raise ValueError("For 'celu', the 'alpha' can not be equal to zero.")
    negative = minimum(mul(expm1(div(x, alpha)), alpha), 0.0)
    return add(maximum(x, 0.0), negative)


def logsigmoid(x):
    """log(sigmoid(x)) = -softplus(-x)."""
    return neg(softplus(neg(x)))


def softsign(x):
    """x / (1 + |x|)."""
    return div(x, add(abs(x), 1.0))


def tanhshrink(input):
    return sub(input, tanh(input))


def threshold(input, thr, value):
    """x where x > thr, else value."""
    return where(greater(input, thr), input, value)


def glu(x, axis=-1):
    """a * sigmoid(b), a and b the halves of x along axis."""
    if x.shape[axis] % 2:
        raise ValueError("For 'glu', the size of 'x' along 'axis' must be "
                         f"even, but got {x.shape[axis]}.")
    a, b = split(x, x.shape[axis] // 2, axis)
    return mul(a, sigmoid(b))


def softmin(x, axis=-1, *, dtype=None):
    return softmax(neg(x), axis, dtype=dtype)


def fast_gelu(x):
    """MindSpore's fast GELU: x / (1 + exp(-1.702 |x|)) * exp(0.851 (x -
    |x|))."""
    ax = abs(x)
    return mul(div(x, add(exp(mul(ax, -1.702)), 1.0)),
               exp(mul(sub(x, ax), 0.851)))


def prelu(x, weight):
    """x where x >= 0, else weight * x; weight has one value, or one per
    channel (dim 1)."""
    if weight.ndim != 1:
        raise ValueError("For 'prelu', the dimension of 'weight' must be 1, "
                         f"but got {weight.ndim}.")
    channels = x.shape[1] if x.ndim > 1 else 1
    if weight.shape[0] not in (1, channels):
        raise ValueError("For 'prelu', the size of 'weight' must be 1 or the "
                         f"number of channels {channels}, but got "
                         f"{weight.shape[0]}.")
    if x.ndim > 1:
        weight = reshape(weight, (weight.shape[0],) + (1,) * (x.ndim - 2))
    return where(less(x, 0.0), mul(x, weight), x)
