"""nn.SGD (MindSpore's formula, which torch.optim.SGD shares):
v = momentum * v + (1 - dampening) * grad (v = grad at the first step);
p -= lr * (grad + momentum * v) with nesterov, else p -= lr * v."""

from ...ops import assign
from .optimizer import Optimizer

__all__ = ["SGD"]


class SGD(Optimizer):
    def __init__(self, params, learning_rate=0.1, momentum=0.0,
                 dampening=0.0, weight_decay=0.0, nesterov=False,
                 loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if momentum < 0:
            raise ValueError(f"SGD: momentum must be >= 0, got {momentum}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("SGD: nesterov needs momentum > 0 and "
                             "dampening 0")
        self.momentum = float(momentum)
        self.dampening = float(dampening)
        self.nesterov = bool(nesterov)
        self.__dict__["accum"] = (self._state("accum", 0.0)
                                  if self.momentum > 0 else None)
        # 1 until the first step: the first step takes v = grad (dampening
        # does not apply to it). Only needed when dampening != 0.
        self.__dict__["stat"] = (self._state("stat", 1.0)
                                 if self.momentum > 0 and self.dampening
                                 else None)

    def update(self, index, param, grad):
        lr = self.learning_rate
        if self.momentum <= 0:
            return param - lr * grad
        v = self.accum[index]
        if self.dampening:
            stat = self.stat[index]
            later = v * self.momentum + grad * (1.0 - self.dampening)
            new_v = grad * stat + later * (1.0 - stat)
            assign(stat, stat * 0.0)
        else:
            new_v = v * self.momentum + grad
        assign(v, new_v)
        if self.nesterov:
            return param - lr * (grad + new_v * self.momentum)
        return param - lr * new_v
