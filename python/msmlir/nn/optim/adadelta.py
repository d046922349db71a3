"""nn.Adadelta (MindSpore's ApplyAdadelta, torch.optim.Adadelta's rule
and defaults)."""

from ... import ops
from ..._checkparam import check_float_range, check_non_negative_float
from .optimizer import Optimizer

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    def __init__(self, params, learning_rate=1.0, rho=0.9, epsilon=1e-6,
                 loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.rho = check_float_range(rho, 0.0, 1.0, "rho", "Adadelta",
                                     (True, True))
        self.epsilon = check_non_negative_float(epsilon, "epsilon",
                                                "Adadelta")
        self.__dict__["accum"] = self._state("accum", 0.0)
        self.__dict__["accum_update"] = self._state("accum_update", 0.0)
        self.__dict__["_kernel"] = ops.ApplyAdadelta()

    def update(self, index, param, grad, lr):
        self._kernel(param, self.accum[index], self.accum_update[index], lr,
                     self.rho, self.epsilon, grad)
        return param
