"""Optimizers (MindSpore's ``mindspore.nn.optim``): ``optimizer(grads)``
updates the Parameters in place through ``ops.assign``; state (moments,
beta powers) lives in Parameters named as MindSpore names them, so
checkpoints save it."""

from .optimizer import Optimizer
from .sgd import SGD
from .momentum import Momentum
from .adam import Adam, AdamWeightDecay

__all__ = ["Optimizer", "SGD", "Momentum", "Adam", "AdamWeightDecay"]
