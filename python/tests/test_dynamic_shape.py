"""Dynamic shapes (issue 17): Tensor(shape=[None, ...]) placeholders,
Cell.set_inputs and jit(input_signature=...).

A None batch compiles one graph that serves every batch size, and every row
it computes is bit for bit what a static compile at that batch gives and
what PyNative gives (DESIGN.md: batch invariance, mode parity)."""

import numpy as np
import pytest

import msmlir as ms
from msmlir import nn, ops, Tensor

from conftest import LeNet5, Network

LEVELS = ["O0", "O1", "O2"]
BATCHES = [64, 37, 1]


NETS = {"mlp": (Network, (1, 28, 28)), "lenet": (LeNet5, (1, 32, 32))}


def _bits(t):
    return t.asnumpy().view(np.uint32)


def _inputs(sample):
    rng = np.random.default_rng(7)
    x = rng.standard_normal((max(BATCHES),) + sample).astype(np.float32)
    return {n: Tensor(x[:n]) for n in BATCHES}


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("name", sorted(NETS))
def test_none_batch_compiles_once_and_matches_static(name, level):
    cls, sample = NETS[name]
    net = cls()
    xs = _inputs(sample)
    pynative = {n: _bits(net(x)) for n, x in xs.items()}

    ms.set_context(mode=ms.GRAPH_MODE, jit_level=level)
    # Static compiles of the same Cell, one per batch.
    static = ms.jit(net)
    expected = {n: _bits(static(x)) for n, x in xs.items()}
    assert static.compile_count == len(BATCHES)

    net.set_inputs(Tensor(shape=[None, *sample], dtype=ms.float32))
    before = ms.compile_count()
    for n, x in xs.items():
        out = net(x)
        assert out.shape == (n, 10)
        # Every row: the static compile at this batch, and PyNative.
        np.testing.assert_array_equal(_bits(out), expected[n])
        np.testing.assert_array_equal(_bits(out), pynative[n])
    # Row 0 of every batch is the batch-1 result (batch invariance).
    for n in BATCHES:
        np.testing.assert_array_equal(expected[n][:1], expected[1])
    assert net.compile_count == 1
    assert ms.compile_count() - before == 1
    # Sizes seen before and new ones reuse the graph.
    net(xs[37])
    net(Tensor(np.ones((5,) + sample, np.float32)))
    assert net.compile_count == 1


def test_placeholder_tensor():
    t = Tensor(shape=[None, 16], dtype=ms.float32)
    assert t.shape == (None, 16)
    assert t.dtype == ms.float32
    with pytest.raises(ms.MSError, match="placeholder"):
        t.asnumpy()
    with pytest.raises(ValueError, match="non-negative int or None"):
        Tensor(shape=[None, -2], dtype=ms.float32)


def test_jit_input_signature_one_graph_for_every_batch():
    @ms.jit(input_signature=Tensor(shape=[None, 4], dtype=ms.float32))
    def f(x):
        return ops.relu(x) * 2.0

    for n in (3, 8, 1):
        x = np.arange(n * 4, dtype=np.float32).reshape(n, 4) - 5
        np.testing.assert_array_equal(f(Tensor(x)).asnumpy(),
                                      np.maximum(x, 0) * 2)
    assert f.compile_count == 1


def test_jit_input_signature_is_enforced():
    @ms.jit(input_signature=(Tensor(shape=[None, 4], dtype=ms.float32),
                             Tensor(np.zeros((4,), np.float32))))
    def f(x, b):
        return x + b

    f(Tensor(np.ones((2, 4), np.float32)), Tensor(np.ones(4, np.float32)))
    with pytest.raises(TypeError, match=r"argument 0 'x' has "
                       r"Float32\[2, 5\] but the input_signature expects "
                       r"Float32\[None, 4\]"):
        f(Tensor(np.ones((2, 5), np.float32)), Tensor(np.ones(4, np.float32)))
    with pytest.raises(TypeError, match=r"argument 1 'b' has Float32\[3\]"):
        f(Tensor(np.ones((2, 4), np.float32)), Tensor(np.ones(3, np.float32)))
    with pytest.raises(TypeError, match=r"argument 0 'x' has Int32\[2, 4\]"):
        f(Tensor(np.ones((2, 4), np.int32)), Tensor(np.ones(4, np.float32)))
    with pytest.raises(TypeError, match="describes 2 inputs, got 1"):
        f(Tensor(np.ones((2, 4), np.float32)))
    with pytest.raises(TypeError, match="keyword arguments"):
        f(Tensor(np.ones((2, 4), np.float32)), b=Tensor(np.ones(4,
                                                                np.float32)))
    assert f.compile_count == 1


def test_set_inputs_mismatch_names_the_argument():
    net = Network()
    ms.set_context(mode=ms.GRAPH_MODE)
    net.set_inputs(Tensor(shape=[None, 1, 28, 28], dtype=ms.float32))
    assert [t.shape for t in net.get_inputs()] == [(None, 1, 28, 28)]
    with pytest.raises(TypeError, match=r"argument 0 'x' has "
                       r"Float32\[3, 1, 28, 27\] but the input_signature "
                       r"expects Float32\[None, 1, 28, 28\]"):
        net(Tensor(np.ones((3, 1, 28, 27), np.float32)))
    with pytest.raises(TypeError, match="set_inputs: input 0 must be a "
                       "Tensor"):
        net.set_inputs([None, 1, 28, 28])


def test_rows_that_mix_are_a_compile_error():
    class BatchSum(nn.Cell):
        def construct(self, x):
            return ops.relu(x).sum(axis=0, keepdims=True) + x

    net = BatchSum()
    ms.set_context(mode=ms.GRAPH_MODE)
    net.set_inputs(Tensor(shape=[None, 4], dtype=ms.float32))
    with pytest.raises(ms.MSError, match="mixes the rows of the \\? batch"):
        net(Tensor(np.ones((2, 4), np.float32)))
