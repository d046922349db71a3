"""Primitive classes (``mindspore.ops.Softplus()``, ``ops.ReLU6()``, ...)
over the composed functions, with MindSpore's attribute names: attributes
at construction, tensors at the call."""

import numpy as np

from .. import dtype as mstype
from .._tensor import Tensor
from . import activation_func as _act
from . import array_composed as _arr
from . import loss_composed as _loss
from . import math_composed as _mc
from . import linalg_composed as _lin
from . import nn_composed as _nn
from .array_func import (_slice, broadcast_to, gather, masked_select,
                         one_hot, where, zeros_like)
from .grad_func import stop_gradient
from .linalg_func import matmul
from .loss_func import binary_cross_entropy_with_logits, nll_loss
from .math_func import abs, add, cast, div, equal, exp, floor, mul, sub
from .nn_func import conv2d, elu, log_softmax, softmax, softplus
from .primitive import Primitive
from .reduction_func import reduce_max, reduce_sum

__all__ = ["Softplus", "ReLU6", "HSwish", "HSigmoid", "Mish", "SeLU",
           "Elu", "CeLU", "FastGeLU", "Softsign", "HShrink", "SoftShrink",
           "PReLU", "Ceil", "Floor", "Sign", "Reciprocal", "Inv", "Log1p",
           "Expm1", "Trunc", "SquaredDifference", "Xdivy", "Xlogy",
           "DivNoNan", "MulNoNan", "TruncateDiv", "TruncateMod", "Mod",
           "Lerp", "Addcdiv", "Addcmul", "AddN", "AccumulateNV2", "IsNan",
           "IsInf", "IsFinite", "ApproximateEqual", "EqualCount",
           "ReduceMin", "ReduceAll", "ReduceAny", "Eye", "LinSpace",
           "Identity", "BiasAdd", "BatchMatMul", "Ger", "L2Loss",
           "SmoothL1Loss", "SoftMarginLoss", "KLDivLoss",
           "BCEWithLogitsLoss", "BinaryCrossEntropy", "NLLLoss",
           "SoftmaxCrossEntropyWithLogits",
           "SparseSoftmaxCrossEntropyWithLogits", "ReverseV2", "Meshgrid",
           "Unstack", "Slice", "Tril", "Triu", "Trace", "StopGradient",
           "ScalarCast", "TupleToArray", "ScalarToTensor", "Heaviside",
           "Hypot", "Logit", "Roll", "Expand", "SquareSumAll", "Erf",
           "Cdist", "L2Normalize", "LpNorm", "EuclideanNorm", "Diag",
           "DiagPart", "MatrixBandPart", "InTopK", "IsClose", "Range",
           "MaskedSelect", "AvgPool", "MaxPool", "Conv2D",
           "SigmoidCrossEntropyWithLogits", "Erfc", "Real", "Conj",
           "TensorShape", "IdentityN", "Eps", "FillV2", "PrimitiveWithCheck",
           "PrimitiveWithInfer", "prim_attr_register", "constexpr"]


def _plain(name, fn):
    """A Primitive without attributes that calls fn."""
    return type(name, (Primitive,), {
        "__call__": lambda self, *args: fn(*args),
        "__doc__": fn.__doc__,
    })


Softplus = _plain("Softplus", softplus)
ReLU6 = _plain("ReLU6", _act.relu6)
HSwish = _plain("HSwish", _act.hardswish)
HSigmoid = _plain("HSigmoid", _act.hardsigmoid)
Mish = _plain("Mish", _act.mish)
SeLU = _plain("SeLU", _act.selu)
FastGeLU = _plain("FastGeLU", _act.fast_gelu)
Softsign = _plain("Softsign", _act.softsign)
PReLU = _plain("PReLU", _act.prelu)
Ceil = _plain("Ceil", _mc.ceil)
Floor = _plain("Floor", floor)
Sign = _plain("Sign", _mc.sign)
Reciprocal = _plain("Reciprocal", _mc.reciprocal)
Inv = _plain("Inv", _mc.reciprocal)
Log1p = _plain("Log1p", _mc.log1p)
Expm1 = _plain("Expm1", _mc.expm1)
Trunc = _plain("Trunc", _mc.trunc)
SquaredDifference = _plain("SquaredDifference", _mc.square_difference)
Xdivy = _plain("Xdivy", _mc.xdivy)
Xlogy = _plain("Xlogy", _mc.xlogy)
TruncateDiv = _plain("TruncateDiv", _mc.truncate_div)
TruncateMod = _plain("TruncateMod", _mc.truncate_mod)
Mod = _plain("Mod", _mc.truncate_mod)
Lerp = _plain("Lerp", _mc.lerp)
IsNan = _plain("IsNan", _mc.isnan)
IsInf = _plain("IsInf", _mc.isinf)
IsFinite = _plain("IsFinite", _mc.isfinite)
BiasAdd = _plain("BiasAdd", _arr.bias_add)
Ger = _plain("Ger", _arr.outer)
Heaviside = _plain("Heaviside", _mc.heaviside)
Hypot = _plain("Hypot", _mc.hypot)
Expand = _plain("Expand", _arr.expand)
StopGradient = _plain("StopGradient", stop_gradient)
SquareSumAll = _plain("SquareSumAll", _arr.square_sum_all)


class Elu(Primitive):
    def __init__(self, alpha=1.0):
        self.alpha = alpha

    def __call__(self, input_x):
        return elu(input_x, self.alpha)


class CeLU(Primitive):
    def __init__(self, alpha=1.0):
        self.alpha = alpha

    def __call__(self, input_x):
        return _act.celu(input_x, self.alpha)


class HShrink(Primitive):
    def __init__(self, lambd=0.5):
        self.lambd = lambd

    def __call__(self, input_x):
        return _act.hardshrink(input_x, self.lambd)


class SoftShrink(HShrink):
    def __call__(self, input_x):
        return _act.soft_shrink(input_x, self.lambd)


class Logit(Primitive):
    def __init__(self, eps=-1.0):
        self.eps = eps

    def __call__(self, x):
        return _mc.logit(x, None if self.eps < 0 else self.eps)


class DivNoNan(Primitive):
    """x / y, 0 where y is 0."""

    def __call__(self, x1, x2):
        zero = equal(x2, 0)
        quotient = div(x1, where(zero, 1.0, x2))
        return where(zero, zeros_like(quotient), quotient)


class MulNoNan(Primitive):
    """x * y, 0 where y is 0 (even for an infinite or NaN x)."""

    def __call__(self, x, y):
        product = mul(x, y)
        return where(equal(y, 0), zeros_like(product), product)


class Addcdiv(Primitive):
    def __call__(self, input_data, x1, x2, value):
        return _mc.addcdiv(input_data, x1, x2, value)


class Addcmul(Primitive):
    def __call__(self, input_data, x1, x2, value):
        return _mc.addcmul(input_data, x1, x2, value)


def add_n(x):
    """The elementwise sum of a tuple or list of tensors."""
    total = x[0]
    for t in x[1:]:
        total = add(total, t)
    return total


class AddN(Primitive):
    def __call__(self, x):
        return add_n(x)


class AccumulateNV2(AddN):
    pass


class ApproximateEqual(Primitive):
    """|x - y| < tolerance."""

    def __init__(self, tolerance=1e-05):
        self.tolerance = tolerance

    def __call__(self, x, y):
        return abs(sub(x, y)) < self.tolerance


class EqualCount(Primitive):
    """The number of equal elements, as a [1] tensor of x's dtype."""

    def __call__(self, x, y):
        count = reduce_sum(cast(equal(x, y), mstype.float32))
        return cast(_arr.ravel(count), x.dtype)


class _Reduce(Primitive):
    def __init__(self, keep_dims=False):
        self.keep_dims = keep_dims


class ReduceMin(_Reduce):
    def __call__(self, x, axis=()):
        return sub(0, reduce_max(sub(0, x), axis, self.keep_dims))


class ReduceAll(_Reduce):
    """True where every element along axis is True."""

    def __call__(self, x, axis=()):
        falses = reduce_max(cast(equal(cast(x, mstype.bool_), False),
                                 mstype.float32), axis, self.keep_dims)
        return equal(falses, 0.0)


class ReduceAny(_Reduce):
    def __call__(self, x, axis=()):
        trues = reduce_max(cast(cast(x, mstype.bool_), mstype.float32), axis,
                           self.keep_dims)
        return equal(trues, 1.0)


class Eye(Primitive):
    def __call__(self, n, m, t):
        return _arr.eye(n, m, t)


class LinSpace(Primitive):
    def __call__(self, start, stop, num):
        value = (lambda v: float(v.asnumpy()) if isinstance(v, Tensor)
                 else v)
        return _arr.linspace(value(start), value(stop), num)


class Identity(Primitive):
    def __call__(self, x):
        return x


class BatchMatMul(Primitive):
    def __init__(self, transpose_a=False, transpose_b=False):
        self.transpose_a = transpose_a
        self.transpose_b = transpose_b

    def __call__(self, x, y):
        if self.transpose_a:
            x = _arr.swapaxes(x, -1, -2)
        if self.transpose_b:
            y = _arr.swapaxes(y, -1, -2)
        return matmul(x, y)


class L2Loss(Primitive):
    """sum(x^2) / 2."""

    def __call__(self, input_x):
        return div(reduce_sum(mul(input_x, input_x)), 2.0)


class _ReducedLoss(Primitive):
    def __init__(self, reduction="mean"):
        self.reduction = reduction


class SmoothL1Loss(_ReducedLoss):
    def __init__(self, beta=1.0, reduction="none"):
        super().__init__(reduction)
        self.beta = beta

    def __call__(self, logits, labels):
        return _loss.smooth_l1_loss(logits, labels, self.beta,
                                    self.reduction)


class SoftMarginLoss(_ReducedLoss):
    def __call__(self, logits, labels):
        return _loss.soft_margin_loss(logits, labels, self.reduction)


class KLDivLoss(_ReducedLoss):
    def __call__(self, logits, labels):
        return _loss.kl_div(logits, labels, self.reduction)


class BCEWithLogitsLoss(_ReducedLoss):
    def __call__(self, logits, label, weight=None, pos_weight=None):
        return binary_cross_entropy_with_logits(logits, label, weight,
                                                pos_weight, self.reduction)


class BinaryCrossEntropy(_ReducedLoss):
    def __call__(self, logits, labels, weight=None):
        return _loss.binary_cross_entropy(logits, labels, weight,
                                          self.reduction)


class NLLLoss(_ReducedLoss):
    """(loss, total_weight), as MindSpore's primitive returns them."""

    def __init__(self, reduction="mean", ignore_index=-100):
        super().__init__(reduction)
        self.ignore_index = ignore_index

    def __call__(self, logits, labels, weight):
        loss = nll_loss(logits, labels, weight, self.ignore_index,
                        self.reduction)
        labels = _arr.ravel(labels)
        kept = cast(labels != self.ignore_index, mstype.float32)
        # An ignored label reads 0 (ms.gather's out-of-range rule).
        return loss, reduce_sum(mul(gather(weight, labels, 0), kept))


class SoftmaxCrossEntropyWithLogits(Primitive):
    """(per-sample loss, gradient of the loss with respect to logits)
    for one-hot labels."""

    def __call__(self, logits, labels):
        loss = -reduce_sum(mul(labels, log_softmax(logits, -1)), -1)
        return loss, sub(softmax(logits, -1), labels)


class SparseSoftmaxCrossEntropyWithLogits(Primitive):
    """The mean loss of class-index labels (is_grad=True: its gradient)."""

    def __init__(self, is_grad=False):
        self.is_grad = is_grad

    def __call__(self, logits, labels):
        classes = logits.shape[-1]
        one_hot = _loss_one_hot(labels, classes)
        if self.is_grad:
            return div(sub(softmax(logits, -1), one_hot),
                       float(logits.shape[0]))
        return -reduce_sum(mul(one_hot, log_softmax(logits, -1))) / \
            float(logits.shape[0])


def _loss_one_hot(labels, classes):
    return one_hot(labels, classes, 1.0, 0.0)


class ReverseV2(Primitive):
    def __init__(self, axis):
        self.axis = tuple(axis)

    def __call__(self, input_x):
        return _arr.flip(input_x, self.axis)


class Meshgrid(Primitive):
    def __init__(self, indexing="xy"):
        self.indexing = indexing

    def __call__(self, inputs):
        return _arr.meshgrid(*inputs, indexing=self.indexing)


class Unstack(Primitive):
    def __init__(self, axis=0, num=None):
        self.axis = axis

    def __call__(self, input_x):
        return _arr.unbind(input_x, self.axis)


class Slice(Primitive):
    """Slice()(x, begin, size): size[i] elements from begin[i] (-1: to
    the end)."""

    def __call__(self, input_x, begin, size):
        end = [input_x.shape[i] if s == -1 else b + s
               for i, (b, s) in enumerate(zip(begin, size))]
        return _slice(input_x, list(begin), end, [1] * input_x.ndim)


class Tril(Primitive):
    def __init__(self, diagonal=0):
        self.diagonal = diagonal

    def __call__(self, x):
        return _arr.tril(x, self.diagonal)


class Triu(Tril):
    def __call__(self, x):
        return _arr.triu(x, self.diagonal)


class Trace(Primitive):
    """The sum of a matrix's diagonal."""

    def __call__(self, x):
        return reduce_sum(_arr.diagonal(x))


class ScalarCast(Primitive):
    def __call__(self, input_x, input_t):
        return mstype.dtype_to_pytype(input_t)(input_x)


class TupleToArray(Primitive):
    def __call__(self, input_x):
        return Tensor(list(input_x))


class ScalarToTensor(Primitive):
    def __call__(self, input_x, dtype=mstype.float32):
        return Tensor(input_x, dtype)


class Roll(Primitive):
    def __init__(self, shift, axis):
        self.shift = shift
        self.axis = axis

    def __call__(self, input_x):
        return _arr.roll(input_x, self.shift, self.axis)


class Erf(Primitive):
    """erf(x), by Abramowitz and Stegun's 7.1.26 (absolute error 1.5e-7
    in exact arithmetic, below 1e-6 in float32)."""

    def __call__(self, x):
        sign = _mc.sign(x)
        a = abs(x)
        t = div(1.0, add(mul(a, 0.3275911), 1.0))
        poly = 1.061405429
        for c in (-1.453152027, 1.421413741, -0.284496736, 0.254829592):
            poly = add(mul(poly, t), c)
        return mul(sign, sub(1.0, mul(mul(poly, t), exp(mul(mul(a, a),
                                                              -1.0)))))



class Cdist(Primitive):
    def __init__(self, p=2.0):
        self.p = p

    def __call__(self, input_x, input_y):
        return _arr.cdist(input_x, input_y, self.p)


class L2Normalize(Primitive):
    def __init__(self, axis=0, epsilon=1e-4):
        self.axis = axis
        self.epsilon = epsilon

    def __call__(self, x):
        return _nn.l2_normalize(x, self.axis, self.epsilon)


class LpNorm(Primitive):
    def __init__(self, axis, p=2, keep_dims=False, epsilon=1e-12):
        self.axis = axis
        self.p = p
        self.keep_dims = keep_dims

    def __call__(self, input):
        return _arr.norm(input, self.p, self.axis, self.keep_dims)


class EuclideanNorm(Primitive):
    def __init__(self, keep_dims=False):
        self.keep_dims = keep_dims

    def __call__(self, x, axes):
        return _arr.norm(x, 2, axes, self.keep_dims)


class Diag(Primitive):
    def __call__(self, input_x):
        return _lin.diag(input_x)


class DiagPart(Primitive):
    def __call__(self, input_x):
        return _arr.diagonal(input_x)


class MatrixBandPart(Primitive):
    def __call__(self, x, lower, upper):
        return _lin.matrix_band_part(x, lower, upper)


class InTopK(Primitive):
    def __init__(self, k):
        self.k = k

    def __call__(self, x1, x2):
        return _nn.intopk(x1, x2, self.k)


class IsClose(Primitive):
    def __init__(self, rtol=1e-05, atol=1e-08, equal_nan=True):
        self.rtol, self.atol, self.equal_nan = rtol, atol, equal_nan

    def __call__(self, input, other):
        return _nn.isclose(input, other, self.rtol, self.atol,
                           self.equal_nan)


class Range(Primitive):
    def __init__(self, maxlen=1000000):
        self.maxlen = maxlen

    def __call__(self, start, limit, delta):
        value = (lambda v: v.item() if isinstance(v, Tensor) else v)
        return _arr.range(value(start), value(limit), value(delta))


class MaskedSelect(Primitive):
    def __call__(self, x, mask):
        return masked_select(x, mask)


class _Pool(Primitive):
    def __init__(self, kernel_size=1, strides=1, pad_mode="valid",
                 data_format="NCHW"):
        if str(pad_mode).lower() != "valid" or data_format != "NCHW":
            raise ValueError(f"{type(self).__name__}: only pad_mode='valid' "
                             "and data_format='NCHW' are supported by msmlir")
        self.kernel_size = kernel_size
        self.strides = strides


class AvgPool(_Pool):
    def __call__(self, x):
        return _nn.avg_pool2d(x, self.kernel_size, self.strides)


class MaxPool(_Pool):
    def __call__(self, x):
        return _nn.max_pool2d(x, self.kernel_size, self.strides)


class Conv2D(Primitive):
    """Conv2D(out_channel, kernel_size, mode=1, pad_mode='valid', pad=0,
    stride=1, dilation=1, group=1)(x, weight)."""

    def __init__(self, out_channel, kernel_size, mode=1, pad_mode="valid",
                 pad=0, stride=1, dilation=1, group=1, data_format="NCHW"):
        self.out_channel = out_channel
        self.kernel_size = kernel_size
        self.pad_mode, self.pad = pad_mode, pad
        self.stride, self.dilation, self.group = stride, dilation, group

    def __call__(self, x, weight):
        return conv2d(x, weight, None, self.stride, self.pad_mode, self.pad,
                      self.dilation, self.group)


class SigmoidCrossEntropyWithLogits(Primitive):
    def __call__(self, logits, label):
        return binary_cross_entropy_with_logits(logits, label,
                                                reduction="none")


class Erfc(Erf):
    """1 - erf(x) (absolute error below 1e-6; for large x the relative
    error grows, as erfc is tiny there)."""

    def __call__(self, x):
        return sub(1.0, super().__call__(x))


Real = _plain("Real", lambda x: x)
Conj = _plain("Conj", lambda x: x)


class TensorShape(Primitive):
    """The shape as an int64 Tensor."""

    def __call__(self, input_x):
        return Tensor(list(input_x.shape), mstype.int64)


class IdentityN(Primitive):
    def __call__(self, x):
        return tuple(x)


class Eps(Primitive):
    """The smallest positive normal value of x's dtype, in x's shape."""

    def __call__(self, x):
        return add(mul(x, 0.0), float(np.finfo(x.dtype.values_np).tiny))


class FillV2(Primitive):
    def __call__(self, shape, value):
        dims = tuple(int(d) for d in (shape.asnumpy() if isinstance(
            shape, Tensor) else shape))
        return add(mul(broadcast_to(value, dims), 1), 0)


class PrimitiveWithCheck(Primitive):
    """A Primitive whose subclasses may define check_shape/check_dtype."""


class PrimitiveWithInfer(Primitive):
    """A Primitive whose subclasses may define infer_shape/infer_dtype."""


def prim_attr_register(fn):
    """Decorates a Primitive's __init__: its arguments become attributes
    (init_prim_io_names is MindSpore's own bookkeeping and not needed)."""
    names = fn.__code__.co_varnames[1:fn.__code__.co_argcount]
    defaults = fn.__defaults__ or ()
    start = len(names) - len(defaults)

    def init(self, *args, **kwargs):
        values = dict(zip(names[start:], defaults))
        values.update(zip(names, args))
        values.update(kwargs)
        for key, value in values.items():
            setattr(self, key, value)
        fn(self, *args, **kwargs)
    return init


def constexpr(fn=None, *, get_instance=True, reuse_result=True,
              check=True):
    """Marks a function computed from Python values while a graph is
    captured; capture runs Python, so the function is called as it is."""
    if fn is None:
        return lambda f: f
    return fn
