"""nn.ProximalAdagrad (MindSpore's ApplyProximalAdagrad): Adagrad's step
followed by the proximal operator of l1 |w| + l2 / 2 w^2."""

from ... import ops
from ..._checkparam import check_non_negative_float
from .optimizer import Optimizer

__all__ = ["ProximalAdagrad"]


class ProximalAdagrad(Optimizer):
    def __init__(self, params, accum=0.1, learning_rate=0.001, l1=0.0,
                 l2=0.0, use_locking=False, loss_scale=1.0,
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        name = "ProximalAdagrad"
        check_non_negative_float(accum, "accum", name)
        self.l1 = check_non_negative_float(l1, "l1", name)
        self.l2 = check_non_negative_float(l2, "l2", name)
        self.__dict__["accum"] = self._state("accum", accum)
        self.__dict__["_kernel"] = ops.ApplyProximalAdagrad(use_locking)

    def update(self, index, param, grad, lr):
        self._kernel(param, self.accum[index], lr, self.l1, self.l2, grad)
        return param
