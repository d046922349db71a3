"""Metrics (MindSpore's ``mindspore.train.metrics``) and the names Model's
``metrics={'acc', ...}`` accepts."""

from .metric import Metric, rearrange_inputs
from .classification import (Accuracy, TopKCategoricalAccuracy,
                             Top1CategoricalAccuracy, Top5CategoricalAccuracy,
                             Precision, Recall, Fbeta, F1, ConfusionMatrix)
from .regression import Loss, MAE, MSE
from .more import Dice, Perplexity, auc

__all__ = ["Metric", "rearrange_inputs", "Accuracy",
           "TopKCategoricalAccuracy", "Top1CategoricalAccuracy",
           "Top5CategoricalAccuracy", "Precision", "Recall", "Fbeta", "F1",
           "ConfusionMatrix", "Loss", "MAE", "MSE", "Dice", "Perplexity",
           "auc", "get_metric_fn", "names"]

_METRICS = {
    "accuracy": Accuracy, "acc": Accuracy, "precision": Precision,
    "recall": Recall, "F1": F1, "topk": TopKCategoricalAccuracy,
    "top_1_accuracy": Top1CategoricalAccuracy,
    "top_5_accuracy": Top5CategoricalAccuracy, "mae": MAE, "mse": MSE,
    "loss": Loss, "confusion_matrix": ConfusionMatrix, "dice": Dice,
    "perplexity": Perplexity,
}


def names():
    """The metric names get_metric_fn knows, sorted."""
    return sorted(_METRICS)


def get_metric_fn(name, *args, **kwargs):
    """A new metric of the class that `name` stands for."""
    if name not in _METRICS:
        raise KeyError(f"For 'get_metric_fn', unsupported metric {name}, "
                       "please refer to official website for more details "
                       "about supported metrics.")
    return _METRICS[name](*args, **kwargs)
