"""PyNative dispatch and graph calls do no repeated work.

Timing belongs in bench/ (bench/python/chain_bench.py measures dispatch in
microseconds against PyTorch); a timed assertion here would fail on a loaded
machine or in the sanitizer build. What this checks is the structure that
makes dispatch cheap: after the first call every op is a kernel-cache hit,
and a graph call runs one compiled module without touching the executor.
"""

import numpy as np

import msmlir as ms
from msmlir import Tensor, ops

LAYERS = 25
OPS_PER_LAYER = 4  # mul, add, relu, tanh


def chain(x, y):
    for _ in range(LAYERS):
        x = ops.tanh(ops.relu(x * y + y))
    return x


def _inputs():
    return (Tensor(np.ones((1, 10), np.float32)),
            Tensor(np.full((1, 10), 0.5, np.float32)))


def test_pynative_repeat_calls_only_hit_the_kernel_cache():
    x, y = _inputs()
    chain(x, y)
    before = ms.pynative_stats()
    for _ in range(3):
        chain(x, y)
    after = ms.pynative_stats()
    assert after["misses"] == before["misses"]
    assert after["hits"] - before["hits"] == 3 * LAYERS * OPS_PER_LAYER


def test_graph_call_neither_recompiles_nor_dispatches_ops():
    x, y = _inputs()
    # Sunk: exc_mode auto at O0 would run the graph kernel by kernel.
    f = ms.jit(chain, jit_config=ms.JitConfig(jit_level="O0",
                                              exc_mode="sink"))
    expected = f(x, y).asnumpy()
    compiled = ms.compile_count()
    before = ms.pynative_stats()
    for _ in range(3):
        np.testing.assert_array_equal(f(x, y).asnumpy(), expected)
    after = ms.pynative_stats()
    assert ms.compile_count() == compiled
    assert (after["hits"], after["misses"]) == (before["hits"],
                                                before["misses"])
