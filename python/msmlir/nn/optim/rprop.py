"""nn.Rprop (torch.optim.Rprop's rule and defaults): each element's step
grows by etaplus while its gradient keeps its sign and shrinks by etaminus
when it flips (that step then skips the update); p -= sign(g) * step."""

from ... import ops
from ...ops import assign
from .optimizer import Optimizer

__all__ = ["Rprop"]


def _check_pair(value, name):
    if not isinstance(value, tuple) or len(value) != 2 or not all(
            isinstance(v, float) for v in value):
        raise TypeError(f"For 'Rprop', the argument '{name}' must be a tuple "
                        f"of two floats, but got {value}.")
    return value


class Rprop(Optimizer):
    _counts_steps = True

    def __init__(self, params, learning_rate=0.1, etas=(0.5, 1.2),
                 step_sizes=(1e-6, 50.), weight_decay=0.):
        super().__init__(learning_rate, params, weight_decay)
        etaminus, etaplus = _check_pair(etas, "etas")
        step_min, step_max = _check_pair(step_sizes, "step_sizes")
        if not 0.0 < etaminus < 1.0:
            raise ValueError("For Rprop, etaminus must be in range of (0.0, "
                             f"1.0), but got etaminus {etaminus}.")
        if etaplus <= 1.0:
            raise ValueError("For Rprop, etaplus must be greater than 1.0, "
                             f"but got etaplus {etaplus}.")
        if step_min > step_max:
            raise ValueError("For Rprop, maximal step size should not be less "
                             f"than minimal step size, but got {step_max} < "
                             f"{step_min}.")
        self.etaminus, self.etaplus = etaminus, etaplus
        self.step_min, self.step_max = step_min, step_max
        self.__dict__["prev"] = self._state("prev", 0.0)
        self.__dict__["step_size"] = self._state("step_size", 0.0)

    def update(self, index, param, grad, lr):
        prev, step = self.prev[index], self.step_size[index]
        # The first step starts from the learning rate.
        first = self.global_step == 1
        step = ops.select(ops.broadcast_to(first, step.shape),
                          step * 0.0 + lr, step)
        s = ops.sign(grad * prev)
        factor = ops.select(s > 0, s * 0.0 + self.etaplus,
                            ops.select(s < 0, s * 0.0 + self.etaminus,
                                       s * 0.0 + 1.0))
        new_step = ops.clamp(step * factor, self.step_min, self.step_max)
        grad = ops.select(s < 0, grad * 0.0, grad)
        assign(self.step_size[index], new_step)
        assign(prev, grad)
        return param - ops.sign(grad) * new_step
