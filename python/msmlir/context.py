"""``mindspore.context``: the context functions and constants under the
module path MindSpore 1.x scripts use (``context.set_context(mode=
context.GRAPH_MODE)``)."""

from ._context import set_context, get_context
from ._parallel_context import (ParallelMode, set_auto_parallel_context,
                                get_auto_parallel_context,
                                reset_auto_parallel_context)
from ._runtime import GRAPH_MODE, PYNATIVE_MODE, STRICT, COMPATIBLE, LAX

__all__ = ["set_context", "get_context", "ParallelMode",
           "set_auto_parallel_context", "get_auto_parallel_context",
           "reset_auto_parallel_context", "GRAPH_MODE", "PYNATIVE_MODE",
           "STRICT", "COMPATIBLE", "LAX"]
