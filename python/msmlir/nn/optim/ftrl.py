"""nn.FTRL (MindSpore's ApplyFtrl, FTRL-proximal). The weight decay
applies to every parameter; the learning rate must be fixed."""

from ... import ops
from ..._checkparam import (check_non_negative_float, check_positive_float)
from .optimizer import Optimizer

__all__ = ["FTRL"]


class FTRL(Optimizer):
    def __init__(self, params, initial_accum=0.1, learning_rate=0.001,
                 lr_power=-0.5, l1=0.0, l2=0.0, use_locking=False,
                 loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if self.dynamic_lr or self.is_group:
            raise ValueError("For 'FTRL', dynamic learning rate and group "
                             "learning rate are currently not supported in "
                             "FTRL, they should be a fixed value.")
        name = "FTRL"
        check_non_negative_float(initial_accum, "initial_accum", name)
        check_positive_float(learning_rate, "learning_rate", name)
        if not isinstance(lr_power, float) or lr_power > 0:
            raise ValueError("For 'FTRL', the argument 'lr_power' must be a "
                             f"float <= 0, but got {lr_power}.")
        self.l1 = check_non_negative_float(l1, "l1", name)
        self.l2 = check_non_negative_float(l2, "l2", name)
        self.lr_power = lr_power
        self.__dict__["moments"] = self._state("moments", initial_accum)
        self.__dict__["linear"] = self._state("linear", 0.0)
        self.__dict__["_kernel"] = ops.ApplyFtrl(use_locking)

    def _decays(self, index):
        # MindSpore's FTRL decays every parameter, whatever its name.
        return not self.__dict__.get("_decay_taken") and \
            self._groups[0].wd > 0

    def update(self, index, param, grad, lr):
        return self._kernel(param, self.moments[index], self.linear[index],
                            grad, lr, self.l1, self.l2, self.lr_power)
