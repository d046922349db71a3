"""Callback, RunContext and the callback parameters Model gives them
(MindSpore's ``mindspore.train.Callback``): the hooks, their defaults (each
new-style hook calls its old-style one), and the list Model runs."""

import numpy as np

from ..._tensor import Tensor

__all__ = ["Callback", "RunContext", "CallbackParams", "CallbackList",
           "handle_loss"]

_OLD_STYLE = ("begin", "end", "epoch_begin", "epoch_end", "step_begin",
              "step_end")


class Callback:
    """Base class of the training and evaluation callbacks. Override the
    on_train_* / on_eval_* hooks; by default each calls its old-style
    counterpart (step_end, epoch_end, ...), which do nothing."""

    def __enter__(self):
        return self

    def __exit__(self, *err):
        pass

    def begin(self, run_context):
        pass

    def epoch_begin(self, run_context):
        pass

    def epoch_end(self, run_context):
        pass

    def step_begin(self, run_context):
        pass

    def step_end(self, run_context):
        pass

    def end(self, run_context):
        pass

    def on_train_begin(self, run_context):
        self.begin(run_context)

    def on_train_epoch_begin(self, run_context):
        self.epoch_begin(run_context)

    def on_train_epoch_end(self, run_context):
        self.epoch_end(run_context)

    def on_train_step_begin(self, run_context):
        self.step_begin(run_context)

    def on_train_step_end(self, run_context):
        self.step_end(run_context)

    def on_train_end(self, run_context):
        self.end(run_context)

    def on_eval_begin(self, run_context):
        self.begin(run_context)

    def on_eval_epoch_begin(self, run_context):
        self.epoch_begin(run_context)

    def on_eval_epoch_end(self, run_context):
        self.epoch_end(run_context)

    def on_eval_step_begin(self, run_context):
        self.step_begin(run_context)

    def on_eval_step_end(self, run_context):
        self.step_end(run_context)

    def on_eval_end(self, run_context):
        self.end(run_context)


def old_style_hooks(callback):
    """The old-style hook names a user's Callback class defines itself."""
    return [n for n in _OLD_STYLE if n in type(callback).__dict__]


class CallbackParams(dict):
    """The `cb_params` dict: its keys are attributes too. A missing one
    raises KeyError, as MindSpore's does (use .get)."""

    def __getattr__(self, key):
        return self[key]

    def __setattr__(self, key, value):
        self[key] = value


class RunContext:
    """What each hook gets: original_args() is the cb_params dict, and
    request_stop() asks Model to end the loop."""

    def __init__(self, original_args):
        if not isinstance(original_args, dict):
            raise TypeError("The argument 'original_args' of RunContext "
                            "should be dict type, but got "
                            f"{type(original_args)}.")
        self._original_args = original_args
        self._stop_requested = False

    def original_args(self):
        return self._original_args

    def request_stop(self):
        self._stop_requested = True

    def get_stop_requested(self):
        return self._stop_requested


class CallbackList(Callback):
    """Several callbacks run in order (None, one Callback, or a list)."""

    def __init__(self, callbacks):
        if callbacks is None:
            callbacks = []
        elif isinstance(callbacks, Callback):
            callbacks = [callbacks]
        elif isinstance(callbacks, (list, tuple)):
            for cb in callbacks:
                if not isinstance(cb, Callback):
                    raise TypeError("When the 'callbacks' is a list, the "
                                    "elements in 'callbacks' must be "
                                    "Callback functions.")
        else:
            raise TypeError("The 'callbacks' is not a Callback or a list of "
                            "Callback.")
        self.callbacks = list(callbacks)

    def _each(self, hook, run_context):
        for cb in self.callbacks:
            getattr(cb, hook)(run_context)


def _forward(hook):
    def run(self, run_context):
        self._each(hook, run_context)
    run.__name__ = hook
    return run


for _hook in [n for n in vars(Callback) if n.startswith("on_")]:
    setattr(CallbackList, _hook, _forward(_hook))


def handle_loss(net_outputs):
    """The loss in a train network's output, as LossMonitor reads it: the
    first element of a tuple (kept a Tensor), or a Tensor's mean as a
    Python float."""
    loss = net_outputs
    if isinstance(loss, (tuple, list)) and loss and \
            isinstance(loss[0], Tensor):
        return loss[0]
    if isinstance(loss, Tensor):
        return float(np.mean(loss.asnumpy()))
    return loss
