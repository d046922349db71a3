"""Training (MindSpore's ``mindspore.train``): Model, the callbacks, the
metrics and checkpoints."""

from . import callback, metrics, serialization
from .serialization import save_checkpoint, load_checkpoint, \
    load_param_into_net
from .model import Model
from .callback import *  # noqa: F401,F403
from .metrics import *  # noqa: F401,F403

__all__ = (["Model", "save_checkpoint", "load_checkpoint",
            "load_param_into_net", "callback", "metrics"] +
           callback.__all__ + metrics.__all__)
