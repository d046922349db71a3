"""set_auto_parallel_context / get_auto_parallel_context /
reset_auto_parallel_context and ParallelMode (MindSpore's auto-parallel
context), for data parallelism.

Under ParallelMode.DATA_PARALLEL, nn.TrainOneStepCell all-reduces the
gradients across ranks before the optimizer step (averaging them when
gradients_mean=True). The model-parallel modes (semi_auto_parallel,
auto_parallel, hybrid_parallel) are not supported: docs/distributed.md says
what they would add.
"""

__all__ = ["ParallelMode", "set_auto_parallel_context",
           "get_auto_parallel_context", "reset_auto_parallel_context"]


class ParallelMode:
    """MindSpore's parallel modes (their string values)."""
    STAND_ALONE = "stand_alone"
    DATA_PARALLEL = "data_parallel"
    HYBRID_PARALLEL = "hybrid_parallel"
    SEMI_AUTO_PARALLEL = "semi_auto_parallel"
    AUTO_PARALLEL = "auto_parallel"
    MODE_LIST = [STAND_ALONE, DATA_PARALLEL, HYBRID_PARALLEL,
                 SEMI_AUTO_PARALLEL, AUTO_PARALLEL]


# Gradient buckets: MindSpore's comm_fusion "size" mode, in MB. 64 MB is
# its default; a smaller bucket starts communicating earlier.
_DEFAULT_FUSION_MB = 64


def _defaults():
    return {"parallel_mode": ParallelMode.STAND_ALONE,
            "gradients_mean": False, "device_num": 1, "global_rank": 0,
            "parameter_broadcast": False, "gradient_fp32_sync": True,
            "comm_fusion": {"allreduce": {"mode": "size",
                                          "config": _DEFAULT_FUSION_MB}}}


_CONTEXT = _defaults()


def _check_bool(key, value):
    if not isinstance(value, bool):
        raise TypeError(f"set_auto_parallel_context: {key} must be a bool, "
                        f"got {value!r}")
    return value


def _check_mode(value):
    if value not in ParallelMode.MODE_LIST:
        raise ValueError(f"set_auto_parallel_context: unknown parallel_mode "
                         f"{value!r}; expected one of "
                         f"{ParallelMode.MODE_LIST}")
    if value not in (ParallelMode.STAND_ALONE, ParallelMode.DATA_PARALLEL):
        raise NotImplementedError(
            f"set_auto_parallel_context: parallel_mode {value!r} (model "
            "parallelism) is not supported; ms supports "
            "ParallelMode.STAND_ALONE and ParallelMode.DATA_PARALLEL "
            "(see docs/distributed.md)")
    return value


def _check_count(key, value, low):
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise ValueError(f"set_auto_parallel_context: {key} must be an int "
                         f">= {low}, got {value!r}")
    return value


def _check_fusion(value):
    allreduce = value.get("allreduce") if isinstance(value, dict) else None
    if (not isinstance(allreduce, dict) or
            allreduce.get("mode", "size") != "size" or
            not isinstance(allreduce.get("config"), (int, float)) or
            isinstance(allreduce.get("config"), bool) or
            allreduce["config"] <= 0):
        raise ValueError(
            "set_auto_parallel_context: comm_fusion must be "
            "{'allreduce': {'mode': 'size', 'config': MB}} with MB > 0 (the "
            f"gradient bucket size), got {value!r}")
    return {"allreduce": {"mode": "size", "config": allreduce["config"]}}


_CHECKS = {
    "parallel_mode": _check_mode,
    "gradients_mean": lambda v: _check_bool("gradients_mean", v),
    "device_num": lambda v: _check_count("device_num", v, 1),
    "global_rank": lambda v: _check_count("global_rank", v, 0),
    "parameter_broadcast": lambda v: _check_bool("parameter_broadcast", v),
    "gradient_fp32_sync": lambda v: _check_bool("gradient_fp32_sync", v),
    "comm_fusion": _check_fusion,
}


def set_auto_parallel_context(**kwargs):
    """Sets parallel_mode (ParallelMode.STAND_ALONE, the default, or
    DATA_PARALLEL), gradients_mean (average the all-reduced gradients; False
    by default, as MindSpore), device_num, global_rank (informational: the
    group comes from mpirun), comm_fusion ({'allreduce': {'mode': 'size',
    'config': MB}}: the gradient bucket size, 64 MB by default),
    parameter_broadcast and gradient_fp32_sync (accepted; ms keeps every
    rank's initial parameters identical through set_seed)."""
    for key in kwargs:
        if key not in _CHECKS:
            raise ValueError(f"set_auto_parallel_context: unknown option "
                             f"{key!r}; known: {sorted(_CHECKS)}")
    checked = {key: _CHECKS[key](value) for key, value in kwargs.items()}
    _CONTEXT.update(checked)


def get_auto_parallel_context(attr_key):
    """The value of one auto-parallel option."""
    if attr_key not in _CONTEXT:
        raise ValueError(f"get_auto_parallel_context: unknown option "
                         f"{attr_key!r}; known: {sorted(_CONTEXT)}")
    value = _CONTEXT[attr_key]
    return dict(value) if isinstance(value, dict) else value


def reset_auto_parallel_context():
    """Every auto-parallel option back to its default (STAND_ALONE)."""
    _CONTEXT.clear()
    _CONTEXT.update(_defaults())


def data_parallel():
    """True under ParallelMode.DATA_PARALLEL."""
    return _CONTEXT["parallel_mode"] == ParallelMode.DATA_PARALLEL


def bucket_bytes():
    return int(_CONTEXT["comm_fusion"]["allreduce"]["config"] * (1 << 20))
