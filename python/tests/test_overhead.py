"""PyNative dispatch and graph calls stay cheap (loose bounds, so a loaded
machine does not make this flaky; bench/python/chain_bench.py measures)."""

import time

import numpy as np

import msmlir as ms
from msmlir import Tensor, ops


def _best_per_call(fn, inner=2000, repeats=5):
    fn()
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(inner):
            fn()
        best = min(best, (time.perf_counter() - start) / inner)
    return best


def chain(x, y):
    for _ in range(25):
        x = ops.tanh(ops.relu(x * y + y))
    return x


def test_pynative_dispatch_is_microseconds():
    x = Tensor(np.ones((1, 10), np.float32))
    y = Tensor(np.full((1, 10), 0.5, np.float32))
    per_op = _best_per_call(lambda: chain(x, y), inner=100) / 100
    assert per_op < 10e-6, f"{per_op * 1e6:.2f} us per op"


def test_graph_call_beats_pynative():
    x = Tensor(np.ones((1, 10), np.float32))
    y = Tensor(np.full((1, 10), 0.5, np.float32))
    f = ms.jit(chain, jit_config=ms.JitConfig(jit_level="O0"))
    graph = _best_per_call(lambda: f(x, y))
    eager = _best_per_call(lambda: chain(x, y), inner=100)
    assert eager / graph > 5, f"graph only {eager / graph:.1f}x faster"
