"""``mindspore.common``: Tensor, Parameter, the dtypes and initializers
under MindSpore's module paths (``from mindspore.common import dtype as
mstype``, ``from mindspore.common.initializer import Normal``). A facade:
the code lives in the core and transforms layers."""

from . import dtype, initializer, parameter, tensor, seed
from .dtype import *  # noqa: F401,F403
from .parameter import Parameter, ParameterTuple
from .tensor import Tensor
from .seed import set_seed, get_seed

__all__ = (["dtype", "initializer", "Tensor", "Parameter", "ParameterTuple",
            "set_seed", "get_seed"] + dtype.__all__)
