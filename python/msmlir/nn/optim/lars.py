"""nn.LARS: wraps an optimizer and scales each filtered parameter's
gradient by the layer-wise trust ratio (ops.LARSUpdate) before it. It
takes over the wrapped optimizer's weight decay (folded into the LARS
gradient of filtered parameters; the others get none, as in MindSpore)
and loss scale."""

from ... import ops
from ...ops.optimizer_ops import squared_sum
from ..._checkparam import check_bool
from ..._jit import jit
from ..cell import Cell
from .optimizer import Optimizer

__all__ = ["LARS"]


def _default_filter(param):
    return "LayerNorm" not in param.name and "bias" not in param.name


class LARS(Optimizer):
    def __init__(self, optimizer, epsilon=1e-05, coefficient=0.001,
                 use_clip=False, lars_filter=_default_filter):
        # Not Optimizer.__init__: the rates, step and state are the
        # wrapped optimizer's.
        Cell.__init__(self, auto_prefix=False)
        if not isinstance(optimizer, Optimizer):
            raise TypeError("For 'LARS', the argument 'optimizer' must be an "
                            f"Optimizer, but got {type(optimizer)}.")
        check_bool(use_clip, "use_clip", "LARS")
        self.optimizer = optimizer
        self.__dict__["_parameters"] = optimizer.parameters
        self.__dict__["_lars"] = ops.LARSUpdate(epsilon, coefficient,
                                                use_clip)
        self.__dict__["lars_flag"] = tuple(bool(lars_filter(p)) for p in
                                           optimizer.parameters)
        flags, loss_scale = optimizer.take_over_decay()
        self.__dict__["decay_flags_of_lars"] = flags
        self.__dict__["loss_scale"] = loss_scale
        self.__dict__["is_group"] = optimizer.is_group

    @property
    def learning_rate(self):
        return self.optimizer.learning_rate

    @property
    def global_step(self):
        return self.optimizer.global_step

    def _lars_gradient(self, index, param, grad, decays):
        if self.loss_scale != 1.0:
            grad = grad * (1.0 / self.loss_scale)
        if not self.lars_flag[index]:
            return grad
        wd = 0.0
        if self.decay_flags_of_lars[index]:
            wd = decays[self.optimizer._group_of[index]]
        return self._lars(param, grad, squared_sum(param), squared_sum(grad),
                          wd, 0.0)

    @jit
    def construct(self, gradients):
        gradients = tuple(gradients)
        decays = self.optimizer.get_weight_decay()
        for p, g in zip(self._parameters, gradients):
            self._check_gradient(p, g)
        grads = tuple(self._lars_gradient(i, p, g, decays) for i, (p, g) in
                      enumerate(zip(self._parameters, gradients)))
        return self.optimizer(grads)
