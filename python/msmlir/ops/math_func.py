"""Elementwise ops: arithmetic with numpy broadcasting and MindSpore's type
promotion, the float-valued unary functions, pow and the floor divisions,
comparisons, logic and cast (part of ``mindspore.ops``).

The binary ops promote their operands (msmlir.dtype.result_type) with
ms.cast first; the float-valued unary ops compute integer and bool tensors
in float32. The common case, concrete Tensors of one dtype, runs in each
function's own body (_tensor.elementwise_fn / unary_fn).
"""

from .. import dtype as mstype
from .._tensor import (Tensor, binary, unary, op, true_divide, float_unary,
                       elementwise_fn, unary_fn, _ADD, _SUB, _MUL, _DIV, _NEG,
                       _ABS)
from ._args import _as_tensor, _promoted

__all__ = [
    "add", "sub", "mul", "div", "maximum", "minimum", "relu", "neg", "abs",
    "floor", "sigmoid", "tanh", "exp", "log", "sqrt", "square", "rsqrt", "gelu",
    "clamp", "clip", "pow", "floor_divide", "remainder", "floor_div",
    "floor_mod", "fmod", "equal", "not_equal", "greater", "greater_equal",
    "less", "less_equal", "eq", "ne", "gt", "ge", "lt", "le", "logical_and",
    "logical_or", "logical_not", "cast"
]


#===---------------------------------------------------------------------===#
# Arithmetic
#===---------------------------------------------------------------------===#


_MAXIMUM = op("ms.maximum")


_MINIMUM = op("ms.minimum")


_RELU = op("ms.relu")


_SIGMOID = op("ms.sigmoid")


_TANH = op("ms.tanh")


_EXP = op("ms.exp")


_LOG = op("ms.log")


_SQRT = op("ms.sqrt")


_FLOOR = op("ms.floor")


# PyNative's hot path in each function's own body (_tensor.elementwise_fn).
add = elementwise_fn(
    _ADD, "add", "input + other, numpy broadcasting; either may be a number.")


sub = elementwise_fn(_SUB, "sub")


mul = elementwise_fn(_MUL, "mul")


maximum = elementwise_fn(_MAXIMUM, "maximum")


minimum = elementwise_fn(_MINIMUM, "minimum")


relu = unary_fn(_RELU, "relu")


neg = unary_fn(_NEG, "neg")


abs = unary_fn(_ABS, "abs")


floor = unary_fn(_FLOOR, "floor", doc="The largest integer <= input; "
                 "floating-point input only, as MindSpore's ops.floor.")


sigmoid = unary_fn(_SIGMOID, "sigmoid", float_valued=True)


tanh = unary_fn(_TANH, "tanh", float_valued=True)


exp = unary_fn(_EXP, "exp", float_valued=True)


log = unary_fn(_LOG, "log", float_valued=True)


sqrt = unary_fn(_SQRT, "sqrt", float_valued=True)


def div(input, other, *, rounding_mode=None):
    """True division: integer and bool operands give float32."""
    if rounding_mode is not None:
        raise ValueError("ops.div: rounding_mode is not supported")
    return true_divide(_DIV, input, other)


def square(input):
    return binary(_MUL, input, input)


_GELU = {True: op("ms.gelu", "{approximate = true}", "ops.gelu"),
         False: op("ms.gelu", "{approximate = false}", "ops.gelu")}


def gelu(input_x, approximate="none"):
    """GELU; approximate='none' (MindSpore's ops.gelu default) is the exact
    erf form, 'tanh' the tanh approximation."""
    if approximate not in ("none", "tanh"):
        raise ValueError("ops.gelu: approximate must be 'none' or 'tanh', "
                         f"got {approximate!r}")
    return float_unary(_GELU[approximate == "tanh"], input_x)


def clamp(input, min=None, max=None):
    """min(max(input, min), max); either bound may be None."""
    if min is None and max is None:
        raise ValueError("ops.clamp: at least one of min and max is needed")
    result = input
    if min is not None:
        result = maximum(result, min)
    if max is not None:
        result = minimum(result, max)
    return result


clip = clamp


def rsqrt(input):
    """1 / sqrt(input)."""
    return div(1.0, sqrt(input))


#===---------------------------------------------------------------------===#
# pow, floor division, remainders
#===---------------------------------------------------------------------===#


_POW = op("ms.pow", "", "ops.pow")


_FLOOR_DIV = op("ms.floor_div", "", "ops.floor_divide")


_FLOOR_MOD = op("ms.floor_mod", "", "ops.remainder")


_FMOD = op("ms.fmod", "", "ops.fmod")


def _binary(o, input, other):
    a, b = _promoted(o.public, input, other)
    return binary(o, a, b)


def pow(input, exponent):
    """ops.pow: input ** exponent elementwise; either may be a number."""
    return _binary(_POW, input, exponent)


def floor_divide(input, other):
    """ops.floor_divide: floor(input / other), Python's ``//``."""
    return _binary(_FLOOR_DIV, input, other)


def remainder(input, other):
    """ops.remainder: input - floor_divide(input, other) * other, Python's
    ``%`` (the result has the sign of `other`)."""
    return _binary(_FLOOR_MOD, input, other)


def floor_mod(x, y):
    """ops.floor_mod: the same as remainder (MindSpore's FloorMod)."""
    return _binary(_FLOOR_MOD, x, y)


def floor_div(x, y):
    """ops.floor_div: the same as floor_divide (MindSpore's FloorDiv)."""
    return _binary(_FLOOR_DIV, x, y)


def fmod(input, other):
    """ops.fmod: C's fmod, the remainder with the sign of `input`."""
    return _binary(_FMOD, input, other)


#===---------------------------------------------------------------------===#
# Comparisons, logic and cast
#===---------------------------------------------------------------------===#


_COMPARE = {name: op("ms." + name, "", "ops." + name)
            for name in ("equal", "not_equal", "greater", "greater_equal",
                         "less", "less_equal")}


_AND = op("ms.logical_and", "", "ops.logical_and")


_OR = op("ms.logical_or", "", "ops.logical_or")


_NOT = op("ms.logical_not", "", "ops.logical_not")


def _compare(name, input, other):
    a, b = _promoted("ops." + name, input, other)
    return binary(_COMPARE[name], a, b)


def equal(input, other):
    """input == other elementwise (numpy broadcasting); a bool Tensor."""
    return _compare("equal", input, other)


def not_equal(input, other):
    return _compare("not_equal", input, other)


def greater(input, other):
    return _compare("greater", input, other)


def greater_equal(input, other):
    return _compare("greater_equal", input, other)


def less(input, other):
    return _compare("less", input, other)


def less_equal(input, other):
    return _compare("less_equal", input, other)


eq, ne, gt, ge, lt, le = (equal, not_equal, greater, greater_equal, less,
                          less_equal)


def _as_bool(x, what):
    x = _as_tensor(x, None, what)
    return x if x.dtype is mstype.bool_ else cast(x, mstype.bool_)


def logical_and(input, other):
    """Elementwise and; non-bool operands count as `x != 0`."""
    return binary(_AND, _as_bool(input, "ops.logical_and"),
                  _as_bool(other, "ops.logical_and"))


def logical_or(input, other):
    return binary(_OR, _as_bool(input, "ops.logical_or"),
                  _as_bool(other, "ops.logical_or"))


def logical_not(input):
    return unary(_NOT, _as_bool(input, "ops.logical_not"))


def cast(input, dtype):
    """ops.cast: `input` converted to `dtype` (float to int truncates
    toward zero; to bool is x != 0)."""
    dt = mstype.to_dtype(dtype)
    if not isinstance(input, Tensor):
        return Tensor(input, dt)
    if dt is input.dtype:
        return input
    return unary(op("ms.cast", "{to = " + dt.mlir + "}", "ops.cast"), input)
