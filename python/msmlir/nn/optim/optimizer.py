"""The Optimizer base Cell: parameters, learning rate, weight decay and
loss scale, as MindSpore's ``mindspore.nn.Optimizer`` has them."""

import numbers

import numpy as np

from ..._autograd import ParameterTuple
from ...ops import assign
from ..._jit import jit
from ..._tensor import Tensor, Parameter
from ..cell import Cell

__all__ = ["Optimizer"]


def _scalar_parameter(value, name):
    return Parameter(Tensor(np.float32(value)), name=name,
                     requires_grad=False)


class Optimizer(Cell):
    """Base class of the optimizers. Subclasses define
    ``update(index, param, grad)`` (the new value of one parameter, with
    its state updated through ``assign``)."""

    def __init__(self, learning_rate, parameters, weight_decay=0.0,
                 loss_scale=1.0):
        super().__init__(auto_prefix=False)
        name = type(self).__name__
        if isinstance(parameters, Parameter):
            parameters = [parameters]
        params = list(parameters)
        if not params:
            raise ValueError(f"{name}: the parameter list is empty")
        for p in params:
            if isinstance(p, dict):
                raise NotImplementedError(
                    f"{name}: parameter groups (a list of dicts) are not "
                    "supported; pass a list of Parameters")
            if not isinstance(p, Parameter):
                raise TypeError(f"{name}: params must be Parameters, got "
                                f"{type(p).__name__}")
        if len({id(p) for p in params}) != len(params):
            raise ValueError(f"{name}: a Parameter appears twice in params")
        if isinstance(learning_rate, Tensor):
            if learning_rate.size != 1:
                raise NotImplementedError(
                    f"{name}: dynamic learning rates (a Tensor of several "
                    "values) are not supported")
            learning_rate = float(learning_rate.asnumpy().reshape(()))
        if isinstance(learning_rate, bool) or not isinstance(
                learning_rate, numbers.Real):
            raise TypeError(f"{name}: learning_rate must be a float, got "
                            f"{type(learning_rate).__name__}")
        if learning_rate < 0:
            raise ValueError(f"{name}: learning_rate must be >= 0, got "
                             f"{learning_rate}")
        if weight_decay < 0:
            raise ValueError(f"{name}: weight_decay must be >= 0, got "
                             f"{weight_decay}")
        if loss_scale <= 0:
            raise ValueError(f"{name}: loss_scale must be > 0, got "
                             f"{loss_scale}")
        self.__dict__["_parameters"] = ParameterTuple(params)
        # A Parameter, so that changing it neither recompiles a train step
        # nor needs a new graph (MindSpore names it "learning_rate").
        self.learning_rate = _scalar_parameter(learning_rate,
                                               "learning_rate")
        self.weight_decay = float(weight_decay)
        self.loss_scale = float(loss_scale)
        # MindSpore's default decay filter: no decay for 'beta' and 'gamma'
        # (normalization) parameters.
        self.__dict__["_decay"] = tuple(
            self.weight_decay > 0 and "beta" not in p.name and
            "gamma" not in p.name for p in params)

    @property
    def parameters(self):
        """The Parameters this optimizer updates (a ParameterTuple)."""
        return self._parameters

    def get_lr(self):
        return self.learning_rate

    def _set_scope(self, scope):
        # auto_prefix=False: the optimizer's own Parameters keep their names
        # ("moments.dense.weight") wherever the optimizer is attached.
        self.__dict__["_scope"] = scope

    def _state(self, prefix, init):
        """One state Parameter per parameter, named "<prefix>.<name>",
        registered on this Cell so that checkpoints save it."""
        state = []
        for i, p in enumerate(self._parameters):
            fill = np.full(p.shape, init, dtype=p.dtype.values_np)
            s = Parameter(Tensor(fill, p.dtype), name=f"{prefix}.{p.name}",
                          requires_grad=False)
            setattr(self, f"_{prefix}_{i}", s)
            state.append(s)
        return ParameterTuple(state)

    def _gradients(self, gradients):
        name = type(self).__name__
        if isinstance(gradients, Tensor):
            gradients = (gradients,)
        gradients = tuple(gradients)
        if len(gradients) != len(self._parameters):
            raise ValueError(f"{name}: got {len(gradients)} gradients for "
                             f"{len(self._parameters)} parameters")
        out = []
        for p, g, decay in zip(self._parameters, gradients, self._decay):
            if not isinstance(g, Tensor):
                raise TypeError(f"{name}: the gradient of {p.name} is a "
                                f"{type(g).__name__}, not a Tensor")
            if tuple(g.shape) != tuple(p.shape):
                raise ValueError(f"{name}: the gradient of {p.name} has "
                                 f"shape {list(g.shape)}, the parameter "
                                 f"{list(p.shape)}")
            if self.loss_scale != 1.0:
                g = g * (1.0 / self.loss_scale)
            if decay:
                g = g + p * self.weight_decay
            out.append(g)
        return out

    # One compiled graph per step, whatever the mode, as MindSpore's
    # optimizers (@jit on construct): in PyNative the update is one native
    # call instead of a kernel per op and parameter. Inside a capture (a
    # jitted train step, GRAPH_MODE) or a gradient tape it runs inline.
    @jit
    def construct(self, gradients):
        grads = self._gradients(gradients)
        self._step()
        for i, (p, g) in enumerate(zip(self._parameters, grads)):
            assign(p, self.update(i, p, g))
        return True

    def _step(self):
        """Per-step state shared by all parameters (Adam's beta powers)."""

    def update(self, index, param, grad):
        raise NotImplementedError
