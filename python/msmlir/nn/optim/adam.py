"""nn.Adam and nn.AdamWeightDecay, with MindSpore's formulas.

Adam: m = b1 m + (1 - b1) g; v = b2 v + (1 - b2) g^2;
p -= lr * sqrt(1 - b2^t) / (1 - b1^t) * m / (sqrt(v) + eps)
(eps is added to sqrt(v), not to the bias-corrected sqrt(v_hat) as torch
does). weight_decay is an L2 term added to the gradient.

AdamWeightDecay: the same moments, no bias correction, and decoupled decay:
p -= lr * (m / (sqrt(v) + eps) + weight_decay * p).
"""

import numpy as np

from ... import ops
from ...ops import assign
from ..._tensor import Tensor, Parameter
from .optimizer import Optimizer

__all__ = ["Adam", "AdamWeightDecay"]


def _check_betas(name, beta1, beta2, eps):
    for label, b in (("beta1", beta1), ("beta2", beta2)):
        if not 0.0 <= b < 1.0:
            raise ValueError(f"{name}: {label} must be in [0, 1), got {b}")
    if eps <= 0:
        raise ValueError(f"{name}: eps must be > 0, got {eps}")


class Adam(Optimizer):
    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999,
                 eps=1e-8, use_locking=False, use_nesterov=False,
                 weight_decay=0.0, loss_scale=1.0, use_amsgrad=False,
                 **kwargs):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if use_nesterov or use_amsgrad or kwargs.get("use_lazy"):
            raise NotImplementedError("Adam: use_nesterov, use_amsgrad and "
                                      "use_lazy are not supported")
        _check_betas("Adam", beta1, beta2, eps)
        self.beta1 = float(beta1)
        self.beta2 = float(beta2)
        self.eps = float(eps)
        self.__dict__["moment1"] = self._state("moment1", 0.0)
        self.__dict__["moment2"] = self._state("moment2", 0.0)
        # beta^t: multiplied by beta at the start of each step.
        self.beta1_power = Parameter(Tensor(np.float32(1.0)),
                                     name="beta1_power", requires_grad=False)
        self.beta2_power = Parameter(Tensor(np.float32(1.0)),
                                     name="beta2_power", requires_grad=False)
        self.__dict__["_lr_t"] = None

    def _step(self):
        b1p = self.beta1_power * self.beta1
        b2p = self.beta2_power * self.beta2
        assign(self.beta1_power, b1p)
        assign(self.beta2_power, b2p)
        self.__dict__["_lr_t"] = (self.learning_rate *
                                  ops.sqrt(1.0 - b2p) / (1.0 - b1p))

    def update(self, index, param, grad):
        m = self.moment1[index]
        v = self.moment2[index]
        new_m = m * self.beta1 + grad * (1.0 - self.beta1)
        new_v = v * self.beta2 + grad * grad * (1.0 - self.beta2)
        assign(m, new_m)
        assign(v, new_v)
        return param - self._lr_t * new_m / (ops.sqrt(new_v) + self.eps)


class AdamWeightDecay(Optimizer):
    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999,
                 eps=1e-6, weight_decay=0.0):
        # The decay is decoupled (applied in update), not added to grads.
        super().__init__(learning_rate, params, 0.0, 1.0)
        _check_betas("AdamWeightDecay", beta1, beta2, eps)
        if weight_decay < 0:
            raise ValueError("AdamWeightDecay: weight_decay must be >= 0, "
                             f"got {weight_decay}")
        self.beta1 = float(beta1)
        self.beta2 = float(beta2)
        self.eps = float(eps)
        self.decay = float(weight_decay)
        self.__dict__["_decoupled"] = tuple(
            self.decay > 0 and "beta" not in p.name and "gamma" not in p.name
            for p in self._parameters)
        self.__dict__["moments1"] = self._state("adam_m", 0.0)
        self.__dict__["moments2"] = self._state("adam_v", 0.0)

    def update(self, index, param, grad):
        m = self.moments1[index]
        v = self.moments2[index]
        new_m = m * self.beta1 + grad * (1.0 - self.beta1)
        new_v = v * self.beta2 + grad * grad * (1.0 - self.beta2)
        assign(m, new_m)
        assign(v, new_v)
        step = new_m / (ops.sqrt(new_v) + self.eps)
        if self._decoupled[index]:
            step = step + param * self.decay
        return param - self.learning_rate * step
