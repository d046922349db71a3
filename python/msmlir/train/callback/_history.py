"""History, LambdaCallback and LearningRateScheduler: the small
callbacks."""

import math

import numpy as np

from ..._tensor import Tensor
from ...ops import assign
from ._callback import Callback

__all__ = ["History", "LambdaCallback", "LearningRateScheduler"]


class History(Callback):
    """Records each epoch's number in `epoch` ({'epoch': [1, 2]}), and its
    last network output and evaluation metrics in `history`
    ({'net_output': [...], 'accuracy': [...]})."""

    def __init__(self):
        super().__init__()
        self.history = {}
        self.epoch = {"epoch": []}

    def begin(self, run_context):
        self.epoch = {"epoch": []}

    def epoch_end(self, run_context):
        cb = run_context.original_args()
        self.epoch["epoch"].append(cb.get("cur_epoch_num", 1))
        output = cb.get("net_outputs")
        if isinstance(output, (tuple, list)):
            output = output[0]
        if isinstance(output, Tensor):
            output = np.mean(output.asnumpy())
        entries = dict({"net_output": output}, **(cb.get("metrics") or {}))
        for key, value in entries.items():
            self.history.setdefault(key, []).append(value)


_HOOKS = ["on_train_epoch_begin", "on_train_epoch_end",
          "on_train_step_begin", "on_train_step_end", "on_train_begin",
          "on_train_end", "on_eval_epoch_begin", "on_eval_epoch_end",
          "on_eval_step_begin", "on_eval_step_end", "on_eval_begin",
          "on_eval_end"]


class LambdaCallback(Callback):
    """A callback made of functions of run_context, one per hook given;
    the other hooks do nothing."""

    def __init__(self, on_train_epoch_begin=None, on_train_epoch_end=None,
                 on_train_step_begin=None, on_train_step_end=None,
                 on_train_begin=None, on_train_end=None,
                 on_eval_epoch_begin=None, on_eval_epoch_end=None,
                 on_eval_step_begin=None, on_eval_step_end=None,
                 on_eval_begin=None, on_eval_end=None):
        super().__init__()
        given = dict(locals())
        for hook in _HOOKS:
            fn = given[hook]
            setattr(self, hook, fn if fn is not None else
                    (lambda run_context: None))


class LearningRateScheduler(Callback):
    """After each step, sets the optimizer's fixed learning rate to
    learning_rate_function(lr, cur_step_num)."""

    def __init__(self, learning_rate_function):
        super().__init__()
        self.learning_rate_function = learning_rate_function

    def step_end(self, run_context):
        cb = run_context.original_args()
        lr_param = cb.optimizer.learning_rate
        lr = float(lr_param.asnumpy())
        new = self.learning_rate_function(lr, cb.cur_step_num)
        if not math.isclose(lr, new, rel_tol=1e-10):
            assign(lr_param, Tensor(np.float32(new)))
