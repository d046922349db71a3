"""nn.Momentum (MindSpore's ApplyMomentum): v = v * momentum + grad;
p -= lr * v, or with use_nesterov p -= grad * lr + v * momentum * lr."""

from ...ops import assign
from .optimizer import Optimizer

__all__ = ["Momentum"]


class Momentum(Optimizer):
    def __init__(self, params, learning_rate, momentum, weight_decay=0.0,
                 loss_scale=1.0, use_nesterov=False):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if isinstance(momentum, bool) or not isinstance(momentum,
                                                        (int, float)):
            raise TypeError("Momentum: momentum must be a float, got "
                            f"{type(momentum).__name__}")
        if momentum < 0:
            raise ValueError(f"Momentum: momentum must be >= 0, got "
                             f"{momentum}")
        self.momentum = float(momentum)
        self.use_nesterov = bool(use_nesterov)
        self.__dict__["moments"] = self._state("moments", 0.0)

    def update(self, index, param, grad):
        lr = self.learning_rate
        v = self.moments[index]
        new_v = v * self.momentum + grad
        assign(v, new_v)
        if self.use_nesterov:
            return param - (grad * lr + new_v * self.momentum * lr)
        return param - lr * new_v
