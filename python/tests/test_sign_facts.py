"""O2's sign facts (ms-sign-facts, docs/pipelines.md) change no bit.

Each function below has a pattern the pass rewrites at O2 (a maximum of
|x| and y, a tanh or erf of a value whose sign bit is clear unless NaN).
It runs on every pair of special values (signed zeros, infinities,
denormals, quiet and signalling NaNs of both signs and several payloads),
op by op in PyNative, whose kernels see one op each and so no facts, and as
graphs at O0, O1 and O2 on one and two threads: all must give the same
bits. [1, 10] tensors take the path that vectorizes small elementwise ops
whole; [4, 100] tensors take LLVM's loop vectorizer.
"""

import numpy as np
import pytest

import msmlir as ms
from msmlir import Tensor, ops

from conftest import assert_bitwise

SPECIAL_BITS = [
    0x00000000, 0x80000000,              # +0, -0
    0x3F800000, 0xBF800000,              # 1, -1
    0x3F000000, 0xBF000000,              # 0.5, -0.5 (tanh's small branch)
    0x40400000, 0xC0400000,              # 3, -3
    0x41A00000, 0xC1A00000,              # 20, -20 (tanh saturates)
    0x7F800000, 0xFF800000,              # +inf, -inf
    0x00000001, 0x80000001,              # the smallest denormals
    0x7FC00000, 0xFFC00000,              # quiet NaNs of both signs
    0x7FC12345, 0xFFD00001,              # NaNs with payloads
    0x7FA00001, 0xFF800001,              # signalling NaNs
]


def special_pairs():
    vals = np.array(SPECIAL_BITS, dtype=np.uint32).view(np.float32)
    x, y = np.meshgrid(vals, vals)
    return x.ravel(), y.ravel()


def max_of_abs(x, y):
    return ops.maximum(ops.abs(x), y)


def tanh_of_max_of_abs(x, y):
    return ops.tanh(ops.maximum(ops.abs(x), y))


def gelu_of_max_of_abs(x, y):
    # erf's operand is max(|x|, y) / sqrt(2).
    return ops.gelu(ops.maximum(ops.abs(x), y))


def gelu_tanh_of_max_of_abs(x, y):
    # tanh's operand is c (m + 0.044715 m^3), m = 3 max(|x|, y): sums and
    # products of clear-signed values. (Not relu(x) * y: with two NaN
    # operands a fused product may return either payload, at O1 too; see
    # docs/pipelines.md, Numerics.)
    return ops.gelu(ops.maximum(ops.abs(x), y) * 3.0, approximate="tanh")


def chain_cycle(x, y):
    """One cycle of bench/python/chain_bench.py's chain, twice."""
    for _ in range(2):
        x = ops.relu((x + y) * y)
        x = ops.tanh(ops.maximum(ops.abs(-x - y), y))
    return x


FUNCTIONS = [max_of_abs, tanh_of_max_of_abs, gelu_of_max_of_abs,
             gelu_tanh_of_max_of_abs, chain_cycle]


def run_pynative(fn, x, y):
    ms.set_context(mode=ms.PYNATIVE_MODE)
    return fn(Tensor(x), Tensor(y)).asnumpy()


def graph(fn, level):
    return ms.jit(fn, jit_config=ms.JitConfig(jit_level=level))


def batches(shape):
    x, y = special_pairs()
    n = int(np.prod(shape))
    reps = -(-len(x) // n) * n
    x = np.resize(x, reps).reshape(-1, *shape)
    # Rolled by half a batch, so a batch meets other pairs too.
    y = np.resize(np.roll(y, n // 2), reps).reshape(-1, *shape)
    return list(zip(x, y))


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("shape", [(1, 10), (4, 100)])
@pytest.mark.parametrize("fn", FUNCTIONS, ids=lambda f: f.__name__)
def test_every_level_gives_pynatives_bits(fn, shape, threads):
    graphs = {level: graph(fn, level) for level in ("O0", "O1", "O2")}
    for x, y in batches(shape):
        expected = run_pynative(fn, x, y)
        ms.set_context(runtime_num_threads=threads)
        for level, g in graphs.items():
            got = g(Tensor(x), Tensor(y)).asnumpy()
            assert_bitwise(got, expected)


def test_max_of_abs_keeps_maximums_values():
    # The rewrite's reasoning, on values: y where y is NaN, |x| where only
    # |x| is, else the larger, +0 over -0.
    g = graph(max_of_abs, "O2")
    for x, y in batches((1, 10)):
        a = np.abs(x)
        want = np.where(np.isnan(y), y, np.where(y > a, y, a))
        assert_bitwise(g(Tensor(x), Tensor(y)).asnumpy(), want)
