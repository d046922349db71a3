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
from .optimizer_ops import assign_add, assign_sub  # noqa: F401
from . import (math_composed, activation_func, array_composed,
               loss_composed, linalg_composed, nn_composed)
from .math_composed import *  # noqa: F401,F403
from .activation_func import *  # noqa: F401,F403
from .array_composed import *  # noqa: F401,F403
from .loss_composed import *  # noqa: F401,F403
from .math_composed import reciprocal as inv, positive as conj  # noqa: F401
from .math_composed import positive as real  # noqa: F401
from .array_composed import flip as reverse, unbind as unstack  # noqa: F401
from .composed_primitives import add_n as addn  # noqa: F401
from .composed_primitives import add_n as accumulate_n  # noqa: F401
from .linalg_composed import *  # noqa: F401,F403
from .nn_composed import *  # noqa: F401,F403

__all__ = (math_func.__all__ + array_func.__all__ + reduction_func.__all__ +
           linalg_func.__all__ + nn_func.__all__ + sort_func.__all__ +
           loss_func.__all__ + grad_func.__all__ + parameter_func.__all__ +
           ["all_reduce", "shape", "dtype", "rank", "size", "depend",
            "partial", "assign_add", "assign_sub"] + math_composed.__all__ +
           activation_func.__all__ + array_composed.__all__ +
           loss_composed.__all__ + linalg_composed.__all__ +
           nn_composed.__all__ + ["accumulate_n", "addn", "inv", "reverse",
                                  "unstack", "conj", "real"])
