"""``mindspore.common.parameter``."""

from .._autograd import ParameterTuple
from .._tensor import Parameter

__all__ = ["Parameter", "ParameterTuple"]
