"""Loss functions (``ops.cross_entropy``, ``ops.nll_loss``,
``ops.binary_cross_entropy_with_logits``, ``ops.mse_loss``, ``ops.l1_loss``).

Every loss is composed of ms ops, so it is differentiated by the same rules
as the network and captured into graphs like any other code. Class-index
targets become one-hot rows in one place (``one_hot_targets``); an index
outside [0, C) (such as ignore_index=-100) gives a zero row, which is how
ignored samples drop out of the sums.
"""

import numbers

import numpy as np

from .._tensor import Tensor
from ._args import _instance
from . import array_func as _array
from . import math_func as _math
from . import nn_func as _nn
from . import reduction_func as _reduction

__all__ = ["cross_entropy", "nll_loss", "binary_cross_entropy_with_logits",
           "mse_loss", "l1_loss"]

_REDUCTIONS = ("mean", "sum", "none")


def _check_reduction(reduction, what):
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{what}: reduction must be 'mean', 'sum' or "
                         f"'none', got {reduction!r}")


def _reduce(loss, reduction):
    if reduction == "mean":
        return _reduction.reduce_mean(loss)
    if reduction == "sum":
        return _reduction.reduce_sum(loss)
    return loss


def one_hot_targets(target, num_classes, what):
    """float32 one-hot rows (a new last dimension of size C) of class
    indices `target`; indices outside [0, C) give zero rows."""
    if target.dtype.is_float:
        raise TypeError(f"{what}: class indices must be an integer tensor, "
                        f"got {target.dtype}")
    return _array.one_hot(target, num_classes, 1.0, 0.0)


def _class_last(x, target, what):
    """Input [N, C, d...] (or [C]) as [M, C], and target to match."""
    if x.ndim == 1:
        return _array.reshape(x, (1, x.shape[0])), target, None
    if x.ndim == 2:
        return x, target, None
    if x.ndim < 1:
        raise ValueError(f"{what}: input must have a class dimension")
    perm = (0,) + tuple(range(2, x.ndim)) + (1,)
    c = x.shape[1]
    rest = (x.shape[0],) + tuple(x.shape[2:])
    flat = _array.reshape(_array.transpose(x, perm), (-1, c))
    return flat, target, rest


def _is_index_target(target):
    return not target.dtype.is_float


def _weighted_nll(logp, target, weight, ignore_index, reduction,
                  label_smoothing, what):
    """Cross entropy of log-probabilities logp [M, C] against class indices
    (torch's and MindSpore's formula, weights and label smoothing
    included)."""
    c = logp.shape[-1]
    count = 1
    for d in target.shape:
        count *= d
    if count != logp.shape[0]:
        raise ValueError(f"{what}: {logp.shape[0]} samples but target has "
                         f"shape {list(target.shape)}")
    onehot = one_hot_targets(target, c, what)
    if target.ndim != 1:
        # One-hot first: the rows are float, and float tensors reshape.
        onehot = _array.reshape(onehot, (-1, c))
    if isinstance(ignore_index, numbers.Integral) and 0 <= ignore_index < c:
        keep = np.ones(c, dtype=np.float32)
        keep[ignore_index] = 0.0
        onehot = onehot * Tensor(keep)
    picked = onehot if weight is None else onehot * weight
    loss = _math.neg(_reduction.reduce_sum(picked * logp, -1))
    denom = _reduction.reduce_sum(picked, -1)  # each sample's weight (0: ignored)
    if label_smoothing:
        valid = _reduction.reduce_sum(onehot, -1)
        per_class = logp if weight is None else logp * weight
        smooth = _math.neg(_reduction.reduce_sum(per_class, -1)) * valid
        loss = loss * (1.0 - label_smoothing) + smooth * (label_smoothing /
                                                          c)
    if reduction == "mean":
        return _reduction.reduce_sum(loss) / _reduction.reduce_sum(denom)
    if reduction == "sum":
        return _reduction.reduce_sum(loss)
    return loss


def cross_entropy(input, target, weight=None, ignore_index=-100,
                  reduction="mean", label_smoothing=0.0):
    """Cross entropy between logits `input` [N, C] (or [N, C, d...], or
    [C]) and `target`: class indices [N] (integer) or class probabilities
    shaped like input (float). MindSpore's ``ops.cross_entropy``."""
    what = "ops.cross_entropy"
    _instance(input, Tensor, "input", what)
    _instance(target, Tensor, "target", what)
    _check_reduction(reduction, what)
    if not 0.0 <= label_smoothing <= 1.0:
        raise ValueError(f"{what}: label_smoothing must be in [0, 1], got "
                         f"{label_smoothing}")
    x, target, rest = _class_last(input, target, what)
    c = x.shape[-1]
    if weight is not None and tuple(weight.shape) != (c,):
        raise ValueError(f"{what}: weight must have shape [{c}], got "
                         f"{list(weight.shape)}")
    logp = _nn.log_softmax(x, -1)
    if _is_index_target(target):
        loss = _weighted_nll(logp, target, weight, ignore_index, reduction,
                             label_smoothing, what)
    else:
        if rest is not None:
            target = _array.reshape(_array.transpose(
                target, (0,) + tuple(range(2, target.ndim)) + (1,)), (-1, c))
        elif input.ndim == 1:
            target = _array.reshape(target, (1, c))
        if tuple(target.shape) != tuple(x.shape):
            raise ValueError(f"{what}: probability targets must have the "
                             f"input's shape {list(input.shape)}, got "
                             f"{list(target.shape)}")
        if label_smoothing:
            target = target * (1.0 - label_smoothing) + label_smoothing / c
        terms = target * logp if weight is None else target * logp * weight
        loss = _math.neg(_reduction.reduce_sum(terms, -1))
        loss = _reduce(loss, reduction)
    if reduction == "none":
        if rest is not None:
            loss = _array.reshape(loss, rest)
        elif input.ndim == 1:
            loss = _array.reshape(loss, ())
    return loss


def nll_loss(inputs, target, weight=None, ignore_index=-100,
             reduction="mean", label_smoothing=0.0):
    """Negative log-likelihood of log-probabilities `inputs` [N, C] at class
    indices `target` [N] (MindSpore's ``ops.nll_loss``)."""
    what = "ops.nll_loss"
    _instance(inputs, Tensor, "inputs", what)
    _instance(target, Tensor, "target", what)
    _check_reduction(reduction, what)
    if not _is_index_target(target):
        raise TypeError(f"{what}: target must hold class indices (an "
                        f"integer tensor), got {target.dtype}")
    x, target, rest = _class_last(inputs, target, what)
    loss = _weighted_nll(x, target, weight, ignore_index, reduction,
                         label_smoothing, what)
    if reduction == "none" and rest is not None:
        loss = _array.reshape(loss, rest)
    return loss


def binary_cross_entropy_with_logits(input, target, weight=None,
                                     pos_weight=None, reduction="mean"):
    """Sigmoid plus binary cross entropy, computed stably:
    (1 - y) x + (1 + (pw - 1) y) (log(1 + exp(-|x|)) + max(-x, 0))."""
    what = "ops.binary_cross_entropy_with_logits"
    _instance(input, Tensor, "input", what)
    _instance(target, Tensor, "target", what)
    _check_reduction(reduction, what)
    softplus_neg = _math.log(_math.exp(_math.neg(_math.abs(input))) + 1.0) + \
        _math.maximum(_math.neg(input), 0.0)
    if pos_weight is None:
        loss = (1.0 - target) * input + softplus_neg
    else:
        loss = (1.0 - target) * input + \
            ((pos_weight - 1.0) * target + 1.0) * softplus_neg
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


def mse_loss(input, target, reduction="mean"):
    """(input - target)^2, reduced (MindSpore's ``ops.mse_loss``)."""
    what = "ops.mse_loss"
    _instance(input, Tensor, "input", what)
    _check_reduction(reduction, what)
    diff = input - target
    return _reduce(diff * diff, reduction)


def l1_loss(input, target, reduction="mean"):
    """|input - target|, reduced (MindSpore's ``ops.l1_loss``)."""
    what = "ops.l1_loss"
    _instance(input, Tensor, "input", what)
    _check_reduction(reduction, what)
    return _reduce(_math.abs(input - target), reduction)
