"""More loss Cells of ``mindspore.nn`` over ops/loss_composed.py."""

from .. import ops
from .loss import LossBase

__all__ = ["BCELoss", "HuberLoss", "SmoothL1Loss", "SoftMarginLoss",
           "KLDivLoss", "CosineEmbeddingLoss", "RMSELoss",
           "MarginRankingLoss", "HingeEmbeddingLoss", "GaussianNLLLoss",
           "TripletMarginLoss", "MultiLabelSoftMarginLoss"]


class BCELoss(LossBase):
    def __init__(self, weight=None, reduction="mean"):
        super().__init__(reduction)
        self.weight = weight

    def construct(self, logits, labels):
        return ops.binary_cross_entropy(logits, labels, self.weight,
                                        self.reduction)


class HuberLoss(LossBase):
    def __init__(self, reduction="mean", delta=1.0):
        super().__init__(reduction)
        self.delta = delta

    def construct(self, logits, labels):
        return ops.huber_loss(logits, labels, self.reduction, self.delta)


class SmoothL1Loss(LossBase):
    def __init__(self, beta=1.0, reduction="none"):
        super().__init__(reduction)
        self.beta = beta

    def construct(self, logits, labels):
        return ops.smooth_l1_loss(logits, labels, self.beta, self.reduction)


class SoftMarginLoss(LossBase):
    def construct(self, logits, labels):
        return ops.soft_margin_loss(logits, labels, self.reduction)


class KLDivLoss(LossBase):
    def __init__(self, reduction="mean"):
        # 'batchmean' is kl_div's own.
        super().__init__("mean" if reduction == "batchmean" else reduction)
        self.reduction = reduction

    def construct(self, logits, labels):
        return ops.kl_div(logits, labels, self.reduction)


class CosineEmbeddingLoss(LossBase):
    def __init__(self, margin=0.0, reduction="mean"):
        super().__init__(reduction)
        self.margin = margin

    def construct(self, logits_x1, logits_x2, labels):
        return ops.cosine_embedding_loss(logits_x1, logits_x2, labels,
                                         self.margin, self.reduction)


class RMSELoss(LossBase):
    """sqrt(mean((logits - labels)^2))."""

    def __init__(self):
        super().__init__("mean")

    def construct(self, logits, label):
        return ops.sqrt(ops.mse_loss(logits, label))


class MarginRankingLoss(LossBase):
    def __init__(self, margin=0.0, reduction="mean"):
        super().__init__(reduction)
        self.margin = margin

    def construct(self, input1, input2, target):
        return ops.margin_ranking_loss(input1, input2, target, self.margin,
                                       self.reduction)


class HingeEmbeddingLoss(LossBase):
    def __init__(self, margin=1.0, reduction="mean"):
        super().__init__(reduction)
        self.margin = margin

    def construct(self, logits, labels):
        return ops.hinge_embedding_loss(logits, labels, self.margin,
                                        self.reduction)


class GaussianNLLLoss(LossBase):
    def __init__(self, *, full=False, eps=1e-6, reduction="mean"):
        super().__init__(reduction)
        self.full = full
        self.eps = eps

    def construct(self, logits, labels, var):
        return ops.gaussian_nll_loss(logits, labels, var, self.full,
                                     self.eps, self.reduction)


class TripletMarginLoss(LossBase):
    def __init__(self, p=2, swap=False, eps=1e-06, reduction="mean",
                 margin=1.0):
        super().__init__(reduction)
        self.p, self.swap, self.eps, self.margin = p, swap, eps, margin

    def construct(self, x, positive, negative):
        return ops.triplet_margin_loss(x, positive, negative, self.margin,
                                       self.p, self.eps, self.swap,
                                       self.reduction)


class MultiLabelSoftMarginLoss(LossBase):
    def __init__(self, weight=None, reduction="mean"):
        super().__init__(reduction)
        self.weight = weight

    def construct(self, x, target):
        return ops.multilabel_soft_margin_loss(x, target, self.weight,
                                               self.reduction)
