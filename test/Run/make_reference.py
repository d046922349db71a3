#!/usr/bin/env python3
"""Writes the execution tests under test/Run/ops/ and their reference data.

For every op of the first op set: an ms function (test/Run/ops/<case>.mlir,
whose RUN lines run it through ms-run in graph and PyNative mode), its inputs
and the expected output computed independently with numpy in float64
(test/Run/reference/<case>/). For the seed MLP, PyTorch (Debian's
python3-torch) makes the weights, the input and the expected output
(test/Run/reference/mlp/).

Run it from anywhere with /usr/bin/python3; the outputs are committed, so the
test suite itself needs neither this script nor PyTorch.
"""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "scripts"))
from safetensors_writer import write_safetensors  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OPS = os.path.join(HERE, "ops")
REF = os.path.join(HERE, "reference")

rng = np.random.default_rng(20261130)


def randn(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def positive(*shape):
    return rng.uniform(0.1, 4.0, shape).astype(np.float32)


def special_values(x):
    """x with NaN at each of a 2x2 window's four places, windows of -0 and
    +0 (first one, then the other), +-inf and tied values."""
    x = x.copy()
    nan, inf = np.float32("nan"), np.float32("inf")
    for k, (r, c) in enumerate([(0, 0), (0, 1), (1, 0), (1, 1)]):
        x[0, 0, r, 2 * k + c] = nan
    x[0, 0, 2:4, 0:2] = [[-0.0, 0.0], [-0.0, -0.0]]
    x[0, 0, 2:4, 2:4] = [[0.0, -0.0], [-0.0, -0.0]]
    x[0, 0, 2:4, 4:6] = [[-0.0, -0.0], [-0.0, -0.0]]
    x[0, 0, 2:4, 6:8] = [[-1.0, -0.0], [-2.0, -3.0]]
    x[0, 1, 0:2, 0:2] = [[inf, 1.0], [2.0, nan]]
    x[0, 1, 0:2, 2:4] = [[-inf, -inf], [-inf, -inf]]
    x[0, 1, 2:4, 0:2] = [[1.5, 1.5], [1.5, -1.5]]
    x[0, 1, 2:4, 2:4] = [[inf, -inf], [0.5, 2.0]]
    return x


def with_nan(x, index):
    x = x.copy()
    x[index] = np.float32("nan")
    return x


def f64(*xs):
    return [x.astype(np.float64) for x in xs]


def erf(x):
    return np.vectorize(math.erf)(x)


def layer_norm(x, begin_norm_axis, gamma, beta, epsilon):
    axes = tuple(range(begin_norm_axis, x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    return (x - mean) / np.sqrt(var + epsilon) * gamma + beta


def conv_bn_relu(x, w, b, gamma, beta, mean, var):
    """PyTorch's conv2d ('same' for a 3x3 kernel at stride 1 is padding 1),
    eval-mode batch_norm and relu."""
    import torch
    t = [torch.from_numpy(a) for a in (x, w, b, gamma, beta, mean, var)]
    y = torch.nn.functional.conv2d(t[0], t[1], t[2], padding=1)
    y = torch.nn.functional.batch_norm(y, t[5], t[6], t[3], t[4],
                                       training=False, eps=1e-5)
    return torch.relu(y).numpy()


def softmax(x, axis):
    z = x - x.max(axis=axis, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=axis, keepdims=True)


def log_softmax(x, axis):
    z = x - x.max(axis=axis, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=axis, keepdims=True))


def conv2d(x, w, b=None, pad=(0, 0, 0, 0), stride=(1, 1), dilation=(1, 1),
           group=1):
    """PyTorch's conv2d in float64 on explicitly padded input
    (pad = top, bottom, left, right, as MindSpore orders it)."""
    import torch
    t = torch.nn.functional.pad(torch.from_numpy(x),
                                (pad[2], pad[3], pad[0], pad[1]))
    y = torch.nn.functional.conv2d(
        t, torch.from_numpy(w), None if b is None else torch.from_numpy(b),
        stride=stride, dilation=dilation, groups=group)
    return y.numpy()


def same_pad(size, kernel, stride, dilation):
    """MindSpore's pad_mode="same": output ceil(size / stride), the odd row
    of padding at the bottom/right."""
    out = -(-size // stride)
    total = max((out - 1) * stride + dilation * (kernel - 1) + 1 - size, 0)
    return total // 2, total - total // 2


def pool2d(x, kernel, stride, same, kind):
    """Window max or mean in float64 by explicit loops; with "same", the
    windows are clipped to the real elements (padding never counts)."""
    n, c, h, w = x.shape
    pads = [same_pad(h, kernel[0], stride[0], 1) if same else (0, 0),
            same_pad(w, kernel[1], stride[1], 1) if same else (0, 0)]
    oh = (h + sum(pads[0]) - kernel[0]) // stride[0] + 1
    ow = (w + sum(pads[1]) - kernel[1]) // stride[1] + 1
    out = np.zeros((n, c, oh, ow))
    for i in range(oh):
        for j in range(ow):
            r0 = i * stride[0] - pads[0][0]
            c0 = j * stride[1] - pads[1][0]
            win = x[:, :, max(r0, 0):min(r0 + kernel[0], h),
                    max(c0, 0):min(c0 + kernel[1], w)]
            out[:, :, i, j] = (win.max(axis=(2, 3)) if kind == "max"
                               else win.mean(axis=(2, 3)))
    return out


def tensor_type(a):
    return "tensor<" + "".join(f"{d}x" for d in a.shape) + "f32>"


# name: (ms body using %a0, %a1, ...; inputs; numpy reference on float64)
CASES = {
    "dense": ("ms.dense %a0, %a1, %a2 : {t0}, {t1}, {t2}",
              [randn(5, 16), randn(7, 16), randn(7)],
              lambda x, w, b: x @ w.T + b),
    "dense_rank3_nobias": ("ms.dense %a0, %a1 : {t0}, {t1}",
                           [randn(2, 3, 16), randn(7, 16)],
                           lambda x, w: x @ w.T),
    # Odd shapes: nothing divides the register tile (batch 37, 300 -> 70).
    "dense_odd": ("ms.dense %a0, %a1, %a2 : {t0}, {t1}, {t2}",
                  [randn(37, 300), randn(70, 300), randn(70)],
                  lambda x, w, b: x @ w.T + b),
    "matmul_odd": ("ms.matmul %a0, %a1 : {t0}, {t1}",
                   [randn(37, 300), randn(300, 70)], lambda a, b: a @ b),
    # conv2d against PyTorch: every pad_mode, strides, dilation, groups, odd
    # channel counts.
    "conv2d_same": ("ms.conv2d %a0, %a1, %a2 stride [2, 2] : {t0}, {t1}, {t2}",
                    [randn(2, 3, 9, 9), randn(5, 3, 3, 3), randn(5)],
                    lambda x, w, b: conv2d(x, w, b, pad=same_pad(9, 3, 2, 1) * 2,
                                           stride=(2, 2))),
    "conv2d_valid_dilated": (
        "ms.conv2d %a0, %a1 pad_mode \"valid\" dilation [2, 2] : {t0}, {t1}",
        [randn(1, 5, 11, 10), randn(7, 5, 3, 3)],
        lambda x, w: conv2d(x, w, dilation=(2, 2))),
    "conv2d_pad_group": (
        "ms.conv2d %a0, %a1, %a2 pad_mode \"pad\" padding [1, 1, 2, 2] "
        "stride [2, 2] dilation [1, 2] group 2 : {t0}, {t1}, {t2}",
        [randn(1, 4, 8, 8), randn(6, 2, 3, 3), randn(6)],
        lambda x, w, b: conv2d(x, w, b, pad=(1, 1, 2, 2), stride=(2, 2),
                               dilation=(1, 2), group=2)),
    "max_pool2d": ("ms.max_pool2d %a0 kernel_size [2, 2] stride [2, 2] : {t0}",
                   [randn(2, 3, 7, 7)],
                   lambda x: pool2d(x, (2, 2), (2, 2), False, "max")),
    "max_pool2d_same": (
        "ms.max_pool2d %a0 kernel_size [3, 3] stride [2, 2] pad_mode \"same\" : {t0}",
        [randn(1, 5, 7, 6)], lambda x: pool2d(x, (3, 3), (2, 2), True, "max")),
    "avg_pool2d": ("ms.avg_pool2d %a0 kernel_size [2, 2] stride [2, 2] : {t0}",
                   [randn(2, 3, 8, 8)],
                   lambda x: pool2d(x, (2, 2), (2, 2), False, "avg")),
    "avg_pool2d_same": (
        "ms.avg_pool2d %a0 kernel_size [3, 3] stride [2, 2] pad_mode \"same\" : {t0}",
        [randn(1, 3, 7, 7)], lambda x: pool2d(x, (3, 3), (2, 2), True, "avg")),
    # batch_norm against PyTorch's eval-mode batch_norm.
    "batch_norm": (
        "ms.batch_norm %a0, %a1, %a2, %a3, %a4 epsilon 1.000000e-03 : "
        "{t0}, {t1}, {t2}, {t3}, {t4}",
        [randn(2, 5, 4, 3), randn(5), randn(5), randn(5), positive(5)],
        lambda x, g, b, m, v: __import__("torch").nn.functional.batch_norm(
            *[__import__("torch").from_numpy(a) for a in (x, m, v, g, b)],
            training=False, eps=1e-3).numpy()),
    "matmul": ("ms.matmul %a0, %a1 : {t0}, {t1}",
               [randn(5, 9), randn(9, 6)], lambda a, b: a @ b),
    "matmul_transpose_a": ("ms.matmul %a0, %a1 transpose_a : {t0}, {t1}",
                           [randn(9, 5), randn(9, 6)], lambda a, b: a.T @ b),
    "matmul_transpose_b": ("ms.matmul %a0, %a1 transpose_b : {t0}, {t1}",
                           [randn(5, 9), randn(6, 9)], lambda a, b: a @ b.T),
    "matmul_transpose_both": (
        "ms.matmul %a0, %a1 transpose_a transpose_b : {t0}, {t1}",
        [randn(9, 5), randn(6, 9)], lambda a, b: a.T @ b.T),
    "matmul_batched": ("ms.matmul %a0, %a1 : {t0}, {t1}",
                       [randn(3, 1, 4, 5), randn(2, 5, 6)],
                       lambda a, b: np.matmul(a, b)),
    "add": ("ms.add %a0, %a1 : {t0}, {t1}", [randn(4, 10), randn(10)],
            lambda a, b: a + b),
    "sub": ("ms.sub %a0, %a1 : {t0}, {t1}", [randn(4, 1), randn(3, 1, 10)],
            lambda a, b: a - b),
    "mul": ("ms.mul %a0, %a1 : {t0}, {t1}", [randn(4, 10), randn(4, 10)],
            lambda a, b: a * b),
    "div": ("ms.div %a0, %a1 : {t0}, {t1}", [randn(4, 10), positive(4, 1)],
            lambda a, b: a / b),
    "maximum": ("ms.maximum %a0, %a1 : {t0}, {t1}",
                [randn(4, 10), randn(10)], np.maximum),
    "minimum": ("ms.minimum %a0, %a1 : {t0}, {t1}",
                [randn(4, 10), randn(10)], np.minimum),
    "relu": ("ms.relu %a0 : {t0}", [randn(6, 10)], lambda x: np.maximum(x, 0)),
    "sigmoid": ("ms.sigmoid %a0 : {t0}", [randn(6, 10) * 4],
                lambda x: 1 / (1 + np.exp(-x))),
    "tanh": ("ms.tanh %a0 : {t0}", [randn(6, 10) * 2], np.tanh),
    "gelu": ("ms.gelu %a0 : {t0}", [randn(6, 10) * 2],
             lambda x: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) *
                                              (x + 0.044715 * x ** 3)))),
    "gelu_exact": ("ms.gelu %a0 {{approximate = false}} : {t0}",
                   [randn(6, 10) * 2],
                   lambda x: 0.5 * x * (1 + erf(x / math.sqrt(2)))),
    "exp": ("ms.exp %a0 : {t0}", [randn(6, 10) * 3], np.exp),
    "log": ("ms.log %a0 : {t0}", [positive(6, 10)], np.log),
    "sqrt": ("ms.sqrt %a0 : {t0}", [positive(6, 10)], np.sqrt),
    "neg": ("ms.neg %a0 : {t0}", [randn(6, 10)], np.negative),
    "abs": ("ms.abs %a0 : {t0}", [randn(6, 10)], np.abs),
    "flatten": ("ms.flatten %a0 : {t0}", [randn(3, 2, 4, 5)],
                lambda x: x.reshape(3, -1)),
    "reshape": ("ms.reshape %a0 to [4, -1, 3] : {t0}", [randn(2, 6, 5)],
                lambda x: x.reshape(4, -1, 3)),
    "transpose": ("ms.transpose %a0 perm [2, 0, 1] : {t0}", [randn(2, 3, 4)],
                  lambda x: np.transpose(x, (2, 0, 1))),
    "concat": ("ms.concat %a0, %a1, %a2 axis -1 : {t0}, {t1}, {t2}",
               [randn(3, 2), randn(3, 5), randn(3, 1)],
               lambda a, b, c: np.concatenate([a, b, c], axis=-1)),
    "softmax": ("ms.softmax %a0 axis -1 : {t0}", [randn(5, 10) * 3],
                lambda x: softmax(x, -1)),
    "softmax_axis0": ("ms.softmax %a0 axis 0 : {t0}", [randn(5, 10) * 3],
                      lambda x: softmax(x, 0)),
    "log_softmax": ("ms.log_softmax %a0 axis 1 : {t0}", [randn(5, 10) * 3],
                    lambda x: log_softmax(x, 1)),
    "reduce_sum": ("ms.reduce_sum %a0 axes [0, 2] : {t0}", [randn(3, 4, 5)],
                   lambda x: x.sum(axis=(0, 2))),
    "reduce_mean": ("ms.reduce_mean %a0 axes [-1] keep_dims : {t0}",
                    [randn(3, 4, 5)], lambda x: x.mean(axis=-1, keepdims=True)),
    "reduce_max": ("ms.reduce_max %a0 axes [] : {t0}", [randn(3, 4, 5)],
                   lambda x: np.array(x.max())),
    "dropout": ("ms.dropout %a0 {{p = 0.5 : f32}} : {t0}", [randn(4, 10)],
                lambda x: x),
    # layer_norm: PyTorch's layer_norm where it has the same form (params
    # over the normalized dims), numpy otherwise.
    "layer_norm": (
        "ms.layer_norm %a0, %a1, %a2 begin_norm_axis 2 begin_params_axis 2 "
        "epsilon 1.000000e-05 : {t0}, {t1}, {t2}",
        [randn(2, 3, 4, 5) * 3 + 1, randn(4, 5), randn(4, 5)],
        lambda x, g, b: __import__("torch").nn.functional.layer_norm(
            *[__import__("torch").from_numpy(a) for a in (x,)], (4, 5),
            *[__import__("torch").from_numpy(a) for a in (g, b)],
            eps=1e-5).numpy()),
    "layer_norm_params_axis": (
        "ms.layer_norm %a0, %a1, %a2 begin_norm_axis 1 : {t0}, {t1}, {t2}",
        [randn(3, 4, 6), randn(6), randn(6)],
        lambda x, g, b: layer_norm(x, 1, g, b, 1e-7)),
    # conv + batch_norm + relu, which O1/O2 fuse into one epilogue after
    # the conv's matmul: the arithmetic must not change.
    "conv2d_batch_norm_relu": (
        "ms.conv2d %a0, %a1, %a2 : {t0}, {t1}, {t2}\n"
        "  %1 = ms.batch_norm %0, %a3, %a4, %a5, %a6 : tensor<2x5x9x9xf32>, "
        "{t3}, {t4}, {t5}, {t6}\n"
        "  %2 = ms.relu %1 : tensor<2x5x9x9xf32>",
        [randn(2, 3, 9, 9), randn(5, 3, 3, 3), randn(5), randn(5), randn(5),
         randn(5), positive(5)],
        lambda x, w, b, g, be, m, v: conv_bn_relu(x, w, b, g, be, m, v)),
    # Unit stride along the width and rows that fill the vector lanes, so O2
    # reads the image directly (ms-vectorize-convs): 31 columns in a whole
    # and a masked 16-lane tile, 7 channels in a 6-row tile and a 1-row one,
    # stride and padding in height, dilation in width.
    "conv2d_rows_direct": (
        "ms.conv2d %a0, %a1, %a2 stride [2, 1] dilation [1, 2] : {t0}, {t1}, {t2}",
        [randn(2, 3, 11, 31), randn(7, 3, 3, 3), randn(7)],
        lambda x, w, b: conv2d(x, w, b,
                               pad=same_pad(11, 3, 2, 1) + same_pad(31, 3, 1, 2),
                               stride=(2, 1), dilation=(1, 2))),
    # One masked tile: 14 columns of 16 lanes, 4 channels.
    "conv2d_rows_masked": (
        "ms.conv2d %a0, %a1 pad_mode \"valid\" : {t0}, {t1}",
        [randn(1, 2, 6, 16), randn(4, 2, 3, 3)],
        lambda x, w: conv2d(x, w)),
    # 16 output channels fill a vector, so O2 puts the channels in the lanes
    # and broadcasts the image (ms-vectorize-convs): strides, padding and
    # dilation; 9 columns in a 6-pixel tile and a 3-pixel one.
    "conv2d_channels_strided": (
        "ms.conv2d %a0, %a1, %a2 pad_mode \"pad\" padding [1, 1, 2, 2] "
        "stride [2, 2] dilation [1, 2] : {t0}, {t1}, {t2}",
        [randn(2, 3, 13, 17), randn(16, 3, 3, 3), randn(16)],
        lambda x, w, b: conv2d(x, w, b, pad=(1, 1, 2, 2), stride=(2, 2),
                               dilation=(1, 2))),
    # 32 channels: two 16-lane tiles.
    "conv2d_channels_32": (
        "ms.conv2d %a0, %a1 : {t0}, {t1}",
        [randn(1, 4, 6, 8), randn(32, 4, 3, 3)],
        lambda x, w: conv2d(x, w, pad=same_pad(6, 3, 1, 1) + same_pad(8, 3, 1, 1))),
    # 8 channels: one 8-lane vector.
    "conv2d_channels_8": (
        "ms.conv2d %a0, %a1 pad_mode \"valid\" : {t0}, {t1}",
        [randn(1, 2, 5, 7), randn(8, 2, 2, 2)],
        lambda x, w: conv2d(x, w)),
    # Rows of 24 pixels, which 16 lanes do not divide: O2 tiles the
    # flattened pixels, so a tile's lanes continue on the next output row
    # (ms-vectorize-convs); 3 rows of 24 are four whole tiles and a half one.
    # Stride and dilation in height, 5 channels.
    "conv2d_rows_flat": (
        "ms.conv2d %a0, %a1, %a2 pad_mode \"valid\" stride [2, 1] "
        "dilation [2, 1] : {t0}, {t1}, {t2}",
        [randn(2, 3, 9, 26), randn(5, 3, 3, 3), randn(5)],
        lambda x, w, b: conv2d(x, w, b, stride=(2, 1), dilation=(2, 1))),
    # A rotation of dims, as a dense layer's x^T: every level moves it with
    # the runtime's transpose kernel (ms-transposes-to-calls).
    "transpose_blocks": ("ms.transpose %a0 perm [1, 2, 0] : {t0}",
                         [randn(32, 3, 16)],
                         lambda x: np.transpose(x, (1, 2, 0))),
    # relu then max pool, which O1/O2 fuse and O2 combines without ordering
    # signed zeros (relu erases them): NaNs in each window position, windows
    # of -0 and +0, infinities and ties.
    "relu_max_pool_special": (
        "ms.relu %a0 : {t0}\n"
        "  %1 = ms.max_pool2d %0 kernel_size [2, 2] stride [2, 2] : {t0}",
        [special_values(randn(1, 2, 6, 12))],
        lambda x: pool2d(np.maximum(x, 0), (2, 2), (2, 2), False, "max")),
    # conv, relu, 2x2 max pool: O2 pools in the channel-lane conv tiles
    # (ms-vectorize-convs). A NaN in the image spreads to the windows that
    # read it.
    "conv2d_relu_max_pool": (
        "ms.conv2d %a0, %a1 pad_mode \"valid\" : {t0}, {t1}\n"
        "  %1 = ms.relu %0 : tensor<2x16x8x10xf32>\n"
        "  %2 = ms.max_pool2d %1 kernel_size [2, 2] stride [2, 2] : "
        "tensor<2x16x8x10xf32>",
        [with_nan(randn(2, 3, 10, 12), (1, 2, 5, 6)), randn(16, 3, 3, 3)],
        lambda x, w: pool2d(np.maximum(conv2d(x, w), 0), (2, 2), (2, 2), False,
                            "max")),
    # 32 channels (two vectors' worth of lanes at AVX-512), stride 2, and
    # 7 windows per row: with 32 registers, tiles of 3 windows and one of 1.
    "conv2d_relu_max_pool_32": (
        "ms.conv2d %a0, %a1 pad_mode \"pad\" padding [1, 1, 1, 1] stride [2, 2] "
        ": {t0}, {t1}\n"
        "  %1 = ms.relu %0 : tensor<1x32x4x14xf32>\n"
        "  %2 = ms.max_pool2d %1 kernel_size [2, 2] stride [2, 2] : "
        "tensor<1x32x4x14xf32>",
        [randn(1, 2, 8, 28), randn(32, 2, 3, 3)],
        lambda x, w: pool2d(np.maximum(conv2d(x, w, pad=(1, 1, 1, 1),
                                              stride=(2, 2)), 0),
                            (2, 2), (2, 2), False, "max")),
    # conv with bias, batch_norm, relu and a 2x2 max pool: O2 runs the bias
    # and batch_norm arithmetic on the conv tiles' accumulators, then pools.
    "conv2d_bias_batch_norm_relu_max_pool": (
        "ms.conv2d %a0, %a1, %a2 : {t0}, {t1}, {t2}\n"
        "  %1 = ms.batch_norm %0, %a3, %a4, %a5, %a6 : tensor<2x16x10x12xf32>, "
        "{t3}, {t4}, {t5}, {t6}\n"
        "  %2 = ms.relu %1 : tensor<2x16x10x12xf32>\n"
        "  %3 = ms.max_pool2d %2 kernel_size [2, 2] stride [2, 2] : "
        "tensor<2x16x10x12xf32>",
        [randn(2, 3, 10, 12), randn(16, 3, 3, 3), randn(16), randn(16),
         randn(16), randn(16), positive(16)],
        lambda x, w, b, g, be, m, v: pool2d(
            conv_bn_relu(x, w, b, g, be, m, v), (2, 2), (2, 2), False, "max")),
    # A max pool right after a conv, no relu: pooled in the tiles with exact
    # maximumf, so -0 and +0 keep their order.
    "conv2d_max_pool": (
        "ms.conv2d %a0, %a1 pad_mode \"valid\" : {t0}, {t1}\n"
        "  %1 = ms.max_pool2d %0 kernel_size [2, 2] stride [2, 2] : "
        "tensor<1x16x6x8xf32>",
        [randn(1, 4, 8, 10), randn(16, 4, 3, 3)],
        lambda x, w: pool2d(conv2d(x, w), (2, 2), (2, 2), False, "max")),
    # Windows past the vectorizers' unroll bound (kMaxUnrolledTaps, 64 taps)
    # stay in loops at O2, so compile time does not grow with the kernel:
    # 9x9 = 81 pooling taps, and a conv kernel 70 wide.
    "max_pool2d_large_window": (
        "ms.max_pool2d %a0 kernel_size [9, 9] stride [1, 1] pad_mode \"same\" : {t0}",
        [randn(1, 2, 12, 13)], lambda x: pool2d(x, (9, 9), (1, 1), True, "max")),
    "conv2d_wide_kernel": (
        "ms.conv2d %a0, %a1 pad_mode \"valid\" : {t0}, {t1}",
        [randn(1, 2, 4, 80), randn(3, 2, 2, 70)],
        lambda x, w: conv2d(x, w)),
    # With threads, x^T ([120, 300]) is split into bands of output rows,
    # the last one shorter (152 + 148 rows at 2 threads;
    # ms-transposes-to-calls). The result back fuses with the bias add at
    # every level, so it is no transpose.
    "dense_banded_transposes": (
        "ms.dense %a0, %a1, %a2 : {t0}, {t1}, {t2}",
        [randn(120, 300), randn(300, 300), randn(300)],
        lambda x, w, b: x @ w.T + b),
    # Without a bias the result back ([300, 120]) stays a transpose and is
    # split too: 64 + 56 rows at 2 threads.
    "dense_banded_transposes_nobias": (
        "ms.dense %a0, %a1 : {t0}, {t1}",
        [randn(120, 300), randn(300, 300)],
        lambda x, w: x @ w.T),
    # 25 columns, like conv1's filter gradient in LeNet-5: with 16 lanes, one
    # whole vector and a last one from column 9 that overlaps it (the
    # overlapped columns computed twice); with 8 lanes, 3 vectors and one
    # column.
    "matmul_overlapped_columns": (
        "ms.matmul %a0, %a1 : {t0}, {t1}",
        [randn(6, 784), randn(784, 25)], lambda a, b: a @ b),
    # A weight gradient's dy^T x with x's rows 2 KiB apart (512 columns):
    # ms-vectorize-matmuls reads x from a copy with rows of 528.
    "matmul_padded_rows": (
        "ms.matmul %a0, %a1 transpose_a : {t0}, {t1}",
        [randn(64, 48), randn(64, 512)], lambda a, b: a.T @ b),
    # An SGD update of a weight gradient dy^T x, w - lr * (dy^T x): O1 and
    # O2 apply it in the matmul's register tiles (ms-fuse-tile-epilogues),
    # on two threads too, where the update alone would be split in row
    # chunks over the threads.
    "matmul_sgd_update": (
        "ms.matmul %a0, %a1 transpose_a : {t0}, {t1}\n"
        "  %1 = ms.mul %a3, %0 : {t3}, tensor<128x320xf32>\n"
        "  %2 = ms.sub %a2, %1 : {t2}, tensor<128x320xf32>",
        [randn(16, 128), randn(16, 320), randn(128, 320),
         np.array(0.01, dtype=np.float32)],
        lambda dy, x, w, lr: w - lr * (dy.T @ x)),
    # A data-parallel step's gradient bucket: computed tensors flattened and
    # concatenated, then read (a function's result would be the caller's
    # buffer). O2 computes each piece in its slice of the concatenation
    # (ms-concat-in-place), the matmul's tiles included.
    "concat_computed_pieces": (
        "ms.matmul %a0, %a1 transpose_a : {t0}, {t1}\n"
        "  %1 = ms.reshape %0 to [512] : tensor<16x32xf32>\n"
        "  %2 = ms.relu %a2 : {t2}\n"
        "  %3 = ms.reshape %2 to [10] : {t2}\n"
        "  %4 = ms.concat %3, %1 axis 0 : tensor<10xf32>, tensor<512xf32>\n"
        "  %5 = ms.neg %4 : tensor<522xf32>",
        [randn(8, 16), randn(8, 32), randn(2, 5)],
        lambda dy, x, b: -np.concatenate(
            [np.maximum(b, 0).reshape(10), (dy.T @ x).reshape(512)])),
}

TEST_TEMPLATE = """\
// Generated by test/Run/make_reference.py: {name} against numpy (float64).
// Graph mode matches the reference; PyNative and every jit_level (O2 on one
// thread and on two, sunk or kernel by kernel) match graph mode at O0 bit for
// bit.
// RUN: ms-run %s --jit-level=O0 --exc-mode=sink {inputs} --output=%t.graph.npy
// RUN: %compare %t.graph.npy %S/../reference/{name}/expected.npy
// RUN: ms-run %s --mode=pynative --jit-level=O0 {inputs} --output=%t.pynative.npy
// RUN: %compare --exact %t.pynative.npy %t.graph.npy
// RUN: ms-run %s --jit-level=O1 {inputs} --output=%t.o1.npy
// RUN: %compare {level_parity} %t.o1.npy %t.graph.npy
// RUN: ms-run %s --jit-level=O2 --num-threads=1 {inputs} --output=%t.o2.npy
// RUN: %compare {level_parity} %t.o2.npy %t.graph.npy
// RUN: ms-run %s --jit-level=O2 --num-threads=2 {inputs} --output=%t.o2t2.npy
// RUN: %compare {level_parity} %t.o2t2.npy %t.graph.npy
// RUN: ms-run %s --mode=pynative --jit-level=O2 {inputs} --output=%t.pynative.o2.npy
// RUN: %compare {level_parity} %t.pynative.o2.npy %t.graph.npy
// RUN: ms-run %s --jit-level=O2 --exc-mode=no_sink {inputs} --output=%t.nosink.o2.npy
// RUN: %compare {level_parity} %t.nosink.o2.npy %t.graph.npy
func.func @construct({args}) -> {result_type} {{
  %0 = {body}
  return %{result} : {result_type}
}}
"""


def write_op_cases():
    os.makedirs(OPS, exist_ok=True)
    for name, (body, inputs, ref) in CASES.items():
        directory = os.path.join(REF, name)
        os.makedirs(directory, exist_ok=True)
        expected = np.asarray(ref(*f64(*inputs))).astype(np.float32)
        for i, x in enumerate(inputs):
            np.save(os.path.join(directory, f"in{i}.npy"), x)
        np.save(os.path.join(directory, "expected.npy"), expected)
        types = {f"t{i}": tensor_type(x) for i, x in enumerate(inputs)}
        level_parity = "--exact"
        test = TEST_TEMPLATE.format(
            name=name, level_parity=level_parity,
            inputs=" ".join(f"--input=%S/../reference/{name}/in{i}.npy"
                            for i in range(len(inputs))),
            args=", ".join(f"%a{i}: {tensor_type(x)}"
                           for i, x in enumerate(inputs)),
            result_type=tensor_type(expected),
            # A multi-op body returns the value of its last line.
            result=body.count("\n"),
            body=body.format(**types))
        with open(os.path.join(OPS, f"{name}.mlir"), "w") as f:
            f.write(test)


def write_mlp():
    import torch
    torch.manual_seed(0)
    net = torch.nn.Sequential(
        torch.nn.Linear(28 * 28, 512), torch.nn.ReLU(),
        torch.nn.Linear(512, 512), torch.nn.ReLU(),
        torch.nn.Linear(512, 10))
    x = torch.rand(64, 1, 28, 28)
    with torch.inference_mode():
        y = net(torch.flatten(x, 1))
    directory = os.path.join(REF, "mlp")
    os.makedirs(directory, exist_ok=True)
    # nn.Linear's weight is [out, in], like nn.Dense's: no transposition.
    params = {}
    for index, layer in [(0, net[0]), (2, net[2]), (4, net[4])]:
        prefix = f"dense_relu_sequential.{index}"
        params[prefix + ".weight"] = layer.weight.detach().numpy()
        params[prefix + ".bias"] = layer.bias.detach().numpy()
    write_safetensors(os.path.join(directory, "params.safetensors"), params)
    np.save(os.path.join(directory, "input.npy"), x.numpy())
    np.save(os.path.join(directory, "expected.npy"), y.numpy())


if __name__ == "__main__":
    write_op_cases()
    write_mlp()
