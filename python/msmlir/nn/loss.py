"""Loss Cells (MindSpore's ``mindspore.nn`` losses), built on the
functional losses of ops (see ops/loss_func.py)."""

from .. import ops
from ..ops import loss_func as F
from .cell import Cell

__all__ = ["LossBase", "CrossEntropyLoss", "SoftmaxCrossEntropyWithLogits",
           "NLLLoss", "MSELoss", "L1Loss", "BCEWithLogitsLoss"]


class LossBase(Cell):
    """Base of the loss Cells: holds `reduction` ('mean', 'sum' or
    'none')."""

    def __init__(self, reduction="mean"):
        super().__init__()
        F._check_reduction(reduction, type(self).__name__)
        self.reduction = reduction

    def extend_repr(self):
        return f"reduction={self.reduction}"


class CrossEntropyLoss(LossBase):
    """Cross entropy of logits against class indices or probabilities
    (``ops.cross_entropy``)."""

    def __init__(self, weight=None, ignore_index=-100, reduction="mean",
                 label_smoothing=0.0):
        super().__init__(reduction)
        self.weight = weight
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing
        if not 0.0 <= label_smoothing <= 1.0:
            raise ValueError("CrossEntropyLoss: label_smoothing must be in "
                             f"[0, 1], got {label_smoothing}")

    def construct(self, logits, labels):
        return F.cross_entropy(logits, labels, self.weight,
                               self.ignore_index, self.reduction,
                               self.label_smoothing)


class NLLLoss(LossBase):
    """Negative log-likelihood of log-probabilities (``ops.nll_loss``)."""

    def __init__(self, weight=None, ignore_index=-100, reduction="mean"):
        super().__init__(reduction)
        self.weight = weight
        self.ignore_index = ignore_index

    def construct(self, logits, labels):
        return F.nll_loss(logits, labels, self.weight, self.ignore_index,
                          self.reduction)


class SoftmaxCrossEntropyWithLogits(LossBase):
    """-sum(labels * log_softmax(logits), -1); with sparse=True the labels
    are class indices. The default reduction is 'none', as in MindSpore."""

    def __init__(self, sparse=False, reduction="none"):
        super().__init__(reduction)
        self.sparse = bool(sparse)

    def construct(self, logits, labels):
        what = "SoftmaxCrossEntropyWithLogits"
        if logits.ndim != 2:
            raise ValueError(f"{what}: logits must be [N, C], got "
                             f"{list(logits.shape)}")
        if self.sparse:
            labels = F.one_hot_targets(labels, logits.shape[1], what)
        elif tuple(labels.shape) != tuple(logits.shape):
            raise ValueError(f"{what}: labels must have the logits' shape "
                             f"{list(logits.shape)} (or use sparse=True), "
                             f"got {list(labels.shape)}")
        loss = ops.neg(ops.reduce_sum(labels * ops.log_softmax(logits, -1),
                                      -1))
        return F._reduce(loss, self.reduction)


class MSELoss(LossBase):
    """Mean squared error (``ops.mse_loss``)."""

    def construct(self, logits, labels):
        return F.mse_loss(logits, labels, self.reduction)


class L1Loss(LossBase):
    """Mean absolute error (``ops.l1_loss``)."""

    def construct(self, logits, labels):
        return F.l1_loss(logits, labels, self.reduction)


class BCEWithLogitsLoss(LossBase):
    """Sigmoid plus binary cross entropy
    (``ops.binary_cross_entropy_with_logits``)."""

    def __init__(self, reduction="mean", weight=None, pos_weight=None):
        super().__init__(reduction)
        self.weight = weight
        self.pos_weight = pos_weight

    def construct(self, logits, labels):
        return F.binary_cross_entropy_with_logits(
            logits, labels, self.weight, self.pos_weight, self.reduction)
