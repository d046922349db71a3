"""ops.stop_gradient: a value through which no gradient flows."""

from .._runtime import STATE, HostTensor
from .._tensor import Tensor, unary, op

__all__ = [
    "stop_gradient"
]


_STOP_GRADIENT = op("ms.stop_gradient", "", "ops.stop_gradient")


def stop_gradient(value):
    """`value`, through which no gradient flows (ops.stop_gradient)."""
    if isinstance(value, (tuple, list)):
        return type(value)(stop_gradient(v) for v in value)
    if not isinstance(value, Tensor):
        return value
    if value._t.__class__ is HostTensor and STATE.tape is None:
        return value  # nothing is being differentiated
    return unary(_STOP_GRADIENT, value)
