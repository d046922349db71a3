"""The operator classes (MindSpore's ``mindspore.ops.operations``, ``P``):
instantiate with attributes, call with tensors. Each calls its functional
op, with MindSpore's argument order and defaults."""

from .. import dtype as mstype
from .._tensor import Tensor, binary, unary
from .math_func import (add, sub, mul, div, maximum, minimum, relu, sigmoid,
                        tanh, exp, log, sqrt, neg, abs, gelu, pow, floor_div,
                        floor_mod, equal, not_equal, greater, greater_equal,
                        less, less_equal, logical_and, logical_or,
                        logical_not, square, rsqrt, cast)
from .array_func import (reshape, transpose, flatten, concat, expand_dims,
                         tile, zeros, ones, zeros_like, ones_like, fill,
                         select, masked_fill, one_hot, gather, stack, split,
                         squeeze, broadcast_to, pad)
from .reduction_func import reduce_sum, reduce_mean, reduce_max, argmax, argmin
from .linalg_func import _matmul_op
from .nn_func import softmax, log_softmax, interpolate
from .sort_func import (sort, topk, gather_elements, _cumsum_op,
                        _axis as _sort_axis, max as _max, min as _min)
from .comm_func import AllReduce, AllGather, Broadcast, ReduceOp
from .primitive import Primitive
from . import meta_ops, optimizer_ops, composed_primitives
from .composed_primitives import *  # noqa: F401,F403
from .meta_ops import (Shape, DType, Rank, Size, Depend, Partial,  # noqa: F401
                       HyperMap, Map, MultitypeFuncGraph)
from .optimizer_ops import (Assign, AssignAdd, AssignSub,  # noqa: F401
                            ApplyMomentum, SGD, ApplyRMSProp,
                            ApplyCenteredRMSProp, ApplyAdagrad,
                            ApplyAdagradV2, ApplyAdadelta, ApplyAdaMax,
                            ApplyFtrl, ApplyProximalAdagrad,
                            ApplyGradientDescent, Adam, AdamWeightDecay,
                            LARSUpdate)

__all__ = [
    "Primitive", "Add", "Sub", "Mul", "Div", "RealDiv", "Maximum",
    "Minimum", "ReLU", "Sigmoid", "Tanh", "Exp", "Log", "Sqrt", "Neg",
    "Abs", "Reshape", "Transpose", "Flatten", "GeLU", "MatMul", "Concat",
    "Softmax", "LogSoftmax", "ReduceSum", "ReduceMean", "ReduceMax", "Pow",
    "FloorDiv", "FloorMod", "CumSum", "Sort", "TopK", "GatherD",
    "ArgMaxWithValue", "ArgMinWithValue", "Equal", "NotEqual", "Greater",
    "GreaterEqual", "Less", "LessEqual", "LogicalAnd", "LogicalOr",
    "LogicalNot", "Select", "Square", "Rsqrt", "Cast", "MaskedFill",
    "ExpandDims", "Tile", "Zeros", "Ones", "ZerosLike", "OnesLike", "Fill",
    "Argmax", "Argmin", "OneHot", "Gather", "Stack", "Split", "Squeeze",
    "BroadcastTo", "Pad", "ResizeNearestNeighbor", "AllReduce", "AllGather",
    "Broadcast", "ReduceOp"
] + [n for n in meta_ops.__all__ if n[0].isupper()] + \
    [n for n in optimizer_ops.__all__ if n[0].isupper()] + \
    composed_primitives.__all__


def _simple(name, fn, doc):
    cls = type(name, (Primitive,), {
        "__call__": lambda self, *args: fn(*args),
        "__doc__": doc,
    })
    return cls


Add = _simple("Add", add, "x + y")


Sub = _simple("Sub", sub, "x - y")


Mul = _simple("Mul", mul, "x * y")


Div = _simple("Div", div, "x / y")


RealDiv = _simple("RealDiv", div, "x / y")


Maximum = _simple("Maximum", maximum, "max(x, y)")


Minimum = _simple("Minimum", minimum, "min(x, y)")


ReLU = _simple("ReLU", relu, "max(x, 0)")


Sigmoid = _simple("Sigmoid", sigmoid, "1 / (1 + exp(-x))")


Tanh = _simple("Tanh", tanh, "tanh(x)")


Exp = _simple("Exp", exp, "exp(x)")


Log = _simple("Log", log, "log(x)")


Sqrt = _simple("Sqrt", sqrt, "sqrt(x)")


Neg = _simple("Neg", neg, "-x")


Abs = _simple("Abs", abs, "|x|")


Reshape = _simple("Reshape", reshape, "Reshape()(x, shape)")


Transpose = _simple("Transpose", transpose, "Transpose()(x, perm)")


Flatten = _simple("Flatten", flatten, "Flatten()(x): keeps dim 0")


class GeLU(Primitive):
    """The tanh-approximated GELU (MindSpore's ops.GeLU)."""

    def __call__(self, x):
        return gelu(x, "tanh")


class MatMul(Primitive):
    def __init__(self, transpose_a=False, transpose_b=False):
        self.transpose_a = transpose_a
        self.transpose_b = transpose_b
        self._op = _matmul_op(transpose_a, transpose_b)

    def __call__(self, x, y):
        return binary(self._op, x, y)


def _axis_primitive(name, fn, default_axis, doc):
    """A Primitive made with an axis, `name(axis)(x)` = fn(x, axis)."""
    def __init__(self, axis=default_axis):
        self.axis = axis
    return type(name, (Primitive,), {
        "__init__": __init__,
        "__call__": lambda self, x: fn(x, self.axis),
        "__doc__": doc,
    })


Concat = _axis_primitive("Concat", lambda xs, axis: concat(xs, axis), 0,
                         "Concat(axis=0)(tensors)")


Softmax = _axis_primitive("Softmax", lambda x, axis: softmax(x, axis), -1,
                          "Softmax(axis=-1)(x)")


LogSoftmax = _axis_primitive("LogSoftmax",
                             lambda x, axis: log_softmax(x, axis), -1,
                             "LogSoftmax(axis=-1)(x)")


class _Reduce(Primitive):
    _fn = None

    def __init__(self, keep_dims=False):
        self.keep_dims = keep_dims

    def __call__(self, x, axis=()):
        return type(self)._fn(x, axis, self.keep_dims)


class ReduceSum(_Reduce):
    _fn = staticmethod(reduce_sum)


class ReduceMean(_Reduce):
    _fn = staticmethod(reduce_mean)


class ReduceMax(_Reduce):
    _fn = staticmethod(reduce_max)


Pow = _simple("Pow", pow, "x ** y")


FloorDiv = _simple("FloorDiv", floor_div, "floor(x / y)")


FloorMod = _simple("FloorMod", floor_mod, "x - floor(x / y) * y")


class CumSum(Primitive):
    """CumSum(exclusive=False, reverse=False)(x, axis)."""

    def __init__(self, exclusive=False, reverse=False):
        self.exclusive = bool(exclusive)
        self.reverse = bool(reverse)

    def __call__(self, x, axis):
        x = x if isinstance(x, Tensor) else Tensor(x)
        axis = _sort_axis(axis, x.ndim, "ops.CumSum")
        return unary(_cumsum_op(axis, self.exclusive, self.reverse),
                     x)


class Sort(Primitive):
    """Sort(axis=-1, descending=False)(x) -> (values, indices)."""

    def __init__(self, axis=-1, descending=False):
        self.axis = axis
        self.descending = descending

    def __call__(self, x):
        return sort(x, self.axis, self.descending)


class TopK(Primitive):
    """TopK(sorted=True)(input_x, k): along the last axis."""

    def __init__(self, sorted=True):
        self.sorted = sorted

    def __call__(self, input_x, k):
        return topk(input_x, k, None, True, self.sorted)


class GatherD(Primitive):
    """GatherD()(x, dim, index)."""

    def __call__(self, x, dim, index):
        return gather_elements(x, dim, index)


class ArgMaxWithValue(Primitive):
    """ArgMaxWithValue(axis=0, keep_dims=False)(x) -> (index, values)."""

    def __init__(self, axis=0, keep_dims=False):
        self.axis = axis
        self.keep_dims = keep_dims

    def __call__(self, x):
        values, index = _max(x, self.axis, self.keep_dims)
        return index, values


class ArgMinWithValue(ArgMaxWithValue):
    """ArgMinWithValue(axis=0, keep_dims=False)(x) -> (index, values)."""

    def __call__(self, x):
        values, index = _min(x, self.axis, self.keep_dims)
        return index, values


Equal = _simple("Equal", equal, "x == y")


NotEqual = _simple("NotEqual", not_equal, "x != y")


Greater = _simple("Greater", greater, "x > y")


GreaterEqual = _simple("GreaterEqual", greater_equal, "x >= y")


Less = _simple("Less", less, "x < y")


LessEqual = _simple("LessEqual", less_equal, "x <= y")


LogicalAnd = _simple("LogicalAnd", logical_and, "x and y")


LogicalOr = _simple("LogicalOr", logical_or, "x or y")


LogicalNot = _simple("LogicalNot", logical_not, "not x")


Select = _simple("Select", select, "Select()(cond, x, y)")


Square = _simple("Square", square, "x * x")


Rsqrt = _simple("Rsqrt", rsqrt, "1 / sqrt(x)")


Cast = _simple("Cast", cast, "Cast()(x, dtype)")


MaskedFill = _simple("MaskedFill", masked_fill,
                     "MaskedFill()(input, mask, value)")


ExpandDims = _simple("ExpandDims", expand_dims, "ExpandDims()(x, axis)")


Tile = _simple("Tile", tile, "Tile()(x, multiples)")


Zeros = _simple("Zeros", zeros, "Zeros()(shape, dtype)")


Ones = _simple("Ones", ones, "Ones()(shape, dtype)")


ZerosLike = _simple("ZerosLike", zeros_like, "ZerosLike()(x)")


OnesLike = _simple("OnesLike", ones_like, "OnesLike()(x)")


Fill = _simple("Fill", fill, "Fill()(type, shape, value)")


class _ArgIndex(Primitive):
    _fn = None

    def __init__(self, axis=-1, output_type=mstype.int32):
        self.axis = axis
        self.output_type = mstype.to_dtype(output_type)

    def __call__(self, x):
        return cast(type(self)._fn(x, self.axis), self.output_type)


class Argmax(_ArgIndex):
    """Argmax(axis=-1, output_type=int32)(x)."""
    _fn = staticmethod(argmax)


class Argmin(_ArgIndex):
    """Argmin(axis=-1, output_type=int32)(x)."""
    _fn = staticmethod(argmin)


class OneHot(Primitive):
    """OneHot(axis=-1)(indices, depth, on_value, off_value)."""

    def __init__(self, axis=-1):
        self.axis = axis

    def __call__(self, indices, depth, on_value, off_value):
        return one_hot(indices, depth, on_value, off_value, self.axis)


class Gather(Primitive):
    """Gather(batch_dims=0)(input_params, input_indices, axis)."""

    def __init__(self, batch_dims=0):
        self.batch_dims = batch_dims

    def __call__(self, input_params, input_indices, axis):
        return gather(input_params, input_indices, axis, self.batch_dims)


Stack = _axis_primitive("Stack", stack, 0, "Stack(axis=0)(tensors)")


class Split(Primitive):
    """Split(axis=0, output_num=1)(x): output_num equal parts."""

    def __init__(self, axis=0, output_num=1):
        self.axis = axis
        self.output_num = output_num

    def __call__(self, x):
        size = x.shape[self.axis]
        if self.output_num < 1 or size % self.output_num:
            raise ValueError(f"ops.Split: dimension {self.axis} of size "
                             f"{size} does not split into {self.output_num} "
                             "equal parts")
        return split(x, size // self.output_num, self.axis)


class Squeeze(Primitive):
    """Squeeze(axis=())(x): () removes every unit dimension."""

    def __init__(self, axis=()):
        self.axis = axis

    def __call__(self, x):
        return squeeze(x, None if self.axis == () else self.axis)


class BroadcastTo(Primitive):
    """BroadcastTo(shape)(x)."""

    def __init__(self, shape):
        self.shape = shape

    def __call__(self, x):
        return broadcast_to(x, self.shape)


class Pad(Primitive):
    """Pad(paddings)(x): paddings holds one (before, after) pair per
    dimension, first dimension first."""

    def __init__(self, paddings):
        self.paddings = tuple(tuple(p) for p in paddings)

    def __call__(self, x):
        if len(self.paddings) != x.ndim:
            raise ValueError(f"ops.Pad: {len(self.paddings)} (before, after) "
                             f"pairs for a rank-{x.ndim} input")
        flat = [int(v) for pair in reversed(self.paddings) for v in pair]
        return pad(x, flat)


class ResizeNearestNeighbor(Primitive):
    """ResizeNearestNeighbor(size, align_corners=False)(x), NCHW."""

    def __init__(self, size, align_corners=False):
        if align_corners:
            raise ValueError("ops.ResizeNearestNeighbor: align_corners=True "
                             "is not supported (only the default False)")
        self.size = tuple(size)

    def __call__(self, x):
        return interpolate(x, self.size, mode="nearest")
