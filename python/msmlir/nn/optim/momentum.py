"""nn.Momentum (MindSpore's ApplyMomentum): v = v * momentum + grad;
p -= lr * v, or with use_nesterov p -= grad * lr + v * momentum * lr."""

from ... import ops
from .optimizer import Optimizer

__all__ = ["Momentum"]


class Momentum(Optimizer):
    def __init__(self, params, learning_rate, momentum, weight_decay=0.0,
                 loss_scale=1.0, use_nesterov=False):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if isinstance(momentum, bool) or not isinstance(momentum, float):
            raise TypeError("For 'Momentum', the type of 'momentum' should "
                            "be 'float', but got type "
                            f"'{type(momentum).__name__}'.")
        if momentum < 0.0:
            raise ValueError("For 'Momentum', the argument 'momentum' should "
                             f"be at least 0.0, but got {momentum}")
        self.momentum = momentum
        self.use_nesterov = bool(use_nesterov)
        self.__dict__["moments"] = self._state("moments", 0.0)
        self.__dict__["_kernel"] = ops.ApplyMomentum(self.use_nesterov)

    def update(self, index, param, grad, lr):
        return self._kernel(param, self.moments[index], lr, grad,
                            self.momentum)
