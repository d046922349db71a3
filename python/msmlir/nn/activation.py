"""More activation Cells (MindSpore's names and defaults): LeakyReLU, SiLU,
ELU, Softplus and Identity. Each is one functional op of msmlir.ops."""

from .. import ops
from ..ops._args import _real_arg
from .cell import Cell

__all__ = ["LeakyReLU", "SiLU", "ELU", "Softplus", "Identity"]


class LeakyReLU(Cell):
    """x for x >= 0, alpha * x below; alpha defaults to 0.2 as in
    MindSpore."""

    def __init__(self, alpha=0.2):
        super().__init__()
        _real_arg(alpha, "alpha", "nn.LeakyReLU")
        self.alpha = alpha

    def construct(self, x):
        return ops.leaky_relu(x, self.alpha)

    def extend_repr(self):
        return f"alpha={self.alpha}"


class SiLU(Cell):
    """x * sigmoid(x)."""

    def construct(self, x):
        return ops.silu(x)


class ELU(Cell):
    """x for x > 0, alpha * (exp(x) - 1) below."""

    def __init__(self, alpha=1.0):
        super().__init__()
        _real_arg(alpha, "alpha", "nn.ELU")
        if alpha <= 0:
            raise ValueError(f"nn.ELU: alpha must be > 0, got {alpha}")
        self.alpha = alpha

    def construct(self, x):
        return ops.elu(x, self.alpha)

    def extend_repr(self):
        return f"alpha={self.alpha}"


class Softplus(Cell):
    """log(1 + exp(beta * x)) / beta (MindSpore 2.x: beta=1,
    threshold=20)."""

    def __init__(self, beta=1, threshold=20):
        super().__init__()
        _real_arg(beta, "beta", "nn.Softplus")
        _real_arg(threshold, "threshold", "nn.Softplus")
        if beta <= 0:
            raise ValueError(f"nn.Softplus: beta must be > 0, got {beta}")
        self.beta = beta
        self.threshold = threshold

    def construct(self, x):
        return ops.softplus(x, self.beta, self.threshold)

    def extend_repr(self):
        return f"beta={self.beta}, threshold={self.threshold}"


class Identity(Cell):
    """Returns its input."""

    def construct(self, x):
        return x
