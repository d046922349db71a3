"""set_context / get_context / set_seed (MindSpore's global context)."""

import os
import warnings

import numpy as np

from . import _msmlir as native
from . import _random
from ._jit import evict
from ._tensor import bind_executor
from ._runtime import (STATE, GRAPH_MODE, PYNATIVE_MODE, parse_jit_level,
                       parse_exc_mode,
                       parse_syntax_level, pynative_level,
                       set_kernel_cache_size)

__all__ = ["set_context", "get_context", "set_seed", "get_seed",
           "set_deterministic"]

_DEVICES = ("CPU",)


def _set_mode(value):
    if value not in (GRAPH_MODE, PYNATIVE_MODE) or isinstance(value, bool):
        raise ValueError(f"mode must be ms.GRAPH_MODE (0) or "
                         f"ms.PYNATIVE_MODE (1), got {value!r}")
    STATE.mode = value


def _set_jit_level(value):
    level = None if value in (None, "") else parse_jit_level(value)
    STATE.jit_level = level
    bind_executor(pynative_level())


def _set_jit_config(value):
    if not isinstance(value, dict):
        raise TypeError("jit_config must be a dict such as "
                        "{'jit_level': 'O1'}")
    for key in value:
        if key not in ("jit_level", "jit_syntax_level", "exc_mode",
                       "infer_boost", "debug_level"):
            raise ValueError(f"unknown jit_config key {key!r}")
    if "jit_level" in value:
        _set_jit_level(value["jit_level"])
    if "jit_syntax_level" in value:
        _set_syntax_level(value["jit_syntax_level"])
    if "exc_mode" in value:
        STATE.exc_mode = parse_exc_mode(value["exc_mode"])


def _set_syntax_level(value):
    parse_syntax_level(value)  # validates
    STATE.syntax_level = value


def _set_device(value):
    if value not in _DEVICES:
        raise ValueError(f"device_target {value!r} is not supported: ms "
                         "compiles for the host CPU ('CPU')")


def _set_threads(value):
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError("runtime_num_threads must be an int >= 0 (0: the "
                         f"core count), got {value!r}")
    STATE.num_threads = value
    bind_executor(pynative_level())  # PyNative kernels use them too


# The most entries a cache may be asked to keep: the native caches count in
# 64-bit signed ints, and no process holds anywhere near this many kernels.
_MAX_CACHE_ENTRIES = 2 ** 31 - 1


def _cache_size(name, value):
    if not isinstance(value, int) or isinstance(value, bool) or \
            not 1 <= value <= _MAX_CACHE_ENTRIES:
        raise ValueError(f"{name} must be an int from 1 to "
                         f"{_MAX_CACHE_ENTRIES} (a number of cache entries), "
                         f"got {value!r}")
    return value


def _set_graph_cache_size(value):
    STATE.graph_cache_size = _cache_size("graph_cache_size", value)
    evict()


def _set_kernel_cache_size(value):
    set_kernel_cache_size(_cache_size("kernel_cache_size", value))


def _set_enable_compile_cache(value):
    if not isinstance(value, bool):
        raise TypeError(f"enable_compile_cache must be a bool, got {value!r}")
    STATE.enable_compile_cache = value


def _set_compile_cache_path(value):
    if not isinstance(value, (str, os.PathLike)) or str(value) == "":
        raise TypeError("compile_cache_path must be a non-empty path string, "
                        f"got {value!r}")
    STATE.compile_cache_path = os.fspath(value)


def _set_save_graphs(value):
    STATE.save_graphs = bool(value)


def _set_save_graphs_path(value):
    STATE.save_graphs_path = str(value)


def _set_deterministic_switch(value):
    if value not in ("ON", "OFF"):
        raise ValueError("deterministic must be 'ON' or 'OFF', got "
                         f"{value!r}")
    # "ON" keeps a micro_batch_size set before; "OFF" clears it.
    set_deterministic(value == "ON",
                      STATE.micro_batch_size if value == "ON" else None)


def set_deterministic(deterministic, micro_batch_size=None):
    """MindSpore's switch for deterministic computing. ms's kernels and
    collectives give the same bits run after run either way; switched on,
    an all-reduce over more than two ranks also sums in a fixed pairwise
    tree (MPI would pick its order from the rank count and message size).

    micro_batch_size (an ms extension, with deterministic=True; None
    clears it): every nn.TrainOneStepCell made afterwards computes its
    gradients on micro-batches of that many rows and adds them in the same
    pairwise tree, so N data-parallel ranks end with the bits of one
    process that trains on the whole batch in micro-batches. Call it the
    same way on every rank (docs/distributed.md, "Determinism")."""
    if not isinstance(deterministic, bool):
        raise TypeError("set_deterministic: deterministic must be a bool, "
                        f"got {deterministic!r}")
    if micro_batch_size is not None:
        if not deterministic:
            raise ValueError("set_deterministic: micro_batch_size needs "
                             "deterministic=True")
        if (not isinstance(micro_batch_size, int) or
                isinstance(micro_batch_size, bool) or micro_batch_size < 1):
            raise ValueError("set_deterministic: micro_batch_size must be an "
                             f"int >= 1, got {micro_batch_size!r}")
    STATE.micro_batch_size = micro_batch_size
    native.comm.set_deterministic(deterministic)


_SETTERS = {
    "mode": _set_mode,
    "jit_level": _set_jit_level,
    "jit_config": _set_jit_config,
    "jit_syntax_level": _set_syntax_level,
    "device_target": _set_device,
    "save_graphs": _set_save_graphs,
    "enable_compile_cache": _set_enable_compile_cache,
    "compile_cache_path": _set_compile_cache_path,
    "save_graphs_path": _set_save_graphs_path,
    "runtime_num_threads": _set_threads,
    "graph_cache_size": _set_graph_cache_size,
    "kernel_cache_size": _set_kernel_cache_size,
    "deterministic": _set_deterministic_switch,
    # Accepted for compatibility; they change nothing on the host CPU.
    "device_id": lambda v: None,
    "max_call_depth": lambda v: None,
    "pynative_synchronize": lambda v: None,
}
# More of MindSpore's options that change nothing here (graph-kernel
# fusion follows jit_level; memory and tuning options are device ones).
for _key in ("enable_graph_kernel", "graph_kernel_flags",
             "reserve_class_name_in_scope", "precompile_only", "check_bprop",
             "grad_for_scalar", "env_config_path", "memory_optimize_level",
             "memory_offload", "op_timeout", "inter_op_parallel_num",
             "aoe_tune_mode", "aoe_config"):
    _SETTERS[_key] = lambda v: None

# Options MindSpore takes only on these devices: on CPU it warns and
# ignores them, and so does msmlir.
_DEVICE_ONLY = {
    "max_device_memory": "['Ascend', 'GPU']",
    "mempool_block_size": "['Ascend', 'GPU']",
    "variable_memory_max_size": "['Ascend']",
    "enable_reduce_precision": "['Ascend']",
    "print_file_path": "['Ascend']",
    "ascend_config": "['Ascend']",
    "gpu_config": "['GPU']",
    "disable_format_transform": "['GPU']",
}


def _warn_device_only(key):
    warnings.warn(f"For 'context.set_context', when set the argument "
                  f"'{key}', the argument 'device_target' only supports "
                  f"devices in '{_DEVICE_ONLY[key]}', but got 'CPU', ignore "
                  "it.")


def set_context(**kwargs):
    """Sets global options: mode (ms.GRAPH_MODE or ms.PYNATIVE_MODE, the
    default), jit_config={'jit_level': 'O0'|'O1'|'O2' (GRAPH_MODE's level,
    O2 by default; also the PyNative kernels' level, O0 by default),
    'exc_mode': 'auto'|'sink'|'no_sink'}, jit_syntax_level, device_target
    ('CPU'), save_graphs, save_graphs_path, runtime_num_threads (threads of
    every graph and PyNative kernel; 0, the default, uses every core),
    graph_cache_size (compiled graphs kept in
    memory, least recently used evicted first; default 64) and
    kernel_cache_size (PyNative kernels kept per jit level, likewise;
    default 1024), enable_compile_cache (keep compiled graphs on disk and
    reuse them in later processes; default False) and compile_cache_path
    (where: <path>/rank_<id>/; default $MS_COMPILER_CACHE_PATH, else "."),
    and deterministic ('ON'/'OFF': set_deterministic(True/False)).
    See docs/python.md, "Compile cache"."""
    for key in kwargs:
        if key not in _SETTERS and key not in _DEVICE_ONLY:
            raise ValueError(f"For 'context.set_context', the keyword "
                             f"argument {key} is not recognized! For "
                             "detailed usage of 'set_context', please refer "
                             "to the Mindspore official website.")
    STATE.epoch += 1  # jit fast paths re-check their configuration
    for key, value in kwargs.items():
        if key in _DEVICE_ONLY:
            _warn_device_only(key)
        else:
            _SETTERS[key](value)


def get_context(attr_key):
    """The value of one context option."""
    values = {
        "mode": STATE.mode,
        "jit_level": STATE.jit_level or "",
        "jit_config": {"jit_level": STATE.jit_level or "",
                       "exc_mode": STATE.exc_mode,
                       "jit_syntax_level": STATE.syntax_level or ""},
        "jit_syntax_level": parse_syntax_level(STATE.syntax_level),
        "device_target": "CPU",
        "device_id": 0,
        "save_graphs": STATE.save_graphs,
        "save_graphs_path": STATE.save_graphs_path,
        "runtime_num_threads": STATE.num_threads,
        "graph_cache_size": STATE.graph_cache_size,
        "kernel_cache_size": STATE.kernel_cache_size,
        "enable_compile_cache": STATE.enable_compile_cache,
        "deterministic": "ON" if native.comm.is_deterministic() else "OFF",
        "compile_cache_path": (STATE.compile_cache_path if
                               STATE.compile_cache_path is not None else
                               os.environ.get("MS_COMPILER_CACHE_PATH") or
                               "."),
    }
    if attr_key not in values:
        raise ValueError(f"get_context: unknown option {attr_key!r}")
    return values[attr_key]


def set_seed(seed):
    """Seeds parameter initialization (and anything else random)."""
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"seed must be a non-negative int, got {seed!r}")
    STATE.seed = seed
    STATE.rng = np.random.default_rng(seed)
    _random.reset(seed)  # dropout masks restart at offset 0
    np.random.seed(seed % (2 ** 32))


def get_seed():
    return STATE.seed
