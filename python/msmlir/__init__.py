"""msmlir: MindSpore-style Cells compiled and run by the ms MLIR compiler.

    import msmlir as ms
    from msmlir import nn, Tensor

The API mirrors MindSpore 2.x: Tensor, Parameter, nn.Cell and layers, ops,
set_context(mode=ms.GRAPH_MODE | ms.PYNATIVE_MODE), jit / JitConfig and
safetensors checkpoints; msmlir.dataset reads IDX files and Fashion-MNIST.
PyNative mode runs each op at once as a cached native kernel; graph mode
(jit, or GRAPH_MODE on Cells) captures the Python function into ms-dialect
MLIR and compiles it once per input signature. See docs/python.md.
"""

from . import _msmlir
from ._runtime import (MSError, GraphSyntaxError, GraphFallbackWarning,
                       GRAPH_MODE, PYNATIVE_MODE, STRICT, COMPATIBLE, LAX)
from . import dtype
from .dtype import (Type, float16, float32, float64, bfloat16, int8, int16,
                    int32, int64, uint8, uint16, uint32, uint64, bool_,
                    half, single, double, float_, byte, short, intc, int_,
                    intp, ubyte, ushort, uintc, uintp)
from ._context import (set_context, get_context, set_seed, get_seed,
                       set_deterministic)
from ._tensor import Tensor, Parameter
from . import ops
from ._jit import jit, JitConfig, compile_count, compile_cache_stats
from ._mutable import mutable, jit_class
from ._autograd import grad, value_and_grad, ParameterTuple
from . import nn
from . import train
from .train import save_checkpoint, load_checkpoint, load_param_into_net
from .train import (Model, Callback, RunContext, LossMonitor,  # noqa: F401
                    TimeMonitor, CheckpointConfig, ModelCheckpoint,
                    EarlyStopping, ReduceLROnPlateau, History,
                    LambdaCallback, LearningRateScheduler)
from . import dataset
from ._parallel_context import (ParallelMode, set_auto_parallel_context,
                                get_auto_parallel_context,
                                reset_auto_parallel_context)
from . import communication
from . import runtime
from .profiler import Profiler
from . import context, common
from .ops import composite as _composite  # noqa: F401 (ms.ops.composite)
from ._runtime import executor as _executor, pynative_level as _pn_level
from .dtype import dtype_to_nptype, dtype_to_pytype, pytype_to_dtype
from ._functional_transforms import vjp, vmap
from ._toplevel import (tensor, get_py_obj_dtype, manual_seed,
                        initial_seed, seed, lazy_inline, no_inline,
                        run_check, check_checkpoint, VERSION)
from .ops.composed_primitives import constexpr
from ._jit import jit as ms_function
from ._mutable import jit_class as ms_class

__version__ = VERSION

__all__ = [
    "MSError", "GraphSyntaxError", "GraphFallbackWarning", "GRAPH_MODE",
    "PYNATIVE_MODE", "STRICT", "COMPATIBLE", "LAX", "dtype", "Type",
    "float16", "float32", "float64", "bfloat16", "int8", "int16", "int32",
    "int64", "uint8", "uint16", "uint32", "uint64", "bool_", "half",
    "single", "double", "float_", "byte", "short", "intc", "int_", "intp",
    "ubyte", "ushort", "uintc", "uintp", "set_context",
    "get_context", "set_seed", "get_seed", "set_deterministic", "Tensor",
    "Parameter", "ops",
    "jit", "JitConfig", "compile_count", "compile_cache_stats", "mutable",
    "jit_class", "nn", "save_checkpoint",
    "load_checkpoint", "load_param_into_net", "pynative_stats", "dataset",
    "grad", "value_and_grad", "ParameterTuple", "runtime", "ParallelMode",
    "set_auto_parallel_context", "get_auto_parallel_context",
    "reset_auto_parallel_context", "communication", "context", "common",
    "Model", "Callback", "RunContext", "LossMonitor", "TimeMonitor",
    "CheckpointConfig", "ModelCheckpoint", "EarlyStopping",
    "ReduceLROnPlateau", "History", "LambdaCallback",
    "LearningRateScheduler", "dtype_to_nptype", "dtype_to_pytype",
    "pytype_to_dtype", "vjp", "vmap", "tensor", "get_py_obj_dtype",
    "manual_seed", "initial_seed", "seed", "lazy_inline", "no_inline",
    "run_check", "check_checkpoint", "constexpr", "ms_function", "ms_class",
    "Profiler",
]


def pynative_stats():
    """Kernel-cache statistics of the current PyNative executor: hits,
    misses, compile_seconds, run_seconds, kernels (cached now), evictions
    and kernel_cache_size (the bound, set_context(kernel_cache_size=N))."""
    return _executor(_pn_level()).stats()
