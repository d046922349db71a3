"""nn.SGD (MindSpore's formula, which torch.optim.SGD shares):
v = momentum * v + (1 - dampening) * grad (v = grad at the first step);
p -= lr * (grad + momentum * v) with nesterov, else p -= lr * v."""

from ... import ops
from .optimizer import Optimizer

__all__ = ["SGD"]


def _float_at_least_0(value, name):
    if isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, float):
        raise TypeError(f"For 'SGD', the argument '{name}' must be float, but "
                        f"got {type(value)}.")
    if value < 0.0:
        raise ValueError(f"For 'SGD', the argument '{name}' must be at least "
                         f"0.0, but got {value}.")
    return value


class SGD(Optimizer):
    def __init__(self, params, learning_rate=0.1, momentum=0.0,
                 dampening=0.0, weight_decay=0.0, nesterov=False,
                 loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        momentum = _float_at_least_0(momentum, "momentum")
        dampening = _float_at_least_0(dampening, "dampening")
        if nesterov and (momentum <= 0.0 or dampening != 0.0):
            raise ValueError("For 'SGD', if 'nesterov' is true, 'momentum' "
                             "must be > 0.0 and 'dampening' must equal to "
                             f"0.0, but got 'momentum' {momentum}, "
                             f"'dampening' {dampening}")
        self.momentum = momentum
        self.dampening = dampening
        self.nesterov = bool(nesterov)
        has_state = momentum > 0
        self.__dict__["accum"] = (self._state("accum", 0.0) if has_state
                                  else None)
        # 1 until the first step, which takes v = grad (dampening does not
        # apply to it).
        self.__dict__["stat"] = (self._state("stat", 1.0) if has_state
                                 else None)
        self.__dict__["_kernel"] = ops.SGD(dampening, 0.0, self.nesterov)

    def update(self, index, param, grad, lr):
        if self.momentum <= 0:
            return param - lr * grad
        return self._kernel(param, grad, lr, self.accum[index],
                            self.momentum, self.stat[index])

