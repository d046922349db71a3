"""Parameter initializers (MindSpore's ``mindspore.common.initializer``
classes): each fills a numpy array in place, ``init(arr)``, as MindSpore's
do. They live in the core layer, below Tensor, because ``Tensor(shape=,
dtype=, init=)`` and ``Parameter.clone(init)`` use them; the public
``initializer()`` function is in common/initializer.py.

Random values come from the context's generator (``STATE.rng``, seeded by
``set_seed``), drawn in float64 and rounded to the array's dtype.
"""

import math
import numbers

import numpy as np

from ._runtime import STATE

__all__ = ["Initializer", "Zero", "One", "Constant", "Normal",
           "TruncatedNormal", "Uniform", "XavierUniform", "XavierNormal",
           "HeUniform", "HeNormal", "Orthogonal", "Identity", "Dirac",
           "Sparse", "VarianceScaling", "init_values",
           "calculate_fan_in_and_fan_out", "check_shape"]


def calculate_fan_in_and_fan_out(shape):
    """(fan_in, fan_out) of a weight: [out, in] or [out, in, *kernel]."""
    if len(shape) < 2:
        raise ValueError("'fan_in' and 'fan_out' can not be computed for "
                         "tensor with fewer than 2 dimensions, but got "
                         f"dimensions {len(shape)}.")
    receptive = int(np.prod(shape[2:])) if len(shape) > 2 else 1
    return shape[1] * receptive, shape[0] * receptive


def _gain(nonlinearity, param, who):
    """MindSpore's (and torch's) calculate_gain."""
    linear = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d",
              "conv_transpose2d", "conv_transpose3d", "sigmoid")
    if nonlinearity in linear:
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else param
        if isinstance(slope, bool) or not isinstance(slope, numbers.Real):
            raise ValueError(f"For '{who}', the argument 'negative_slope' "
                             f"must be a number, but got {slope}.")
        return math.sqrt(2.0 / (1 + slope ** 2))
    raise ValueError(f"For '{who}', the argument 'nonlinearity' is not "
                     f"supported, but got {nonlinearity}.")


def _fan(shape, mode, who):
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"'mode' {mode} not supported, please use one of "
                         "['fan_in', 'fan_out']")
    fan_in, fan_out = calculate_fan_in_and_fan_out(shape)
    return fan_in if mode == "fan_in" else fan_out


def _uniform(shape, bound):
    return STATE.rng.uniform(-bound, bound, size=shape)


class Initializer:
    """Base class: ``init(arr)`` fills `arr` (a numpy array) in place."""

    def __init__(self, **kwargs):
        self._kwargs = kwargs

    def _values(self, shape):
        raise NotImplementedError

    def __call__(self, arr):
        if not isinstance(arr, np.ndarray):
            raise ValueError("For 'Initializer', the argument 'arr' must be "
                             f"numpy.ndarray, but got {type(arr).__name__}.")
        arr[...] = self._values(arr.shape)

    def __repr__(self):
        args = ", ".join(f"{k}={v}" for k, v in self._kwargs.items())
        return f"{type(self).__name__}({args})"


class Zero(Initializer):
    def _values(self, shape):
        return np.zeros(shape)


class One(Initializer):
    def _values(self, shape):
        return np.ones(shape)


class Constant(Initializer):
    def __init__(self, value):
        super().__init__(value=value)
        self.value = value

    def _values(self, shape):
        return np.broadcast_to(np.asarray(self.value), shape)


class Normal(Initializer):
    """N(mean, sigma^2)."""

    def __init__(self, sigma=0.01, mean=0.0):
        super().__init__(sigma=sigma, mean=mean)
        if sigma < 0:
            raise ValueError("sigma < 0")
        self.sigma = sigma
        self.mean = mean

    def _values(self, shape):
        return STATE.rng.normal(self.mean, self.sigma, size=shape)


class TruncatedNormal(Initializer):
    """N(mean, sigma^2) restricted to [a, b] (absolute bounds, as in
    MindSpore 2.3 and torch's trunc_normal_), by redrawing the values
    outside."""

    def __init__(self, sigma=0.01, mean=0.0, a=-2.0, b=2.0):
        super().__init__(sigma=sigma, mean=mean, a=a, b=b)
        if a >= b:
            raise ValueError("For 'TruncatedNormal', 'a' must be less than "
                             f"'b', but got a={a}, b={b}.")
        self.sigma, self.mean, self.a, self.b = sigma, mean, a, b

    def _values(self, shape):
        out = STATE.rng.normal(self.mean, self.sigma, size=shape)
        bad = (out < self.a) | (out > self.b)
        while bad.any():
            out[bad] = STATE.rng.normal(self.mean, self.sigma,
                                        size=int(bad.sum()))
            bad = (out < self.a) | (out > self.b)
        return out


class Uniform(Initializer):
    """U(-scale, scale)."""

    def __init__(self, scale=0.07):
        super().__init__(scale=scale)
        self.scale = scale

    def _values(self, shape):
        return _uniform(shape, self.scale)


class XavierUniform(Initializer):
    """U(-b, b), b = gain * sqrt(6 / (fan_in + fan_out))."""

    def __init__(self, gain=1):
        super().__init__(gain=gain)
        self.gain = gain

    def _values(self, shape):
        fan_in, fan_out = calculate_fan_in_and_fan_out(shape)
        return _uniform(shape, self.gain * math.sqrt(6.0 / (fan_in +
                                                            fan_out)))


class XavierNormal(Initializer):
    """N(0, std^2), std = gain * sqrt(2 / (fan_in + fan_out))."""

    def __init__(self, gain=1):
        super().__init__(gain=gain)
        self.gain = gain

    def _values(self, shape):
        fan_in, fan_out = calculate_fan_in_and_fan_out(shape)
        std = self.gain * math.sqrt(2.0 / (fan_in + fan_out))
        return STATE.rng.normal(0.0, std, size=shape)


class _He(Initializer):
    def __init__(self, negative_slope=0, mode="fan_in",
                 nonlinearity="leaky_relu"):
        super().__init__(negative_slope=negative_slope, mode=mode,
                         nonlinearity=nonlinearity)
        self.negative_slope = negative_slope
        self.mode = mode
        self.nonlinearity = nonlinearity

    def _std(self, shape):
        who = type(self).__name__
        fan = _fan(shape, self.mode, who)
        return _gain(self.nonlinearity, self.negative_slope, who) / \
            math.sqrt(fan)


class HeUniform(_He):
    """U(-b, b), b = sqrt(3) * gain / sqrt(fan) (torch's kaiming_uniform_).
    nn.Dense and nn.Conv2d use HeUniform(negative_slope=sqrt(5)), whose
    bound is 1 / sqrt(fan_in)."""

    def _values(self, shape):
        return _uniform(shape, math.sqrt(3.0) * self._std(shape))


class HeNormal(_He):
    """N(0, (gain / sqrt(fan))^2) (torch's kaiming_normal_)."""

    def _values(self, shape):
        return STATE.rng.normal(0.0, self._std(shape), size=shape)


class Orthogonal(Initializer):
    """A (semi-)orthogonal matrix times gain, from the QR decomposition of
    a standard normal one, reshaped to the weight's shape."""

    def __init__(self, gain=1.0):
        super().__init__(gain=gain)
        self.gain = gain

    def _values(self, shape):
        if len(shape) < 2:
            raise ValueError("For Orthogonal initializer, the dimension of "
                             "the initialized tensor should be no less than "
                             f"2, but got {len(shape)}.")
        rows = shape[0]
        cols = int(np.prod(shape)) // rows
        data = STATE.rng.normal(0.0, 1.0, size=(rows, cols))
        if rows < cols:
            data = data.T
        q, r = np.linalg.qr(data)
        q = q * np.sign(np.diag(r))
        if rows < cols:
            q = q.T
        return (q * self.gain).reshape(shape)


class Identity(Initializer):
    """The identity matrix (2-D only)."""

    def _values(self, shape):
        if len(shape) != 2:
            raise ValueError("For Identity initializer, the dimension of "
                             "the initialized tensor should be 2, but got "
                             f"{len(shape)}.")
        return np.eye(shape[0], shape[1])


class Dirac(Initializer):
    """Convolution weights that keep their input's channels."""

    def __init__(self, groups=1):
        super().__init__(groups=groups)
        self.groups = groups

    def _values(self, shape):
        if len(shape) not in (3, 4, 5):
            raise ValueError("For Dirac initializer, the dimension of the "
                             "initialized tensor should be in [3, 4, 5], "
                             f"but got {len(shape)}.")
        per_group = shape[0] // self.groups
        if shape[0] % self.groups:
            raise ValueError("For Dirac initializer, the first dimension of "
                             "the initialized tensor must be divisible by "
                             f"groups, but got {shape[0]}/{self.groups}.")
        out = np.zeros(shape)
        centre = tuple(k // 2 for k in shape[2:])
        for g in range(self.groups):
            for d in range(min(per_group, shape[1])):
                out[(g * per_group + d, d) + centre] = 1
        return out


class Sparse(Initializer):
    """N(0, sigma^2) with ceil(sparsity * rows) zeros in each column."""

    def __init__(self, sparsity, sigma=0.01):
        super().__init__(sparsity=sparsity, sigma=sigma)
        self.sparsity = sparsity
        self.sigma = sigma

    def _values(self, shape):
        if len(shape) != 2:
            raise ValueError("For Sparse initializer, the dimension of the "
                             "initialized tensor should be 2, but got "
                             f"{len(shape)}.")
        rows, cols = shape
        out = STATE.rng.normal(0.0, self.sigma, size=shape)
        zeros = int(math.ceil(self.sparsity * rows))
        for c in range(cols):
            out[STATE.rng.permutation(rows)[:zeros], c] = 0
        return out


class VarianceScaling(Initializer):
    """scale / fan, then a normal ('truncated_normal', 'untruncated_normal')
    or uniform ('uniform') distribution of that variance. MindSpore's code
    compares with 'truncated_norm', so its default falls into the uniform
    branch; here 'truncated_normal' is the truncated normal it documents."""

    def __init__(self, scale=1.0, mode="fan_in",
                 distribution="truncated_normal"):
        super().__init__(scale=scale, mode=mode, distribution=distribution)
        if scale <= 0:
            raise ValueError("For VarianceScaling initializer, scale must be "
                             f"greater than 0, but got {scale}.")
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError("For VarianceScaling initializer, mode must be "
                             "fan_in, fan_out or fan_avg, but got "
                             f"{mode}.")
        if distribution not in ("uniform", "truncated_normal",
                                "untruncated_normal"):
            raise ValueError("For VarianceScaling initializer, distribution "
                             "must be uniform, truncated_normal or "
                             f"untruncated_normal, but got {distribution}.")
        self.scale, self.mode, self.distribution = scale, mode, distribution

    def _values(self, shape):
        fan_in, fan_out = calculate_fan_in_and_fan_out(shape)
        fan = {"fan_in": fan_in, "fan_out": fan_out,
               "fan_avg": (fan_in + fan_out) / 2.0}[self.mode]
        variance = self.scale / max(1.0, fan)
        if self.distribution == "uniform":
            return _uniform(shape, math.sqrt(3.0 * variance))
        if self.distribution == "untruncated_normal":
            return STATE.rng.normal(0.0, math.sqrt(variance), size=shape)
        # The std of N(0, 1) truncated to [-2, 2] is 0.8796...
        std = math.sqrt(variance) / 0.87962566103423978
        return TruncatedNormal(std, 0.0, -2 * std, 2 * std)._values(shape)


# The names initializer() accepts (case-insensitive), as MindSpore
# registers them; 'constant' is not among them.
_ALIASES = {
    "zeros": Zero, "zero": Zero, "ones": One, "one": One,
    "normal": Normal, "truncatednormal": TruncatedNormal,
    "uniform": Uniform,
    "xavier_uniform": XavierUniform, "xavieruniform": XavierUniform,
    "xavier_normal": XavierNormal, "xaviernormal": XavierNormal,
    "he_uniform": HeUniform, "heuniform": HeUniform,
    "he_normal": HeNormal, "henormal": HeNormal,
    "orthogonal": Orthogonal, "identity": Identity, "dirac": Dirac,
    "sparse": Sparse, "variancescaling": VarianceScaling,
}


def as_initializer(init):
    """An Initializer for a name, a number or an Initializer."""
    if isinstance(init, Initializer):
        return init
    if isinstance(init, str):
        cls = _ALIASES.get(init.lower())
        if cls is None:
            raise ValueError(f"For 'initializer', the class corresponding to "
                             f"'{init}' was not found.")
        return cls()
    if isinstance(init, numbers.Number) and not isinstance(init, bool):
        return Constant(init)
    raise TypeError("For 'initializer', the type of the 'init' argument "
                    "should be 'Tensor', 'number', 'string' or "
                    f"'initializer', but got {type(init)}.")


def check_shape(shape):
    """A shape as a tuple: a list or an int is accepted, and every dim must
    be a positive int."""
    if isinstance(shape, numbers.Integral) and not isinstance(shape, bool):
        shape = (int(shape),)
    shape = tuple(shape)
    for d in shape:
        if isinstance(d, bool) or not isinstance(d, numbers.Integral) or \
                d <= 0:
            raise ValueError("For 'initializer', the argument 'shape' is "
                             "invalid, the value of 'shape' must be positive "
                             f"integer, but got {shape}")
    return shape


def init_values(init, shape, np_dtype):
    """A new array of `shape` and numpy dtype `np_dtype` filled by `init`
    (a name, a number or an Initializer)."""
    # Drawn in float64 and rounded once, whatever the target dtype.
    arr = np.zeros(shape, dtype=np.float64)
    as_initializer(init)(arr)
    return arr.astype(np_dtype)
