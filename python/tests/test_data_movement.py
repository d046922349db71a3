"""Indexing, slicing, padding, broadcasting and gather as ms ops
(values are in test_opinfo.py): errors, graph capture of indexing, and
nn.Embedding against PyTorch (a test-only reference)."""

import numpy as np
import pytest

import msmlir as ms
from msmlir import Tensor, nn, ops

from conftest import assert_bitwise, rand


def test_indexing_is_captured_in_graph_mode():
    x = Tensor(rand(4, 6))

    @ms.jit
    def f(a):
        return a[1:, ::2] + a[0, None, :3]

    got = f(x).asnumpy()
    assert f.compile_count == 1  # one graph, no fallback to PyNative
    a = x.asnumpy()
    np.testing.assert_array_equal(got, a[1:, ::2] + a[0, None, :3])


def test_index_errors():
    x = Tensor(rand(3, 4))
    with pytest.raises(IndexError, match="index 3 is out of bounds for "
                       "dimension 0 with size 3"):
        x[3]
    with pytest.raises(IndexError, match="too many indices"):
        x[0, 0, 0]
    with pytest.raises(IndexError, match="index 5 is out of bounds"):
        x[[0, 5]]


def test_negative_step_and_masks_still_work_in_pynative():
    a = rand(3, 4)
    x = Tensor(a)
    np.testing.assert_array_equal(x[::-1].asnumpy(), a[::-1])
    mask = Tensor(a > 0)
    np.testing.assert_array_equal(x[mask].asnumpy(), a[a > 0])


def test_argument_errors():
    x = Tensor(rand(2, 3))
    with pytest.raises(ValueError, match="ops.pad: mode 'reflect' is not "
                       "supported"):
        ops.pad(x, (1, 1), mode="reflect")
    with pytest.raises(ValueError, match="ops.pad: negative padding"):
        ops.pad(x, (-1, 1))
    with pytest.raises(ValueError, match=r"ops.split: sections \[1, 1\] do "
                       "not add up to 3"):
        ops.split(x, [1, 1], 1)
    with pytest.raises(ms.MSError, match="cannot broadcast"):
        ops.broadcast_to(x, (4, 3, 4))
    with pytest.raises(TypeError, match="ops.gather: indices must be int32 "
                       "or int64"):
        ops.gather(x, Tensor(np.zeros(2, np.float32)), 0)
    with pytest.raises(ValueError, match="ops.clamp: at least one"):
        ops.clamp(x)


def test_gather_out_of_range_gives_zeros_in_graph():
    table = Tensor(rand(5, 3))
    ids = Tensor(np.array([1, 7, -1], np.int32))
    eager = ops.gather(table, ids, 0).asnumpy()
    graph = ms.jit(lambda t, i: ops.gather(t, i, 0))(table, ids).asnumpy()
    assert_bitwise(graph, eager)
    np.testing.assert_array_equal(eager[0], table.asnumpy()[1])
    np.testing.assert_array_equal(eager[1:], 0)


def test_creation_functions():
    assert ops.zeros((2, 3)).dtype == ms.float32
    assert ops.ones(4, ms.int32).asnumpy().tolist() == [1, 1, 1, 1]
    assert ops.full((2,), 7).dtype == ms.int64
    assert ops.arange(5).asnumpy().tolist() == [0, 1, 2, 3, 4]
    assert ops.arange(0.0, 1.0, 0.25).dtype == ms.float32
    x = Tensor(rand(2, 2))
    assert ops.zeros_like(x).shape == (2, 2)
    assert ops.ones_like(x, dtype=ms.int32).dtype == ms.int32


def test_embedding_matches_torch_and_graph():
    torch = pytest.importorskip("torch")
    emb = nn.Embedding(10, 4, padding_idx=2)
    assert emb.embedding_table.name == "embedding_table"
    table = emb.embedding_table.asnumpy()
    np.testing.assert_array_equal(table[2], 0)
    ids = np.array([[1, 2, 9], [0, 0, 5]], np.int32)
    eager = emb(Tensor(ids)).asnumpy()
    ref = torch.nn.functional.embedding(torch.from_numpy(ids).long(),
                                        torch.from_numpy(table)).numpy()
    np.testing.assert_array_equal(eager, ref)
    ms.set_context(mode=ms.GRAPH_MODE)
    graph = emb(Tensor(ids)).asnumpy()
    ms.set_context(mode=ms.PYNATIVE_MODE)
    assert_bitwise(graph, eager)
    with pytest.raises(TypeError, match="Embedding expects int32 or int64"):
        emb(Tensor(ids.astype(np.float32)))
    with pytest.raises(ValueError, match="padding_idx must be None or in"):
        nn.Embedding(10, 4, padding_idx=10)


def test_gather_gradient_matches_torch_and_graph():
    """Embedding-style gather: repeated and out-of-range ids; the table's
    gradient sums each id's cotangents (torch's embedding backward)."""
    torch = pytest.importorskip("torch")
    table = rand(6, 3)
    ids = np.array([[1, 4, 1], [0, 9, 4]], np.int32)
    sens = rand(2, 3, 3, seed=5)

    def loss(t):
        return ops.reduce_sum(ops.gather(t, Tensor(ids), 0) * Tensor(sens))

    eager = ms.grad(loss)(Tensor(table)).asnumpy()
    graph = ms.jit(ms.grad(loss))(Tensor(table)).asnumpy()
    assert_bitwise(graph, eager)
    t = torch.tensor(table, dtype=torch.float64, requires_grad=True)
    valid = torch.from_numpy(np.where(ids < 6, ids, 0)).long()
    mask = torch.from_numpy((ids < 6)[..., None].astype(np.float64))
    (torch.nn.functional.embedding(valid, t) * mask *
     torch.from_numpy(sens).double()).sum().backward()
    np.testing.assert_allclose(eager, t.grad.numpy(), rtol=1e-6, atol=1e-7)
