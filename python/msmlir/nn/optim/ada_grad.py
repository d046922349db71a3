"""nn.Adagrad (MindSpore's ApplyAdagrad): accum, filled with `accum` at
the start, += grad^2; p -= lr * grad / sqrt(accum). torch.optim.Adagrad
with initial_accumulator_value=accum and eps=0 is the same."""

from ... import ops
from ..._checkparam import check_bool, check_non_negative_float
from .optimizer import Optimizer

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    def __init__(self, params, accum=0.1, learning_rate=0.001,
                 update_slots=True, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        check_non_negative_float(accum, "accum", "Adagrad")
        check_bool(update_slots, "update_slots", "Adagrad")
        self.__dict__["accum"] = self._state("accum", accum)
        self.__dict__["_kernel"] = ops.ApplyAdagrad(update_slots)

    def update(self, index, param, grad, lr):
        self._kernel(param, self.accum[index], lr, grad)
        return param
