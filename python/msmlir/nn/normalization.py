"""nn.BatchNorm1d, nn.BatchNorm2d and nn.LayerNorm (MindSpore's names,
defaults and parameter names)."""

import numbers

import numpy as np

from .. import dtype as mstype
from .. import ops
from ..ops._args import _f32
from ..ops.nn_func import _layer_norm_op, batch_norm_train
from .._tensor import Parameter, Tensor, nary, op
from .cell import Cell
from .layers import initializer

__all__ = ["BatchNorm1d", "BatchNorm2d", "LayerNorm", "GroupNorm"]


def _real(value, name, what, low, low_inclusive, high=None):
    ok = isinstance(value, numbers.Real) and not isinstance(value, bool)
    if ok:
        ok = value >= low if low_inclusive else value > low
        if high is not None:
            ok = ok and value <= high
    if not ok:
        bound = (f"in [{low}, {high}]" if high is not None else
                 f">= {low}" if low_inclusive else f"> {low}")
        raise ValueError(f"{what}: {name} must be a number {bound}, got "
                         f"{value!r}")
    return float(value)


class _BatchNorm(Cell):
    """Batch normalization over the channels (dim 1).

    With batch statistics (training mode when use_batch_statistics is None,
    the default, or use_batch_statistics=True): y = (x - mean) /
    sqrt(var + eps) * gamma + beta with the batch's per-channel mean and
    biased variance, and the moving statistics are updated as MindSpore
    does, moving = momentum * moving + (1 - momentum) * batch (momentum
    0.9 by default), the variance update using the unbiased batch variance
    (count / (count - 1) times the biased one). Otherwise (inference) the
    moving statistics normalize:
    (x - moving_mean) / sqrt(moving_variance + eps) * gamma + beta.

    Parameters (each [num_features]): gamma, beta (trainable when affine),
    moving_mean and moving_variance (never trainable).
    """

    _ranks = (4,)
    _layout = "[N, C, H, W]"

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True,
                 gamma_init="ones", beta_init="zeros",
                 moving_mean_init="zeros", moving_var_init="ones",
                 use_batch_statistics=None, data_format="NCHW",
                 dtype=mstype.float32):
        super().__init__()
        what = "nn." + type(self).__name__
        if not isinstance(num_features, numbers.Integral) or \
                isinstance(num_features, bool) or num_features <= 0:
            raise ValueError(f"{what}: num_features must be a positive int, "
                             f"got {num_features!r}")
        self.num_features = int(num_features)
        self.eps = _real(eps, "eps", what, 0.0, False)
        self.momentum = _real(momentum, "momentum", what, 0.0, True, 1.0)
        if data_format != "NCHW":
            raise ValueError(f"{what}: data_format must be 'NCHW', got "
                             f"{data_format!r} (ms supports only NCHW)")
        if use_batch_statistics not in (None, True, False):
            raise ValueError(f"{what}: use_batch_statistics must be None, "
                             f"True or False, got {use_batch_statistics!r}")
        self.data_format = data_format
        self.affine = bool(affine)
        self.use_batch_statistics = use_batch_statistics
        shape = (self.num_features,)
        self.gamma = Parameter(initializer(gamma_init, shape, dtype),
                               name="gamma", requires_grad=self.affine)
        self.beta = Parameter(initializer(beta_init, shape, dtype),
                              name="beta", requires_grad=self.affine)
        self.moving_mean = Parameter(initializer(moving_mean_init, shape,
                                                 dtype),
                                     name="moving_mean", requires_grad=False)
        self.moving_variance = Parameter(initializer(moving_var_init, shape,
                                                     dtype),
                                         name="moving_variance",
                                         requires_grad=False)
        self._op = op("ms.batch_norm", "{epsilon = " + _f32(self.eps) +
                      "}", what)

    def construct(self, x):
        batch_statistics = self.use_batch_statistics
        if batch_statistics is None:
            batch_statistics = self.training
        shape = x.shape
        if len(shape) not in self._ranks or shape[1] != self.num_features:
            raise ValueError(
                f"input of shape {list(shape)} does not match num_features="
                f"{self.num_features}: {type(self).__name__} expects "
                f"{self._layout.replace('C', str(self.num_features))}")
        if batch_statistics:
            return self._train(x)
        return nary(self._op, (x, self.gamma, self.beta, self.moving_mean,
                               self.moving_variance))

    def _train(self, x):
        y, mean, var, count = batch_norm_train(x, self.gamma, self.beta,
                                               self.eps)
        if count < 2:
            raise ValueError(
                f"{type(self).__name__} in training mode needs more than one "
                f"value per channel, got input of shape {list(x.shape)}")
        m = self.momentum
        unbiased = var * (count / (count - 1))
        ops.assign(self.moving_mean, self.moving_mean * m + mean * (1.0 - m))
        ops.assign(self.moving_variance,
                self.moving_variance * m + unbiased * (1.0 - m))
        return y

    def extend_repr(self):
        return (f"num_features={self.num_features}, eps={self.eps}, "
                f"momentum={self.momentum}, gamma={self.gamma!r}, beta="
                f"{self.beta!r}, moving_mean={self.moving_mean!r}, "
                f"moving_variance={self.moving_variance!r}")


class BatchNorm2d(_BatchNorm):
    __doc__ = "nn.BatchNorm2d on [N, C, H, W] input. " + _BatchNorm.__doc__


class BatchNorm1d(_BatchNorm):
    __doc__ = "nn.BatchNorm1d on [N, C] or [N, C, L] input. " + \
        _BatchNorm.__doc__
    _ranks = (2, 3)
    _layout = "[N, C] or [N, C, L]"


class LayerNorm(Cell):
    """Layer normalization: mean and (population) variance over the
    dimensions from begin_norm_axis to the last, then
    (x - mean) / sqrt(variance + epsilon) * gamma + beta, where gamma and
    beta have shape normalized_shape == x.shape[begin_params_axis:].
    Axes may be negative."""

    def __init__(self, normalized_shape, begin_norm_axis=-1,
                 begin_params_axis=-1, gamma_init="ones", beta_init="zeros",
                 epsilon=1e-7, dtype=mstype.float32):
        super().__init__()
        what = "nn.LayerNorm"
        if not isinstance(normalized_shape, (tuple, list)):
            raise TypeError(f"{what}: normalized_shape must be a tuple or a "
                            f"list, got {type(normalized_shape).__name__}")
        if not normalized_shape or not all(
                isinstance(d, numbers.Integral) and not isinstance(d, bool)
                and d > 0 for d in normalized_shape):
            raise ValueError(f"{what}: normalized_shape must be positive "
                             f"ints, got {normalized_shape!r}")
        for value, name in ((begin_norm_axis, "begin_norm_axis"),
                            (begin_params_axis, "begin_params_axis")):
            if not isinstance(value, numbers.Integral) or \
                    isinstance(value, bool):
                raise TypeError(f"{what}: {name} must be an int, got "
                                f"{type(value).__name__}")
        self.normalized_shape = tuple(int(d) for d in normalized_shape)
        self.begin_norm_axis = int(begin_norm_axis)
        self.begin_params_axis = int(begin_params_axis)
        self.epsilon = _real(epsilon, "epsilon", what, 0.0, False)
        self.gamma = Parameter(initializer(gamma_init, self.normalized_shape,
                                           dtype), name="gamma")
        self.beta = Parameter(initializer(beta_init, self.normalized_shape,
                                          dtype), name="beta")

    def _axis(self, value, name, shape):
        nd = len(shape)
        if not -nd <= value < nd:
            raise ValueError(f"{name}={value} is out of range for input of "
                             f"shape {list(shape)}")
        return value + nd if value < 0 else value

    def construct(self, x):
        shape = tuple(x.shape)
        norm = self._axis(self.begin_norm_axis, "begin_norm_axis", shape)
        params = self._axis(self.begin_params_axis, "begin_params_axis",
                            shape)
        if shape[params:] != self.normalized_shape:
            raise ValueError(
                f"input of shape {list(shape)} does not match "
                f"normalized_shape={list(self.normalized_shape)}: LayerNorm "
                f"expects input.shape[{self.begin_params_axis}:] == "
                f"{list(self.normalized_shape)}")
        o = _layer_norm_op(norm, params, self.epsilon, "nn.LayerNorm")
        return nary(o, (x, self.gamma, self.beta))

    def extend_repr(self):
        return (f"normalized_shape={self.normalized_shape}, begin_norm_axis="
                f"{self.begin_norm_axis}, begin_params_axis="
                f"{self.begin_params_axis}, gamma={self.gamma!r}, beta="
                f"{self.beta!r}")


class GroupNorm(Cell):
    """Group normalization of [N, C, ...] input (MindSpore's nn.GroupNorm:
    num_groups, num_channels, eps=1e-5, affine=True, parameters gamma and
    beta of shape [C]). Each group of C / num_groups channels is normalized
    with its own mean and population variance: the input is viewed as
    [N, G, C / G * rest] and normalized by the layer_norm op over the last
    dim (unit scale, zero shift), then scaled by gamma and shifted by beta
    per channel."""

    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True,
                 gamma_init="ones", beta_init="zeros", dtype=mstype.float32):
        super().__init__()
        what = "nn.GroupNorm"
        for value, name in ((num_groups, "num_groups"),
                            (num_channels, "num_channels")):
            if not isinstance(value, numbers.Integral) or \
                    isinstance(value, bool) or value <= 0:
                raise ValueError(f"{what}: {name} must be a positive int, "
                                 f"got {value!r}")
        if num_channels % num_groups:
            raise ValueError(f"{what}: num_channels={num_channels} is not "
                             f"divisible by num_groups={num_groups}")
        self.num_groups = int(num_groups)
        self.num_channels = int(num_channels)
        self.eps = _real(eps, "eps", what, 0.0, False)
        self.affine = bool(affine)
        self.gamma = Parameter(initializer(gamma_init, (self.num_channels,),
                                           dtype), name="gamma",
                               requires_grad=self.affine)
        self.beta = Parameter(initializer(beta_init, (self.num_channels,),
                                          dtype), name="beta",
                              requires_grad=self.affine)

    def construct(self, x):
        shape = tuple(x.shape)
        if len(shape) < 2 or shape[1] != self.num_channels:
            raise ValueError(
                f"input of shape {list(shape)} does not match num_channels="
                f"{self.num_channels}: GroupNorm expects [N, "
                f"{self.num_channels}, ...]")
        n, g = shape[0], self.num_groups
        group_size = 1
        for d in shape[1:]:
            group_size *= d
        group_size //= g
        grouped = ops.reshape(x, (n, g, group_size))
        unit = Tensor(np.ones((group_size,), np.float32))
        zero = Tensor(np.zeros((group_size,), np.float32))
        o = _layer_norm_op(2, 2, self.eps, "nn.GroupNorm")
        normalized = ops.reshape(nary(o, (grouped, unit, zero)), shape)
        if not self.affine:
            return normalized
        column = (self.num_channels,) + (1,) * (len(shape) - 2)
        return ops.add(ops.mul(normalized, ops.reshape(self.gamma, column)),
                       ops.reshape(self.beta, column))

    def extend_repr(self):
        return (f"num_groups={self.num_groups}, num_channels="
                f"{self.num_channels}, eps={self.eps}, affine={self.affine}")
