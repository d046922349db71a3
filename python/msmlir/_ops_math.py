"""pow, floor_divide, remainder, fmod (part of ``mindspore.ops``).

Each is one ``ms`` op (MSArithOps.td) on operands promoted to one dtype as
MindSpore promotes them (a Python float against an integer tensor makes a
float32 tensor), with integer semantics on integer dtypes: ``//`` floors
toward minus infinity, ``%`` takes the divisor's sign, and an integer
division by zero gives 0 (numpy's result) instead of trapping.
"""

from ._tensor import Tensor, binary, op
from ._ops_indexing import _promoted

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
