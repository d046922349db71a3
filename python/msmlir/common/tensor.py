"""``mindspore.common.tensor``."""

from .._tensor import Tensor

__all__ = ["Tensor"]
