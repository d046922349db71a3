"""nn.Adam and nn.AdamWeightDecay, with MindSpore's formulas (the kernels
are ops.Adam and ops.AdamWeightDecay).

Adam: m = b1 m + (1 - b1) g; v = b2 v + (1 - b2) g^2;
p -= lr * sqrt(1 - b2^t) / (1 - b1^t) * m / (sqrt(v) + eps)
(eps is added to sqrt(v), not to the bias-corrected sqrt(v_hat) as torch
does). weight_decay is an L2 term added to the gradient.

AdamWeightDecay: the same moments, no bias correction, and decoupled decay:
p -= lr * (m / (sqrt(v) + eps) + weight_decay * p).
"""

import numpy as np

from ... import ops
from ..._checkparam import check_float_range, check_positive_float
from ...ops import assign
from ..._tensor import Tensor, Parameter
from .optimizer import Optimizer

__all__ = ["Adam", "AdamWeightDecay", "check_betas", "power_parameter"]


def check_betas(name, beta1, beta2, eps):
    """MindSpore's checks of the Adam family: betas in (0, 1), eps > 0."""
    check_float_range(beta1, 0.0, 1.0, "beta1", name)
    check_float_range(beta2, 0.0, 1.0, "beta2", name)
    check_positive_float(eps, "eps", name)


def power_parameter(name):
    """beta^t, multiplied by beta at the start of each step (t from 1)."""
    return Parameter(Tensor(np.float32(1.0)), name=name,
                     requires_grad=False)


class Adam(Optimizer):
    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999,
                 eps=1e-8, use_locking=False, use_nesterov=False,
                 weight_decay=0.0, loss_scale=1.0, use_amsgrad=False,
                 **kwargs):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if use_amsgrad or kwargs.get("use_lazy") or kwargs.get("use_offload"):
            raise NotImplementedError("Adam: use_amsgrad, use_lazy and "
                                      "use_offload are not supported")
        check_betas("Adam", beta1, beta2, eps)
        self.beta1 = float(beta1)
        self.beta2 = float(beta2)
        self.eps = float(eps)
        self.use_nesterov = bool(use_nesterov)
        self.__dict__["moment1"] = self._state("moment1", 0.0)
        self.__dict__["moment2"] = self._state("moment2", 0.0)
        self.beta1_power = power_parameter("beta1_power")
        self.beta2_power = power_parameter("beta2_power")
        self.__dict__["_kernel"] = ops.Adam(use_locking, self.use_nesterov)

    def _step(self):
        assign(self.beta1_power, self.beta1_power * self.beta1)
        assign(self.beta2_power, self.beta2_power * self.beta2)

    def update(self, index, param, grad, lr):
        self._kernel(param, self.moment1[index], self.moment2[index],
                     self.beta1_power, self.beta2_power, lr, self.beta1,
                     self.beta2, self.eps, grad)
        return param


class AdamWeightDecay(Optimizer):
    # The decay is decoupled: the kernel applies it, not the gradients.
    _decays_gradients = False

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999,
                 eps=1e-6, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, 1.0)
        check_betas("AdamWeightDecay", beta1, beta2, eps)
        self.beta1 = float(beta1)
        self.beta2 = float(beta2)
        self.eps = float(eps)
        self.__dict__["moments1"] = self._state("adam_m", 0.0)
        self.__dict__["moments2"] = self._state("adam_v", 0.0)
        self.__dict__["_kernel"] = ops.AdamWeightDecay()

    def update(self, index, param, grad, lr):
        decay = 0.0
        if self._decays(index):
            decay = self.get_weight_decay()[self._group_of[index]]
        self._kernel(param, self.moments1[index], self.moments2[index], lr,
                     self.beta1, self.beta2, self.eps, decay, grad)
        return param

