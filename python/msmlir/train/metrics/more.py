"""Dice, Perplexity and auc (MindSpore's formulas)."""

import math

import numpy as np

from .metric import Metric, rearrange_inputs

__all__ = ["Dice", "Perplexity", "auc"]


class Dice(Metric):
    """The mean over updates of 2 <y_pred, y> / (|y_pred|^2 + |y|^2 +
    smooth)."""

    def __init__(self, smooth=1e-5):
        super().__init__()
        if smooth <= 0:
            raise ValueError("For 'Dice', the argument 'smooth' must be "
                             f"greater than 0, but got {smooth}.")
        self.smooth = smooth
        self.clear()

    def clear(self):
        self._dice_coeff_sum = 0.0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError("For 'Dice.update', it needs 2 inputs "
                             f"(predicted value, true value), but got "
                             f"{len(inputs)}.")
        y_pred = self._convert_data(inputs[0]).astype(np.float64).ravel()
        y = self._convert_data(inputs[1]).astype(np.float64).ravel()
        intersection = np.dot(y_pred, y)
        union = np.dot(y_pred, y_pred) + np.dot(y, y)
        self._dice_coeff_sum += 2 * intersection / (union + self.smooth)
        self._samples_num += 1

    def eval(self):
        if self._samples_num == 0:
            raise RuntimeError("The 'Dice coefficient' can not be calculated, "
                               "because the number of samples is 0, please "
                               "check whether has called update method "
                               "before calling eval method.")
        return self._dice_coeff_sum / float(self._samples_num)


class Perplexity(Metric):
    """exp(mean cross entropy) of predicted probabilities [N, C] against
    labels [N] (ignore_label's samples left out)."""

    def __init__(self, ignore_label=None):
        super().__init__()
        self.ignore_label = ignore_label
        self.clear()

    def clear(self):
        self._sum_metric = 0.0
        self._num_inst = 0

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError("For 'Perplexity.update', it needs 2 inputs "
                             "(predicted value, label), but got "
                             f"{len(inputs)}.")
        preds = self._convert_data(inputs[0]).reshape(
            -1, self._convert_data(inputs[0]).shape[-1])
        labels = self._convert_data(inputs[1]).astype(np.int64).reshape(-1)
        keep = np.ones(labels.shape, bool) if self.ignore_label is None \
            else labels != self.ignore_label
        probs = preds[np.arange(labels.size), labels][keep]
        self._sum_metric -= float(np.sum(np.log(np.maximum(probs, 1e-10))))
        self._num_inst += int(keep.sum())

    def eval(self):
        if self._num_inst == 0:
            raise RuntimeError("The 'Perplexity' can not be calculated, "
                               "because the number of samples is 0, please "
                               "check whether has called update method "
                               "before calling eval method.")
        return math.exp(self._sum_metric / self._num_inst)


def auc(x, y, reorder=False):
    """The area under the curve y(x) by the trapezoid rule (x sorted
    first with reorder, else x must be monotonic)."""
    x, y = np.asarray(x, np.float64), np.asarray(y, np.float64)
    if x.shape[0] < 2:
        raise ValueError("At least 2 points are needed to compute area "
                         f"under curve, but x.shape = {x.shape}.")
    if reorder:
        order = np.lexsort((y, x))
        x, y = x[order], y[order]
    dx = np.diff(x)
    direction = 1
    if np.any(dx < 0):
        if not np.all(dx <= 0):
            raise ValueError("Reordering is not turned on, and the x array "
                             f"is not increasing: {x}")
        direction = -1
    return direction * float(np.sum(dx * (y[1:] + y[:-1]) / 2.0))
