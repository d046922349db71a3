"""ops.assign: a Parameter made to hold a new value, in PyNative mode and
inside graph capture."""

import numpy as np

from .._runtime import STATE, MSError, HostTensor
from .._tensor import Tensor, Parameter

__all__ = [
    "assign"
]


def assign(variable, value):
    """Makes Parameter `variable` hold `value` (ops.assign); returns it.

    In PyNative mode the Parameter is rebound to value's buffer at once (no
    copy). Inside a graph capture the graph gets an extra result, and the
    Parameter holds it after each call of the compiled function (see
    _jit._Entry.bind): updates stay inside the one native function."""
    if not isinstance(variable, Parameter):
        raise TypeError("ops.assign: variable must be a Parameter, got "
                        f"{type(variable).__name__}")
    if not isinstance(value, Tensor):
        value = Tensor(np.full(variable.shape, value,
                               dtype=variable.dtype.values_np), variable.dtype)
    if tuple(value.shape) != tuple(variable.shape) or \
            value.dtype != variable.dtype:
        raise ValueError(
            f"ops.assign: Parameter {variable.name} is "
            f"{variable.dtype}{list(variable.shape)} but the value is "
            f"{value.dtype}{list(value.shape)}")
    graph = STATE.graph
    if graph is not None:
        # Inside a function being differentiated (batch norm's moving
        # statistics) the update becomes an extra, undifferentiated result
        # that the enclosing graph assigns (see _GradFunction._captured).
        sym = graph.value_of(value, Parameter)
        graph.assign(variable, sym)
        return variable
    t = value._t
    if t.__class__ is not HostTensor:
        raise MSError("ops.assign: a symbolic value outside of graph capture")
    variable._t = t
    return variable
