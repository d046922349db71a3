"""Callbacks (MindSpore's ``mindspore.train.callback``)."""

from ._callback import Callback, RunContext
from ._loss_monitor import LossMonitor
from ._time_monitor import TimeMonitor
from ._checkpoint import CheckpointConfig, ModelCheckpoint
from ._plateau import EarlyStopping, ReduceLROnPlateau
from ._history import History, LambdaCallback, LearningRateScheduler

__all__ = ["Callback", "RunContext", "LossMonitor", "TimeMonitor",
           "CheckpointConfig", "ModelCheckpoint", "EarlyStopping",
           "ReduceLROnPlateau", "History", "LambdaCallback",
           "LearningRateScheduler"]
