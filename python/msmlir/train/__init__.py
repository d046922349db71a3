"""Training utilities (MindSpore's ``mindspore.train``): checkpoints."""

from .serialization import save_checkpoint, load_checkpoint, \
    load_param_into_net

__all__ = ["save_checkpoint", "load_checkpoint", "load_param_into_net"]
