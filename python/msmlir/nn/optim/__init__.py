"""Optimizers (MindSpore's ``mindspore.nn.optim``): ``optimizer(grads)``
updates the Parameters in place through ``ops.assign``; state (moments,
beta powers) lives in Parameters named as MindSpore names them, so
checkpoints save it. Each optimizer's formula is an ops Primitive
(ops/optimizer_ops.py) where MindSpore has one."""

from .optimizer import Optimizer
from .sgd import SGD
from .momentum import Momentum
from .adam import Adam, AdamWeightDecay
from .rmsprop import RMSProp
from .ada_grad import Adagrad
from .adadelta import Adadelta
from .adamax import AdaMax
from .lamb import Lamb
from .lars import LARS
from .ftrl import FTRL
from .proximal_ada_grad import ProximalAdagrad
from .rprop import Rprop
from .asgd import ASGD

__all__ = ["Optimizer", "SGD", "Momentum", "Adam", "AdamWeightDecay",
           "RMSProp", "Adagrad", "Adadelta", "AdaMax", "Lamb", "LARS", "FTRL",
           "ProximalAdagrad", "Rprop", "ASGD"]
