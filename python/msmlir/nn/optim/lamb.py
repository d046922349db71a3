"""nn.Lamb, as MindSpore documents it: Adam's bias-corrected moments, r =
m_hat / (sqrt(v_hat) + eps), u = r + weight_decay * w, and p -= lr *
(|w| / |u|) * u (the ratio is 1 when either norm is 0). MindSpore's code
differs: the norm it divides by uses rsqrt(v_hat + eps), the ratio is
clipped to [0, 10], and with a dynamic learning rate its step count
advances twice per step."""

from ... import dtype as mstype
from ... import ops
from .adam import check_betas
from .optimizer import Optimizer

__all__ = ["Lamb"]


def _norm(x):
    return ops.sqrt(ops.reduce_sum(ops.square(x)))


class Lamb(Optimizer):
    _counts_steps = True
    _decays_gradients = False

    def __init__(self, params, learning_rate, beta1=0.9, beta2=0.999,
                 eps=1e-06, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        check_betas("Lamb", beta1, beta2, eps)
        self.beta1 = beta1
        self.beta2 = beta2
        self.eps = eps
        self.__dict__["moments1"] = self._state("lamb_m", 0.0)
        self.__dict__["moments2"] = self._state("lamb_v", 0.0)

    def update(self, index, param, grad, lr):
        # get_lr has advanced global_step: it is t, counted from 1.
        t = ops.reshape(ops.cast(self.global_step, mstype.float32), ())
        m = self.moments1[index] * self.beta1 + grad * (1.0 - self.beta1)
        v = self.moments2[index] * self.beta2 + \
            ops.square(grad) * (1.0 - self.beta2)
        ops.assign(self.moments1[index], m)
        ops.assign(self.moments2[index], v)
        m_hat = m / (1.0 - ops.pow(self.beta1, t))
        v_hat = v / (1.0 - ops.pow(self.beta2, t))
        u = m_hat / (ops.sqrt(v_hat) + self.eps)
        if self._decays(index):
            u = u + param * self.get_weight_decay()[self._group_of[index]]
        w_norm, u_norm = _norm(param), _norm(u)
        ratio = ops.select((w_norm > 0) & (u_norm > 0), w_norm / u_norm,
                           w_norm * 0.0 + 1.0)
        return param - lr * ratio * u
