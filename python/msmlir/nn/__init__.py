"""Neural-network cells (MindSpore's ``mindspore.nn``)."""

from .cell import Cell, SequentialCell, CellList
from .layers import (Dense, ReLU, Flatten, Softmax, LogSoftmax, Sigmoid, Tanh,
                     GELU, Dropout, get_activation)

__all__ = ["Cell", "SequentialCell", "CellList", "Dense", "ReLU", "Flatten",
           "Softmax", "LogSoftmax", "Sigmoid", "Tanh", "GELU", "Dropout",
           "get_activation"]
