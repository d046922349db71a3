"""More layers of ``mindspore.nn``: 1-D pools, BatchNorm3d, channel
dropout, reflection padding, BiDense, ResizeBilinear and the gradient
wrappers ForwardValueAndGrad and WithGradCell."""

import math

import numpy as np

from .. import ops
from .._autograd import ParameterTuple, grad, value_and_grad
from .._tensor import Parameter, Tensor
from ..common.initializer import Uniform, initializer
from .cell import Cell
from .normalization import BatchNorm2d
from .pooling import AdaptiveAvgPool2d

__all__ = ["AvgPool1d", "MaxPool1d", "BatchNorm3d", "Dropout2d",
           "Dropout3d", "ReflectionPad1d", "ReflectionPad2d", "BiDense",
           "ResizeBilinear", "ForwardValueAndGrad", "WithGradCell",
           "AdaptiveAvgPool1d", "TimeDistributed"]


class _Pool1d(Cell):
    def __init__(self, kernel_size=1, stride=1, pad_mode="valid"):
        super().__init__()
        if str(pad_mode).lower() != "valid":
            raise ValueError(f"{type(self).__name__}: only pad_mode='valid' "
                             "is supported by msmlir")
        self.kernel_size = kernel_size
        self.stride = stride


class AvgPool1d(_Pool1d):
    def construct(self, x):
        return ops.avg_pool1d(x, self.kernel_size, self.stride)


class MaxPool1d(_Pool1d):
    def construct(self, x):
        return ops.max_pool1d(x, self.kernel_size, self.stride)


class BatchNorm3d(Cell):
    """BatchNorm over [N, C, D, H, W]: BatchNorm2d of [N, C, D * H, W],
    whose per-channel statistics are the same."""

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True,
                 gamma_init="ones", beta_init="zeros",
                 moving_mean_init="zeros", moving_var_init="ones",
                 use_batch_statistics=None):
        super().__init__()
        self.bn2d = BatchNorm2d(num_features, eps, momentum, affine,
                                gamma_init, beta_init, moving_mean_init,
                                moving_var_init, use_batch_statistics)

    def construct(self, x):
        n, c, d, h, w = x.shape
        y = self.bn2d(ops.reshape(x, (n, c, d * h, w)))
        return ops.reshape(y, (n, c, d, h, w))


class _ChannelDropout(Cell):
    _dims = 2

    def __init__(self, p=0.5):
        super().__init__()
        if not 0.0 <= p < 1.0:
            raise ValueError(f"For '{type(self).__name__}', the 'p' must be "
                             f"in range [0, 1), but got {p}.")
        self.p = p

    def construct(self, x):
        fn = ops.dropout2d if self._dims == 2 else ops.dropout3d
        return fn(x, self.p, self.training)


class Dropout2d(_ChannelDropout):
    _dims = 2


class Dropout3d(_ChannelDropout):
    _dims = 3


class _ReflectionPad(Cell):
    """Reflection padding of the last dims: a gather with mirrored
    indices (the edge itself not repeated)."""

    _dims = 1

    def __init__(self, padding):
        super().__init__()
        count = 2 * self._dims
        if isinstance(padding, int):
            padding = (padding,) * count
        if len(padding) != count:
            raise ValueError(f"For '{type(self).__name__}', the length of "
                             f"'padding' must be {count}, but got "
                             f"{len(padding)}.")
        self.padding = tuple(padding)

    def construct(self, x):
        for k in range(self._dims):
            before, after = self.padding[2 * k], self.padding[2 * k + 1]
            axis = x.ndim - 1 - k
            n = x.shape[axis]
            if before >= n or after >= n:
                raise ValueError(f"{type(self).__name__}: padding must be "
                                 f"less than the size {n} of the dimension")
            index = np.concatenate([np.arange(before, 0, -1), np.arange(n),
                                    np.arange(n - 2, n - 2 - after, -1)])
            x = ops.index_select(x, axis, Tensor(index.astype(np.int32)))
        return x


class ReflectionPad1d(_ReflectionPad):
    _dims = 1


class ReflectionPad2d(_ReflectionPad):
    _dims = 2


class BiDense(Cell):
    """y = x1^T W x2 + b: weight [out, in1, in2], bias [out], both
    U(-1/sqrt(in1), 1/sqrt(in1)) by default."""

    def __init__(self, in1_channels, in2_channels, out_channels,
                 weight_init=None, bias_init=None, has_bias=True):
        super().__init__()
        bound = 1.0 / math.sqrt(in1_channels)
        self.weight = Parameter(initializer(
            weight_init or Uniform(bound),
            (out_channels, in1_channels, in2_channels)), name="weight")
        self.has_bias = has_bias
        if has_bias:
            self.bias = Parameter(initializer(bias_init or Uniform(bound),
                                              (out_channels,)), name="bias")

    def construct(self, input1, input2):
        out, in1, in2 = self.weight.shape
        left = ops.matmul(input1, ops.reshape(
            ops.transpose(self.weight, (1, 0, 2)), (in1, out * in2)))
        left = ops.reshape(left, input1.shape[:-1] + (out, in2))
        y = ops.reduce_sum(left * ops.expand_dims(input2, -2), -1)
        return y + self.bias if self.has_bias else y


class ResizeBilinear(Cell):
    """Bilinear resizing of NCHW input (ops.interpolate)."""

    def __init__(self, half_pixel_centers=False):
        super().__init__()
        self.half_pixel_centers = half_pixel_centers

    def construct(self, x, size=None, scale_factor=None,
                  align_corners=False):
        return ops.interpolate(x, size, scale_factor, "bilinear",
                               align_corners)


class ForwardValueAndGrad(Cell):
    """(network(*inputs), gradients): of the inputs (get_all), of
    `weights` (get_by_list) or both; sens_param takes a last argument
    scaling the output."""

    def __init__(self, network, weights=None, get_all=False,
                 get_by_list=False, sens_param=False):
        super().__init__(auto_prefix=False)
        self.network = network
        self.__dict__["weights"] = ParameterTuple(weights) \
            if weights is not None else None
        self.get_all, self.get_by_list = get_all, get_by_list
        self.sens_param = sens_param

    def construct(self, *inputs):
        sens = None
        if self.sens_param:
            inputs, sens = inputs[:-1], inputs[-1]
        positions = tuple(range(len(inputs))) if self.get_all else None
        if positions is None and not self.get_by_list:
            positions = 0
        fn = self.network if sens is None else \
            (lambda *a: ops.reduce_sum(self.network(*a) * sens))
        value_grad = value_and_grad(fn, positions, self.weights
                                    if self.get_by_list else None)
        loss, grads = value_grad(*inputs)
        return (self.network(*inputs) if sens is not None else loss), grads


class WithGradCell(Cell):
    """The gradients of loss_fn(network(data), label) (or of network's
    own output without loss_fn) with respect to network's trainable
    parameters."""

    def __init__(self, network, loss_fn=None, sens=None):
        super().__init__(auto_prefix=False)
        self.network = network
        self.loss_fn = loss_fn
        self.sens = sens
        self.__dict__["weights"] = ParameterTuple(
            network.trainable_params())

    def construct(self, *inputs):
        def forward(*args):
            out = self.network(args[0]) if self.loss_fn is not None else \
                self.network(*args)
            if self.loss_fn is not None:
                out = self.loss_fn(out, args[1])
            return out if self.sens is None else out * self.sens
        return grad(forward, None, self.weights)(*inputs)


class AdaptiveAvgPool1d(Cell):
    """Adaptive average pooling of [N, C, L] to [N, C, output_size]:
    AdaptiveAvgPool2d of [N, C, 1, L]."""

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size
        self.pool = AdaptiveAvgPool2d((1, output_size))

    def construct(self, input):
        n, c, length = input.shape
        y = self.pool(ops.reshape(input, (n, c, 1, length)))
        return ops.reshape(y, (n, c, self.output_size))


class TimeDistributed(Cell):
    """Applies `layer` to every time step of [N, T, ...] input (time_axis
    1): the steps are folded into the batch and unfolded after."""

    def __init__(self, layer, time_axis, reshape_with_axis=None):
        super().__init__()
        if not isinstance(layer, Cell):
            raise TypeError("For 'TimeDistributed', the 'layer' must be a "
                            f"Cell, but got {type(layer)}.")
        self.layer = layer
        self.time_axis = time_axis

    def construct(self, inputs):
        x = ops.swapaxes(inputs, 0, self.time_axis) if self.time_axis else \
            inputs
        steps, batch = x.shape[0], x.shape[1]
        y = self.layer(ops.reshape(x, (steps * batch,) + x.shape[2:]))
        y = ops.reshape(y, (steps, batch) + y.shape[1:])
        return ops.swapaxes(y, 0, self.time_axis) if self.time_axis else y
