"""nn.ASGD (torch.optim.ASGD's rule): p = p (1 - lambd eta) - eta g; the
average ax follows p with weight mu; eta = lr / (1 + lambd lr t)^alpha and
mu = 1 / max(1, t - t0) for the next step."""

import numpy as np

from ... import dtype as mstype
from ... import ops
from ...ops import assign
from ..._checkparam import check_is_float
from ..._tensor import Tensor, Parameter
from .optimizer import Optimizer

__all__ = ["ASGD"]


def _scalars(params, prefix, value):
    """One float32 scalar per parameter, named "<prefix><name>" (no dot,
    as MindSpore names them)."""
    return tuple(Parameter(Tensor(np.float32(value)), name=prefix + p.name,
                           requires_grad=False) for p in params)


class ASGD(Optimizer):
    _counts_steps = True

    def __init__(self, params, learning_rate=0.1, lambd=1e-4, alpha=0.75,
                 t0=1e6, weight_decay=0.):
        super().__init__(learning_rate, params, weight_decay)
        for name, value in (("lambd", lambd), ("alpha", alpha), ("t0", t0)):
            check_is_float(value, name, "ASGD")
        self.lambd, self.alpha, self.t0 = lambd, alpha, t0
        self.__dict__["mu"] = _scalars(self._parameters, "mu_", 1.0)
        self.__dict__["eta"] = _scalars(self._parameters, "eta_", 0.0)
        for i, (mu, eta) in enumerate(zip(self.mu, self.eta)):
            setattr(self, f"_mu_{i}", mu)
            setattr(self, f"_eta_{i}", eta)
        self.__dict__["ax"] = self._state("ax_", 0.0)

    def update(self, index, param, grad, lr):
        mu, eta, ax = self.mu[index], self.eta[index], self.ax[index]
        t = ops.reshape(ops.cast(self.global_step, mstype.float32), ())
        # Step 1 starts from eta = lr.
        eta_now = ops.select(t == 1.0, eta * 0.0 + lr, eta)
        new = param * (1.0 - self.lambd * eta_now) - grad * eta_now
        averaged = ax + (new - ax) * mu
        assign(ax, ops.select(ops.broadcast_to(mu != 1.0, ax.shape),
                              averaged, new))
        assign(eta, lr / ops.pow(self.lambd * lr * t + 1.0, self.alpha))
        assign(mu, 1.0 / ops.maximum(t - self.t0, 1.0))
        return new
