"""EarlyStopping and ReduceLROnPlateau: both watch one value at each
epoch's end (the last step's loss for monitor='loss', otherwise fit's
evaluation result, e.g. 'eval_loss' or a metric name) and act when it
stops improving."""

import copy
import warnings

import numpy as np

from ..._checkparam import (check_float_range, check_non_negative_int,
                            check_value_type)
from ..._tensor import Parameter, Tensor
from ...ops import assign
from ._callback import Callback, handle_loss

__all__ = ["EarlyStopping", "ReduceLROnPlateau"]

# Monitors that are better when smaller, for mode='auto'.
_LOWER_IS_BETTER = ("hausdorff_distance", "mae", "mse", "loss", "perplexity",
                    "mean_surface_distance", "root_mean_square_distance",
                    "eval_loss")


class _PlateauWatcher(Callback):
    """The monitored value and the comparison of improvements."""

    _who = ""

    def __init__(self, monitor, mode, min_delta):
        super().__init__()
        if mode not in ("auto", "min", "max"):
            raise ValueError(f"mode should be 'auto', 'min' or 'max', but got "
                             f"{mode}.")
        check_value_type("min_delta", min_delta, (float, int), self._who)
        self.monitor = monitor
        self.min_delta = abs(min_delta)
        self.lower_is_better = mode == "min" or (
            mode == "auto" and monitor in _LOWER_IS_BETTER)
        self.best = np.inf if self.lower_is_better else -np.inf

    def _improves(self, value, reference):
        if self.lower_is_better:
            return value < reference - self.min_delta
        return value > reference + self.min_delta

    def _monitored(self, cb, what):
        """The value, or None (with MindSpore's warning) when this epoch has
        none."""
        if self.monitor == "loss":
            value = handle_loss(cb.get("net_outputs"))
        else:
            value = (cb.get("eval_results") or {}).get(self.monitor)
        if value is None:
            available = list((cb.get("eval_results") or {}).keys())
            warnings.warn(f"{what} is conditioned on {self.monitor}, which "
                          "is not available. Available choices are: "
                          f"{available}")
            return None
        if isinstance(value, Tensor):
            value = value.asnumpy()
        value = np.asarray(value)
        if value.size != 1:
            raise ValueError(f"{self._who} only supports scalar monitor now.")
        return float(value.reshape(()))


class EarlyStopping(_PlateauWatcher):
    """Stops training when the monitored value has not improved (by more
    than min_delta) for `patience` epochs; restore_best_weights loads the
    best epoch's weights back."""

    _who = "EarlyStopping"

    def __init__(self, monitor="eval_loss", min_delta=0, patience=0,
                 verbose=False, mode="auto", baseline=None,
                 restore_best_weights=False):
        super().__init__(monitor, mode, min_delta)
        self.patience = check_non_negative_int(patience)
        self.verbose = verbose
        # MindSpore's code puts min_delta here; the baseline is meant.
        self.baseline = baseline
        self.restore_best_weights = restore_best_weights

    def on_train_begin(self, run_context):
        self.wait = 0
        self.stopped_epoch = 0
        self.best = np.inf if self.lower_is_better else -np.inf
        self.best_weights = None

    def on_train_epoch_end(self, run_context):
        cb = run_context.original_args()
        value = self._monitored(cb, "Early stopping")
        if value is None:
            return
        self.wait += 1
        if self._improves(value, self.best):
            self.best = value
            if self.restore_best_weights:
                self.best_weights = copy.deepcopy(
                    cb.train_network.parameters_dict())
            if self.baseline is None or self._improves(value, self.baseline):
                self.wait = 0
        if self.wait >= self.patience:
            self.stopped_epoch = cb.cur_epoch_num
            run_context.request_stop()
            if self.restore_best_weights and self.best_weights is not None:
                if self.verbose:
                    print("Restoring model weights from the end of the best "
                          "epoch.")
                for name, p in cb.train_network.parameters_dict().items():
                    p.set_data(self.best_weights[name])

    def on_train_end(self, run_context):
        if self.stopped_epoch > 0 and self.verbose:
            print("Epoch %05d: early stopping" % self.stopped_epoch)


class ReduceLROnPlateau(_PlateauWatcher):
    """Multiplies a fixed learning rate by `factor` (not below min_lr) when
    the monitored value has not improved for `patience` epochs, then waits
    `cooldown` epochs."""

    _who = "ReduceLROnPlateau"

    def __init__(self, monitor="eval_loss", factor=0.1, patience=10,
                 verbose=False, mode="auto", min_delta=1e-4, cooldown=0,
                 min_lr=0):
        super().__init__(monitor, mode, min_delta)
        self.factor = check_float_range(factor, 0.0, 1.0, "factor")
        self.patience = check_non_negative_int(patience)
        self.cooldown = check_non_negative_int(cooldown)
        check_value_type("min_lr", min_lr, (float, int))
        self.min_lr = min_lr
        self.verbose = verbose
        self.wait = 0
        self.cooldown_counter = 0

    def on_train_begin(self, run_context):
        self.wait = 0
        self.cooldown_counter = 0
        self.best = np.inf if self.lower_is_better else -np.inf

    def on_train_epoch_end(self, run_context):
        cb = run_context.original_args()
        lr = cb.optimizer.learning_rate
        if not isinstance(lr, Parameter):
            raise ValueError("ReduceLROnPlateau does not support dynamic "
                             "learning rate and group learning rate now.")
        value = self._monitored(cb, "Learning rate reduction")
        if value is None:
            return
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.wait = 0
        if self._improves(value, self.best):
            self.best = value
            self.wait = 0
        elif self.cooldown_counter <= 0:
            self.wait += 1
            if self.wait >= self.patience:
                self._reduce(lr, cb.cur_epoch_num)
                self.cooldown_counter = self.cooldown
                self.wait = 0

    def _reduce(self, lr, epoch):
        old = float(lr.asnumpy())
        if old > self.min_lr:
            new = max(old * self.factor, self.min_lr)
            assign(lr, Tensor(np.float32(new)))
            if self.verbose:
                print("Epoch %05d: ReduceLROnPlateau reducing learning rate "
                      "to %s." % (epoch, new))
