"""nn.AdaMax (MindSpore's ApplyAdaMax): v = max(beta2 v, |g|); p -= lr /
(1 - beta1^t) * m / (v + eps). torch.optim.Adamax adds eps inside the max
instead."""

from ... import ops
from ...ops import assign
from .adam import check_betas, power_parameter
from .optimizer import Optimizer

__all__ = ["AdaMax"]


class AdaMax(Optimizer):
    def __init__(self, params, learning_rate=0.001, beta1=0.9, beta2=0.999,
                 eps=1e-08, weight_decay=0.0, loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        check_betas("AdaMax", beta1, beta2, eps)
        self.beta1 = beta1
        self.beta2 = beta2
        self.eps = eps
        self.beta1_power = power_parameter("beta1_power")
        self.__dict__["moment1"] = self._state("moment1", 0.0)
        self.__dict__["moment2"] = self._state("moment2", 0.0)
        self.__dict__["_kernel"] = ops.ApplyAdaMax()

    def _step(self):
        assign(self.beta1_power, self.beta1_power * self.beta1)

    def update(self, index, param, grad, lr):
        self._kernel(param, self.moment1[index], self.moment2[index],
                     self.beta1_power, lr, self.beta1, self.beta2, self.eps,
                     grad)
        return param
