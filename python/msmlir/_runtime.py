"""Process-wide runtime state: the native executors and graph compiler, the
context (mode, jit level, syntax level), the seed, and the capture stack.

Everything the hot paths read lives in the single ``STATE`` object so that a
check costs one attribute load.
"""

import os

import numpy as np

from . import _msmlir as native

MSError = native.MSError
HostTensor = native.HostTensor
OpCall = native.OpCall

GRAPH_MODE = 0
PYNATIVE_MODE = 1

# GRAPH_MODE's jit_level when neither JitConfig nor set_context names one:
# the fastest, as MindSpore's CPU backend does.
DEFAULT_JIT_LEVEL = "O2"
# PyNative runs each op as its own kernel: O0's (the same vectorized kernels
# as every level's, with no fusion across ops to do).
PYNATIVE_JIT_LEVEL = "O0"

# MindSpore's jit_syntax_level constants.
STRICT = 0
COMPATIBLE = 1
LAX = 2
_SYNTAX_NAMES = {STRICT: "STRICT", COMPATIBLE: "COMPATIBLE", LAX: "LAX"}


class GraphSyntaxError(MSError):
    """Graph capture met Python code it cannot turn into a graph (under
    jit_syntax_level STRICT or COMPATIBLE)."""


class GraphFallbackWarning(RuntimeWarning):
    """Under jit_syntax_level LAX, a jitted call ran in PyNative mode."""


def parse_syntax_level(value):
    """'' / None (LAX), 'STRICT', 'COMPATIBLE', 'LAX' or ms.STRICT etc."""
    if value is None or value == "":
        return "LAX"
    if isinstance(value, int) and not isinstance(value, bool):
        if value in _SYNTAX_NAMES:
            return _SYNTAX_NAMES[value]
    elif isinstance(value, str) and value.upper() in ("STRICT", "COMPATIBLE",
                                                      "LAX"):
        return value.upper()
    raise ValueError(f"unknown jit_syntax_level {value!r}; expected '', "
                     "'STRICT', 'COMPATIBLE' or 'LAX' (or ms.STRICT, "
                     "ms.COMPATIBLE, ms.LAX)")


def parse_jit_level(value):
    """'O0', 'O1' or 'O2'; anything else raises ValueError (the native
    CompileOptions parses it)."""
    return native.CompileOptions(jit_level=value).jit_level


def parse_exc_mode(value):
    """'auto', 'sink' or 'no_sink'; anything else raises ValueError."""
    return native.CompileOptions(exc_mode=value).exc_mode


def compile_options(level, threads=None, exc_mode=None, dump_ir_dir=""):
    """The native CompileOptions of a compile (threads default: the
    context's runtime_num_threads)."""
    if threads is None:
        threads = STATE.num_threads
    return native.CompileOptions(jit_level=level, exc_mode=exc_mode,
                                 num_threads=threads, dump_ir_dir=dump_ir_dir)


class _State:
    __slots__ = ("mode", "jit_level", "exc_mode", "syntax_level", "graph",
                 "eager",
                 "compiles", "save_graphs", "save_graphs_path", "rng", "seed",
                 "epoch", "num_threads", "param_epoch",
                 "graph_cache_size", "kernel_cache_size", "tape",
                 "enable_compile_cache", "compile_cache_path",
                 "micro_batch_size")

    def __init__(self):
        self.mode = PYNATIVE_MODE
        self.jit_level = None       # from set_context(jit_config=...)
        self.exc_mode = "auto"      # likewise
        self.syntax_level = None    # from set_context(jit_syntax_level=...)
        self.graph = None           # the graph being captured, or None
        self.eager = 0              # >0 while a LAX fallback runs eagerly
        self.compiles = 0           # graphs compiled in this process
        self.save_graphs = False
        self.save_graphs_path = "."
        self.seed = None
        self.rng = np.random.default_rng()
        self.epoch = 0              # bumped by every set_context
        self.num_threads = 0        # every kernel's threads; 0: the cores
        # Bumped when a Parameter or sub-Cell a graph may read is replaced or
        # removed, or a Parameter changes shape or dtype: cached graphs
        # re-check what they read before their next call.
        self.param_epoch = 0
        self.graph_cache_size = 64     # compiled graphs kept (LRU)
        self.kernel_cache_size = 1024  # PyNative kernels kept per executor
        # The PyNative gradient tape (_autograd.Tape) while a grad/
        # value_and_grad function runs, else None: concrete ops record
        # themselves on it.
        self.tape = None
        # The persistent compile cache (compile_cache_dir below).
        self.enable_compile_cache = False
        self.compile_cache_path = None  # None: $MS_COMPILER_CACHE_PATH or "."
        # set_deterministic's rows per micro-batch of a TrainOneStepCell
        # made while it is on (None: whole batches). The switch itself is
        # the runtime's (native.comm.is_deterministic()).
        self.micro_batch_size = None


STATE = _State()


def compile_cache_dir():
    """The persistent compile cache's directory, or "" when it is off. It is
    on with set_context(enable_compile_cache=True), MS_COMPILER_CACHE_ENABLE=1
    or a non-empty MS_COMPILER_CACHE_PATH; entries go to
    <compile_cache_path>/rank_<rank id>/ as in MindSpore, the path being
    set_context's compile_cache_path, else $MS_COMPILER_CACHE_PATH, else
    the working directory."""
    env_path = os.environ.get("MS_COMPILER_CACHE_PATH", "")
    if not (STATE.enable_compile_cache or env_path
            or os.environ.get("MS_COMPILER_CACHE_ENABLE", "") == "1"):
        return ""
    base = STATE.compile_cache_path
    if base is None:
        base = env_path or "."
    rank = native.comm.rank() if native.comm.is_initialized() else 0
    return os.path.join(os.path.abspath(base), f"rank_{rank}")

_executors = {}
_compiler = None


def executor(level=PYNATIVE_JIT_LEVEL, threads=None):
    """The process-wide PyNative executor of a jit level and thread count
    (default: the context's runtime_num_threads)."""
    if threads is None:
        threads = STATE.num_threads
    key = (level, threads)
    ex = _executors.get(key)
    if ex is None:
        ex = native.Executor(compile_options(level, threads))
        ex.set_cache_capacity(STATE.kernel_cache_size)
        _executors[key] = ex
    return ex


def set_kernel_cache_size(size):
    """Bounds every PyNative executor's kernel cache (LRU) to `size`."""
    for ex in _executors.values():
        ex.set_cache_capacity(size)
    STATE.kernel_cache_size = size


def structure_changed():
    """A Parameter or Cell that compiled graphs may read was replaced or
    removed, or a Parameter changed type: cached graphs re-capture before
    their next call (and jit fast paths re-check)."""
    STATE.param_epoch += 1
    STATE.epoch += 1


def pynative_level():
    return STATE.jit_level or PYNATIVE_JIT_LEVEL


def graph_compiler():
    global _compiler
    if _compiler is None:
        _compiler = native.Compiler()
    return _compiler
