"""Functional ops and primitives (MindSpore's ``mindspore.ops``).

Each function maps to one ``ms`` dialect op (see
docs/generated/Dialects/MSDialect.md). In PyNative mode it runs at once as a
cached kernel; inside a jitted function it is recorded into the graph. The
attribute text of every op is built once per distinct attribute value.
"""

import math
import numbers
import sys

import numpy as np

from . import dtype as mstype
from . import _tensor as _tensor_layer
from ._tensor import (Tensor, binary, unary, nary, op, check_int_fits,
                      true_divide, float_unary, float_only, as_dtype,
                      elementwise_fn, unary_fn, _ADD, _SUB, _MUL, _DIV, _NEG,
                      _ABS)
from ._ops_indexing import (
    equal, not_equal, greater, greater_equal, less, less_equal, eq, ne, gt,
    ge, lt, le, logical_and, logical_or, logical_not, where, select, cast,
    one_hot, argmax, argmin, dropout)
from . import _ops_indexing

__all__ = [
    "matmul", "dense", "add", "sub", "mul", "div", "maximum", "minimum",
    "relu", "sigmoid", "tanh", "gelu", "exp", "log", "sqrt", "neg", "abs",
    "reshape", "transpose", "permute", "flatten", "concat", "cat",
    "softmax", "log_softmax", "reduce_sum", "reduce_mean", "reduce_max",
    "sum", "mean", "amax", "expand_dims", "unsqueeze", "squeeze", "dropout",
    "square", "conv2d", "batch_norm", "layer_norm",
    # comparisons, logic, indexing, cast (_ops_indexing.py)
    "equal", "not_equal", "greater", "greater_equal", "less", "less_equal",
    "eq", "ne", "gt", "ge", "lt", "le", "logical_and", "logical_or",
    "logical_not", "where", "select", "cast", "one_hot", "argmax", "argmin",

    # primitives
    "Primitive", "MatMul", "Add", "Sub", "Mul", "Div", "RealDiv", "Maximum",
    "Minimum", "ReLU", "Sigmoid", "Tanh", "GeLU", "Exp", "Log", "Sqrt",
    "Neg", "Abs", "Reshape", "Transpose", "Flatten", "Concat", "Softmax",
    "LogSoftmax", "ReduceSum", "ReduceMean", "ReduceMax",
]

_MAXIMUM = op("ms.maximum")
_MINIMUM = op("ms.minimum")
_RELU = op("ms.relu")
_SIGMOID = op("ms.sigmoid")
_TANH = op("ms.tanh")
_EXP = op("ms.exp")
_LOG = op("ms.log")
_SQRT = op("ms.sqrt")
_FLATTEN = op("ms.flatten")
_DENSE = op("ms.dense")


def _i64_array(values):
    if not values:
        return "array<i64>"
    values = [int(v) for v in values]
    for v in values:
        check_int_fits(v, mstype.int64)  # attributes are i64
    return "array<i64: " + ", ".join(str(v) for v in values) + ">"


def _matmul_op(transpose_a, transpose_b):
    flags = [name for name, on in (("transpose_a", transpose_a),
                                   ("transpose_b", transpose_b)) if on]
    return op("ms.matmul", "{" + ", ".join(flags) + "}" if flags else "",
              "ops.matmul")


def _axis(axis, ndim, what):
    if isinstance(axis, Tensor):
        axis = int(axis)
    if not isinstance(axis, numbers.Integral):
        raise TypeError(f"{what}: axis must be an int, got "
                        f"{type(axis).__name__}")
    axis = int(axis)
    if not -max(ndim, 1) <= axis < max(ndim, 1):
        raise ValueError(f"{what}: axis {axis} is out of range for a "
                         f"rank-{ndim} tensor")
    return axis + ndim if axis < 0 else axis


def _axes(axis, ndim, what):
    """Normalized, sorted reduction axes; () or None means all."""
    if axis is None:
        axis = ()
    if isinstance(axis, (numbers.Integral, Tensor)):
        axis = (axis,)
    axes = sorted({_axis(a, ndim, what) for a in axis})
    if not axes:
        axes = list(range(ndim))
    return tuple(axes)


def _tensor(x, what):
    if isinstance(x, Tensor):
        return x
    if isinstance(x, (numbers.Number, list, tuple)):
        return Tensor(x)
    raise TypeError(f"{what}: expected a Tensor, got {type(x).__name__}")


#===---------------------------------------------------------------------===#
# Elementwise
#===---------------------------------------------------------------------===#

# The binary ops promote their operands (msmlir.dtype.result_type) with
# ms.cast first; the float-valued unary ops compute integer and bool
# tensors in float32.

# PyNative's hot path in each function's own body (_tensor.elementwise_fn).
add = elementwise_fn(
    _ADD, "add", "input + other, numpy broadcasting; either may be a number.")
sub = elementwise_fn(_SUB, "sub")
mul = elementwise_fn(_MUL, "mul")
maximum = elementwise_fn(_MAXIMUM, "maximum")
minimum = elementwise_fn(_MINIMUM, "minimum")
relu = unary_fn(_RELU, "relu")
neg = unary_fn(_NEG, "neg")
abs = unary_fn(_ABS, "abs")
sigmoid = unary_fn(_SIGMOID, "sigmoid", float_valued=True)
tanh = unary_fn(_TANH, "tanh", float_valued=True)
exp = unary_fn(_EXP, "exp", float_valued=True)
log = unary_fn(_LOG, "log", float_valued=True)
sqrt = unary_fn(_SQRT, "sqrt", float_valued=True)


def div(input, other, *, rounding_mode=None):
    """True division: integer and bool operands give float32."""
    if rounding_mode is not None:
        raise ValueError("ops.div: rounding_mode is not supported")
    return true_divide(_DIV, input, other)


def square(input):
    return binary(_MUL, input, input)


_GELU = {True: op("ms.gelu", "{approximate = true}", "ops.gelu"),
         False: op("ms.gelu", "{approximate = false}", "ops.gelu")}


def gelu(input_x, approximate="none"):
    """GELU; approximate='none' (MindSpore's ops.gelu default) is the exact
    erf form, 'tanh' the tanh approximation."""
    if approximate not in ("none", "tanh"):
        raise ValueError("ops.gelu: approximate must be 'none' or 'tanh', "
                         f"got {approximate!r}")
    return float_unary(_GELU[approximate == "tanh"], input_x)


#===---------------------------------------------------------------------===#
# Contractions
#===---------------------------------------------------------------------===#

def matmul(input, other):
    """Matrix product with numpy semantics (1-D operands are promoted and
    the added dimension removed; batch dims broadcast)."""
    input = _tensor(input, "ops.matmul")
    other = _tensor(other, "ops.matmul")
    a_nd, b_nd = input.ndim, other.ndim
    if a_nd == 0 or b_nd == 0:
        raise ValueError("ops.matmul: operands must have rank 1 or more")
    if a_nd >= 2 and b_nd >= 2:
        return binary(_MATMUL_PLAIN, input, other)
    a = reshape(input, (1,) + input.shape) if a_nd == 1 else input
    b = reshape(other, other.shape + (1,)) if b_nd == 1 else other
    out = binary(_MATMUL_PLAIN, a, b)
    shape = out.shape
    if a_nd == 1:
        shape = shape[:-2] + shape[-1:]
    if b_nd == 1:
        shape = shape[:-1]
    return reshape(out, shape)


_MATMUL_PLAIN = _matmul_op(False, False)


def dense(input, weight, bias=None):
    """input @ weight^T + bias, weight [out, in] (MindSpore's ops.dense)."""
    if bias is None:
        return binary(_DENSE, input, weight)
    return nary(_DENSE, (input, weight, bias))


#===---------------------------------------------------------------------===#
# Convolution, pooling and normalization
#===---------------------------------------------------------------------===#

_PAD_MODES = ("same", "valid", "pad")


def _positive_pair(value, name, what):
    """An int or a tuple of 2 positive ints as (h, w)."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        pair = (int(value), int(value))
    elif (isinstance(value, (tuple, list)) and len(value) == 2 and
          all(isinstance(v, numbers.Integral) and not isinstance(v, bool)
              for v in value)):
        pair = (int(value[0]), int(value[1]))
    else:
        raise ValueError(f"{what}: {name} must be an int or a tuple of 2 "
                         f"ints, got {value!r}")
    if pair[0] <= 0 or pair[1] <= 0:
        raise ValueError(f"{what}: {name} must be positive, got {value!r}")
    return pair


def _pad_mode(pad_mode, allowed, what):
    if not isinstance(pad_mode, str) or pad_mode.lower() not in allowed:
        raise ValueError(f"{what}: pad_mode must be one of "
                         f"{', '.join(repr(m) for m in allowed)}, got "
                         f"{pad_mode!r}")
    return pad_mode.lower()


def _conv_padding(padding, pad_mode, what):
    """padding as (top, bottom, left, right): an int, (h, w) or a 4-tuple;
    nonzero only with pad_mode 'pad' (as in MindSpore)."""
    def is_int(v):
        return isinstance(v, numbers.Integral) and not isinstance(v, bool)

    if is_int(padding):
        pads = (int(padding),) * 4
    elif isinstance(padding, (tuple, list)) and len(padding) in (2, 4) and \
            all(is_int(v) for v in padding):
        pads = tuple(int(v) for v in padding)
        if len(pads) == 2:
            pads = (pads[0], pads[0], pads[1], pads[1])
    else:
        raise ValueError(f"{what}: padding must be an int or a tuple of 2 "
                         f"or 4 ints, got {padding!r}")
    if any(p < 0 for p in pads):
        raise ValueError(f"{what}: padding must not be negative, got "
                         f"{padding!r}")
    if pad_mode != "pad" and any(pads):
        raise ValueError(f"{what}: padding must be 0 when pad_mode is "
                         f"'{pad_mode}', got {padding!r}; use pad_mode='pad' "
                         "for explicit padding")
    return pads


def _conv2d_op(pad_mode, padding, stride, dilation, group, public):
    """The ms.conv2d Op for normalized arguments."""
    check_int_fits(int(group), mstype.int64)
    return op("ms.conv2d",
              f'{{pad_mode = "{pad_mode}", padding = {_i64_array(padding)}, '
              f"stride = {_i64_array(stride)}, dilation = "
              f"{_i64_array(dilation)}, group = {int(group)} : i64}}",
              public)


def _pool2d_op(kind, kernel_size, stride, pad_mode, public):
    """The ms.max_pool2d / ms.avg_pool2d Op for normalized arguments."""
    return op(f"ms.{kind}_pool2d",
              f"{{kernel_size = {_i64_array(kernel_size)}, stride = "
              f'{_i64_array(stride)}, pad_mode = "{pad_mode}"}}', public)


def _f32(value):
    return format(float(value), ".9e") + " : f32"


def conv2d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0,
           dilation=1, groups=1):
    """2-D convolution, NCHW (MindSpore 2.x ops.conv2d): input [N, C, H, W],
    weight [O, C / groups, kh, kw], bias [O] or None. stride and dilation
    are an int or (h, w); padding an int, (h, w) or (top, bottom, left,
    right), nonzero only with pad_mode 'pad'. 'same' gives ceil(H / stride)
    with the odd row or column of padding at the bottom / right."""
    what = "ops.conv2d"
    mode = _pad_mode(pad_mode, _PAD_MODES, what)
    pads = _conv_padding(padding, mode, what)
    stride = _positive_pair(stride, "stride", what)
    dilation = _positive_pair(dilation, "dilation", what)
    if not isinstance(groups, numbers.Integral) or groups <= 0:
        raise ValueError(f"{what}: groups must be a positive int, got "
                         f"{groups!r}")
    o = _conv2d_op(mode, pads, stride, dilation, groups, what)
    if bias is None:
        return binary(o, input, weight)
    return nary(o, (input, weight, bias))


def _transposed_length(size, kernel, stride, dilation, pad_mode, pads,
                       output_padding):
    """The output length of a transposed conv along one dim (MindSpore's
    nn.Conv2dTranspose rule): the input length of the conv2d it reverses."""
    span = dilation * (kernel - 1) + 1
    if pad_mode == "same":
        return size * stride
    if pad_mode == "valid":
        return size * stride + max(span - stride, 0)
    return (size - 1) * stride - pads + span + output_padding


def _conv_transpose2d(input, weight, bias, stride, pad_mode, pads,
                      output_padding, dilation, group, what):
    """ms.conv2d_backprop_input of input [N, Cin, H, W] by weight
    [Cin, Cout / group, kh, kw]: the adjoint of the conv2d with this
    geometry, whose input shape is the result's."""
    shape = input.shape
    if len(shape) != 4 or len(weight.shape) != 4 or \
            shape[1] != weight.shape[0]:
        raise ValueError(f"{what}: input of shape {list(shape)} does not "
                         f"match weight {list(weight.shape)}: expected [N, "
                         f"{weight.shape[0] if len(weight.shape) == 4 else 'C'}"
                         ", H, W]")
    out = [shape[0], weight.shape[1] * group]
    for d in range(2):
        out.append(_transposed_length(
            shape[2 + d], weight.shape[2 + d], stride[d], dilation[d],
            pad_mode, pads[2 * d] + pads[2 * d + 1], output_padding[d]))
    if min(out[2:]) <= 0:
        raise ValueError(f"{what}: the output of input {list(shape)} would "
                         f"be {out}")
    o = op("ms.conv2d_backprop_input",
           f'{{shape = {_i64_array(out)}, pad_mode = "{pad_mode}", padding = '
           f"{_i64_array(pads)}, stride = {_i64_array(stride)}, dilation = "
           f"{_i64_array(dilation)}, group = {int(group)} : i64}}", what)
    y = binary(o, input, weight)
    if bias is not None:
        y = add(y, reshape(bias, (1, out[1], 1, 1)))
    return y


def _output_padding(value, stride, pad_mode, what):
    pair = (value, value) if isinstance(value, numbers.Integral) else value
    if not (isinstance(pair, (tuple, list)) and len(pair) == 2 and all(
            isinstance(v, numbers.Integral) and 0 <= v for v in pair)):
        raise ValueError(f"{what}: output_padding must be an int or a tuple "
                         f"of 2 ints >= 0, got {value!r}")
    pair = (int(pair[0]), int(pair[1]))
    if any(pair) and pad_mode != "pad":
        raise ValueError(f"{what}: output_padding must be 0 when pad_mode is "
                         f"'{pad_mode}', got {value!r}")
    if pair[0] >= stride[0] or pair[1] >= stride[1]:
        raise ValueError(f"{what}: output_padding {value!r} must be smaller "
                         f"than stride {stride}")
    return pair


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0,
                     output_padding=0, groups=1, dilation=1):
    """2-D transposed convolution (mint.nn.functional.conv_transpose2d's
    signature): input [N, Cin, H, W], weight [Cin, Cout / groups, kh, kw],
    bias [Cout] or None; padding an int or (h, w) removed from both sides;
    H_out = (H - 1) * stride - 2 * padding + dilation * (kh - 1) +
    output_padding + 1."""
    what = "ops.conv_transpose2d"
    stride = _positive_pair(stride, "stride", what)
    dilation = _positive_pair(dilation, "dilation", what)
    pads = _conv_padding(padding, "pad", what)
    if not isinstance(groups, numbers.Integral) or groups <= 0:
        raise ValueError(f"{what}: groups must be a positive int, got "
                         f"{groups!r}")
    out_pad = _output_padding(output_padding, stride, "pad", what)
    return _conv_transpose2d(input, weight, bias, stride, "pad", pads,
                             out_pad, dilation, int(groups), what)


__all__ += ["conv_transpose2d"]


def batch_norm(input_x, running_mean, running_var, weight, bias,
               training=False, momentum=0.1, eps=1e-5):
    """Batch normalization over dim 1 (MindSpore 2.x ops.batch_norm). At
    inference: (x - running_mean) / sqrt(running_var + eps) * weight + bias.
    With training=True the batch's mean and biased variance normalize, and
    the running statistics (Parameters) become
    (1 - momentum) * running + momentum * batch (the variance unbiased)."""
    if training:
        from .nn.normalization import _assign
        y, mean, var, count = _ops_indexing.batch_norm_train(
            input_x, weight, bias, eps)
        m = float(momentum)
        unbiased = var * (count / (count - 1)) if count > 1 else var
        _assign(running_mean, running_mean * (1.0 - m) + mean * m)
        _assign(running_var, running_var * (1.0 - m) + unbiased * m)
        return y
    o = op("ms.batch_norm", "{epsilon = " + _f32(eps) + "}",
           "ops.batch_norm")
    return nary(o, (input_x, weight, bias, running_mean, running_var))


def _layer_norm_op(begin_norm_axis, begin_params_axis, epsilon, public):
    return op("ms.layer_norm",
              f"{{begin_norm_axis = {int(begin_norm_axis)} : i64, "
              f"begin_params_axis = {int(begin_params_axis)} : i64, "
              f"epsilon = {_f32(epsilon)}}}", public)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Layer normalization over the trailing dims `normalized_shape`
    (MindSpore 2.x ops.layer_norm): population mean and variance, then
    (x - mean) / sqrt(var + eps) * weight + bias; weight and bias (shape
    normalized_shape) default to ones and zeros."""
    what = "ops.layer_norm"
    input = _tensor(input, what)
    if isinstance(normalized_shape, numbers.Integral):
        normalized_shape = (normalized_shape,)
    normalized_shape = tuple(int(d) for d in normalized_shape)
    k = len(normalized_shape)
    if k == 0 or k > input.ndim or \
            tuple(input.shape[input.ndim - k:]) != normalized_shape:
        raise ValueError(f"{what}: normalized_shape {list(normalized_shape)}"
                         f" does not match the trailing dimensions of input "
                         f"of shape {list(input.shape)}")
    if weight is None:
        weight = Tensor(np.ones(normalized_shape, np.float32))
    if bias is None:
        bias = Tensor(np.zeros(normalized_shape, np.float32))
    axis = input.ndim - k
    return nary(_layer_norm_op(axis, axis, eps, what), (input, weight, bias))


#===---------------------------------------------------------------------===#
# Shapes
#===---------------------------------------------------------------------===#

def _target_shape(shape, size, what):
    shape = tuple(int(d) for d in shape)
    if shape.count(-1) > 1:
        raise ValueError(f"{what}: only one dimension can be -1, got "
                         f"{list(shape)}")
    if any(d < -1 for d in shape):
        raise ValueError(f"{what}: invalid shape {list(shape)}")
    if -1 in shape:
        known = math.prod(d for d in shape if d != -1)
        if known == 0 or size % known:
            raise ValueError(f"{what}: cannot reshape {size} elements to "
                             f"{list(shape)}")
        shape = tuple(size // known if d == -1 else d for d in shape)
    if math.prod(shape) != size:
        raise ValueError(f"{what}: cannot reshape {size} elements to "
                         f"{list(shape)}")
    return shape


def reshape(input, shape):
    """The same elements in a new shape (one dimension may be -1)."""
    input = _tensor(input, "ops.reshape")
    if isinstance(shape, numbers.Integral):
        shape = (shape,)
    shape = _target_shape(shape, input.size, "ops.reshape")
    return unary(op("ms.reshape", "{shape = " + _i64_array(shape) + "}",
                    "ops.reshape"), input)


def transpose(input, input_perm):
    """Permutes the dimensions (ops.transpose(x, (1, 0)))."""
    input = _tensor(input, "ops.transpose")
    perm = tuple(_axis(p, input.ndim, "ops.transpose") for p in input_perm)
    if sorted(perm) != list(range(input.ndim)):
        raise ValueError(f"ops.transpose: {list(input_perm)} is not a "
                         f"permutation of the {input.ndim} dimensions")
    return unary(op("ms.transpose", "{perm = " + _i64_array(perm) + "}",
                    "ops.transpose"), input)


def permute(input, axis):
    return transpose(input, axis)


def flatten(input, order="C", *, start_dim=1, end_dim=-1):
    """Flattens dims start_dim..end_dim (by default all but the first, like
    nn.Flatten)."""
    input = _tensor(input, "ops.flatten")
    if order != "C":
        raise ValueError("ops.flatten: only order='C' is supported")
    nd = input.ndim
    if nd == 0:
        return reshape(input, (1,))
    s = _axis(start_dim, nd, "ops.flatten")
    e = _axis(end_dim, nd, "ops.flatten")
    if s > e:
        raise ValueError("ops.flatten: start_dim is after end_dim")
    if s == 1 and e == nd - 1 and nd >= 2:
        return unary(_FLATTEN, input)
    shape = input.shape
    new = shape[:s] + (math.prod(shape[s:e + 1]),) + shape[e + 1:]
    return reshape(input, new)


def expand_dims(input_x, axis):
    shape = list(input_x.shape)
    axis = _axis(axis, len(shape) + 1, "ops.expand_dims")
    shape.insert(axis, 1)
    return reshape(input_x, shape)


unsqueeze = expand_dims


def squeeze(input, axis=None):
    shape = input.shape
    if axis is None:
        new = [d for d in shape if d != 1]
    else:
        axes = _axes(axis, len(shape), "ops.squeeze") if axis != () else ()
        for a in axes:
            if shape[a] != 1:
                raise ValueError(f"ops.squeeze: dimension {a} has size "
                                 f"{shape[a]}, not 1")
        new = [d for i, d in enumerate(shape) if i not in axes]
    return reshape(input, new)


def concat(tensors, axis=0):
    """Joins tensors along an axis (ops.concat / ops.cat)."""
    tensors = list(tensors)
    if not tensors:
        raise ValueError("ops.concat: needs at least one tensor")
    tensors = [_tensor(t, "ops.concat") for t in tensors]
    if len(tensors) == 1:
        return tensors[0]
    axis = _axis(axis, tensors[0].ndim, "ops.concat")
    o = op("ms.concat", f"{{axis = {axis} : i64}}", "ops.concat")
    return nary(o, tensors)


cat = concat


#===---------------------------------------------------------------------===#
# Normalizations and reductions
#===---------------------------------------------------------------------===#

def softmax(input, axis=-1, *, dtype=None):
    input = float_only(_tensor(input, "ops.softmax"), "ops.softmax")
    axis = _axis(axis, input.ndim, "ops.softmax")
    return unary(op("ms.softmax", f"{{axis = {axis} : i64}}", "ops.softmax"),
                 input)


def log_softmax(logits, axis=-1):
    logits = float_only(_tensor(logits, "ops.log_softmax"),
                        "ops.log_softmax")
    axis = _axis(axis, logits.ndim, "ops.log_softmax")
    return unary(op("ms.log_softmax", f"{{axis = {axis} : i64}}",
                    "ops.log_softmax"), logits)


def _reduce(name, x, axis, keep_dims):
    x = _tensor(x, "ops." + name)
    axes = _axes(axis, x.ndim, "ops." + name)
    attrs = "{axes = " + _i64_array(axes) + (", keep_dims}" if keep_dims
                                             else "}")
    return unary(op("ms." + name, attrs, "ops." + name), x)


def reduce_sum(x, axis=(), keep_dims=False):
    """Sum over `axis` (an int, a tuple, or () for all axes), in x's dtype;
    bools count as int64."""
    x = _tensor(x, "ops.reduce_sum")
    if x.dtype is mstype.bool_:
        x = as_dtype(x, mstype.int64)
    return _reduce("reduce_sum", x, axis, keep_dims)


def reduce_mean(x, axis=(), keep_dims=False):
    """Mean over `axis`; integer and bool tensors average in float32."""
    x = _tensor(x, "ops.reduce_mean")
    if not x.dtype.is_float:
        x = as_dtype(x, mstype.float32)
    return _reduce("reduce_mean", x, axis, keep_dims)


def reduce_max(x, axis=(), keep_dims=False):
    return _reduce("reduce_max", x, axis, keep_dims)


def sum(input, dim=None, keepdim=False, *, dtype=None):
    """ops.sum: sum over `dim` (None: all); bools and integers sum to an
    int64, exactly (with int64 wraparound)."""
    input = _tensor(input, "ops.sum")
    if not input.dtype.is_float:
        input = as_dtype(input, mstype.int64)
    total = reduce_sum(input, () if dim is None else dim, keepdim)
    return total if dtype is None else cast(total, dtype)


def mean(input, axis=None, keep_dims=False):
    return reduce_mean(input, () if axis is None else axis, keep_dims)


def amax(input, axis=None, keepdims=False, *, initial=None, where=None):
    return reduce_max(input, () if axis is None else axis, keepdims)


#===---------------------------------------------------------------------===#
# Primitives (ops.ReduceSum(keep_dims=True)(x, axis) style)
#===---------------------------------------------------------------------===#

class Primitive:
    """Base of the operator classes: instantiate with attributes, call with
    tensors."""

    def __repr__(self):
        return f"Prim[{type(self).__name__}]"


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


#===---------------------------------------------------------------------===#
# Activations composed from ms ops (differentiable through their parts)
#===---------------------------------------------------------------------===#

__all__ += ["leaky_relu", "silu", "elu", "softplus"]


def _real_arg(value, name, what):
    if not isinstance(value, numbers.Real) or isinstance(value, bool):
        raise TypeError(f"{what}: {name} must be a number, got "
                        f"{type(value).__name__}")
    return float(value)


def leaky_relu(input, alpha=0.2):
    """x for x >= 0, alpha * x below (MindSpore's default alpha 0.2):
    max(x, alpha * x) for alpha <= 1, min(x, alpha * x) above."""
    alpha = _real_arg(alpha, "alpha", "ops.leaky_relu")
    scaled = mul(input, alpha)
    return maximum(input, scaled) if alpha <= 1 else minimum(input, scaled)


def silu(input):
    """x * sigmoid(x)."""
    return mul(input, sigmoid(input))


def elu(input_x, alpha=1.0):
    """x for x > 0, alpha * (exp(x) - 1) below: relu(x) + min(alpha *
    (exp(x) - 1), 0), which is the same for alpha > 0. exp(x) - 1 is not
    expm1, so tiny negative x lose relative (not absolute) accuracy."""
    alpha = _real_arg(alpha, "alpha", "ops.elu")
    if alpha <= 0:
        raise ValueError(f"ops.elu: alpha must be > 0, got {alpha}")
    negative = minimum(mul(sub(exp(input_x), 1.0), alpha), 0.0)
    return add(relu(input_x), negative)


def softplus(input, beta=1, threshold=20):
    """log(1 + exp(beta * x)) / beta, computed as (relu(bx) +
    log(1 + exp(-|bx|))) / beta so it never overflows. Above `threshold`
    MindSpore returns x itself; this form already equals x there to within
    float32 rounding, so threshold only has to be a number."""
    what = "ops.softplus"
    beta = _real_arg(beta, "beta", what)
    _real_arg(threshold, "threshold", what)
    if beta <= 0:
        raise ValueError(f"{what}: beta must be > 0, got {beta}")
    if not input.dtype.is_float:
        # As for exp and log, integers compute in float32 (promoting first:
        # neg(abs(x)) would wrap for uint8).
        input = cast(input, mstype.float32)
    bx = input if beta == 1 else mul(input, beta)
    soft = add(relu(bx), log(add(exp(neg(abs(bx))), 1.0)))
    return soft if beta == 1 else div(soft, beta)


#===---------------------------------------------------------------------===#
# Slicing, padding, broadcasting, gathering (MSDataMovementOps.td) and the
# shape and creation functions built on them
#===---------------------------------------------------------------------===#

__all__ += ["strided_slice", "broadcast_to", "pad", "gather", "index_select",
            "stack", "split", "chunk", "tile", "clamp", "clip", "rsqrt",
            "var", "std", "zeros", "ones", "zeros_like", "ones_like", "full",
            "arange"]


def _slice_op(begin, end, strides):
    return op("ms.slice", f"{{begin = {_i64_array(begin)}, end = "
              f"{_i64_array(end)}, strides = {_i64_array(strides)}}}",
              "ops.strided_slice")


def _slice(x, begin, end, strides):
    if list(begin) == [0] * len(begin) and list(end) == list(x.shape) and \
            list(strides) == [1] * len(strides):
        return x
    return unary(_slice_op(begin, end, strides), x)


def strided_slice(input_x, begin, end, strides):
    """input_x[begin[d]:end[d]:strides[d]] in every dimension d (positive
    strides; begin and end are clamped and may be negative, as in
    Python slicing)."""
    what = "ops.strided_slice"
    shape = input_x.shape
    if not len(begin) == len(end) == len(strides) == len(shape):
        raise ValueError(f"{what}: begin, end and strides need one entry per "
                         f"dimension of the rank-{len(shape)} input")
    b, e, s = [], [], []
    for d, size in enumerate(shape):
        if strides[d] <= 0:
            raise ValueError(f"{what}: strides must be positive, got "
                             f"{list(strides)}")
        start, stop, step = slice(begin[d], end[d], strides[d]).indices(size)
        b.append(start)
        e.append(max(start, stop))
        s.append(step)
    return _slice(input_x, b, e, s)


def broadcast_to(input, shape):
    """numpy broadcasting of input to shape; -1 keeps input's size."""
    what = "ops.broadcast_to"
    input = _tensor(input, what)
    shape = [int(d) for d in shape]
    offset = len(shape) - input.ndim
    if offset < 0:
        raise ValueError(f"{what}: cannot broadcast {list(input.shape)} to "
                         f"{shape}")
    for i, d in enumerate(shape):
        if d == -1:
            if i < offset:
                raise ValueError(f"{what}: -1 in a new leading dimension of "
                                 f"{shape}")
            shape[i] = input.shape[i - offset]
    if tuple(shape) == tuple(input.shape):
        return input
    return unary(op("ms.broadcast_to", f"{{shape = {_i64_array(shape)}}}",
                    what), input)


def pad(input_x, padding, mode="constant", value=None):
    """Constant padding; padding pairs go from the last dimension backwards,
    (left, right, top, bottom, ...), as MindSpore 2.x and PyTorch take
    them. Only mode 'constant' is supported."""
    what = "ops.pad"
    if mode != "constant":
        raise ValueError(f"{what}: mode {mode!r} is not supported (only "
                         "'constant')")
    padding = [int(p) for p in padding]
    rank = input_x.ndim
    if len(padding) % 2 or len(padding) > 2 * rank:
        raise ValueError(f"{what}: padding needs an even number of entries, "
                         f"at most {2 * rank}, got {len(padding)}")
    if any(p < 0 for p in padding):
        raise ValueError(f"{what}: negative padding {padding} is not "
                         "supported")
    low, high = [0] * rank, [0] * rank
    for i in range(len(padding) // 2):
        low[rank - 1 - i], high[rank - 1 - i] = padding[2 * i:2 * i + 2]
    if not any(low) and not any(high):
        return input_x
    fill = 0.0 if value is None else float(value)
    return unary(op("ms.pad", f"{{low = {_i64_array(low)}, high = "
                    f"{_i64_array(high)}, value = {_f32(fill)}}}", what),
                 input_x)


def _index_tensor(indices, what):
    if not isinstance(indices, Tensor):
        indices = Tensor(np.asarray(indices, dtype=np.int32))
    if indices.dtype not in (mstype.int32, mstype.int64):
        raise TypeError(f"{what}: indices must be int32 or int64, got "
                        f"{indices.dtype}")
    return indices


def gather(input_params, input_indices, axis, batch_dims=0):
    """input_params[..., indices, ...] along axis: the result shape is
    params.shape[:axis] + indices.shape + params.shape[axis + 1:]. Indices
    outside [0, size) give zeros, as MindSpore's CPU Gather does."""
    what = "ops.gather"
    if batch_dims != 0:
        raise ValueError(f"{what}: batch_dims must be 0")
    indices = _index_tensor(input_indices, what)
    axis = _axis(axis, input_params.ndim, what)
    return binary(op("ms.gather", f"{{axis = {axis} : i64}}", what),
                  input_params, indices)


def index_select(input, axis, index):
    """The entries of input at the 1-D `index` along axis."""
    index = _index_tensor(index, "ops.index_select")
    if index.ndim != 1:
        raise ValueError("ops.index_select: index must be 1-D, got shape "
                         f"{list(index.shape)}")
    return gather(input, index, axis)


def stack(tensors, axis=0):
    """Joins same-shaped tensors along a new axis."""
    tensors = [_tensor(t, "ops.stack") for t in tensors]
    if not tensors:
        raise ValueError("ops.stack: needs at least one tensor")
    axis = _axis(axis, tensors[0].ndim + 1, "ops.stack")
    return concat([expand_dims(t, axis) for t in tensors], axis)


def _split_at(x, sizes, axis):
    parts, start = [], 0
    for size in sizes:
        begin = [0] * x.ndim
        end = list(x.shape)
        begin[axis], end[axis] = start, start + size
        parts.append(_slice(x, begin, end, [1] * x.ndim))
        start += size
    return tuple(parts)


def split(tensor, split_size_or_sections, axis=0):
    """Pieces of split_size (the last may be smaller), or of the listed
    sizes, along axis."""
    what = "ops.split"
    axis = _axis(axis, tensor.ndim, what)
    n = tensor.shape[axis]
    if isinstance(split_size_or_sections, numbers.Integral):
        size = int(split_size_or_sections)
        if size <= 0:
            raise ValueError(f"{what}: split_size must be positive")
        sizes = [min(size, n - i) for i in range(0, n, size)]
    else:
        sizes = [int(s) for s in split_size_or_sections]
        # `sum` here is ops.sum: add the Python ints by hand.
        total = 0
        for s in sizes:
            total += s
        if total != n or any(s < 0 for s in sizes):
            raise ValueError(f"{what}: sections {sizes} do not add up to "
                             f"{n}, the size of axis {axis}")
    return _split_at(tensor, sizes, axis)


def chunk(input, chunks, axis=0):
    """At most `chunks` pieces of ceil(size / chunks) along axis."""
    what = "ops.chunk"
    if not isinstance(chunks, numbers.Integral) or chunks <= 0:
        raise ValueError(f"{what}: chunks must be a positive int")
    axis = _axis(axis, input.ndim, what)
    n = input.shape[axis]
    return split(input, max(1, -(-n // int(chunks))), axis)


def tile(input, dims):
    """Repeats input dims[d] times along each dimension (leading dims of
    input or dims count as 1): a broadcast to [dims[0], size0, ...] then a
    reshape, so no element is computed."""
    dims = [int(d) for d in dims]
    if any(d < 0 for d in dims):
        raise ValueError("ops.tile: dims must not be negative")
    shape = list(input.shape)
    rank = max(len(shape), len(dims))
    shape = [1] * (rank - len(shape)) + shape
    dims = [1] * (rank - len(dims)) + dims
    interleaved = []
    for d, s in zip(dims, shape):
        interleaved += [1, s]
    x = reshape(input, interleaved)
    target = []
    for d, s in zip(dims, shape):
        target += [d, s]
    return reshape(broadcast_to(x, target),
                   [d * s for d, s in zip(dims, shape)])


def clamp(input, min=None, max=None):
    """min(max(input, min), max); either bound may be None."""
    if min is None and max is None:
        raise ValueError("ops.clamp: at least one of min and max is needed")
    result = input
    if min is not None:
        result = maximum(result, min)
    if max is not None:
        result = minimum(result, max)
    return result


clip = clamp


def rsqrt(input):
    """1 / sqrt(input)."""
    return div(1.0, sqrt(input))


def var(input, axis=None, ddof=0, keepdims=False):
    """Variance: mean((x - mean(x))^2) * n / (n - ddof) over axis."""
    axes = _axes(axis, input.ndim, "ops.var")
    n = 1
    for a in axes:
        n *= input.shape[a]
    centered = sub(input, reduce_mean(input, axes, True))
    result = reduce_sum(mul(centered, centered), axes, keepdims)
    return div(result, float(max(n - int(ddof), 0)))


def std(input, axis=None, ddof=0, keepdims=False):
    """sqrt(var(input, axis, ddof, keepdims))."""
    return sqrt(var(input, axis, ddof, keepdims))


def _creation_dtype(dtype, default):
    return default if dtype is None else mstype.to_dtype(dtype)


def _size_tuple(size):
    if isinstance(size, numbers.Integral):
        return (int(size),)
    return tuple(int(d) for d in size)


def zeros(size, dtype=None):
    dt = _creation_dtype(dtype, mstype.float32)
    return Tensor(np.zeros(_size_tuple(size), dt.values_np), dt)


def ones(size, dtype=None):
    dt = _creation_dtype(dtype, mstype.float32)
    return Tensor(np.ones(_size_tuple(size), dt.values_np), dt)


def full(size, fill_value, *, dtype=None):
    dt = _creation_dtype(dtype, mstype.float32 if isinstance(
        fill_value, float) else mstype.int64)
    return Tensor(np.full(_size_tuple(size), fill_value, dt.values_np), dt)


def zeros_like(input, *, dtype=None):
    return zeros(input.shape, _creation_dtype(dtype, input.dtype))


def ones_like(input, *, dtype=None):
    return ones(input.shape, _creation_dtype(dtype, input.dtype))


def arange(start=0, end=None, step=1, *, dtype=None):
    """start, start + step, ... below end; int64 for ints, float32
    otherwise, as MindSpore."""
    if end is None:
        start, end = 0, start
    floats = any(isinstance(v, float) for v in (start, end, step))
    dt = _creation_dtype(dtype, mstype.float32 if floats else mstype.int64)
    return Tensor(np.arange(start, end, step).astype(dt.values_np), dt)


def masked_fill(input_x, mask, value):
    """input_x with `value` where the bool `mask` (broadcast like numpy) is
    True: one ms.select."""
    if not isinstance(mask, Tensor) or mask.dtype != mstype.bool_:
        raise TypeError("ops.masked_fill: mask must be a bool Tensor")
    return where(mask, value, input_x)


def masked_select(input, mask):
    """The elements of input where the bool mask (broadcast together with
    input) is True, as a 1-D Tensor: a gather of the True positions. The
    result's size depends on the mask's values, so graph mode cannot
    capture it (see docs/python.md)."""
    if not isinstance(mask, Tensor) or mask.dtype != mstype.bool_:
        raise TypeError("ops.masked_select: mask must be a bool Tensor")
    shape = tuple(np.broadcast_shapes(tuple(input.shape), tuple(mask.shape)))
    if tuple(mask.shape) != shape:
        mask = cast(broadcast_to(cast(mask, mstype.float32), shape),
                    mstype.bool_)
    return broadcast_to(input, shape)[mask]


__all__ += ["masked_fill", "masked_select"]



#===---------------------------------------------------------------------===#
# Training: gradients, parameter updates and losses (_autograd.py,
# _losses.py)
#===---------------------------------------------------------------------===#

from ._autograd import stop_gradient, assign  # noqa: E402
from ._losses import (cross_entropy, nll_loss,  # noqa: E402
                      binary_cross_entropy_with_logits, mse_loss, l1_loss)

__all__ += ["stop_gradient", "assign", "cross_entropy", "nll_loss",
            "binary_cross_entropy_with_logits", "mse_loss", "l1_loss"]


#===---------------------------------------------------------------------===#
# pow, floor division, remainders (_ops_math.py)
#===---------------------------------------------------------------------===#

from ._ops_math import (pow, floor_divide, remainder, floor_div,  # noqa: E402
                        floor_mod, fmod)

Pow = _simple("Pow", pow, "x ** y")
FloorDiv = _simple("FloorDiv", floor_div, "floor(x / y)")
FloorMod = _simple("FloorMod", floor_mod, "x - floor(x / y) * y")

__all__ += ["pow", "floor_divide", "remainder", "floor_div", "floor_mod",
            "fmod", "Pow", "FloorDiv", "FloorMod"]


#===---------------------------------------------------------------------===#
# cumsum, sorting, max/min with indices (_ops_sort.py)
#===---------------------------------------------------------------------===#

from ._ops_sort import (cumsum, argsort, sort, topk,  # noqa: E402
                        gather_elements)
from . import _ops_sort  # noqa: E402

# ops.max and ops.min are served by __getattr__ rather than bound here: a
# module global named max or min would shadow the builtins this module's
# functions call.
_MODULE_ATTRS = {"max": _ops_sort.max, "min": _ops_sort.min}


def __getattr__(name):
    try:
        return _MODULE_ATTRS[name]
    except KeyError:
        raise AttributeError(f"module 'msmlir.ops' has no attribute "
                             f"{name!r}") from None


class CumSum(Primitive):
    """CumSum(exclusive=False, reverse=False)(x, axis)."""

    def __init__(self, exclusive=False, reverse=False):
        self.exclusive = bool(exclusive)
        self.reverse = bool(reverse)

    def __call__(self, x, axis):
        x = x if isinstance(x, Tensor) else Tensor(x)
        axis = _ops_sort._axis(axis, x.ndim, "ops.CumSum")
        return unary(_ops_sort._cumsum_op(axis, self.exclusive, self.reverse),
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
        values, index = _ops_sort.max(x, self.axis, self.keep_dims)
        return index, values


class ArgMinWithValue(ArgMaxWithValue):
    """ArgMinWithValue(axis=0, keep_dims=False)(x) -> (index, values)."""

    def __call__(self, x):
        values, index = _ops_sort.min(x, self.axis, self.keep_dims)
        return index, values


__all__ += ["cumsum", "argsort", "sort", "topk", "gather_elements", "max",
            "min", "CumSum", "Sort", "TopK", "GatherD", "ArgMaxWithValue",
            "ArgMinWithValue"]


#===---------------------------------------------------------------------===#
# Resizing (_ops_resize.py)
#===---------------------------------------------------------------------===#

from ._ops_resize import interpolate  # noqa: E402

__all__ += ["interpolate"]


#===---------------------------------------------------------------------===#
# ops.fill and the Primitives of issue 16's ops (MindSpore's argument order
# and defaults; each calls its functional op)
#===---------------------------------------------------------------------===#

def fill(type, shape, value):
    """MindSpore's ops.fill(type, shape, value)."""
    return full(shape, value, dtype=type)


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


__all__ += ["fill", "Equal", "NotEqual", "Greater", "GreaterEqual", "Less",
            "LessEqual", "LogicalAnd", "LogicalOr", "LogicalNot", "Select",
            "Square", "Rsqrt", "Cast", "MaskedFill", "ExpandDims", "Tile",
            "Zeros", "Ones", "ZerosLike", "OnesLike", "Fill", "Argmax",
            "Argmin", "OneHot", "Gather", "Stack", "Split", "Squeeze",
            "BroadcastTo", "Pad", "ResizeNearestNeighbor"]

# Tensor's methods reach the functional ops through this (see _tensor.py).
_tensor_layer.ops = sys.modules[__name__]

from ._ops_comm import ReduceOp, AllReduce, AllGather, Broadcast  # noqa: E402,F401
