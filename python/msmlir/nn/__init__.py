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
from .optim import Optimizer, SGD, Momentum, Adam, AdamWeightDecay
from .wrap import WithLossCell, TrainOneStepCell
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
           "NLLLoss", "MSELoss", "L1Loss", "BCEWithLogitsLoss", "Optimizer",
           "SGD", "Momentum", "Adam", "AdamWeightDecay", "WithLossCell",
           "TrainOneStepCell", "DistributedGradReducer"]

from .resize import Upsample  # noqa: E402

__all__ += ["Upsample"]
