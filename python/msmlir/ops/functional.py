"""Every functional op in one namespace (MindSpore's
``mindspore.ops.functional``, imported as ``F``): the union of the op
families' modules."""

from . import (math_func, array_func, reduction_func, linalg_func, nn_func,
               sort_func, loss_func, grad_func, parameter_func)
from .math_func import *  # noqa: F401,F403
from .array_func import *  # noqa: F401,F403
from .reduction_func import *  # noqa: F401,F403
from .linalg_func import *  # noqa: F401,F403
from .nn_func import *  # noqa: F401,F403
from .sort_func import *  # noqa: F401,F403
from .loss_func import *  # noqa: F401,F403
from .comm_func import all_reduce  # noqa: F401
from .grad_func import *  # noqa: F401,F403
from .parameter_func import *  # noqa: F401,F403
from .meta_ops import shape, dtype, rank, size, depend, partial  # noqa: F401
from .optimizer_ops import sign, assign_add, assign_sub  # noqa: F401

__all__ = (math_func.__all__ + array_func.__all__ + reduction_func.__all__ +
           linalg_func.__all__ + nn_func.__all__ + sort_func.__all__ +
           loss_func.__all__ + grad_func.__all__ + parameter_func.__all__ +
           ["all_reduce", "shape", "dtype", "rank", "size", "depend",
            "partial", "sign", "assign_add", "assign_sub"])
