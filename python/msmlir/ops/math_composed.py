"""Elementwise functions composed of the dialect's ops (part of
``mindspore.ops``): rounding, the accurate log1p/expm1, logs and powers of
other bases, the predicates (isnan, isinf, ...), and MindSpore's aliases
(absolute, multiply, divide, ...). Each is a handful of ms ops, so it runs
in both modes, fuses and differentiates as its parts do.

log1p and expm1 use Kahan's corrections (log(u) * x / (u - 1) with u =
1 + x; (u - 1) * x / log(u) with u = exp(x)), which keep the relative
accuracy of tiny arguments that log(1 + x) and exp(x) - 1 lose.
"""

import math

import numpy as np

from .. import dtype as mstype
from .._tensor import Tensor
from .array_func import where, zeros_like
from .math_func import (abs, add, cast, div, equal, exp, floor,
                        floor_divide, fmod,
                        greater, less, log, logical_and, logical_not,
                        logical_or, maximum, mul, neg, not_equal, pow, sqrt,
                        sub)

__all__ = ["ceil", "trunc", "frac", "sign", "sgn", "reciprocal",
           "exp2", "log2", "log10", "log1p", "expm1", "logaddexp",
           "logaddexp2", "xlogy", "xdivy", "hypot", "lerp", "addcmul",
           "addcdiv", "heaviside", "logit", "deg2rad", "rad2deg",
           "float_power", "isnan", "isinf", "isfinite", "isposinf",
           "isneginf", "isreal", "is_complex", "is_floating_point",
           "is_tensor", "logical_xor", "nan_to_num", "absolute", "negative",
           "positive", "multiply", "divide", "subtract", "true_divide",
           "truncate_div", "truncate_mod", "square_difference", "signbit",
           "copysign"]


def _float(x):
    return x if x.dtype.is_float else cast(x, mstype.float32)


def ceil(input):
    return neg(floor(neg(input))) if input.dtype.is_float else input


def trunc(input):
    """x rounded toward zero."""
    if not input.dtype.is_float:
        return input
    return where(less(input, 0.0), ceil(input), floor(input))


def frac(input):
    """x - trunc(x), with x's sign."""
    return sub(input, trunc(input))


def sign(input):
    """-1, 0 or 1 in x's dtype (0 for 0 and NaN)."""
    return sub(cast(greater(input, 0), input.dtype),
               cast(less(input, 0), input.dtype))


sgn = sign


def reciprocal(input):
    return div(1.0, input)


def exp2(input):
    return pow(2.0, _float(input))


def log2(input):
    return mul(log(input), 1.0 / math.log(2.0))


def log10(input):
    return mul(log(input), 1.0 / math.log(10.0))


def log1p(input):
    """log(1 + x), accurate for tiny x."""
    x = _float(input)
    u = add(x, 1.0)
    shifted = sub(u, 1.0)
    # Where u rounds to 1, log1p(x) = x to within rounding.
    safe = where(equal(shifted, 0.0), 1.0, shifted)
    return where(equal(shifted, 0.0), x, div(mul(log(u), x), safe))


def expm1(input):
    """exp(x) - 1, accurate for tiny x."""
    x = _float(input)
    u = exp(x)
    lg = log(u)
    exact = equal(u, 1.0)
    safe = where(logical_or(exact, equal(lg, 0.0)), 1.0, lg)
    corrected = div(mul(sub(u, 1.0), x), safe)
    # Far below 0, u - 1 is -1 and log(u) may be -inf.
    return where(exact, x, where(less(x, -20.0), sub(u, 1.0), corrected))


def logaddexp(input, other):
    """log(exp(x) + exp(y)), without overflow."""
    top = maximum(input, other)
    return add(top, log1p(exp(neg(abs(sub(input, other))))))


def logaddexp2(input, other):
    """log2(2^x + 2^y)."""
    ln2 = math.log(2.0)
    return div(logaddexp(mul(input, ln2), mul(other, ln2)), ln2)


def xlogy(input, other):
    """x * log(y), 0 where x is 0."""
    product = mul(input, log(other))
    return where(equal(input, 0), zeros_like(product), product)


def xdivy(x, y):
    """x / y, 0 where x is 0."""
    quotient = div(x, y)
    return where(equal(x, 0), zeros_like(quotient), quotient)


def hypot(input, other):
    return sqrt(add(mul(input, input), mul(other, other)))


def lerp(input, end, weight):
    """input + weight * (end - input)."""
    return add(input, mul(weight, sub(end, input)))


def addcmul(input, tensor1, tensor2, value=1):
    return add(input, mul(mul(tensor1, tensor2), value))


def addcdiv(input, tensor1, tensor2, value=1):
    return add(input, mul(div(tensor1, tensor2), value))


def heaviside(input, values):
    """0 below 0, `values` at 0, 1 above."""
    step = cast(greater(input, 0), input.dtype)
    return where(equal(input, 0), values, step)


def logit(input, eps=None):
    """log(x / (1 - x)), x clamped to [eps, 1 - eps] when eps is given."""
    x = _float(input)
    if eps is not None:
        x = maximum(x, eps)
        x = where(greater(x, 1.0 - eps), 1.0 - eps, x)
    return log(div(x, sub(1.0, x)))


def deg2rad(x):
    return mul(_float(x), math.pi / 180.0)


def rad2deg(x):
    return mul(_float(x), 180.0 / math.pi)


def float_power(input, exponent):
    """input ** exponent in float64."""
    if isinstance(exponent, Tensor):
        exponent = cast(exponent, mstype.float64)
    return pow(cast(input, mstype.float64), exponent)


def isnan(input):
    return not_equal(input, input)


def isposinf(input):
    return equal(input, math.inf) if input.dtype.is_float else \
        _false_like(input)


def isneginf(input):
    return equal(input, -math.inf) if input.dtype.is_float else \
        _false_like(input)


def isinf(input):
    if not input.dtype.is_float:
        return _false_like(input)
    return equal(abs(input), math.inf)


def isfinite(input):
    return logical_not(logical_or(isnan(input), isinf(input)))


def _false_like(input):
    return not_equal(input, input)


def isreal(input):
    """True everywhere: msmlir has no complex dtypes."""
    return equal(input, input) if not input.dtype.is_float else \
        logical_or(equal(input, input), isnan(input))


def is_complex(input):
    return False


def is_floating_point(input):
    return input.dtype.is_float


def is_tensor(obj):
    return isinstance(obj, Tensor)


def logical_xor(input, other):
    return not_equal(cast(input, mstype.bool_), cast(other, mstype.bool_))


def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    """NaN, +inf and -inf replaced (by default with 0 and the dtype's
    largest and lowest finite values)."""
    if not input.dtype.is_float:
        return input
    finfo = np.finfo(input.dtype.values_np)
    high = finfo.max if posinf is None else posinf
    low = finfo.min if neginf is None else neginf
    out = where(isnan(input), nan, input)
    out = where(equal(out, math.inf), high, out)
    return where(equal(out, -math.inf), low, out)


def positive(input):
    return input


absolute = abs
negative = neg
multiply = mul
divide = div
subtract = sub
true_divide = div


def truncate_div(x, y):
    """x / y rounded toward zero (for integers, exactly)."""
    if x.dtype.is_float or (isinstance(y, Tensor) and y.dtype.is_float) or \
            isinstance(y, float):
        return trunc(div(x, y))
    return floor_divide(sub(x, fmod(x, y)), y)


def truncate_mod(x, y):
    """The remainder of truncate_div: the sign of x (fmod)."""
    return fmod(x, y)


def square_difference(x, y):
    diff = sub(x, y)
    return mul(diff, diff)



def signbit(input):
    """True where the sign bit is set: x < 0, and -0.0 (1 / -0.0 is
    -inf)."""
    if not input.dtype.is_float:
        return less(input, 0)
    negative_zero = logical_and(equal(input, 0.0),
                                less(div(1.0, input), 0.0))
    return logical_or(less(input, 0.0), negative_zero)


def copysign(input, other):
    """|input| with other's sign bit."""
    magnitude = abs(_float(input))
    if not isinstance(other, Tensor):
        other = Tensor(float(other))
    return where(signbit(other), neg(magnitude), magnitude)
