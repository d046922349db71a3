"""Neural-network cells (MindSpore's ``mindspore.nn``)."""

from .cell import Cell, SequentialCell, CellList
from .layers import (Dense, ReLU, Flatten, Softmax, LogSoftmax, Sigmoid, Tanh,
                     GELU, Dropout, get_activation)
from .conv import Conv2d
from .pooling import MaxPool2d, AvgPool2d
from .normalization import BatchNorm1d, BatchNorm2d, LayerNorm

__all__ = ["Cell", "SequentialCell", "CellList", "Dense", "ReLU", "Flatten",
           "Softmax", "LogSoftmax", "Sigmoid", "Tanh", "GELU", "Dropout",
           "get_activation", "Conv2d", "MaxPool2d", "AvgPool2d",
           "BatchNorm1d", "BatchNorm2d", "LayerNorm"]
