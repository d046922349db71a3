"""Neural-network cells (MindSpore's ``mindspore.nn``)."""

from .cell import Cell, SequentialCell, CellList
from .layers import (Dense, ReLU, Flatten, Softmax, LogSoftmax, Sigmoid, Tanh,
                     GELU, Dropout, get_activation)
from .conv import Conv2d
from .pooling import MaxPool2d, AvgPool2d
from .normalization import BatchNorm1d, BatchNorm2d, LayerNorm
from .loss import (LossBase, CrossEntropyLoss, SoftmaxCrossEntropyWithLogits,
                   NLLLoss, MSELoss, L1Loss, BCEWithLogitsLoss)
from .optim import Optimizer, SGD, Momentum, Adam, AdamWeightDecay
from .wrap import WithLossCell, TrainOneStepCell

__all__ = ["Cell", "SequentialCell", "CellList", "Dense", "ReLU", "Flatten",
           "Softmax", "LogSoftmax", "Sigmoid", "Tanh", "GELU", "Dropout",
           "get_activation", "Conv2d", "MaxPool2d", "AvgPool2d",
           "BatchNorm1d", "BatchNorm2d", "LayerNorm",
           # training
           "LossBase", "CrossEntropyLoss", "SoftmaxCrossEntropyWithLogits",
           "NLLLoss", "MSELoss", "L1Loss", "BCEWithLogitsLoss", "Optimizer",
           "SGD", "Momentum", "Adam", "AdamWeightDecay", "WithLossCell",
           "TrainOneStepCell"]
