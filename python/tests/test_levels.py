"""Defaults and options of the compile levels (DESIGN §4, §6): GRAPH_MODE
defaults to O2, PyNative kernels honour runtime_num_threads, and
JitConfig(exc_mode=...) picks one native graph or kernel by kernel, with
the same bits every way."""

import numpy as np
import pytest

import msmlir as ms
from msmlir import Tensor, ops
from msmlir import _runtime

from conftest import Network, assert_bitwise, rand


def dense_relu(x, w):
    return ops.relu(ops.matmul(x, w) + x)


def inputs():
    return (Tensor(rand(64, 96, low=-1, high=1)),
            Tensor(rand(96, 96, low=-1, high=1)))


def levels_compiled(compiled):
    return sorted(cfg[0] for cfg in compiled._caches)


def test_jit_config_default_level_is_o2():
    assert ms.JitConfig().jit_level is None
    f = ms.jit(dense_relu)
    f(*inputs())
    assert levels_compiled(f) == ["O2"]
    g = ms.jit(dense_relu, jit_config=ms.JitConfig(jit_level=""))
    g(*inputs())
    assert levels_compiled(g) == ["O2"]


def test_graph_mode_cell_defaults_to_o2_and_the_context_overrides():
    net = Network()
    x = Tensor(rand(8, 1, 28, 28, low=0, high=1))
    ms.set_context(mode=ms.GRAPH_MODE)
    net(x)
    assert levels_compiled(net.__dict__["_graph_runner"]) == ["O2"]
    ms.set_context(jit_level="O1")
    f = ms.jit(dense_relu)
    f(*inputs())
    assert levels_compiled(f) == ["O1"]


def test_pynative_honours_runtime_num_threads():
    x, w = inputs()
    ms.set_context(runtime_num_threads=1)
    one = dense_relu(x, w).asnumpy()
    assert ms.pynative_stats()["misses"] > 0
    assert ("O0", 1) in _runtime._executors
    ms.set_context(runtime_num_threads=2)
    before = _runtime.executor("O0", 2).stats()["misses"]
    two = dense_relu(x, w).asnumpy()
    assert _runtime.executor("O0", 2).stats()["misses"] > before
    assert_bitwise(one, two)


@pytest.mark.parametrize("level", ["O0", "O1", "O2"])
def test_exc_mode_no_sink_runs_kernel_by_kernel_with_the_same_bits(level):
    x, w = inputs()
    sink = ms.jit(dense_relu, jit_config=ms.JitConfig(jit_level=level,
                                                      exc_mode="sink"))
    no_sink = ms.jit(dense_relu, jit_config=ms.JitConfig(jit_level=level,
                                                         exc_mode="no_sink"))
    expected = sink(x, w).asnumpy()
    ex = _runtime.executor(level, 0)
    before = ex.stats()["hits"] + ex.stats()["misses"]
    assert_bitwise(no_sink(x, w).asnumpy(), expected)
    # One kernel call per op of the graph (matmul, add, relu).
    assert ex.stats()["hits"] + ex.stats()["misses"] == before + 3
    assert_bitwise(dense_relu(x, w).asnumpy(), expected)


def test_exc_mode_auto_runs_o0_kernel_by_kernel():
    x, w = inputs()
    f = ms.jit(dense_relu, jit_config=ms.JitConfig(jit_level="O0"))
    ex = _runtime.executor("O0", 0)
    before = ex.stats()["hits"] + ex.stats()["misses"]
    f(x, w)
    assert ex.stats()["hits"] + ex.stats()["misses"] > before


def test_context_exc_mode_applies_and_is_checked():
    ms.set_context(jit_config={"exc_mode": "no_sink"})
    assert ms.get_context("jit_config")["exc_mode"] == "no_sink"
    x, w = inputs()
    f = ms.jit(dense_relu)
    ex = _runtime.executor("O2", 0)
    before = ex.stats()["hits"] + ex.stats()["misses"]
    f(x, w)
    assert ex.stats()["hits"] + ex.stats()["misses"] > before
    with pytest.raises(ValueError, match="exc_mode"):
        ms.set_context(jit_config={"exc_mode": "fast"})
