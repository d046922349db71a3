"""More loss functions (part of ``mindspore.ops``), composed of ms ops
with MindSpore's signatures and default reductions: smooth_l1_loss,
huber_loss, kl_div, binary_cross_entropy, hinge_embedding_loss,
margin_ranking_loss, cosine_embedding_loss, gaussian_nll_loss,
triplet_margin_loss, multilabel_soft_margin_loss, soft_margin_loss."""

import math

from . import array_func as _array
from . import math_func as _math
from . import reduction_func as _reduction
from .activation_func import logsigmoid
from .array_composed import cosine_similarity, norm
from .._tensor import Tensor
from ._args import _instance
from .loss_func import _check_reduction, _reduce
from .nn_func import softplus

__all__ = ["smooth_l1_loss", "huber_loss", "kl_div", "binary_cross_entropy",
           "hinge_embedding_loss", "margin_ranking_loss",
           "cosine_embedding_loss", "gaussian_nll_loss",
           "triplet_margin_loss", "multilabel_soft_margin_loss",
           "soft_margin_loss"]


def _checked(what, reduction, *tensors):
    _check_reduction(reduction, what)
    for i, t in enumerate(tensors):
        _instance(t, Tensor, f"input {i}", what)


def _huber(diff, delta):
    """0.5 d^2 where |d| < delta, delta (|d| - 0.5 delta) beyond."""
    a = _math.abs(diff)
    return _array.where(_math.less(a, delta), diff * diff * 0.5,
                        (a - 0.5 * delta) * delta)


def smooth_l1_loss(input, target, beta=1.0, reduction="none"):
    """0.5 d^2 / beta where |d| < beta, |d| - 0.5 beta beyond."""
    _checked("ops.smooth_l1_loss", reduction, input, target)
    if beta <= 0:
        raise ValueError("For 'smooth_l1_loss', the 'beta' must be greater "
                         f"than 0, but got {beta}.")
    return _reduce(_huber(input - target, beta) / beta, reduction)


def huber_loss(input, target, reduction="mean", delta=1.0):
    _checked("ops.huber_loss", reduction, input, target)
    if delta <= 0:
        raise ValueError("For 'huber_loss', the 'delta' must be greater "
                         f"than 0, but got {delta}.")
    return _reduce(_huber(input - target, delta), reduction)


def kl_div(logits, labels, reduction="mean"):
    """labels * (log(labels) - logits), 0 where labels is 0 ('batchmean':
    the sum over the batch size)."""
    what = "ops.kl_div"
    _instance(logits, Tensor, "logits", what)
    if reduction not in ("mean", "sum", "none", "batchmean"):
        raise ValueError(f"{what}: reduction must be 'mean', 'sum', 'none' "
                         f"or 'batchmean', got {reduction!r}")
    safe = _array.where(_math.greater(labels, 0), labels, 1.0)
    loss = _array.where(_math.greater(labels, 0),
                        labels * (_math.log(safe) - logits), 0.0)
    if reduction == "batchmean":
        return _reduction.reduce_sum(loss) / float(logits.shape[0])
    return _reduce(loss, reduction)


def binary_cross_entropy(logits, labels, weight=None, reduction="mean"):
    """-(y log p + (1 - y) log(1 - p)), the logs clamped at -100 as
    torch's."""
    _checked("ops.binary_cross_entropy", reduction, logits, labels)
    log_p = _math.maximum(_math.log(logits), -100.0)
    log_q = _math.maximum(_math.log(1.0 - logits), -100.0)
    loss = _math.neg(labels * log_p + (1.0 - labels) * log_q)
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


def hinge_embedding_loss(inputs, targets, margin=1.0, reduction="mean"):
    """x where the target is 1, max(0, margin - x) where it is -1."""
    _checked("ops.hinge_embedding_loss", reduction, inputs, targets)
    hinge = _math.maximum(margin - inputs, 0.0)
    loss = _array.where(_math.equal(targets, 1), inputs, 0.0) + \
        _array.where(_math.equal(targets, -1), hinge, 0.0)
    return _reduce(loss, reduction)


def margin_ranking_loss(input1, input2, target, margin=0.0,
                        reduction="mean"):
    """max(0, -target * (x1 - x2) + margin)."""
    _checked("ops.margin_ranking_loss", reduction, input1, input2, target)
    return _reduce(_math.maximum(
        _math.neg(target) * (input1 - input2) + margin, 0.0), reduction)


def cosine_embedding_loss(input1, input2, target, margin=0.0,
                          reduction="mean"):
    """1 - cos(x1, x2) where the target is 1, max(0, cos - margin) where
    it is -1 (cos along dim 1)."""
    _checked("ops.cosine_embedding_loss", reduction, input1, input2, target)
    cos = cosine_similarity(input1, input2, 1, 1e-12)
    loss = _array.where(_math.equal(target, 1), 1.0 - cos,
                        _math.maximum(cos - margin, 0.0))
    return _reduce(loss, reduction)


def gaussian_nll_loss(x, target, var, full=False, eps=1e-6,
                      reduction="mean"):
    """0.5 (log(max(var, eps)) + (x - target)^2 / max(var, eps)), plus
    0.5 log(2 pi) with full."""
    _checked("ops.gaussian_nll_loss", reduction, x, target, var)
    v = _math.maximum(var, eps)
    diff = x - target
    loss = (_math.log(v) + diff * diff / v) * 0.5
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2,
                        eps=1e-06, swap=False, reduction="mean"):
    """max(d(a, p) - d(a, n) + margin, 0), d the p-norm distance along dim
    1 of the difference plus eps (torch's pairwise_distance)."""
    _checked("ops.triplet_margin_loss", reduction, anchor, positive,
             negative)
    d_pos = norm(anchor - positive + eps, p, 1)
    d_neg = norm(anchor - negative + eps, p, 1)
    if swap:
        d_neg = _math.minimum(d_neg, norm(positive - negative + eps, p, 1))
    return _reduce(_math.maximum(d_pos - d_neg + margin, 0.0), reduction)


def multilabel_soft_margin_loss(input, target, weight=None,
                                reduction="mean"):
    """-mean over classes of y log sigmoid(x) + (1 - y) log sigmoid(-x)."""
    _checked("ops.multilabel_soft_margin_loss", reduction, input, target)
    loss = target * logsigmoid(input) + (1.0 - target) * \
        logsigmoid(_math.neg(input))
    if weight is not None:
        loss = loss * weight
    per_sample = _math.neg(_reduction.reduce_mean(loss, -1))
    return _reduce(per_sample, reduction)


def soft_margin_loss(input, target, reduction="mean"):
    """log(1 + exp(-y x))."""
    _checked("ops.soft_margin_loss", reduction, input, target)
    return _reduce(softplus(_math.neg(target * input)), reduction)
