"""Classification metrics: Accuracy, TopKCategoricalAccuracy (Top1, Top5),
Precision, Recall, Fbeta/F1 and ConfusionMatrix, with MindSpore's input
rules (labels as class indices or one-hot rows; predictions as logits or
probabilities, argmax along axis 1)."""

import sys

import numpy as np

from .metric import EvaluationBase, Metric, check_onehot, rearrange_inputs

__all__ = ["Accuracy", "TopKCategoricalAccuracy", "Top1CategoricalAccuracy",
           "Top5CategoricalAccuracy", "Precision", "Recall", "Fbeta", "F1",
           "ConfusionMatrix"]


def _labels(y_pred, y):
    """Class indices of y (argmax of one-hot rows)."""
    if y_pred.ndim == y.ndim and check_onehot(y):
        return y.argmax(axis=1)
    return y


def _check_class_shapes(who, y_pred, y):
    if y_pred.ndim != y.ndim + 1 or y.shape != (y_pred.shape[0],) + \
            y_pred.shape[2:]:
        raise ValueError(f"For '{who}.update', predicted value (input[0]) "
                         "and true value (input[1]) should have the shapes "
                         "(N, C, ...) and (N, ...) (class indices), or both "
                         f"(N, C) (one-hot), but got {y_pred.shape} and "
                         f"{y.shape}.")


class Accuracy(EvaluationBase):
    """The fraction of samples whose argmax prediction (classification) or
    whole 0/1 row (multilabel) is right."""

    _who = "Accuracy"

    def __init__(self, eval_type="classification"):
        super().__init__(eval_type)
        self.clear()

    def clear(self):
        self._correct_num = 0
        self._total_num = 0
        self._class_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y = self._pair(inputs)
        if self._type == "classification":
            y = _labels(y_pred, y)
            _check_class_shapes("Accuracy", y_pred, y)
            if self._class_num and self._class_num != y_pred.shape[1]:
                raise ValueError("For 'Accuracy.update', class number not "
                                 f"match, last input predicted data contain "
                                 f"{self._class_num} classes, but current "
                                 "predicted data contain "
                                 f"{y_pred.shape[1]} classes.")
            self._class_num = y_pred.shape[1]
            right = (y_pred.argmax(axis=1) == y).reshape(-1)
        else:
            right = np.all(y_pred.reshape(y.shape[0], -1) ==
                           y.reshape(y.shape[0], -1), axis=1)
        self._correct_num += int(right.sum())
        self._total_num += right.shape[0]

    def eval(self):
        if self._total_num == 0:
            raise RuntimeError("The 'Accuracy' can not be calculated, "
                               "because the number of samples is 0, please "
                               "check whether your inputs(predicted value, "
                               "true value) are empty, or has called update "
                               "method before calling eval method.")
        return np.float64(self._correct_num / self._total_num)


class TopKCategoricalAccuracy(EvaluationBase):
    """The fraction of samples whose label is among the k highest
    predictions (ties in argsort's stable order)."""

    _who = "TopKCategoricalAccuracy"

    def __init__(self, k):
        super().__init__("classification")
        if not isinstance(k, int) or isinstance(k, bool):
            raise TypeError("For 'TopKCategoricalAccuracy', the type of the "
                            "argument 'k' should be int, but got 'k' type: "
                            f"{type(k)}.")
        if k < 1:
            raise ValueError("For 'TopKCategoricalAccuracy', the argument "
                             f"'k' must be at least 1, but got 'k' value: "
                             f"{k}.")
        self.k = k
        self.clear()

    def clear(self):
        self._correct_num = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y = self._pair(inputs)
        y = _labels(y_pred, y)
        top = np.argsort(-y_pred, axis=1, kind="stable")[:, :self.k]
        hits = [int(y[i]) in top[i] for i in range(y.shape[0])]
        self._correct_num += sum(hits)
        self._samples_num += y.shape[0]

    def eval(self):
        if self._samples_num == 0:
            raise self._empty("inputs (predicted value, true value)")
        return np.float64(self._correct_num / self._samples_num)


class Top1CategoricalAccuracy(TopKCategoricalAccuracy):
    def __init__(self):
        super().__init__(1)


class Top5CategoricalAccuracy(TopKCategoricalAccuracy):
    def __init__(self):
        super().__init__(5)


_EPS = sys.float_info.min


class _PerClass(EvaluationBase):
    """True positives, predicted positives and actual positives per
    class, accumulated over updates."""

    def __init__(self, eval_type="classification"):
        super().__init__(eval_type)
        self.clear()

    def clear(self):
        self._class_num = 0
        self._true_positives = 0
        self._predicted = 0
        self._actual = 0
        self._ratios = []   # multilabel: one row of per-class ratios each

    def _one_hots(self, y_pred, y):
        if self._type == "multilabel":
            return y_pred.reshape(y.shape[0], -1), y.reshape(y.shape[0], -1)
        y = _labels(y_pred, y).astype(np.int64).reshape(-1)
        classes = y_pred.shape[1]
        if y.size and y.max() + 1 > classes:
            raise ValueError(f"For '{self._who}.update', predicted value "
                             f"(input[0]) has {classes} classes, less than "
                             f"the largest label + 1 ({y.max() + 1}).")
        eye = np.eye(classes)
        return eye[y_pred.argmax(axis=1).reshape(-1)], eye[y]

    @rearrange_inputs
    def update(self, *inputs):
        pred, true = self._one_hots(*self._pair(inputs))
        self._class_num = pred.shape[1]
        tp = (pred * true).sum(axis=0)
        if self._type == "multilabel":
            self._ratios.append(self._ratio(tp, pred.sum(axis=0),
                                            true.sum(axis=0)))
        self._true_positives = self._true_positives + tp
        self._predicted = self._predicted + pred.sum(axis=0)
        self._actual = self._actual + true.sum(axis=0)

    def eval(self, average=False):
        if self._class_num == 0:
            raise self._empty()
        if self._type == "multilabel":
            per_class = np.concatenate(self._ratios)
            return per_class.mean() if average else per_class
        result = self._ratio(self._true_positives, self._predicted,
                             self._actual)
        return result.mean() if average else result


class Precision(_PerClass):
    """Per class: true positives / predicted positives."""

    _who = "Precision"

    def _ratio(self, tp, predicted, actual):
        return tp / (predicted + _EPS)


class Recall(_PerClass):
    """Per class: true positives / actual positives."""

    _who = "Recall"

    def _ratio(self, tp, predicted, actual):
        return tp / (actual + _EPS)


class Fbeta(_PerClass):
    """Per class: (1 + beta^2) TP / (beta^2 actual + predicted)."""

    _who = "Fbeta"

    def __init__(self, beta):
        if not beta > 0:
            raise ValueError("For 'Fbeta', the argument 'beta' must be "
                             f"greater than 0, but got {beta}.")
        self.beta = beta
        super().__init__("classification")

    def _ratio(self, tp, predicted, actual):
        b2 = self.beta ** 2
        return (1 + b2) * tp / (b2 * actual + predicted + _EPS)


class F1(Fbeta):
    def __init__(self):
        super().__init__(1.0)


class ConfusionMatrix(Metric):
    """Counts of (true label, prediction) pairs, rows the labels; normalize
    'target' (by row), 'prediction' (by column) or 'all'."""

    def __init__(self, num_classes, normalize="no_norm", threshold=0.5):
        super().__init__()
        if not isinstance(num_classes, int) or isinstance(num_classes, bool):
            raise TypeError("For 'ConfusionMatrix', the argument "
                            "'num_classes' must be int, but got "
                            f"{type(num_classes)}.")
        if normalize not in ("target", "prediction", "all", "no_norm"):
            raise ValueError("For 'ConfusionMatrix', the argument "
                             "'normalize' must be in ['all', 'prediction', "
                             "'label', 'no_norm'(None)], but got "
                             f"{normalize}.")
        if not isinstance(threshold, float):
            raise TypeError("For 'ConfusionMatrix', the argument "
                            "'threshold' must be float, but got "
                            f"{type(threshold)}.")
        self.num_classes = num_classes
        self.normalize = normalize
        self.threshold = threshold
        self.clear()

    def clear(self):
        self.confusion_matrix = np.zeros((self.num_classes,
                                          self.num_classes))
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError("For 'ConfusionMatrix.update', it needs 2 "
                             "inputs (predicted value, true value), but got "
                             f"{len(inputs)}.")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1]).astype(np.int64)
        if y_pred.ndim == y.ndim + 1:
            y_pred = y_pred.argmax(axis=1)
        elif np.issubdtype(y_pred.dtype, np.floating):
            y_pred = (y_pred >= self.threshold).astype(np.int64)
        c = self.num_classes
        counts = np.bincount(c * y.reshape(-1) + y_pred.reshape(-1).astype(
            np.int64), minlength=c * c)
        self.confusion_matrix += counts.reshape(c, c)
        self._is_update = True

    def eval(self):
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before "
                               "calling 'eval' method.")
        m = self.confusion_matrix.astype(np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            if self.normalize == "target":
                m = m / m.sum(axis=1, keepdims=True)
            elif self.normalize == "prediction":
                m = m / m.sum(axis=0, keepdims=True)
            elif self.normalize == "all":
                m = m / m.sum()
        return np.nan_to_num(m)
