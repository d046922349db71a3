"""The Metric base class (MindSpore's ``mindspore.train.Metric``): clear,
update(*inputs), eval; inputs may be Tensors, lists or numpy arrays, and
set_indexes picks which of the network's outputs update sees."""

import functools

import numpy as np

from ..._tensor import Tensor

__all__ = ["Metric", "rearrange_inputs", "EvaluationBase"]


def rearrange_inputs(update):
    """Decorates update: with indexes set, update gets those inputs only,
    in that order."""
    @functools.wraps(update)
    def wrapper(self, *inputs):
        if self._indexes is not None:
            inputs = [inputs[i] for i in self._indexes]
        return update(self, *inputs)
    return wrapper


class Metric:
    def __init__(self):
        self._indexes = None

    def _convert_data(self, data):
        if isinstance(data, Tensor):
            return data.asnumpy()
        if isinstance(data, list):
            return np.array(data)
        if isinstance(data, np.ndarray):
            return data
        raise TypeError("For 'Metric' and its derived classes, the input "
                        "data type must be tensor, list or numpy.ndarray, "
                        f"but got {type(data)}.")

    @property
    def indexes(self):
        return self._indexes

    def set_indexes(self, indexes):
        if not isinstance(indexes, list) or not all(
                isinstance(i, int) and not isinstance(i, bool)
                for i in indexes):
            raise ValueError("For 'set_indexes', the argument 'indexes' must "
                             "be a list and all its elements must be int, "
                             "please check whether it is correct.")
        self._indexes = indexes
        return self

    def __call__(self, *inputs):
        self.clear()
        self.update(*inputs)
        return self.eval()

    def clear(self):
        raise NotImplementedError("Must define clear function to use this "
                                  "base class")

    def update(self, *inputs):
        raise NotImplementedError("Must define update function to use this "
                                  "base class")

    def eval(self):
        raise NotImplementedError("Must define eval function to use this "
                                  "base class")


def check_onehot(y):
    """MindSpore's one-hot test: more than one dim, only 0s and 1s, one 1
    per row."""
    if y.ndim < 2:
        return False
    return bool(np.all((y == 0) | (y == 1)) and
                np.all(y.sum(axis=1) == 1))


class EvaluationBase(Metric):
    """A metric of (y_pred, y) pairs: 'classification' or 'multilabel'."""

    _who = ""

    def __init__(self, eval_type):
        super().__init__()
        if eval_type not in ("classification", "multilabel"):
            raise TypeError("The argument 'eval_type' must be in "
                            "{'classification', 'multilabel'}, but got "
                            f"{eval_type}")
        self._type = eval_type

    def _pair(self, inputs):
        if len(inputs) != 2:
            raise ValueError(f"For '{self._who}.update', it needs 2 inputs "
                             "(predicted value, true value), but got "
                             f"{len(inputs)}")
        return self._convert_data(inputs[0]), self._convert_data(inputs[1])

    def _empty(self, what="inputs (predicted value, true value)"):
        return RuntimeError(f"The '{self._who}' can not be calculated, "
                            "because the number of samples is 0, please "
                            f"check whether your {what} are empty, or has "
                            "called update method before calling eval "
                            "method.")
