"""ms-autodiff (_msmlir.autodiff): for every ms op, a one-op function is
differentiated, compiled with the native Compiler and run; its value and
gradients are compared with torch.autograd in float64 (torch is only the
reference), and the gradients must be bit-identical at O0/O1/O2 and between
exc_mode sink (one compiled function) and no_sink (kernel by kernel, as
PyNative runs). The seed MLP and LeNet-5 (examples/) are checked the same way.
"""

import os

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from msmlir import _msmlir as native

from conftest import assert_bitwise, assert_close, relative_error
from test_train_ops import reference_dropout

SOURCE_DIR = os.environ.get(
    "MS_SOURCE_DIR",
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


ELEMENT_TYPES = {np.dtype(np.float32): "f32", np.dtype(np.int32): "i32",
                 np.dtype(np.int64): "i64", np.dtype(np.bool_): "i1"}


def mlir_type(shape, element="f32"):
    return "tensor<" + "".join(f"{d}x" for d in shape) + element + ">"


def module(args, op_text, result_shape, elements=None):
    """A function of `args` (shapes; element types `elements`, f32 by
    default) returning `op_text`'s f32 result; the op text names its
    operands %a0, %a1, ..."""
    elements = elements or ["f32"] * len(args)
    params = ", ".join(f"%a{i}: {mlir_type(s, e)}"
                       for i, (s, e) in enumerate(zip(args, elements)))
    rtype = mlir_type(result_shape)
    return (f"func.func @construct({params}) -> {rtype} {{\n"
            f"  %r = {op_text}\n"
            f"  return %r : {rtype}\n}}\n")


def run_grad(source, arrays, sens, wrt, level="O0", exc_mode="sink",
             entry="construct"):
    text = native.autodiff(source, entry, wrt)
    executor = native.Executor(native.CompileOptions(jit_level=level))
    graph = native.Compiler().compile(
        text,
        native.CompileOptions(jit_level=level, exc_mode=exc_mode),
        entry + "_grad", "<autodiff test>", executor=executor)
    # np.ascontiguousarray would make rank-0 arrays rank 1.
    inputs = [native.HostTensor.from_buffer(np.require(a, requirements="C"))
              for a in list(arrays) + list(sens)]
    return [np.array(o) for o in graph.run(inputs)]


def torch_tensor(a, requires_grad=False):
    """float64 for float arrays (the reference's precision), int64 indices,
    bool masks."""
    if a.dtype.kind == "f":
        return torch.tensor(a, dtype=torch.float64,
                            requires_grad=requires_grad)
    return torch.tensor(a.astype(np.int64) if a.dtype.kind == "i" else a)


def torch_grads(fn, arrays, sens, wrt):
    tensors = [torch_tensor(a, i in wrt) for i, a in enumerate(arrays)]
    out = fn(*tensors)
    if out.requires_grad:  # not after stop_gradient
        out.backward(torch.tensor(sens, dtype=out.dtype))
    return ([out.detach().numpy()] +
            [tensors[i].grad.numpy() if tensors[i].grad is not None
             else np.zeros_like(arrays[i]) for i in wrt])


def rand(shape, seed, kind="normal"):
    """kind: "normal", "positive" (in [0.5, 2)), "spread" (see below),
    "mask" (bool), ("index", n) (i32 in [0, n)), ("distinct", n) (distinct
    i32 in [0, n)) or ("state", values) (an i64 rng_state)."""
    rng = np.random.default_rng(seed)
    if kind == "positive":
        return rng.uniform(0.5, 2.0, shape).astype(np.float32)
    if kind == "mask":
        return rng.random(shape) < 0.5
    if kind == "spread":  # 0.05 apart, none within 0.025 of 0: finite
        # differences move no maximum and flip no sign
        n = int(np.prod(shape))
        return ((rng.permutation(n) - n // 2 + 0.5) * 0.05).astype(
            np.float32).reshape(shape)
    if isinstance(kind, tuple) and kind[0] == "index":
        return rng.integers(0, kind[1], shape).astype(np.int32)
    if isinstance(kind, tuple) and kind[0] == "distinct":  # scatter rows
        return rng.permutation(kind[1])[:shape[0]].astype(np.int32)
    if isinstance(kind, tuple) and kind[0] == "state":
        return np.array(kind[1], np.int64)
    # Distinct values: no ties for max/maximum/abs/relu at 0.
    return rng.standard_normal(shape).astype(np.float32)


def same_pad(size, kernel, stride, dilation=1):
    """MindSpore's pad_mode "same": (before, after), the odd one after."""
    out = -(-size // stride)
    total = max((out - 1) * stride + (kernel - 1) * dilation + 1 - size, 0)
    return total // 2, total - total // 2


def t_pool_same(x, k, s, kind):
    sh, sw = (s, s) if isinstance(s, int) else s
    (t, b), (l, r) = same_pad(x.shape[2], k, sh), same_pad(x.shape[3], k, sw)
    if kind == "max":
        return F.max_pool2d(F.pad(x, (l, r, t, b), value=-np.inf), k, s)
    ones = torch.ones_like(x[:1, :1])
    sums = F.avg_pool2d(F.pad(x, (l, r, t, b)), k, s, divisor_override=1)
    counts = F.avg_pool2d(F.pad(ones, (l, r, t, b)), k, s, divisor_override=1)
    return sums / counts


def t_conv_same(x, w, stride, dilation, groups):
    (t, b) = same_pad(x.shape[2], w.shape[2], stride, dilation)
    (l, r) = same_pad(x.shape[3], w.shape[3], stride, dilation)
    return F.conv2d(F.pad(x, (l, r, t, b)), w, None, stride, 0, dilation,
                    groups)


def t_layer_norm(x, g, b, norm_axis, eps):
    axes = tuple(range(norm_axis, x.dim()))
    mean = x.mean(axes, keepdim=True)
    var = ((x - mean) ** 2).mean(axes, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * g + b


def t_input_grad(forward, x, dy):
    """The gradient of `forward` at x against dy, itself differentiable
    (torch's double backward): the reference of the backward ops. Also
    under torch.no_grad (case_setup's shape probe)."""
    with torch.enable_grad():
        return torch.autograd.grad(forward(x), x, dy, create_graph=True)[0]


def t_backward_of(forward):
    """(x, dy) -> d forward(x) / dx against dy, for x with or without
    requires_grad (an x that only selects gets no gradient)."""
    def fn(x, dy):
        x_in = x if x.requires_grad else x.detach().requires_grad_()
        return t_input_grad(forward, x_in, dy)
    return fn


def t_gelu_grad(dy, x, approximate):
    """dy * gelu'(x), written out so that torch differentiates it again."""
    if approximate:
        c, a = np.sqrt(2 / np.pi), 0.044715
        t = torch.tanh(c * (x + a * x ** 3))
        slope = 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * c * (1 + 3 * a * x * x)
    else:
        slope = (0.5 * (1 + torch.erf(x / np.sqrt(2))) +
                 x * torch.exp(-x * x / 2) / np.sqrt(2 * np.pi))
    return dy * slope


def t_max_at_first_max(x, g, k, s):
    """g at each window's maximum of x (max_pool2d_grad_grad)."""
    _, index = F.max_pool2d(x.detach(), k, s, return_indices=True)
    return g.flatten(2).gather(2, index.flatten(2)).view(index.shape)


def t_filter_grad(dy, x, w_shape, **conv):
    """conv2d's weight gradient, bilinear in dy and x."""
    w = torch.zeros(w_shape, dtype=torch.float64, requires_grad=True)
    return t_input_grad(lambda v: F.conv2d(x, v, **conv), w, dy)


def t_scatter_add(dy, index, size, axis):
    shape = list(dy.shape)
    shape[axis] = size
    return torch.zeros(shape, dtype=dy.dtype).scatter_add(axis, index, dy)


def t_dropout(x, p, state):
    """Training dropout with the numpy Philox reference's mask and ms's f32
    scale."""
    _, keep = reference_dropout(np.zeros(tuple(x.shape), np.float32), p,
                                int(state[0]), int(state[1]))
    scale = float(np.float32(1.0 / (1.0 - float(np.float32(p)))))
    return x * torch.tensor(keep) * scale


P = "positive"
# name: (arg shapes, arg kinds, op text, torch fn, wrt)
CASES = {
    "dense": ([(4, 8), (3, 8), (3,)], None,
              "ms.dense %a0, %a1, %a2 : tensor<4x8xf32>, tensor<3x8xf32>, "
              "tensor<3xf32>",
              lambda x, w, b: F.linear(x, w, b), [0, 1, 2]),
    "dense_rank3_nobias": ([(2, 3, 8), (5, 8)], None,
                           "ms.dense %a0, %a1 : tensor<2x3x8xf32>, "
                           "tensor<5x8xf32>",
                           lambda x, w: F.linear(x, w), [0, 1]),
    "matmul": ([(4, 6), (6, 5)], None,
               "ms.matmul %a0, %a1 : tensor<4x6xf32>, tensor<6x5xf32>",
               lambda a, b: a @ b, [0, 1]),
    "matmul_ta": ([(6, 4), (6, 5)], None,
                  "ms.matmul %a0, %a1 transpose_a : tensor<6x4xf32>, "
                  "tensor<6x5xf32>",
                  lambda a, b: a.T @ b, [0, 1]),
    "matmul_tb": ([(4, 6), (5, 6)], None,
                  "ms.matmul %a0, %a1 transpose_b : tensor<4x6xf32>, "
                  "tensor<5x6xf32>",
                  lambda a, b: a @ b.T, [0, 1]),
    "matmul_ta_tb": ([(6, 4), (5, 6)], None,
                     "ms.matmul %a0, %a1 transpose_a transpose_b : "
                     "tensor<6x4xf32>, tensor<5x6xf32>",
                     lambda a, b: a.T @ b.T, [0, 1]),
    "matmul_batched_broadcast": (
        [(2, 1, 4, 3), (3, 3, 5)], None,
        "ms.matmul %a0, %a1 : tensor<2x1x4x3xf32>, tensor<3x3x5xf32>",
        lambda a, b: a @ b, [0, 1]),
    "matmul_batched_tb": (
        [(3, 4, 6), (5, 6)], None,
        "ms.matmul %a0, %a1 transpose_b : tensor<3x4x6xf32>, tensor<5x6xf32>",
        lambda a, b: a @ b.T, [0, 1]),
    "conv2d_valid": ([(2, 3, 7, 7), (4, 3, 3, 3)], None,
                     'ms.conv2d %a0, %a1 pad_mode "valid" : '
                     "tensor<2x3x7x7xf32>, tensor<4x3x3x3xf32>",
                     lambda x, w: F.conv2d(x, w), [0, 1]),
    "conv2d_same_stride2_bias": (
        [(2, 3, 7, 8), (4, 3, 3, 3), (4,)], None,
        "ms.conv2d %a0, %a1, %a2 stride [2, 2] : tensor<2x3x7x8xf32>, "
        "tensor<4x3x3x3xf32>, tensor<4xf32>",
        lambda x, w, b: t_conv_same(x, w, 2, 1, 1) + b.view(1, -1, 1, 1),
        [0, 1, 2]),
    "conv2d_pad_dilation_group": (
        [(1, 4, 9, 9), (6, 2, 3, 2)], None,
        'ms.conv2d %a0, %a1 pad_mode "pad" padding [1, 2, 0, 1] '
        "stride [2, 1] dilation [2, 2] group 2 : tensor<1x4x9x9xf32>, "
        "tensor<6x2x3x2xf32>",
        lambda x, w: F.conv2d(F.pad(x, (0, 1, 1, 2)), w, None, (2, 1), 0,
                              (2, 2), 2), [0, 1]),
    "conv2d_same_dilation": (
        [(1, 2, 6, 6), (3, 2, 3, 3)], None,
        "ms.conv2d %a0, %a1 dilation [2, 2] : tensor<1x2x6x6xf32>, "
        "tensor<3x2x3x3xf32>",
        lambda x, w: t_conv_same(x, w, 1, 2, 1), [0, 1]),
    "batch_norm": ([(2, 3, 4, 5), (3,), (3,), (3,), (3,)],
                   [None, None, None, None, P],
                   "ms.batch_norm %a0, %a1, %a2, %a3, %a4 epsilon 1.0e-3 : "
                   "tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>, "
                   "tensor<3xf32>, tensor<3xf32>",
                   lambda x, g, b, m, v: F.batch_norm(
                       x, m, v, g, b, training=False, eps=1e-3), [0, 1, 2]),
    "batch_norm_rank2": ([(4, 3), (3,), (3,), (3,), (3,)],
                         [None, None, None, None, P],
                         "ms.batch_norm %a0, %a1, %a2, %a3, %a4 : "
                         "tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>, "
                         "tensor<3xf32>, tensor<3xf32>",
                         lambda x, g, b, m, v: F.batch_norm(
                             x, m, v, g, b, training=False, eps=1e-5),
                         [0, 1, 2]),
    "layer_norm": ([(2, 3, 4), (3, 4), (3, 4)], None,
                   "ms.layer_norm %a0, %a1, %a2 begin_norm_axis 1 "
                   "begin_params_axis 1 epsilon 1.0e-5 : tensor<2x3x4xf32>, "
                   "tensor<3x4xf32>, tensor<3x4xf32>",
                   lambda x, g, b: F.layer_norm(x, (3, 4), g, b, 1e-5),
                   [0, 1, 2]),
    "layer_norm_params_axis": (
        [(2, 3, 4), (4,), (4,)], None,
        "ms.layer_norm %a0, %a1, %a2 begin_norm_axis 1 epsilon 1.0e-5 : "
        "tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>",
        lambda x, g, b: t_layer_norm(x, g, b, 1, 1e-5), [0, 1, 2]),
    "max_pool2d": ([(2, 3, 6, 6)], None,
                   "ms.max_pool2d %a0 kernel_size [2, 2] stride [2, 2] : "
                   "tensor<2x3x6x6xf32>",
                   lambda x: F.max_pool2d(x, 2, 2), [0]),
    "max_pool2d_overlap": ([(1, 2, 7, 6)], None,
                           "ms.max_pool2d %a0 kernel_size [3, 2] stride "
                           "[1, 2] : tensor<1x2x7x6xf32>",
                           lambda x: F.max_pool2d(x, (3, 2), (1, 2)), [0]),
    "max_pool2d_same": ([(1, 2, 7, 8)], None,
                        'ms.max_pool2d %a0 kernel_size [3, 3] stride [2, 2] '
                        'pad_mode "same" : tensor<1x2x7x8xf32>',
                        lambda x: t_pool_same(x, 3, 2, "max"), [0]),
    "avg_pool2d": ([(2, 3, 6, 6)], None,
                   "ms.avg_pool2d %a0 kernel_size [2, 2] stride [2, 2] : "
                   "tensor<2x3x6x6xf32>",
                   lambda x: F.avg_pool2d(x, 2, 2), [0]),
    "avg_pool2d_same": ([(1, 2, 7, 8)], None,
                        'ms.avg_pool2d %a0 kernel_size [3, 3] stride [2, 1] '
                        'pad_mode "same" : tensor<1x2x7x8xf32>',
                        lambda x: t_pool_same(x, 3, (2, 1), "avg"), [0]),
    "add_broadcast": ([(4, 1, 5), (3, 1)], None,
                      "ms.add %a0, %a1 : tensor<4x1x5xf32>, tensor<3x1xf32>",
                      lambda a, b: a + b, [0, 1]),
    "sub_broadcast": ([(3, 1), (4, 1, 5)], None,
                      "ms.sub %a0, %a1 : tensor<3x1xf32>, tensor<4x1x5xf32>",
                      lambda a, b: a - b, [0, 1]),
    "mul_broadcast": ([(4, 3, 5), (5,)], None,
                      "ms.mul %a0, %a1 : tensor<4x3x5xf32>, tensor<5xf32>",
                      lambda a, b: a * b, [0, 1]),
    "div_broadcast": ([(4, 3, 5), (3, 1)], [None, P],
                      "ms.div %a0, %a1 : tensor<4x3x5xf32>, tensor<3x1xf32>",
                      lambda a, b: a / b, [0, 1]),
    "maximum_broadcast": ([(4, 3), (3,)], None,
                          "ms.maximum %a0, %a1 : tensor<4x3xf32>, "
                          "tensor<3xf32>",
                          torch.maximum, [0, 1]),
    "minimum": ([(4, 3), (4, 3)], None,
                "ms.minimum %a0, %a1 : tensor<4x3xf32>, tensor<4x3xf32>",
                torch.minimum, [0, 1]),
    "relu": ([(4, 5)], None, "ms.relu %a0 : tensor<4x5xf32>", torch.relu,
             [0]),
    "sigmoid": ([(4, 5)], None, "ms.sigmoid %a0 : tensor<4x5xf32>",
                torch.sigmoid, [0]),
    "tanh": ([(4, 5)], None, "ms.tanh %a0 : tensor<4x5xf32>", torch.tanh,
             [0]),
    "exp": ([(4, 5)], None, "ms.exp %a0 : tensor<4x5xf32>", torch.exp, [0]),
    "log": ([(4, 5)], [P], "ms.log %a0 : tensor<4x5xf32>", torch.log, [0]),
    "sqrt": ([(4, 5)], [P], "ms.sqrt %a0 : tensor<4x5xf32>", torch.sqrt,
             [0]),
    "neg": ([(4, 5)], None, "ms.neg %a0 : tensor<4x5xf32>", torch.neg, [0]),
    "abs": ([(4, 5)], None, "ms.abs %a0 : tensor<4x5xf32>", torch.abs, [0]),
    "gelu_tanh": ([(4, 5)], None, "ms.gelu %a0 : tensor<4x5xf32>",
                  lambda x: F.gelu(x, approximate="tanh"), [0]),
    "gelu_exact": ([(4, 5)], None,
                   "ms.gelu %a0 {approximate = false} : tensor<4x5xf32>",
                   F.gelu, [0]),
    "dropout_inference": ([(4, 5)], None,
                          "ms.dropout %a0 {p = 0.5 : f32} : tensor<4x5xf32>",
                          lambda x: x * 1.0, [0]),
    "flatten": ([(2, 3, 4)], None, "ms.flatten %a0 : tensor<2x3x4xf32>",
                lambda x: x.reshape(2, 12), [0]),
    "reshape": ([(2, 3, 4)], None,
                "ms.reshape %a0 to [4, -1] : tensor<2x3x4xf32>",
                lambda x: x.reshape(4, 6), [0]),
    "transpose": ([(2, 3, 4)], None,
                  "ms.transpose %a0 perm [2, 0, 1] : tensor<2x3x4xf32>",
                  lambda x: x.permute(2, 0, 1), [0]),
    "concat": ([(2, 3), (2, 5), (2, 1)], None,
               "ms.concat %a0, %a1, %a2 axis -1 : tensor<2x3xf32>, "
               "tensor<2x5xf32>, tensor<2x1xf32>",
               lambda a, b, c: torch.cat([a, b, c], -1), [0, 1, 2]),
    "slice": ([(4, 6, 3)], None,
              "ms.slice %a0 begin [1, 2, 0] end [3, 6, 3] strides [1, 1, 1] : "
              "tensor<4x6x3xf32>",
              lambda x: x[1:3, 2:, :], [0]),
    "slice_strided": ([(5, 7)], None,
                      "ms.slice %a0 begin [1, 0] end [5, 7] strides [2, 3] : "
                      "tensor<5x7xf32>",
                      lambda x: x[1:5:2, 0:7:3], [0]),
    "slice_strided_tail": ([(4, 9)], None,
                           "ms.slice %a0 begin [0, 2] end [4, 8] strides "
                           "[3, 4] : tensor<4x9xf32>",
                           lambda x: x[0:4:3, 2:8:4], [0]),
    "broadcast_to": ([(3, 1)], None,
                     "ms.broadcast_to %a0 to [2, 3, 4] : tensor<3x1xf32>",
                     lambda x: x.expand(2, 3, 4), [0]),
    "pad": ([(2, 3)], None,
            "ms.pad %a0 low [1, 0] high [0, 2] value 0.5 : tensor<2x3xf32>",
            lambda x: F.pad(x, (0, 2, 1, 0), value=0.5), [0]),
    "softmax": ([(4, 5)], None, "ms.softmax %a0 axis -1 : tensor<4x5xf32>",
                lambda x: torch.softmax(x, -1), [0]),
    "softmax_axis0": ([(4, 5)], None,
                      "ms.softmax %a0 axis 0 : tensor<4x5xf32>",
                      lambda x: torch.softmax(x, 0), [0]),
    "log_softmax": ([(4, 5)], None,
                    "ms.log_softmax %a0 axis -1 : tensor<4x5xf32>",
                    lambda x: torch.log_softmax(x, -1), [0]),
    "log_softmax_axis1_rank3": ([(2, 4, 3)], None,
                                "ms.log_softmax %a0 axis 1 : "
                                "tensor<2x4x3xf32>",
                                lambda x: torch.log_softmax(x, 1), [0]),
    "reduce_sum_all": ([(3, 4)], None,
                       "ms.reduce_sum %a0 axes [] : tensor<3x4xf32>",
                       lambda x: x.sum(), [0]),
    "reduce_sum_keep": ([(3, 4, 5)], None,
                        "ms.reduce_sum %a0 axes [0, 2] keep_dims : "
                        "tensor<3x4x5xf32>",
                        lambda x: x.sum((0, 2), keepdim=True), [0]),
    "reduce_mean": ([(3, 4, 5)], None,
                    "ms.reduce_mean %a0 axes [-1] : tensor<3x4x5xf32>",
                    lambda x: x.mean(-1), [0]),
    "reduce_max": ([(3, 4, 5)], None,
                   "ms.reduce_max %a0 axes [1] : tensor<3x4x5xf32>",
                   lambda x: x.amax(1), [0]),
    "reduce_max_all_keep": ([(3, 4)], None,
                            "ms.reduce_max %a0 axes [] keep_dims : "
                            "tensor<3x4xf32>",
                            lambda x: x.amax((0, 1), keepdim=True), [0]),
    "pow_broadcast": ([(4, 3), (3,)], [P, None],
                      "ms.pow %a0, %a1 : tensor<4x3xf32>, tensor<3xf32>",
                      torch.pow, [0, 1]),
    "floor_mod_broadcast": ([(4, 3), (3,)], [None, P],
                            "ms.floor_mod %a0, %a1 : tensor<4x3xf32>, "
                            "tensor<3xf32>",
                            torch.remainder, [0, 1]),
    "fmod": ([(4, 3), (4, 3)], [None, P],
             "ms.fmod %a0, %a1 : tensor<4x3xf32>, tensor<4x3xf32>",
             torch.fmod, [0, 1]),
    "cumsum": ([(3, 5)], None, "ms.cumsum %a0 axis 1 : tensor<3x5xf32>",
               lambda x: torch.cumsum(x, 1), [0]),
    "cumsum_exclusive_reverse": ([(4, 3)], None,
                                 "ms.cumsum %a0 axis 0 exclusive reverse : "
                                 "tensor<4x3xf32>",
                                 lambda x: x.flip(0).cumsum(0).flip(0) - x,
                                 [0]),
    "slice_update": ([(4, 8), (4, 4)], None,
                     "ms.slice_update %a0, %a1 begin [0, 1] end [4, 8] "
                     "strides [1, 2] : tensor<4x8xf32>, tensor<4x4xf32>",
                     lambda x, u: torch.cat(
                         [x[:, :1], torch.stack(
                             [u[:, 0], x[:, 2], u[:, 1], x[:, 4], u[:, 2],
                              x[:, 6], u[:, 3]], 1)], 1), [0, 1]),
    "conv2d_backprop_input_as_layer": (
        [(1, 6, 5, 5), (6, 2, 3, 3)], None,
        'ms.conv2d_backprop_input %a0, %a1 shape [1, 4, 9, 9] pad_mode "pad" '
        "padding [1, 1, 1, 1] stride [2, 2] group 2 : tensor<1x6x5x5xf32>, "
        "tensor<6x2x3x3xf32>",
        lambda x, w: F.conv_transpose2d(x, w, stride=2, padding=1, groups=2),
        [0, 1]),
    "interpolate_nearest": (
        [(2, 3, 5, 6)], None,
        'ms.interpolate %a0 size [7, 3] mode "nearest" : tensor<2x3x5x6xf32>',
        lambda x: F.interpolate(x, size=(7, 3), mode="nearest"), [0]),
    "interpolate_bilinear": (
        [(2, 2, 5, 6)], None,
        'ms.interpolate %a0 size [9, 13] mode "bilinear" : '
        "tensor<2x2x5x6xf32>",
        lambda x: F.interpolate(x, size=(9, 13), mode="bilinear",
                                align_corners=False), [0]),
    "interpolate_bilinear_align_corners": (
        [(1, 3, 5, 6)], None,
        'ms.interpolate %a0 size [3, 8] mode "bilinear" align_corners : '
        "tensor<1x3x5x6xf32>",
        lambda x: F.interpolate(x, size=(3, 8), mode="bilinear",
                                align_corners=True), [0]),
    "interpolate_bilinear_scale_factor": (
        [(1, 2, 4, 5)], None,
        'ms.interpolate %a0 size [8, 10] mode "bilinear" scales [0.5, 0.5] : '
        "tensor<1x2x4x5xf32>",
        lambda x: F.interpolate(x, scale_factor=2, mode="bilinear"), [0]),
    # The backward ops (second order, MindSpore's bprops of the *Grad ops).
    "relu_grad": ([(4, 5), (4, 5)], [None, "spread"],
                  "ms.relu_grad %a0, %a1 : tensor<4x5xf32>, tensor<4x5xf32>",
                  lambda dy, y: dy * (y > 0), [0, 1]),
    "gelu_grad_tanh": ([(4, 5), (4, 5)], None,
                       "ms.gelu_grad %a0, %a1 : tensor<4x5xf32>, "
                       "tensor<4x5xf32>",
                       lambda dy, x: t_gelu_grad(dy, x, True), [0, 1]),
    "gelu_grad_exact": ([(4, 5), (4, 5)], None,
                        "ms.gelu_grad %a0, %a1 {approximate = false} : "
                        "tensor<4x5xf32>, tensor<4x5xf32>",
                        lambda dy, x: t_gelu_grad(dy, x, False), [0, 1]),
    "max_pool2d_grad_tiles": (
        [(2, 3, 6, 6), (2, 3, 3, 3)], ["spread", None],
        "ms.max_pool2d_grad %a0, %a1 kernel_size [2, 2] stride [2, 2] : "
        "tensor<2x3x6x6xf32>, tensor<2x3x3x3xf32>",
        t_backward_of(lambda x: F.max_pool2d(x, 2, 2)), [0, 1]),
    "max_pool2d_grad_same": (
        [(1, 2, 7, 8), (1, 2, 4, 4)], ["spread", None],
        "ms.max_pool2d_grad %a0, %a1 kernel_size [3, 3] stride [2, 2] "
        'pad_mode "same" : tensor<1x2x7x8xf32>, tensor<1x2x4x4xf32>',
        t_backward_of(lambda x: t_pool_same(x, 3, 2, "max")), [0, 1]),
    "max_pool2d_grad_grad": (
        [(1, 2, 7, 6), (1, 2, 7, 6)], ["spread", None],
        "ms.max_pool2d_grad_grad %a0, %a1 kernel_size [3, 2] stride [2, 2] : "
        "tensor<1x2x7x6xf32>, tensor<1x2x7x6xf32>",
        lambda x, g: t_max_at_first_max(x, g, (3, 2), (2, 2)), [0, 1]),
    "avg_pool2d_grad_same": (
        [(1, 2, 7, 8), (1, 2, 4, 8)], None,
        "ms.avg_pool2d_grad %a0, %a1 kernel_size [3, 3] stride [2, 1] "
        'pad_mode "same" : tensor<1x2x7x8xf32>, tensor<1x2x4x8xf32>',
        t_backward_of(lambda x: t_pool_same(x, 3, (2, 1), "avg")), [0, 1]),
    "conv2d_backprop_filter": (
        [(1, 6, 5, 5), (1, 4, 9, 9)], None,
        'ms.conv2d_backprop_filter %a0, %a1 shape [6, 2, 3, 3] pad_mode "pad" '
        "padding [1, 1, 1, 1] stride [2, 2] group 2 : tensor<1x6x5x5xf32>, "
        "tensor<1x4x9x9xf32>",
        lambda dy, x: t_filter_grad(dy, x, (6, 2, 3, 3), stride=2, padding=1,
                                    groups=2), [0, 1]),
    "gather_elements_grad": (
        [(4, 3), (4, 3)], [None, ("index", 5)],
        "ms.gather_elements_grad %a0, %a1 axis 1 size 5 : tensor<4x3xf32>, "
        "tensor<4x3xi32>",
        lambda dy, i: t_scatter_add(dy, i, 5, 1), [0]),
    # One process: a world of one rank, so each reduction is the identity
    # and each cotangent dy (prod's through dy * y / x).
    "all_reduce_sum": ([(4, 3)], None, "ms.all_reduce %a0 : tensor<4x3xf32>",
                       lambda x: x * 1.0, [0]),
    "all_reduce_max": ([(4, 3)], None,
                       'ms.all_reduce %a0 reduce_op "max" : tensor<4x3xf32>',
                       lambda x: x * 1.0, [0]),
    "all_reduce_prod": ([(4, 3)], [P],
                        'ms.all_reduce %a0 reduce_op "prod" : '
                        "tensor<4x3xf32>",
                        lambda x: x * 1.0, [0]),
    # Ops with index, mask or rng-state operands, which get no cotangent.
    "select": ([(4, 3), (4, 3), (3,)], ["mask", None, None],
               "ms.select %a0, %a1, %a2 : tensor<4x3xi1>, tensor<4x3xf32>, "
               "tensor<3xf32>",
               torch.where, [1, 2]),
    "gather": ([(5, 4), (3,)], [None, ("index", 5)],
               "ms.gather %a0, %a1 axis 0 : tensor<5x4xf32>, tensor<3xi32>",
               lambda x, i: x[i], [0]),
    "gather_elements": ([(4, 5), (4, 3)], [None, ("index", 5)],
                        "ms.gather_elements %a0, %a1 axis 1 : "
                        "tensor<4x5xf32>, tensor<4x3xi32>",
                        lambda x, i: torch.gather(x, 1, i), [0]),
    "scatter_update": ([(6, 4), (2,), (2, 4)], [None, ("distinct", 6), None],
                       "ms.scatter_update %a0, %a1, %a2 : tensor<6x4xf32>, "
                       "tensor<2xi32>, tensor<2x4xf32>",
                       lambda x, i, u: x.index_put((i,), u), [0, 2]),
    "floor_div": ([(4, 3), (4, 3)], [None, P],
                  "ms.floor_div %a0, %a1 : tensor<4x3xf32>, tensor<4x3xf32>",
                  lambda a, b: torch.floor_divide(a, b).detach(), [0, 1]),
    "dropout_training": (
        [(4, 5), (2,)], [None, ("state", [77, 5])],
        "ms.dropout %a0, %a1 {p = 2.500000e-01 : f32, training} : "
        "tensor<4x5xf32>, tensor<2xi64>",
        lambda x, state: t_dropout(x, 0.25, state), [0]),
    "stop_gradient": ([(4, 5)], None,
                      "ms.stop_gradient %a0 : tensor<4x5xf32>",
                      lambda x: x.detach(), [0]),
}


def case_arrays(name):
    shapes, kinds, _, _, _ = CASES[name]
    kinds = kinds or [None] * len(shapes)
    return [rand(s, seed=17 * i + len(name), kind=k or "normal")
            for i, (s, k) in enumerate(zip(shapes, kinds))]


def case_setup(name):
    shapes, _, op_text, fn, wrt = CASES[name]
    arrays = case_arrays(name)
    with torch.no_grad():
        out_shape = tuple(fn(*[torch_tensor(a) for a in arrays]).shape)
    source = module(shapes, op_text, out_shape,
                    [ELEMENT_TYPES[a.dtype] for a in arrays])
    sens = rand(out_shape, seed=99)
    return source, arrays, sens, fn, wrt


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradient_matches_torch(name):
    source, arrays, sens, fn, wrt = case_setup(name)
    got = run_grad(source, arrays, [sens], wrt)
    want = torch_grads(fn, arrays, sens, wrt)
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        what = "value" if i == 0 else f"gradient of argument {wrt[i - 1]}"
        assert g.shape == w.shape, (what, g.shape, w.shape)
        if not np.any(w):
            assert not np.any(g), what
        else:
            assert_close(g, w, rtol=1e-5)


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradient_bits_same_in_every_mode(name):
    source, arrays, sens, _, wrt = case_setup(name)
    base = run_grad(source, arrays, [sens], wrt, "O0", "sink")
    for level in ("O0", "O1", "O2"):
        for exc_mode in ("sink", "no_sink"):
            if (level, exc_mode) == ("O0", "sink"):
                continue
            got = run_grad(source, arrays, [sens], wrt, level, exc_mode)
            for g, b in zip(got, base):
                assert_bitwise(g, b)


def test_max_pool2d_ties_go_to_the_first_element():
    x = np.zeros((1, 1, 2, 4), np.float32)
    x[0, 0, :, 2:] = 5.0  # the right window is all ties
    source = module([x.shape], "ms.max_pool2d %a0 kernel_size [2, 2] "
                    "stride [2, 2] : tensor<1x1x2x4xf32>", (1, 1, 1, 2))
    sens = np.array([[[[3.0, 7.0]]]], np.float32)
    _, dx = run_grad(source, [x], [sens], [0])
    assert dx.tolist() == [[[[3.0, 0.0, 7.0, 0.0], [0.0, 0.0, 0.0, 0.0]]]]


@pytest.mark.parametrize("geometry", [
    "kernel_size [2, 2] stride [2, 2]",
    'kernel_size [3, 3] stride [2, 2] pad_mode "same"',
    "kernel_size [3, 2] stride [1, 2]"])
def test_max_pool2d_grad_grad_is_the_transpose_of_max_pool2d_grad(geometry):
    """<ddx, max_pool2d_grad(x, dy)> = <max_pool2d_grad_grad(x, ddx), dy>,
    with ties, -inf and NaN in x: every tie, and every window with no
    element above -inf, picks the same position in both ops. Both sides sum
    the same products, up to max_pool2d_grad's f32 sums where windows
    overlap; one different pick would move them by about 1."""
    x = np.round(rand((1, 2, 6, 6), 3) * 2).astype(np.float32) / 2  # ties
    x[0, 0, :2, :2] = -np.inf
    x[0, 1, 4:, :2] = np.nan
    x[0, 1, :3, 3:] = -np.inf
    shape = "tensor<1x2x6x6xf32>"
    out = {"kernel_size [2, 2] stride [2, 2]": (1, 2, 3, 3),
           'kernel_size [3, 3] stride [2, 2] pad_mode "same"': (1, 2, 3, 3),
           "kernel_size [3, 2] stride [1, 2]": (1, 2, 4, 3)}[geometry]
    dy, ddx = rand(out, 4), rand(x.shape, 5)

    def run(op_text, args, result_shape):
        source = module([a.shape for a in args], op_text, result_shape)
        graph = native.Compiler().compile(
            source,
            native.CompileOptions(jit_level="O0", exc_mode="sink"),
            "construct", "<transpose test>")
        return np.array(graph.run([native.HostTensor.from_buffer(a)
                                   for a in args])[0], np.float64)
    dx = run(f"ms.max_pool2d_grad %a0, %a1 {geometry} : {shape}, "
             f"{mlir_type(out)}", [x, dy], x.shape)
    ddy = run(f"ms.max_pool2d_grad_grad %a0, %a1 {geometry} : {shape}, "
              f"{shape}", [x, ddx], out)
    assert np.sum(ddx * dx) == pytest.approx(np.sum(ddy * dy), rel=1e-6)
    # Each window picks one element of ddx (0 for a padded position).
    assert np.isin(ddy, np.append(ddx, 0)).all()


def test_value_used_twice_accumulates():
    source = ("func.func @construct(%x: tensor<3xf32>) -> tensor<3xf32> {\n"
              "  %0 = ms.mul %x, %x : tensor<3xf32>, tensor<3xf32>\n"
              "  %1 = ms.add %0, %x : tensor<3xf32>, tensor<3xf32>\n"
              "  return %1 : tensor<3xf32>\n}\n")
    x = np.array([1.0, -2.0, 0.5], np.float32)
    _, dx = run_grad(source, [x], [np.ones(3, np.float32)], [0])
    np.testing.assert_array_equal(dx, 2 * x + 1)


def test_several_results_and_unused_argument():
    source = ("func.func @construct(%x: tensor<3xf32>, %y: tensor<3xf32>, "
              "%z: tensor<2xf32>) -> (tensor<3xf32>, tensor<3xf32>) {\n"
              "  %0 = ms.mul %x, %y : tensor<3xf32>, tensor<3xf32>\n"
              "  %1 = ms.exp %x : tensor<3xf32>\n"
              "  return %0, %1 : tensor<3xf32>, tensor<3xf32>\n}\n")
    x, y = rand(3, 1), rand(3, 2)
    z = rand(2, 3)
    s0, s1 = rand(3, 4), rand(3, 5)
    out = run_grad(source, [x, y, z], [s0, s1], [0, 1, 2])
    assert len(out) == 5
    assert_close(out[2], s0 * y + s1 * np.exp(x.astype(np.float64)))
    assert_close(out[3], s0 * x)
    assert out[4].shape == (2,) and not np.any(out[4])


def test_default_wrt_and_grad_name():
    source = module([(2, 2)], "ms.relu %a0 : tensor<2x2xf32>", (2, 2))
    text = native.autodiff(source, "construct", [], "my_grad")
    assert "func.func @my_grad(" in text
    # (x, sens) -> (relu(x), dx); arguments carry their locations.
    assert "-> (tensor<2x2xf32>, tensor<2x2xf32>)" in text
    assert text.count("%arg1: tensor<2x2xf32>") == 1


def test_errors_are_located_msErrors():
    source = ('func.func @construct(%x: tensor<3xf32>, %i: tensor<3xi32>) '
              '-> tensor<3xf32> {\n'
              '  %0 = arith.addf %x, %x : tensor<3xf32> '
              'loc("net.py":7:0)\n'
              '  return %0 : tensor<3xf32>\n}\n')
    with pytest.raises(native.MSError,
                       match=r"net.py:7:0: error: ms-autodiff: "
                             r"'arith.addf' has no gradient rule"):
        native.autodiff(source, "construct", [0])
    with pytest.raises(native.MSError, match="wrt index 5 is out of range"):
        native.autodiff(source, "construct", [5])
    with pytest.raises(native.MSError, match="not a float tensor"):
        native.autodiff(source, "construct", [1])
    with pytest.raises(native.MSError, match="no function named '@nope'"):
        native.autodiff(source, "nope", [0])
    with pytest.raises(native.MSError, match="error"):
        native.autodiff("func.func @construct(", "construct", [0])


def example(path):
    with open(os.path.join(SOURCE_DIR, "examples", path)) as f:
        return f.read()


def _check_network(source, shapes, fn, scale):
    """Gradients of sum(sens * net(x, params)) for every argument."""
    arrays = network_arrays(shapes, scale)
    with torch.no_grad():
        out_shape = tuple(fn(*[torch.tensor(a, dtype=torch.float64)
                               for a in arrays]).shape)
    sens = rand(out_shape, seed=123)
    wrt = list(range(len(shapes)))
    got = run_grad(source, arrays, [sens], wrt, "O2")
    want = torch_grads(fn, arrays, sens, wrt)
    # torch in float32 on the same data: where its own error against the
    # float64 reference passes half the 1e-5 bar (long, cancelling sums
    # such as LeNet's conv2 weight gradient), ms may be off by twice that.
    tensors = [torch.tensor(a, requires_grad=True) for a in arrays]
    out = fn(*tensors)
    out.backward(torch.tensor(sens))
    torch32 = [out.detach().numpy()] + [t.grad.numpy() for t in tensors]
    for g, w, t in zip(got, want, torch32):
        assert_close(g, w, rtol=max(1e-5, 2 * relative_error(t, w)))
    # PyNative-style (kernel by kernel) gives the same bits.
    for g, b in zip(run_grad(source, arrays, [sens], wrt, "O0", "no_sink"),
                    got):
        assert_bitwise(g, b)


def torch_mlp(x, w0, b0, w2, b2, w4, b4):
    """examples/mlp.mlir in torch."""
    h = torch.relu(F.linear(x.flatten(1), w0, b0))
    h = torch.relu(F.linear(h, w2, b2))
    return F.linear(h, w4, b4)


def torch_lenet(x, c1, c2, w1, b1, w2, b2, w3, b3):
    """examples/lenet/lenet5.mlir in torch."""
    h = F.max_pool2d(torch.relu(F.conv2d(x, c1)), 2, 2)
    h = F.max_pool2d(torch.relu(F.conv2d(h, c2)), 2, 2)
    h = torch.relu(F.linear(h.flatten(1), w1, b1))
    h = torch.relu(F.linear(h, w2, b2))
    return F.linear(h, w3, b3)


# (example source, argument shapes, torch function, weight scale)
NETWORKS = {
    "mlp": ("mlp.mlir", [(64, 1, 28, 28), (512, 784), (512,), (512, 512),
                         (512,), (10, 512), (10,)], torch_mlp, 0.05),
    "lenet": ("lenet/lenet5.mlir", [(64, 1, 32, 32), (6, 1, 5, 5),
                                    (16, 6, 5, 5), (120, 400), (120,),
                                    (84, 120), (84,), (10, 84), (10,)],
              torch_lenet, 0.2),
}


def network_arrays(shapes, scale):
    return [(rand(s, seed=i) * (scale if i else 1.0)).astype(np.float32)
            for i, s in enumerate(shapes)]


def test_seed_mlp_gradients():
    path, shapes, fn, scale = NETWORKS["mlp"]
    _check_network(example(path), shapes, fn, scale)


def test_lenet_gradients():
    path, shapes, fn, scale = NETWORKS["lenet"]
    _check_network(example(path), shapes, fn, scale)


def _compiled_grad(source, wrt):
    text = native.autodiff(source, "construct", wrt)
    graph = native.Compiler().compile(
        text,
        native.CompileOptions(jit_level="O0", exc_mode="sink"),
        "construct_grad", "<autodiff fd>")

    def run(arrays, sens):
        inputs = [native.HostTensor.from_buffer(np.require(a, requirements="C"))
                  for a in list(arrays) + [sens]]
        return [np.array(o, dtype=np.float64) for o in graph.run(inputs)]
    return run


# Finite differences need float64 to be sharp, and ms ops are float32 only
# (MS_Tensor); this is the float32 fallback: central differences along a
# random direction, an independent check of every rule (no torch involved).
FD_SKIP = {"stop_gradient"}  # its gradient is zero by definition


@pytest.mark.parametrize("name", sorted(set(CASES) - FD_SKIP))
def test_gradient_matches_central_differences(name):
    source, arrays, sens, _, wrt = case_setup(name)
    run = _compiled_grad(source, wrt)
    rng = np.random.default_rng(7)
    directions = {i: rng.standard_normal(arrays[i].shape) for i in wrt}
    grads = run(arrays, sens)[1:]
    analytic = sum(float(np.sum(g * directions[i]))
                   for g, i in zip(grads, wrt))
    h = 1e-3

    def value(sign):
        moved = [a + sign * h * directions[i] if i in directions else a
                 for i, a in enumerate(arrays)]
        out = run([m.astype(np.float32) if m.dtype.kind == "f" else m
                   for m in moved], sens)[0]
        return float(np.sum(out * sens.astype(np.float64)))
    numeric = (value(1) - value(-1)) / (2 * h)
    scale = max(abs(analytic), 1.0)
    assert abs(numeric - analytic) <= 5e-3 * scale, (numeric, analytic)


def test_tie_rules():
    """reduce_max splits the cotangent evenly between tied maxima (as
    MindSpore and torch's amax do); maximum gives a tie to lhs and minimum
    too (MindSpore's MaximumGrad/MinimumGrad)."""
    x = np.array([[1.0, 3.0, 3.0, 0.0]], np.float32)
    source = module([x.shape], "ms.reduce_max %a0 axes [1] : tensor<1x4xf32>",
                    (1,))
    _, dx = run_grad(source, [x], [np.array([6.0], np.float32)], [0])
    assert dx.tolist() == [[0.0, 3.0, 3.0, 0.0]]
    a = np.array([1.0, 2.0, 3.0], np.float32)
    b = np.array([1.0, 5.0, 0.0], np.float32)
    sens = np.array([10.0, 20.0, 30.0], np.float32)
    for op, to_lhs in (("maximum", [10.0, 0.0, 30.0]),
                       ("minimum", [10.0, 20.0, 0.0])):
        source = module([(3,), (3,)],
                        f"ms.{op} %a0, %a1 : tensor<3xf32>, tensor<3xf32>",
                        (3,))
        _, da, db = run_grad(source, [a, b], [sens], [0, 1])
        assert da.tolist() == to_lhs
        np.testing.assert_array_equal(da + db, sens)
