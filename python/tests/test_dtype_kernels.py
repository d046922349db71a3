"""The native runtime on every dtype the ms ops take (issue 16): PyNative
kernels (one compiled kernel per op signature, the Executor) and compiled
graphs (Compiler) on int8/int16/int32/int64/uint8/float64 and the half
types, against numpy written from the ops' definitions (integers wrap;
uint8 compares and maxes unsigned; float16/bfloat16 compute in float32 and
round once), and PyNative against Graph bit for bit.
"""

import numpy as np
import pytest

from msmlir import _msmlir as native

from conftest import assert_bitwise

# DTypes.def's row indices: the dtype codes the runtime takes.
CODES = {np.dtype(np.float32): 0, np.dtype(np.float16): 1,
         np.dtype(np.float64): 5, np.dtype(np.int8): 7,
         np.dtype(np.int16): 8, np.dtype(np.int32): 2,
         np.dtype(np.int64): 3, np.dtype(np.uint8): 9}
MLIR = {np.dtype(np.float16): "f16", np.dtype(np.float64): "f64",
        np.dtype(np.int8): "i8", np.dtype(np.int16): "i16",
        np.dtype(np.int32): "i32", np.dtype(np.int64): "i64",
        np.dtype(np.uint8): "ui8", np.dtype(np.float32): "f32"}
BF16 = 6

INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8]


def host(a):
    return native.HostTensor.from_buffer(np.require(a, requirements="C"))


def ints(dtype, shape, seed):
    info = np.iinfo(dtype)
    return np.random.default_rng(seed).integers(
        info.min, info.max, shape, endpoint=True).astype(dtype)


def wrapped(fn, dtype, *xs):
    """fn on exact (Python) integers, wrapped to dtype like two's
    complement."""
    bits = np.iinfo(dtype).bits
    exact = fn(*[x.astype(object) for x in xs])
    u = np.asarray(np.asarray(exact, dtype=object) % (1 << bits),
                   dtype=np.uint64)
    return u.astype(np.dtype(f"u{bits // 8}")).view(dtype)


def eager_executor():
    return native.Executor(native.CompileOptions(jit_level="O0",
                                                 num_threads=1))


BINARY = {"ms.add": lambda a, b: a + b, "ms.sub": lambda a, b: a - b,
          "ms.mul": lambda a, b: a * b}


@pytest.mark.parametrize("dtype", INTS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", sorted(BINARY))
def test_integer_arithmetic_wraps(name, dtype):
    a, b = ints(dtype, (3, 5), 1), ints(dtype, (5,), 2)
    got = np.array(eager_executor().call(native.OpCall(name), host(a),
                                         host(b)))
    assert got.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(got, wrapped(BINARY[name], dtype, a, b))


@pytest.mark.parametrize("dtype", INTS, ids=lambda d: np.dtype(d).name)
def test_integer_max_min_neg_abs_relu_compare(dtype):
    ex = eager_executor()
    a, b = ints(dtype, (4, 6), 3), ints(dtype, (4, 6), 4)
    run1 = lambda op, x: np.array(ex.call(native.OpCall(op), host(x)))
    run2 = lambda op, x, y: np.array(ex.call(native.OpCall(op), host(x),
                                             host(y)))
    np.testing.assert_array_equal(run2("ms.maximum", a, b), np.maximum(a, b))
    np.testing.assert_array_equal(run2("ms.minimum", a, b), np.minimum(a, b))
    np.testing.assert_array_equal(run2("ms.less", a, b), a < b)
    np.testing.assert_array_equal(run2("ms.greater_equal", a, b), a >= b)
    np.testing.assert_array_equal(run1("ms.neg", a),
                                  wrapped(lambda x: -x, dtype, a))
    signed = np.iinfo(dtype).min < 0
    np.testing.assert_array_equal(
        run1("ms.abs", a), wrapped(abs, dtype, a) if signed else a)
    np.testing.assert_array_equal(run1("ms.relu", a), np.maximum(a, 0))


@pytest.mark.parametrize("dtype", INTS, ids=lambda d: np.dtype(d).name)
def test_integer_reductions_and_matmul(dtype):
    ex = eager_executor()
    a = ints(dtype, (5, 7), 5)
    b = ints(dtype, (7, 3), 6)
    got = np.array(ex.call(native.OpCall("ms.reduce_sum", "{axes = array<i64: 1>}"),
                           host(a)))
    np.testing.assert_array_equal(
        got, wrapped(lambda x: x.sum(axis=1), dtype, a))
    got = np.array(ex.call(native.OpCall("ms.reduce_max", "{axes = array<i64: 0>}"),
                           host(a)))
    np.testing.assert_array_equal(got, a.max(axis=0))
    got = np.array(ex.call(native.OpCall("ms.matmul"), host(a), host(b)))
    np.testing.assert_array_equal(got, wrapped(np.dot, dtype, a, b))


def graph_and_kernels(source, arrays, level):
    executor = native.Executor(native.CompileOptions(jit_level=level,
                                                     num_threads=1))
    compiler = native.Compiler()
    outs = []
    for exc_mode in ("sink", "no_sink"):
        options = native.CompileOptions(jit_level=level, exc_mode=exc_mode,
                                        num_threads=1)
        graph = compiler.compile(source, options, "construct", "<dtypes>",
                                 executor=executor)
        outs.append([np.array(o) for o in graph.run([host(a) for a in arrays])])
    return outs


@pytest.mark.parametrize("level", ["O0", "O1", "O2"])
@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.uint8, np.float64],
                         ids=lambda d: np.dtype(d).name)
def test_graph_equals_pynative(dtype, level):
    t = MLIR[np.dtype(dtype)]
    source = (
        f"func.func @construct(%x: tensor<4x6x{t}>, %w: tensor<3x6x{t}>, "
        f"%b: tensor<3x{t}>) -> tensor<6x{t}> {{\n"
        f"  %0 = ms.dense %x, %w, %b : tensor<4x6x{t}>, tensor<3x6x{t}>, "
        f"tensor<3x{t}>\n"
        f"  %1 = ms.relu %0 : tensor<4x3x{t}>\n"
        f"  %2 = ms.transpose %1 perm [1, 0] : tensor<4x3x{t}>\n"
        f"  %3 = ms.reshape %2 to [2, 6] : tensor<3x4x{t}>\n"
        f"  %4 = ms.reduce_max %3 axes [0] : tensor<2x6x{t}>\n"
        f"  return %4 : tensor<6x{t}>\n}}\n")
    if np.dtype(dtype).kind == "f":
        rng = np.random.default_rng(7)
        arrays = [rng.standard_normal(s).astype(dtype)
                  for s in [(4, 6), (3, 6), (3,)]]
        ref = np.maximum(arrays[0] @ arrays[1].T + arrays[2], 0)
    else:
        arrays = [ints(dtype, s, i) for i, s in enumerate([(4, 6), (3, 6), (3,)])]
        dense = wrapped(lambda x, w, b: x.dot(w.T) + b, dtype, *arrays)
        ref = np.maximum(dense, 0)
    ref = ref.T.reshape(2, 6).max(axis=0)
    (whole,), (kernels,) = graph_and_kernels(source, arrays, level)
    assert whole.dtype == np.dtype(dtype)
    if np.dtype(dtype).kind == "f":
        np.testing.assert_allclose(whole, ref, rtol=1e-13)
    else:
        np.testing.assert_array_equal(whole, ref)
    assert_bitwise(whole, kernels)


def to_bf16_bits(x):
    bits = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)


def from_bf16_bits(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


def test_bfloat16_kernel_computes_in_f32_and_rounds_once():
    x = np.random.default_rng(9).standard_normal((3, 8)).astype(np.float32)
    bits = to_bf16_bits(x)
    t = native.HostTensor(BF16, [3, 8])
    np.asarray(t)[...] = bits  # bf16 is exposed as its uint16 bits
    ex = eager_executor()
    y = np.array(ex.call(native.OpCall("ms.tanh"), t)).view(np.uint16)
    want = to_bf16_bits(np.tanh(from_bf16_bits(bits).astype(np.float64))
                        .astype(np.float32))
    # The f32 tanh is within an ulp or two of float64's; after rounding to
    # bf16 at most one bf16 ulp remains.
    assert np.max(np.abs(y.astype(np.int32) - want.astype(np.int32))) <= 1
    assert np.mean(y == want) > 0.9


@pytest.mark.parametrize("level", ["O0", "O2"])
def test_float16_graph_equals_pynative(level):
    rng = np.random.default_rng(3)
    a = rng.standard_normal((4, 32)).astype(np.float16)
    b = (rng.standard_normal((32, 5)) * 0.3).astype(np.float16)
    source = (
        "func.func @construct(%a: tensor<4x32xf16>, %b: tensor<32x5xf16>) "
        "-> tensor<4x5xf16> {\n"
        "  %0 = ms.matmul %a, %b : tensor<4x32xf16>, tensor<32x5xf16>\n"
        "  %1 = ms.softmax %0 axis -1 : tensor<4x5xf16>\n"
        "  return %1 : tensor<4x5xf16>\n}\n")
    (whole,), (kernels,) = graph_and_kernels(source, [a, b], level)
    assert whole.dtype == np.float16
    assert_bitwise(whole, kernels)
    # One rounding per op: the f32 product, rounded, then softmax in f32.
    mm = (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float16)
    e = np.exp(mm.astype(np.float64) - mm.max(axis=-1, keepdims=True))
    ref = (e / e.sum(axis=-1, keepdims=True)).astype(np.float16)
    np.testing.assert_allclose(whole.astype(np.float64), ref, rtol=2e-3)
