"""Neural-network cells (MindSpore's ``mindspore.nn``)."""

from .cell import Cell, SequentialCell, CellList, CellDict
from .layers import (Dense, ReLU, Flatten, Softmax, LogSoftmax, Sigmoid, Tanh,
                     GELU, Dropout, get_activation)
from .activation import LeakyReLU, SiLU, ELU, Softplus, Identity
from .conv import Conv2d, Conv1d, Conv2dTranspose
from .embedding import Embedding
from .pooling import MaxPool2d, AvgPool2d, AdaptiveAvgPool2d
from .normalization import BatchNorm1d, BatchNorm2d, LayerNorm, GroupNorm
from .loss import (LossBase, CrossEntropyLoss, SoftmaxCrossEntropyWithLogits,
                   NLLLoss, MSELoss, L1Loss, BCEWithLogitsLoss)
from .optim import *  # noqa: F401,F403
from . import optim, learning_rate_schedule, dynamic_lr
from .learning_rate_schedule import *  # noqa: F401,F403
from .dynamic_lr import *  # noqa: F401,F403
from .wrap import WithLossCell, WithEvalCell, TrainOneStepCell
from .grad_reducer import DistributedGradReducer

__all__ = ["Cell", "SequentialCell", "CellList", "Dense", "ReLU", "Flatten",
           "Softmax", "LogSoftmax", "Sigmoid", "Tanh", "GELU", "Dropout",
           "get_activation", "Conv2d", "MaxPool2d", "AvgPool2d",
           "BatchNorm1d", "BatchNorm2d", "LayerNorm", "CellDict", "LeakyReLU",
           "SiLU", "ELU", "Softplus", "Identity", "Conv1d", "Conv2dTranspose",
           "AdaptiveAvgPool2d",
           "GroupNorm", "Embedding",
           # training
           "LossBase", "CrossEntropyLoss", "SoftmaxCrossEntropyWithLogits",
           "NLLLoss", "MSELoss", "L1Loss", "BCEWithLogitsLoss",
           "WithLossCell", "WithEvalCell", "TrainOneStepCell",
           "DistributedGradReducer"] + optim.__all__ + \
    learning_rate_schedule.__all__ + dynamic_lr.__all__

from .resize import Upsample  # noqa: E402
from . import activation_more, loss_more, padding, layers_more  # noqa: E402
from .layers_more import *  # noqa: E402,F401,F403
from .activation_more import *  # noqa: E402,F401,F403
from .loss_more import *  # noqa: E402,F401,F403
from .padding import *  # noqa: E402,F401,F403

__all__ += (["Upsample"] + activation_more.__all__ + loss_more.__all__ +
            padding.__all__ + layers_more.__all__)
