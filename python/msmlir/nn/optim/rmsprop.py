"""nn.RMSProp (MindSpore's ApplyRMSProp / ApplyCenteredRMSProp): the mean
square starts at 1, epsilon is inside the root and the learning rate is
folded into the moment, unlike torch.optim.RMSprop."""

from ... import ops
from ..._checkparam import (check_bool, check_non_negative_float,
                            check_positive_float)
from .optimizer import Optimizer

__all__ = ["RMSProp"]


class RMSProp(Optimizer):
    def __init__(self, params, learning_rate=0.1, decay=0.9, momentum=0.0,
                 epsilon=1e-10, use_locking=False, centered=False,
                 loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        name = "RMSProp"
        self.decay = check_non_negative_float(decay, "decay", name)
        self.momentum = check_non_negative_float(momentum, "momentum", name)
        self.epsilon = check_positive_float(epsilon, "epsilon", name)
        self.centered = check_bool(centered, "centered", name)
        self.__dict__["mean_square"] = self._state("mean_square", 1.0)
        self.__dict__["moment"] = self._state("moment", 0.0)
        if centered:
            self.__dict__["mean_grad"] = self._state("mean_grad", 0.0)
            self.__dict__["_kernel"] = ops.ApplyCenteredRMSProp(use_locking)
        else:
            self.__dict__["_kernel"] = ops.ApplyRMSProp(use_locking)

    def update(self, index, param, grad, lr):
        if self.centered:
            return self._kernel(param, self.mean_grad[index],
                                self.mean_square[index], self.moment[index],
                                grad, lr, self.decay, self.momentum,
                                self.epsilon)
        return self._kernel(param, self.mean_square[index],
                            self.moment[index], lr, grad, self.decay,
                            self.momentum, self.epsilon)
