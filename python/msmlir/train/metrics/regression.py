"""Loss, MAE and MSE."""

import numpy as np

from .metric import EvaluationBase, Metric, rearrange_inputs

__all__ = ["Loss", "MAE", "MSE"]


class Loss(Metric):
    """The mean of the per-update mean losses."""

    def __init__(self):
        super().__init__()
        self.clear()

    def clear(self):
        self._sum_loss = 0
        self._total_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 1:
            raise ValueError("For 'Loss.update', it needs 1 input (loss), "
                             f"but got {len(inputs)}")
        loss = self._convert_data(inputs[0])
        if loss.ndim == 0:
            loss = loss.reshape(1)
        if loss.ndim != 1:
            raise ValueError("For 'Loss.update', the dimension of your "
                             f"input (loss) must be 1, but got {loss.ndim}.")
        self._sum_loss += loss.mean(-1)
        self._total_num += 1

    def eval(self):
        if self._total_num == 0:
            raise RuntimeError("The 'Loss' can not be calculated, because "
                               "the number of samples is 0, please check "
                               "whether has called update method before "
                               "calling eval method.")
        return float(self._sum_loss / self._total_num)


class _ElementError(EvaluationBase):
    """The mean of an error over every element. MindSpore's code divides
    the sum by the number of rows instead, so for inputs of more than one
    column it reports the per-row sum; this is the mean it documents."""

    def __init__(self):
        super().__init__("classification")
        self.clear()

    def clear(self):
        self._error_sum = 0.0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y = self._pair(inputs)
        y = y.reshape(y_pred.shape)
        self._error_sum += float(self._error(y - y_pred).sum())
        self._samples_num += y.size

    def eval(self):
        if self._samples_num == 0:
            raise self._empty()
        return np.float64(self._error_sum / self._samples_num)


class MAE(_ElementError):
    _who = "MAE"

    @staticmethod
    def _error(diff):
        return np.abs(diff)


class MSE(_ElementError):
    _who = "MSE"

    @staticmethod
    def _error(diff):
        return diff * diff
