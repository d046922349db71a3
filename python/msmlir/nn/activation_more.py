"""The other activation Cells of ``mindspore.nn`` (MindSpore's names and
defaults), each one composed function of ops/activation_func.py."""

import numpy as np

from .. import ops
from .._tensor import Parameter, Tensor
from .cell import Cell

__all__ = ["ReLU6", "HSwish", "HSigmoid", "Hardtanh", "HShrink",
           "SoftShrink", "Tanhshrink", "Threshold", "LogSigmoid", "Mish",
           "Softsign", "SeLU", "CELU", "FastGelu", "Softmin", "PReLU"]


def _cell(name, fn, doc):
    """An activation Cell without arguments that applies fn."""
    return type(name, (Cell,), {"construct": lambda self, x: fn(x),
                                "__doc__": doc})


ReLU6 = _cell("ReLU6", ops.relu6, "min(max(x, 0), 6).")
HSwish = _cell("HSwish", ops.hardswish, "x * relu6(x + 3) / 6.")
HSigmoid = _cell("HSigmoid", ops.hardsigmoid, "relu6(x + 3) / 6.")
Tanhshrink = _cell("Tanhshrink", ops.tanhshrink, "x - tanh(x).")
LogSigmoid = _cell("LogSigmoid", ops.logsigmoid, "log(sigmoid(x)).")
Mish = _cell("Mish", ops.mish, "x * tanh(softplus(x)).")
Softsign = _cell("Softsign", ops.softsign, "x / (1 + |x|).")
SeLU = _cell("SeLU", ops.selu, "Scaled ELU (Klambauer et al.).")
FastGelu = _cell("FastGelu", ops.fast_gelu, "MindSpore's fast GELU.")


class Hardtanh(Cell):
    def __init__(self, min_val=-1.0, max_val=1.0):
        super().__init__()
        if min_val >= max_val:
            raise ValueError("For Hardtanh, min_val should be less than "
                             f"max_val, but got {min_val} and {max_val}.")
        self.min_val = min_val
        self.max_val = max_val

    def construct(self, x):
        return ops.hardtanh(x, self.min_val, self.max_val)


class HShrink(Cell):
    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def construct(self, input_x):
        return ops.hardshrink(input_x, self.lambd)


class SoftShrink(HShrink):
    def construct(self, input_x):
        return ops.soft_shrink(input_x, self.lambd)


class Threshold(Cell):
    """x where x > threshold, else value."""

    def __init__(self, threshold, value):
        super().__init__()
        self.threshold = threshold
        self.value = value

    def construct(self, input_x):
        return ops.threshold(input_x, self.threshold, self.value)


class CELU(Cell):
    def __init__(self, alpha=1.0):
        super().__init__()
        if alpha == 0:
            raise ValueError("For 'CELU', the 'alpha' can not be equal to "
                             "zero.")
        self.alpha = alpha

    def construct(self, x):
        return ops.celu(x, self.alpha)


class Softmin(Cell):
    def __init__(self, axis=-1):
        super().__init__()
        self.axis = axis

    def construct(self, x):
        return ops.softmin(x, self.axis)


class PReLU(Cell):
    """x where x >= 0, else w * x, with a trainable w per channel
    (channel=1: one shared w), initialized to w (0.25)."""

    def __init__(self, channel=1, w=0.25):
        super().__init__()
        if isinstance(w, (int, float)):
            w = Tensor(np.full((channel,), w, np.float32))
        self.w = Parameter(w, name="a")

    def construct(self, x):
        return ops.prelu(x, self.w)
