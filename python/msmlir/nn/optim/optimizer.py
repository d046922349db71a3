"""The Optimizer base Cell (MindSpore's ``mindspore.nn.Optimizer``):
parameters and parameter groups, learning rates, weight decay and loss
scale.

Learning rates and weight decays are computed inside the step: a fixed
rate is a Parameter (changing it recompiles nothing), a list is a 1-D
Parameter read at element ``global_step`` and a LearningRateSchedule Cell
is called on ``global_step`` (an int32 [1] Parameter), all with ms ops, so
in GRAPH mode the whole update stays one native function.
"""

from collections.abc import Iterable
import numbers

import numpy as np

from ... import dtype as mstype
from ... import ops
from ..._autograd import ParameterTuple
from ..._checkparam import (check_bool, check_non_negative_float,
                            check_positive_float)
from ...ops import assign
from ..._jit import jit
from ..._tensor import Tensor, Parameter
from ..cell import Cell
from ..learning_rate_schedule import LearningRateSchedule

__all__ = ["Optimizer"]

_GROUP_KEYS = ["params", "lr", "weight_decay", "order_params",
               "grad_centralization"]


def _scalar_parameter(value, name):
    return Parameter(Tensor(np.float32(value)), name=name,
                     requires_grad=False)


class _IteratorLearningRate(LearningRateSchedule):
    """A learning-rate list: element global_step of a 1-D Parameter (past
    the end, 0: ms.gather's out-of-range rule, as MindSpore's CPU
    Gather)."""

    def __init__(self, rates, name):
        super().__init__()
        self.learning_rate = Parameter(Tensor(rates), name=name,
                                       requires_grad=False)

    def construct(self, global_step):
        return ops.gather(self.learning_rate, global_step, 0)


def _learning_rate(lr, name, who):
    """A Parameter (fixed rate) or a LearningRateSchedule Cell."""
    if isinstance(lr, LearningRateSchedule):
        return lr
    if isinstance(lr, Tensor):
        if lr.ndim > 1:
            raise ValueError("For 'Optimizer', if 'learning_rate' is Tensor "
                             "type, then the dimension of it should be 0 or "
                             f"1, but got {lr.ndim}.")
        if lr.ndim == 1:
            return _IteratorLearningRate(
                lr.asnumpy().astype(np.float32), name)
        lr = float(lr.asnumpy())
    if isinstance(lr, numbers.Real) and not isinstance(lr, bool):
        check_non_negative_float(float(lr), "learning rate", who)
        return _scalar_parameter(lr, name)
    if isinstance(lr, Iterable) and not isinstance(lr, (str, bytes)):
        return _IteratorLearningRate(np.asarray(list(lr), np.float32), name)
    raise TypeError("For 'Optimizer', the argument 'learning_rate' must be "
                    "int, float, Tensor, Iterable or LearningRateSchedule, "
                    f"but got {type(lr)}.")


def _weight_decay(wd, who):
    """A float, or a Cell of global_step (dynamic weight decay)."""
    if isinstance(wd, Cell):
        return wd
    if isinstance(wd, numbers.Real) and not isinstance(wd, bool):
        return check_non_negative_float(float(wd), "weight_decay", who)
    raise TypeError("For 'Optimizer', the argument 'Weight_decay' must be "
                    f"int, float or Cell.but got {type(wd)}")


class _Group:
    """One parameter group's settings: the indices of its parameters, its
    learning-rate source, weight decay and gradient centralization."""

    def __init__(self, indices, lr, wd, centralize, use_filter):
        self.indices = indices
        self.lr = lr
        self.wd = wd
        self.centralize = centralize
        # Ungrouped parameters skip decay for 'beta'/'gamma' names (the
        # norms' parameters); a group decays all its parameters.
        self.use_filter = use_filter


def _flat_parameters(parameters):
    if parameters is None:
        raise ValueError("For 'Optimizer', the argument parameters can not "
                         "be None.")
    if isinstance(parameters, Parameter):
        parameters = [parameters]
    if not isinstance(parameters, Iterable):
        raise TypeError("For 'Optimizer', the argument 'parameters' must be "
                        f"Iterable type, but got {type(parameters)}.")
    items = list(parameters)
    if not items:
        raise ValueError("For 'Optimizer', the argument parameters must not "
                         "be empty.")
    kinds = {isinstance(p, dict) for p in items}
    if kinds == {False}:
        for p in items:
            if not isinstance(p, Parameter):
                raise TypeError("For 'Optimizer', the argument parameters "
                                "must be Parameters or dicts of parameter "
                                f"groups, but got {type(p)}.")
    elif len(kinds) > 1:
        raise TypeError("For 'Optimizer', the argument parameters must be "
                        "all Parameters or all dicts of parameter groups.")
    return items


def _check_group(group):
    bad = [k for k in group if k not in _GROUP_KEYS]
    if bad:
        raise KeyError("For 'Optimizer', the key in group params must be one "
                       f"of in {_GROUP_KEYS}, but got {bad}.")
    if "order_params" in group:
        if len(group) > 1:
            raise ValueError("For 'Optimizer', the order params dict in "
                             "group parameters should only include the "
                             "'order_params' key, but got "
                             f"{list(group)}.")
        if not isinstance(group["order_params"], Iterable):
            raise TypeError("For 'Optimizer', the value of 'order_params' in "
                            "group parameters should be Iterable type, but "
                            f"got {type(group['order_params'])}.")
    elif "params" not in group:
        raise ValueError("For 'Optimizer', every group of parameters needs "
                         "the key 'params'.")


class Optimizer(Cell):
    """Base class of the optimizers. Subclasses define
    ``update(index, param, grad, lr)``: the new value of parameter
    `index`, with its state updated through ``assign``."""

    # True for optimizers whose formula reads the step count (Lamb, Rprop,
    # ASGD): their global_step advances on every step, not only when a
    # learning rate or weight decay is dynamic.
    _counts_steps = False
    # False for optimizers that apply the weight decay themselves.
    _decays_gradients = True

    def __init__(self, learning_rate, parameters, weight_decay=0.0,
                 loss_scale=1.0):
        super().__init__(auto_prefix=False)
        name = type(self).__name__
        items = _flat_parameters(parameters)
        if isinstance(loss_scale, int) and not isinstance(loss_scale, bool):
            loss_scale = float(loss_scale)
        check_positive_float(loss_scale, "loss_scale", name)
        self.loss_scale = loss_scale
        self.global_step = Parameter(Tensor(np.zeros([1], np.int32)),
                                     name="global_step", requires_grad=False)
        if isinstance(items[0], dict):
            params, groups = self._build_groups(items, learning_rate,
                                                weight_decay)
        else:
            params = items
            groups = [_Group(list(range(len(params))),
                             _learning_rate(learning_rate, "learning_rate",
                                            name),
                             _weight_decay(weight_decay, name), False, True)]
        self._check_unique(params)
        self.__dict__["_parameters"] = ParameterTuple(params)
        self.__dict__["_groups"] = tuple(groups)
        self.__dict__["_group_of"] = self._group_index(groups, len(params))
        self.is_group = isinstance(items[0], dict)
        self._register_rates(groups)

    # -- construction ------------------------------------------------------
    def _build_groups(self, dicts, default_lr, default_wd):
        name = type(self).__name__
        params, groups, order = [], [], None
        for i, group in enumerate(dicts):
            _check_group(group)
            if "order_params" in group:
                order = list(group["order_params"])
                continue
            members = list(group["params"])
            lr = _learning_rate(group.get("lr", default_lr),
                                f"learning_rate_group_{i}", name)
            wd = _weight_decay(group.get("weight_decay", default_wd), name)
            centralize = check_bool(group.get("grad_centralization", False),
                                    "grad_centralization", name)
            indices = list(range(len(params), len(params) + len(members)))
            groups.append(_Group(indices, lr, wd, centralize, False))
            params += members
        if order is not None:
            params, groups = self._reorder(params, groups, order)
        return params, groups

    @staticmethod
    def _reorder(params, groups, order):
        if len(order) != len(params) or {id(p) for p in order} != \
                {id(p) for p in params}:
            raise ValueError("For 'Optimizer', the parameters in "
                             "'order_params' should be the same as the "
                             "parameters of all groups, but got "
                             f"{len(order)} of {len(params)}.")
        position = {id(p): k for k, p in enumerate(order)}
        for g in groups:
            g.indices = [position[id(params[i])] for i in g.indices]
        return order, groups

    @staticmethod
    def _check_unique(params):
        seen = set()
        for p in params:
            if not isinstance(p, Parameter):
                raise TypeError("For 'Optimizer', the element in group "
                                "params must be Parameter, but got "
                                f"{type(p)}.")
            if id(p) in seen:
                raise RuntimeError(
                    f"For 'Optimizer', the {p.name} parameter already "
                    "exists, it does not support repeated setting. Please "
                    "check whether the optimizer parameter has been set "
                    "multiple times.")
            seen.add(id(p))

    @staticmethod
    def _group_index(groups, count):
        of = [0] * count
        for k, g in enumerate(groups):
            for i in g.indices:
                of[i] = k
        return tuple(of)

    def _register_rates(self, groups):
        """Makes the rates this Cell's Parameters / sub-Cells (so
        checkpoints save them) under MindSpore's names."""
        if not self.is_group:
            self.learning_rate = groups[0].lr
            if isinstance(groups[0].wd, Cell):
                self.weight_decay = groups[0].wd
            else:
                self.__dict__["weight_decay"] = groups[0].wd
        else:
            for k, g in enumerate(groups):
                setattr(self, f"_group_lr_{k}", g.lr)
                if isinstance(g.wd, Cell):
                    setattr(self, f"_group_wd_{k}", g.wd)
            self.__dict__["learning_rate"] = tuple(g.lr for g in groups)
            self.__dict__["weight_decay"] = tuple(g.wd for g in groups)
        self.__dict__["dynamic_lr"] = any(
            isinstance(g.lr, Cell) for g in groups)
        self.__dict__["dynamic_weight_decay"] = any(
            isinstance(g.wd, Cell) for g in groups)

    # -- properties ----------------------------------------------------------
    @property
    def parameters(self):
        """The Parameters this optimizer updates (a ParameterTuple)."""
        return self._parameters

    @property
    def decay_flags(self):
        """Per parameter: whether weight decay applies to it."""
        return tuple(self._decays(i) for i in range(len(self._parameters)))

    def take_over_decay(self):
        """For a wrapper that applies this optimizer's weight decay and loss
        scale itself (LARS): returns (decay_flags, loss_scale) and turns
        both off here."""
        flags, loss_scale = self.decay_flags, self.loss_scale
        self.__dict__["_decay_taken"] = True
        self.loss_scale = 1.0
        return flags, loss_scale

    def _decays(self, index):
        if self.__dict__.get("_decay_taken"):
            return False
        group = self._groups[self._group_of[index]]
        if not isinstance(group.wd, Cell) and group.wd <= 0:
            return False
        name = self._parameters[index].name
        return not group.use_filter or ("beta" not in name and
                                        "gamma" not in name)

    def get_lr_parameter(self, param):
        """The learning rate (a Parameter or a LearningRateSchedule) of a
        Parameter or a list of them."""
        index = {id(p): i for i, p in enumerate(self._parameters)}
        params = param if isinstance(param, (list, tuple)) else [param]
        rates = []
        for p in params:
            if id(p) not in index:
                raise ValueError("For 'get_lr_parameter', the parameter "
                                 f"{getattr(p, 'name', p)} is not in the "
                                 "optimizer.")
            rates.append(self._groups[self._group_of[index[id(p)]]].lr)
        return rates if isinstance(param, (list, tuple)) else rates[0]

    def _set_scope(self, scope):
        # auto_prefix=False: the optimizer's own Parameters keep their names
        # ("moments.dense.weight") wherever the optimizer is attached.
        self.__dict__["_scope"] = scope

    def _state(self, prefix, init):
        """One state Parameter per parameter, named "<prefix>.<name>",
        registered on this Cell so that checkpoints save it."""
        state = ParameterTuple(
            p.clone(init) for p in self._parameters)
        for p, s in zip(self._parameters, state):
            s.name = f"{prefix}.{p.name}"
            s.requires_grad = False
        setattr(self, f"_state_{prefix}", state)
        return state

    # -- the step ------------------------------------------------------------
    def _rate(self, source):
        if isinstance(source, Cell):
            return ops.reshape(ops.cast(source(self.global_step),
                                        mstype.float32), ())
        return source

    def get_lr(self):
        """The learning rate of this step (a tuple, one per group, with
        groups); advances global_step when a rate is dynamic."""
        rates = tuple(self._rate(g.lr) for g in self._groups)
        self._advance_step()
        return rates if self.is_group else rates[0]

    def get_weight_decay(self):
        return tuple(self._rate(g.wd) if isinstance(g.wd, Cell) else g.wd
                     for g in self._groups)

    def _advance_step(self):
        if self._counts_steps or self.dynamic_lr or \
                self.dynamic_weight_decay:
            assign(self.global_step, self.global_step + 1)

    def _gradients(self, gradients):
        """The checked gradients, decayed, centralized and unscaled, in
        MindSpore's order."""
        name = type(self).__name__
        if isinstance(gradients, Tensor):
            gradients = (gradients,)
        gradients = tuple(gradients)
        if len(gradients) != len(self._parameters):
            raise ValueError(f"{name}: got {len(gradients)} gradients for "
                             f"{len(self._parameters)} parameters")
        for p, g in zip(self._parameters, gradients):
            self._check_gradient(p, g)
        gradients = self.flatten_gradients(gradients)
        if self._decays_gradients:
            gradients = self.decay_weight(gradients)
        gradients = self.gradients_centralization(gradients)
        return self.scale_grad(gradients)

    # The steps of _gradients, for optimizers written as MindSpore's are.
    def flatten_gradients(self, gradients):
        return gradients

    def decay_weight(self, gradients):
        """g + weight_decay * loss_scale * w for the parameters that decay
        (scale_grad divides by loss_scale after)."""
        decays = self.get_weight_decay()
        out = []
        for i, (p, g) in enumerate(zip(self._parameters, gradients)):
            if self._decays(i):
                wd = decays[self._group_of[i]]
                g = g + p * (wd * self.loss_scale if self.loss_scale != 1.0
                             else wd)
            out.append(g)
        return tuple(out)

    def gradients_centralization(self, gradients):
        return tuple(_centralize(g) if
                     self._groups[self._group_of[i]].centralize else g
                     for i, g in enumerate(gradients))

    def scale_grad(self, gradients):
        if self.loss_scale == 1.0:
            return tuple(gradients)
        return tuple(g * (1.0 / self.loss_scale) for g in gradients)

    def _check_gradient(self, param, grad):
        name = type(self).__name__
        if not isinstance(grad, Tensor):
            raise TypeError(f"{name}: the gradient of {param.name} is a "
                            f"{type(grad).__name__}, not a Tensor")
        if tuple(grad.shape) != tuple(param.shape):
            raise ValueError(f"{name}: the gradient of {param.name} has "
                             f"shape {list(grad.shape)}, the parameter "
                             f"{list(param.shape)}")

    # One compiled graph per step, whatever the mode, as MindSpore's
    # optimizers (@jit on construct): in PyNative the update is one native
    # call instead of a kernel per op and parameter. Inside a capture (a
    # jitted train step, GRAPH_MODE) or a gradient tape it runs inline.
    @jit
    def construct(self, gradients):
        grads = self._gradients(gradients)
        rates = self.get_lr()
        if not self.is_group:
            rates = (rates,)
        self._step()
        for i, (p, g) in enumerate(zip(self._parameters, grads)):
            assign(p, self.update(i, p, g, rates[self._group_of[i]]))
        return True

    def _step(self):
        """Per-step state shared by all parameters (Adam's beta powers)."""

    def update(self, index, param, grad, lr):
        raise NotImplementedError


def _centralize(grad):
    """Gradient centralization: the mean over every axis but the first is
    taken out, for tensors of 2 or more dims whose dim 1 is a multiple of
    16 (MindSpore's rule)."""
    shape = grad.shape
    if len(shape) < 2 or shape[1] % 16:
        return grad
    axes = tuple(range(1, len(shape)))
    return grad - ops.mean(grad, axes, True)
