"""Shared fixtures: every test starts in PyNative mode with default context
and a fixed seed, whatever the previous test changed."""

import os
import sys

import numpy as np
import pytest

# Allow running pytest straight from the source tree after a build:
# PYTHONPATH is set by ctest; otherwise fall back to <repo>/build/python.
_HERE = os.path.dirname(os.path.abspath(__file__))
_BUILD = os.environ.get("MS_BUILD_DIR",
                        os.path.join(_HERE, "..", "..", "build"))
if not any(os.path.isdir(os.path.join(p, "msmlir")) for p in sys.path if p):
    sys.path.insert(0, os.path.join(_BUILD, "python"))

import msmlir as ms  # noqa: E402
from msmlir import nn  # noqa: E402

# MindSpore model zoo's LeNet5, as the examples define it.
sys.path.append(os.path.join(_HERE, "..", "..", "examples", "python"))
from lenet_fashion_mnist import LeNet5  # noqa: E402,F401


@pytest.fixture(autouse=True)
def _reset_context():
    ms.set_context(mode=ms.PYNATIVE_MODE, jit_level="", jit_syntax_level="",
                   save_graphs=False, graph_cache_size=64,
                   kernel_cache_size=1024, runtime_num_threads=0,
                   jit_config={"exc_mode": "auto"})
    ms.set_deterministic(False)
    ms.set_seed(1234)
    yield
    ms.set_deterministic(False)
    ms.set_context(mode=ms.PYNATIVE_MODE, jit_level="", jit_syntax_level="",
                   save_graphs=False, graph_cache_size=64,
                   kernel_cache_size=1024, runtime_num_threads=0,
                   jit_config={"exc_mode": "auto"})


def relative_error(actual, expected):
    """max |a - e| / max(|e|, max|e| / 10): large elements relative to
    themselves, elements from cancellation relative to a tenth of the
    largest magnitude (the project's test/Run/compare.py rule)."""
    a = np.asarray(actual, dtype=np.float64)
    e = np.asarray(expected, dtype=np.float64)
    assert a.shape == e.shape, (a.shape, e.shape)
    if a.size == 0:
        return 0.0
    scale = np.max(np.abs(e))
    floor = max(0.1 * scale, np.finfo(np.float64).tiny)
    return float(np.max(np.abs(a - e) / np.maximum(np.abs(e), floor)))


def assert_close(actual, expected, rtol=1e-5):
    err = relative_error(actual, expected)
    assert err <= rtol, f"relative error {err:.3g} > {rtol:g}"


def assert_bitwise(a, b):
    a = np.ascontiguousarray(a)
    b = np.ascontiguousarray(b)
    assert a.shape == b.shape and a.dtype == b.dtype
    assert a.tobytes() == b.tobytes(), "not bit-identical"


def rand(*shape, low=-1.0, high=1.0, seed=0):
    rng = np.random.default_rng(seed + sum(shape))
    return rng.uniform(low, high, size=shape).astype(np.float32)


class Network(nn.Cell):
    """The seed MLP: flatten, dense 784->512, relu, dense 512->512, relu,
    dense 512->10."""

    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.dense_relu_sequential = nn.SequentialCell(
            nn.Dense(28 * 28, 512), nn.ReLU(), nn.Dense(512, 512), nn.ReLU(),
            nn.Dense(512, 10))

    def construct(self, x):
        x = self.flatten(x)
        return self.dense_relu_sequential(x)
