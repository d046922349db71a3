#!/usr/bin/env python3
"""Writes the dtype execution tests: test/Run/dtypes/<case>.mlir and their
data under test/Run/reference/dtypes/<case>/.

Each case runs an ms function on integers (i8, i16, i32, i64, ui8), bools,
float64, float16 or bfloat16 through ms-run in graph and PyNative mode at
every jit_level, and checks it against a numpy reference written here from
the ops' definitions:
  - integers wrap (two's complement) after every op, as numpy's do; ui8
    compares, maxes and converts as unsigned;
  - float64 is computed natively (reference: numpy/PyTorch in float64);
  - float16 and bfloat16 ops compute in float32 and round once per op
    (PyTorch's CPU "opmath"); the reference does the same in numpy, rounding
    to bfloat16 by bit manipulation (numpy has no bfloat16). bfloat16 cases
    take and return float32 through ms.cast, since .npy has no bfloat16.

Run it with /usr/bin/python3 from anywhere; the outputs are committed.
"""
import os

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
OPS = os.path.join(HERE, "dtypes")
REF = os.path.join(HERE, "reference", "dtypes")

rng = np.random.default_rng(20261201)

MLIR_TYPES = {
    np.dtype(np.float64): "f64", np.dtype(np.float32): "f32",
    np.dtype(np.float16): "f16", np.dtype(np.int8): "i8",
    np.dtype(np.int16): "i16", np.dtype(np.int32): "i32",
    np.dtype(np.int64): "i64", np.dtype(np.uint8): "ui8",
    np.dtype(np.bool_): "i1",
}


def tensor_type(a):
    return ("tensor<" + "".join(f"{d}x" for d in a.shape) +
            MLIR_TYPES[a.dtype] + ">")


def ints(dtype, *shape, low=None, high=None):
    info = np.iinfo(dtype)
    low = info.min if low is None else low
    high = info.max if high is None else high
    return rng.integers(low, high, shape, endpoint=True).astype(dtype)


def randn(dtype, *shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(dtype)


def wrap(value, dtype):
    """An exact integer result (int64 or Python ints) wrapped to `dtype`."""
    bits = np.iinfo(dtype).bits
    v = np.asarray(value, dtype=object) % (1 << bits)
    v = np.asarray(v, dtype=np.uint64).astype(np.dtype(f"u{bits // 8}"))
    return v.view(dtype)


def float_to_int(x, dtype):
    """ms.cast's float -> integer: truncate, NaN -> 0, clamp to int64, wrap."""
    x = np.trunc(np.asarray(x, np.float64))
    x = np.where(np.isnan(x), 0.0, x)
    x = np.clip(x, -2.0**63, 2.0**63 - 1024)
    return wrap(x.astype(np.int64), dtype)


def to_bf16(x):
    """float32 -> nearest bfloat16 (ties to even), returned as float32."""
    bits = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
    out = rounded.astype(np.uint32).view(np.float32)
    return np.where(np.isnan(x), np.float32("nan"), out)


def bf16_of_f64(x):
    """float64 -> nearest bfloat16 (ties to even), rounded once: the value
    scaled so the 8 significant bits are the integer part, np.round (half to
    even), scaled back. For normal bf16 range values, NaN and infinities."""
    x = np.asarray(x, np.float64)
    finite = np.isfinite(x) & (x != 0)
    _, e = np.frexp(np.where(finite, x, 1.0))
    scale = np.ldexp(1.0, e - 8)
    return np.where(finite, np.round(x / scale) * scale, x).astype(np.float32)


def half_op(round_to, fn, *xs):
    """One half-precision op: inputs (already half values) to float32, the
    op in float32 (from float64 then rounded, as an f32 kernel does to
    within an ulp), rounded once to the half type."""
    wide = [np.asarray(x, np.float32).astype(np.float64) for x in xs]
    return round_to(np.asarray(fn(*wide)).astype(np.float32))


def f16(x):
    return np.asarray(x, np.float32).astype(np.float16)


def softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3)))


def layer_norm(x, axis, gamma, beta, eps):
    axes = tuple(range(axis, x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def conv_pool(x, w, b):
    t = torch.nn.functional.conv2d(torch.tensor(x), torch.tensor(w),
                                   torch.tensor(b), padding=1)
    t = torch.nn.functional.max_pool2d(t.relu(), 2, 2)
    return torch.nn.functional.avg_pool2d(t, 2, 1).numpy()


def i8_unary(x):
    n = wrap(-x.astype(np.int64), np.int8)
    a = wrap(np.abs(n.astype(np.int64)), np.int8)
    s = wrap(a.astype(np.int64) + x, np.int8)
    return np.maximum(s, 0).astype(np.int8)


def i16_reductions(x):
    total = wrap(x.astype(np.int64).sum(axis=1, keepdims=True), np.int16)
    return wrap(total.astype(np.int64) - x.max(axis=1, keepdims=True),
                np.int16)


def ui8_ops(a, b):
    m = np.maximum(a, b)
    d = wrap(b.astype(np.int64) - m, np.uint8)
    return np.minimum(d, a)


def bool_moves(x):
    t = np.transpose(x, (2, 0, 1)).reshape(4, 6)
    c = np.concatenate([t, ~t], axis=0)
    p = np.pad(c, ((1, 0), (0, 2)), constant_values=True)
    return p[1:8:2, 0:7:3]


def gather_broadcast(table, ids):
    rows = np.where((ids >= 0) & (ids < table.shape[0]),
                    ids, 0)
    g = table[rows]
    g[(ids < 0) | (ids >= table.shape[0])] = 0
    return np.broadcast_to(g, (2,) + g.shape).copy()


def f16_chain(a, b):
    s = half_op(f16, np.add, a, b)
    p = half_op(f16, np.multiply, s, a)
    return half_op(f16, np.exp, p)


def f16_matmul_softmax(a, b):
    m = half_op(f16, np.matmul, a, b)
    return half_op(f16, lambda x: softmax(x, -1), m)


def bf16_chain(x, w, bias):
    xb, wb, bb = to_bf16(x), to_bf16(w), to_bf16(bias)
    d = half_op(to_bf16, lambda x, w, b: x @ w.T + b, xb, wb, bb)
    t = half_op(to_bf16, np.tanh, d)
    g = half_op(to_bf16, gelu_tanh, t)
    return half_op(to_bf16, np.add, g, d).astype(np.float32)


X_F16 = randn(np.float16, 4, 8)
X_BOOL = rng.integers(0, 2, (2, 3, 4)).astype(np.bool_)

# name: (ms body using %a0, %a1, ...; inputs; reference; comparison)
CASES = {
    "i32_arith": (
        "ms.mul %a0, %a1 : {t0}, {t1}\n"
        "  %1 = ms.add %0, %a0 : {t0}, {t0}\n"
        "  %2 = ms.sub %1, %a1 : {t0}, {t1}",
        [ints(np.int32, 4, 6), ints(np.int32, 6)],
        lambda a, b: wrap(wrap(wrap(a.astype(object) * b, np.int32)
                               .astype(object) + a, np.int32)
                          .astype(object) - b, np.int32),
        "--exact"),
    "i8_unary": (
        "ms.neg %a0 : {t0}\n"
        "  %1 = ms.abs %0 : {t0}\n"
        "  %2 = ms.add %1, %a0 : {t0}, {t0}\n"
        "  %3 = ms.relu %2 : {t0}",
        [np.concatenate([np.array([-128, 127, 0, -1, 1, -127, 100, -100],
                                  np.int8), ints(np.int8, 24)]).reshape(4, 8)],
        i8_unary, "--exact"),
    "i16_reductions": (
        "ms.reduce_sum %a0 axes [1] keep_dims : {t0}\n"
        "  %1 = ms.reduce_max %a0 axes [1] keep_dims : {t0}\n"
        "  %2 = ms.sub %0, %1 : tensor<5x1xi16>, tensor<5x1xi16>",
        [ints(np.int16, 5, 7)], i16_reductions, "--exact"),
    "i64_matmul_batched": (
        "ms.matmul %a0, %a1 transpose_b : {t0}, {t1}",
        [ints(np.int64, 2, 4, 5, low=-1000, high=1000),
         ints(np.int64, 3, 5, low=-1000, high=1000)],
        lambda a, b: a @ b.T, "--exact"),
    "i8_matmul_wraps": (
        "ms.matmul %a0, %a1 : {t0}, {t1}",
        [ints(np.int8, 6, 16), ints(np.int8, 16, 7)],
        lambda a, b: wrap(a.astype(np.int64) @ b.astype(np.int64), np.int8),
        "--exact"),
    "i32_dense": (
        "ms.dense %a0, %a1, %a2 : {t0}, {t1}, {t2}",
        [ints(np.int32, 3, 4, 8, low=-50, high=50),
         ints(np.int32, 5, 8, low=-50, high=50),
         ints(np.int32, 5, low=-50, high=50)],
        lambda x, w, b: x @ w.T + b, "--exact"),
    "ui8_max_sub_min": (
        "ms.maximum %a0, %a1 : {t0}, {t1}\n"
        "  %1 = ms.sub %a1, %0 : {t1}, {t0}\n"
        "  %2 = ms.minimum %1, %a0 : {t0}, {t0}",
        [ints(np.uint8, 4, 8), ints(np.uint8, 4, 8)], ui8_ops, "--exact"),
    "ui8_less": (
        "ms.less %a0, %a1 : {t0}, {t1}",
        [ints(np.uint8, 4, 8), ints(np.uint8, 8)],
        lambda a, b: a < b, "--exact"),
    "ui8_argmax": (
        "ms.argmax %a0 axis 1 output_type i64 : {t0}",
        [ints(np.uint8, 6, 9)], lambda a: np.argmax(a, axis=1), "--exact"),
    "ui8_reduce_max_relu": (
        "ms.reduce_max %a0 axes [0] : {t0}\n"
        "  %1 = ms.relu %0 : tensor<9xui8>",
        [ints(np.uint8, 6, 9)], lambda a: a.max(axis=0), "--exact"),
    "ui8_to_f32": (
        "ms.cast %a0 to f32 : {t0}\n"
        "  %1 = ms.mul %0, %a1 : tensor<4x8xf32>, {t1}",
        [ints(np.uint8, 4, 8), randn(np.float32, 8)],
        lambda a, f: (a.astype(np.float32) * f.astype(np.float32)),
        "--rtol=1e-6"),
    "f32_to_ui8": (
        "ms.cast %a0 to ui8 : {t0}",
        [np.concatenate([np.array([-1.7, 255.9, 256.0, 300.5, -300.5, np.nan,
                                   1e20, -1e20], np.float32),
                         (rng.uniform(-400, 400, 24)).astype(np.float32)])
         .reshape(4, 8)],
        lambda x: float_to_int(x, np.uint8), "--exact"),
    "bool_data_movement": (
        "ms.transpose %a0 perm [2, 0, 1] : {t0}\n"
        "  %1 = ms.reshape %0 to [4, 6] : tensor<4x2x3xi1>\n"
        "  %2 = ms.logical_not %1 : tensor<4x6xi1>\n"
        "  %3 = ms.concat %1, %2 axis 0 : tensor<4x6xi1>, tensor<4x6xi1>\n"
        "  %4 = ms.pad %3 low [1, 0] high [0, 2] value 1.0 : tensor<8x6xi1>\n"
        "  %5 = ms.slice %4 begin [1, 0] end [9, 8] strides [2, 3] : "
        "tensor<9x8xi1>",
        [X_BOOL], bool_moves, "--exact"),
    "i8_gather_broadcast": (
        "ms.gather %a0, %a1 axis 0 : {t0}, {t1}\n"
        "  %1 = ms.broadcast_to %0 to [2, 5, 3] : tensor<5x3xi8>",
        [ints(np.int8, 4, 3), np.array([3, 0, -1, 4, 2], np.int32)],
        gather_broadcast, "--exact"),
    "i16_select": (
        "ms.select %a0, %a1, %a2 : {t0}, {t1}, {t2}",
        [rng.integers(0, 2, (4, 1)).astype(np.bool_), ints(np.int16, 4, 6),
         ints(np.int16, 6)],
        lambda c, x, y: np.where(c, x, y), "--exact"),
    "f64_dense_relu_softmax": (
        "ms.dense %a0, %a1, %a2 : {t0}, {t1}, {t2}\n"
        "  %1 = ms.relu %0 : tensor<6x10xf64>\n"
        "  %2 = ms.softmax %1 axis -1 : tensor<6x10xf64>",
        [randn(np.float64, 6, 32), randn(np.float64, 10, 32),
         randn(np.float64, 10)],
        lambda x, w, b: softmax(np.maximum(x @ w.T + b, 0), -1),
        "--rtol=1e-12"),
    "f64_conv_pool": (
        "ms.conv2d %a0, %a1, %a2 : {t0}, {t1}, {t2}\n"
        "  %1 = ms.relu %0 : tensor<2x8x8x8xf64>\n"
        "  %2 = ms.max_pool2d %1 kernel_size [2, 2] stride [2, 2] : "
        "tensor<2x8x8x8xf64>\n"
        "  %3 = ms.avg_pool2d %2 kernel_size [2, 2] : tensor<2x8x4x4xf64>",
        [randn(np.float64, 2, 3, 8, 8), randn(np.float64, 8, 3, 3, 3),
         randn(np.float64, 8)],
        conv_pool, "--rtol=1e-12"),
    "f64_transcendentals": (
        "ms.sigmoid %a0 : {t0}\n"
        "  %1 = ms.tanh %0 : {t0}\n"
        "  %2 = ms.exp %1 : {t0}\n"
        "  %3 = ms.gelu %2 {{approximate = false}} : {t0}\n"
        "  %4 = ms.sqrt %3 : {t0}\n"
        "  %5 = ms.log %4 : {t0}\n"
        "  %6 = ms.div %5, %a0 : {t0}, {t0}",
        [randn(np.float64, 6, 10, scale=3.0)],
        lambda x: np.log(np.sqrt(torch.nn.functional.gelu(torch.tensor(
            np.exp(np.tanh(1 / (1 + np.exp(-x)))))).numpy())) / x,
        "--rtol=1e-12"),
    "f64_norms": (
        "ms.layer_norm %a0, %a1, %a1 begin_norm_axis 1 begin_params_axis 1 "
        "epsilon 1.000000e-05 "
        ": {t0}, {t1}, {t1}\n"
        "  %1 = ms.batch_norm %0, %a2, %a2, %a2, %a3 : {t0}, {t2}, {t2}, "
        "{t2}, {t3}\n"
        "  %2 = ms.reduce_mean %1 axes [2, 3] : {t0}\n"
        "  %3 = ms.log_softmax %2 axis 1 : tensor<2x3xf64>",
        [randn(np.float64, 2, 3, 4, 5), randn(np.float64, 3, 4, 5),
         randn(np.float64, 3), np.abs(randn(np.float64, 3)) + 0.5],
        lambda x, g, c, v: torch.log_softmax(torch.tensor(
            ((layer_norm(x, 1, g, g, 1e-5) - c[:, None, None]) /
             np.sqrt(v[:, None, None] + 1e-5) * c[:, None, None] +
             c[:, None, None]).mean(axis=(2, 3))), 1).numpy(),
        "--rtol=1e-12"),
    "f16_chain": (
        "ms.add %a0, %a1 : {t0}, {t1}\n"
        "  %1 = ms.mul %0, %a0 : {t0}, {t0}\n"
        "  %2 = ms.exp %1 : {t0}",
        [X_F16, randn(np.float16, 8)], f16_chain, "--rtol=1e-3"),
    "f16_matmul_softmax": (
        "ms.matmul %a0, %a1 : {t0}, {t1}\n"
        "  %1 = ms.softmax %0 axis -1 : tensor<4x6xf16>",
        [randn(np.float16, 4, 40), randn(np.float16, 40, 6, scale=0.2)],
        f16_matmul_softmax, "--rtol=1e-3"),
    "bf16_dense_tanh_gelu": (
        "ms.cast %a0 to bf16 : {t0}\n"
        "  %1 = ms.cast %a1 to bf16 : {t1}\n"
        "  %2 = ms.cast %a2 to bf16 : {t2}\n"
        "  %3 = ms.dense %0, %1, %2 : tensor<4x24xbf16>, tensor<6x24xbf16>, "
        "tensor<6xbf16>\n"
        "  %4 = ms.tanh %3 : tensor<4x6xbf16>\n"
        "  %5 = ms.gelu %4 : tensor<4x6xbf16>\n"
        "  %6 = ms.add %5, %3 : tensor<4x6xbf16>, tensor<4x6xbf16>\n"
        "  %7 = ms.cast %6 to f32 : tensor<4x6xbf16>",
        [randn(np.float32, 4, 24), randn(np.float32, 6, 24, scale=0.3),
         randn(np.float32, 6)],
        bf16_chain, "--rtol=8e-3"),
    "f64_to_bf16_rounds_once": (
        "ms.cast %a0 to bf16 : {t0}\n"
        "  %1 = ms.cast %0 to f32 : tensor<4x4xbf16>",
        [np.array([1.00390625 + 1e-9, 1.00390625, 1.01171875, -3.3, 1e5,
                   65519.0, 1e-30, np.nan, -np.inf, 300.7,
                   1.00390625 - 1e-12, -1.00390625 - 1e-9, 2.0**-126, 0.0,
                   -0.0, 3.0e38], np.float64).reshape(4, 4)],
        bf16_of_f64, "--exact"),
    "int_to_bf16_rounds_once": (
        "ms.cast %a0 to bf16 : {t0}\n"
        "  %1 = ms.cast %0 to f32 : tensor<8xbf16>",
        [np.array([257, 2**24 + 2**16 + 1, -(2**24 + 2**16 + 1), 100000, 7,
                   -1, 2**31 - 1, -2**31], np.int32)],
        lambda x: bf16_of_f64(x.astype(np.float64)), "--exact"),
}

TEST_TEMPLATE = """\
// Generated by test/Run/make_dtype_reference.py: {name} against numpy.
// Graph mode matches the reference; PyNative and every jit_level (O2 on one
// thread and on two, sunk or kernel by kernel) match graph mode at O0 bit for
// bit.
// RUN: ms-run %s --jit-level=O0 --exc-mode=sink {inputs} --output=%t.graph.npy
// RUN: %compare {check} %t.graph.npy %S/../reference/dtypes/{name}/expected.npy
// RUN: ms-run %s --mode=pynative --jit-level=O0 {inputs} --output=%t.pynative.npy
// RUN: %compare --exact %t.pynative.npy %t.graph.npy
// RUN: ms-run %s --jit-level=O1 {inputs} --output=%t.o1.npy
// RUN: %compare --exact %t.o1.npy %t.graph.npy
// RUN: ms-run %s --jit-level=O2 --num-threads=1 {inputs} --output=%t.o2.npy
// RUN: %compare --exact %t.o2.npy %t.graph.npy
// RUN: ms-run %s --jit-level=O2 --num-threads=2 {inputs} --output=%t.o2t2.npy
// RUN: %compare --exact %t.o2t2.npy %t.graph.npy
// RUN: ms-run %s --mode=pynative --jit-level=O2 {inputs} --output=%t.pynative.o2.npy
// RUN: %compare --exact %t.pynative.o2.npy %t.graph.npy
// RUN: ms-run %s --jit-level=O2 --exc-mode=no_sink {inputs} --output=%t.nosink.o2.npy
// RUN: %compare --exact %t.nosink.o2.npy %t.graph.npy
func.func @construct({args}) -> {result_type} {{
  %0 = {body}
  return %{result} : {result_type}
}}
"""


def write_cases():
    os.makedirs(OPS, exist_ok=True)
    for name, (body, inputs, ref, check) in CASES.items():
        directory = os.path.join(REF, name)
        os.makedirs(directory, exist_ok=True)
        expected = np.ascontiguousarray(ref(*[x.copy() for x in inputs]))
        if expected.dtype == np.float64 and inputs[0].dtype != np.float64:
            raise SystemExit(f"{name}: reference lost its dtype")
        for i, x in enumerate(inputs):
            np.save(os.path.join(directory, f"in{i}.npy"), x)
        np.save(os.path.join(directory, "expected.npy"), expected)
        types = {f"t{i}": tensor_type(x) for i, x in enumerate(inputs)}
        test = TEST_TEMPLATE.format(
            name=name, check=check,
            inputs=" ".join(f"--input=%S/../reference/dtypes/{name}/in{i}.npy"
                            for i in range(len(inputs))),
            args=", ".join(f"%a{i}: {tensor_type(x)}"
                           for i, x in enumerate(inputs)),
            result_type=tensor_type(expected),
            result=body.count("\n"),
            body=body.format(**types))
        with open(os.path.join(OPS, f"{name}.mlir"), "w") as f:
            f.write(test)


if __name__ == "__main__":
    write_cases()
