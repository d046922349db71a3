"""The layers (MindSpore's ``mindspore.nn`` names and defaults)."""

import math
import numbers

import numpy as np

from .. import ops
from .. import _random
from ..common.initializer import HeUniform, Uniform, initializer
from ..ops.nn_func import dropout_op
from .. import dtype as mstype
from .._tensor import Parameter, Tensor, binary, check_int_fits, unary
from .cell import Cell

__all__ = ["Dense", "ReLU", "Flatten", "Softmax", "LogSoftmax", "Sigmoid",
           "Tanh", "GELU", "Dropout", "get_activation", "initializer"]


def default_weight_init():
    """MindSpore's default weight of Dense and the convolutions:
    HeUniform(negative_slope=sqrt(5)), U(-1/sqrt(fan_in), 1/sqrt(fan_in))."""
    return HeUniform(negative_slope=math.sqrt(5))


def default_bias(bias_init, size, fan_in, dtype):
    """A bias of `size` from bias_init, or (None) MindSpore's default
    Uniform(1/sqrt(fan_in))."""
    if bias_init is None:
        bias_init = Uniform(1.0 / math.sqrt(fan_in))
    return initializer(bias_init, (size,), dtype)


#===---------------------------------------------------------------------===#
# Activations
#===---------------------------------------------------------------------===#

class ReLU(Cell):
    """max(x, 0)."""

    def construct(self, x):
        return ops.relu(x)


class Sigmoid(Cell):
    def construct(self, x):
        return ops.sigmoid(x)


class Tanh(Cell):
    def construct(self, x):
        return ops.tanh(x)


class GELU(Cell):
    """GELU; approximate=True (MindSpore's default) uses the tanh form."""

    def __init__(self, approximate=True):
        super().__init__()
        self.approximate = bool(approximate)
        self._mode = "tanh" if self.approximate else "none"

    def construct(self, x):
        return ops.gelu(x, self._mode)

    def extend_repr(self):
        return f"approximate={self.approximate}"


class Softmax(Cell):
    def __init__(self, axis=-1):
        super().__init__()
        self.axis = axis

    def construct(self, x):
        return ops.softmax(x, self.axis)

    def extend_repr(self):
        return f"axis={self.axis}"


class LogSoftmax(Cell):
    def __init__(self, axis=-1):
        super().__init__()
        self.axis = axis

    def construct(self, x):
        return ops.log_softmax(x, self.axis)


_ACTIVATIONS = {
    "relu": ReLU,
    "sigmoid": Sigmoid,
    "tanh": Tanh,
    "gelu": GELU,
    "softmax": Softmax,
    "logsoftmax": LogSoftmax,
}


def get_activation(name, prim_name=None):
    """The activation Cell for a name ('relu', 'sigmoid', 'tanh', 'gelu',
    'softmax', 'logsoftmax')."""
    if name is None:
        return None
    if not isinstance(name, str):
        raise TypeError(f"activation name must be a str, got "
                        f"{type(name).__name__}")
    cls = _ACTIVATIONS.get(name.lower())
    if cls is None:
        raise ValueError(f"unknown activation {name!r}; expected one of "
                         f"{sorted(_ACTIVATIONS)}")
    return cls()


#===---------------------------------------------------------------------===#
# Layers
#===---------------------------------------------------------------------===#

class Flatten(Cell):
    """Flattens all dimensions but the first (start_dim=1, end_dim=-1)."""

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def construct(self, x):
        return ops.flatten(x, start_dim=self.start_dim, end_dim=self.end_dim)


class Dense(Cell):
    """Fully connected layer: activation(x @ weight^T + bias).

    weight: [out_channels, in_channels], HeUniform(sqrt(5)) by default
    (U(-1/sqrt(in), 1/sqrt(in))); bias: [out_channels],
    U(-1/sqrt(in), 1/sqrt(in)) by default. `activation` is a Cell or a name.
    """

    def __init__(self, in_channels, out_channels, weight_init=None,
                 bias_init=None, has_bias=True, activation=None,
                 dtype=mstype.float32):
        super().__init__()
        for value, what in ((in_channels, "in_channels"),
                            (out_channels, "out_channels")):
            if not isinstance(value, numbers.Integral) or value <= 0:
                raise ValueError(f"Dense: {what} must be a positive int, got "
                                 f"{value!r}")
        self.in_channels = int(in_channels)
        self.out_channels = int(out_channels)
        self.has_bias = bool(has_bias)
        shape = (self.out_channels, self.in_channels)
        self.weight = Parameter(initializer(
            default_weight_init() if weight_init is None else weight_init,
            shape, dtype), name="weight")
        self.bias = None
        if self.has_bias:
            self.bias = Parameter(default_bias(
                bias_init, self.out_channels, self.in_channels, dtype),
                name="bias")
        if isinstance(activation, str):
            activation = get_activation(activation)
        if activation is not None and not isinstance(activation, Cell):
            raise TypeError("Dense: activation must be a Cell, a name or "
                            f"None, got {type(activation).__name__}")
        self.activation = activation
        self.activation_flag = activation is not None

    def construct(self, x):
        shape = x.shape
        if not shape or shape[-1] != self.in_channels:
            raise ValueError(
                f"input of shape {list(shape)} does not match in_channels="
                f"{self.in_channels}: Dense expects [..., {self.in_channels}]"
                f" (weight is [{self.out_channels}, {self.in_channels}])")
        if self.has_bias:
            x = ops.dense(x, self.weight, self.bias)
        else:
            x = ops.dense(x, self.weight)
        if self.activation_flag:
            x = self.activation(x)
        return x

    def extend_repr(self):
        s = (f"input_channels={self.in_channels}, output_channels="
             f"{self.out_channels}, has_bias={self.has_bias}")
        if self.activation_flag:
            s += f", activation={self.activation}"
        return s


class Dropout(Cell):
    """Dropout(p=0.5): the identity when not training (the default); after
    set_train(), each element is zeroed with probability p and the others
    scaled by 1 / (1 - p), with masks from the global seed (ops.dropout)."""

    def __init__(self, keep_prob=None, p=None, dtype=mstype.float32):
        super().__init__()
        if p is None:
            p = 0.5 if keep_prob is None else 1.0 - keep_prob
        if not isinstance(p, numbers.Real) or not 0.0 <= p < 1.0:
            raise ValueError(f"Dropout: p must be in [0, 1), got {p!r}")
        self.p = float(p)
        self._op = dropout_op(self.p, False, "nn.Dropout")
        self._train_op = dropout_op(self.p, True, "nn.Dropout")

    def construct(self, x):
        if self.training and self.p > 0.0:
            return binary(self._train_op, x, _random.state_tensor())
        return unary(self._op, x)

    def extend_repr(self):
        return f"p={self.p}"
