"""Tensor indexing and item assignment with numpy's semantics, in ms ops
(ms.slice, ms.slice_update, ms.gather, ms.scatter_update, ms.select):
PyNative against numpy, GRAPH_MODE bit for bit against PyNative at every
jit_level, gradients against torch.autograd, and the one error graph mode
gives for a boolean-mask read."""

import numpy as np
import pytest

import msmlir as ms
from msmlir import Tensor, nn, ops

from conftest import assert_bitwise, rand

LEVELS = ["O0", "O1", "O2"]

# (shape, index, value shape): every kind of index numpy has.
SET_CASES = [
    ((4, 6), (1,), ()),
    ((4, 6), (slice(1, 3), slice(None, None, 2)), (2, 3)),
    ((4, 6), (slice(None, None, -1), 2), (4,)),
    ((4, 6), (slice(5, 0, -3), slice(None)), (1, 6)),
    ((2, 3, 4), (Ellipsis, 1), (3,)),
    ((2, 3, 4), (None, 0, Ellipsis), (1, 3, 4)),
    ((5, 3), ([4, 0, -1],), (3, 1)),
    ((5, 3), (np.array([[1, 2], [3, 0]]),), (2, 2, 3)),
    ((3, 5, 4), (slice(None), [1, 3]), (4,)),
    ((3, 5, 4), (1, [0, 4], slice(1, 3)), (2, 2)),
    ((3, 5, 4), ([0, 2], slice(None), [1, 3]), (5,)),
    ((3, 5, 4), ([[0], [2]], [1, 3, 4]), (2, 3, 4)),
    ((3, 5, 4), (slice(0, 2), [[0], [2]], [1, 3, 0]), (2, 3)),
    ((3, 4), (np.arange(12).reshape(3, 4) % 3 == 0,), ()),
    ((3, 4), (np.array([True, False, True]),), (4,)),
    ((3, 4), (np.array([True, False, True]), slice(1, 3)), (2, 2)),
]


def _ids(cases):
    return [f"{i}" for i in range(len(cases))]


def _np_set(a, index, v):
    b = a.copy()
    b[index] = v
    return b


@pytest.mark.parametrize("shape,index,vshape", SET_CASES,
                         ids=_ids(SET_CASES))
def test_setitem_matches_numpy_and_graph(shape, index, vshape):
    a = rand(*shape)
    v = rand(*vshape, seed=7) if vshape else np.float32(0.25)
    expected = _np_set(a, index, v)
    x = Tensor(a)
    x[index] = Tensor(v) if vshape else float(v)
    np.testing.assert_array_equal(x.asnumpy(), expected)
    # The caller's numpy array is not written (the Tensor copied it).
    assert not np.array_equal(a, expected) or np.array_equal(
        a[index], np.broadcast_to(v, a[index].shape))

    def f(t, u):
        t[index] = u
        return t * 1.0

    for level in LEVELS:
        g = ms.jit(f, jit_config=ms.JitConfig(jit_level=level))
        got = g(Tensor(a), Tensor(np.asarray(v, np.float32))).asnumpy()
        assert g.compile_count == 1
        assert_bitwise(got, expected)


GET_CASES = [
    (slice(None, None, -2),),
    (slice(None), slice(4, None, -1)),
    ([2, 0, 2],),
    (slice(None), [1, 3]),
    (1, [0, 4], slice(1, 3)),
    ([0, 2], slice(None), [1, 3]),
    ([[0], [2]], [1, 3, 4]),
    (slice(0, 2), [[0], [2]], [1, 3, 0]),
    (None, [1, 2], Ellipsis, 0),
    (np.array([True, False, True]), 1),
]


@pytest.mark.parametrize("index", GET_CASES, ids=_ids(GET_CASES))
def test_getitem_matches_numpy_and_graph(index):
    a = rand(3, 5, 4)
    expected = a[index]
    np.testing.assert_array_equal(Tensor(a)[index].asnumpy(), expected)
    for level in LEVELS:
        g = ms.jit(lambda t: t[index],
                   jit_config=ms.JitConfig(jit_level=level))
        assert_bitwise(g(Tensor(a)).asnumpy(), expected)
        assert g.compile_count == 1


def test_tensor_indices_in_graph_mode():
    """Symbolic index tensors: one gather / scatter_update in the graph,
    the same bits as PyNative; an index outside the dim reads zeros and
    writes nothing (MindSpore's CPU Gather)."""
    a = rand(3, 5, 4)
    i = np.array([[2, 0], [1, 1]], np.int32)
    j = np.array([4, 7], np.int64)          # 7 is out of range for dim 1

    def read(t, p, q):
        return t[p, q]

    def write(t, p, q, v):
        t[p, :, 1] = v
        t[0, q] = 9.0
        return t + 0.0

    for level in LEVELS:
        cfg = ms.JitConfig(jit_level=level)
        got = ms.jit(read, jit_config=cfg)(Tensor(a), Tensor(i),
                                           Tensor(j)).asnumpy()
        expected = np.zeros((2, 2, 4), np.float32)
        expected[:, 0] = a[i[:, 0], 4]
        np.testing.assert_array_equal(got, expected)
        v = rand(2, 2, 5, seed=3)
        got = ms.jit(write, jit_config=cfg)(Tensor(a), Tensor(i), Tensor(j),
                                            Tensor(v)).asnumpy()
        b = a.copy()
        b[i, :, 1] = v
        b[0, 4] = 9.0
        np.testing.assert_array_equal(got, b)


def test_repeated_index_last_write_wins():
    a = rand(4, 2)
    x = Tensor(a)
    x[[1, 3, 1]] = Tensor(np.array([[1, 1], [3, 3], [2, 2]], np.float32))
    b = a.copy()
    b[[1, 3, 1]] = np.array([[1, 1], [3, 3], [2, 2]], np.float32)
    np.testing.assert_array_equal(x.asnumpy(), b)
    g = ms.jit(lambda t, i: (t.__setitem__(i, 5.0), t)[1])
    np.testing.assert_array_equal(
        g(Tensor(a), Tensor(np.array([2, 2]))).asnumpy()[2], [5.0, 5.0])


def test_boolean_masks():
    a = rand(3, 4)
    m = a > 0
    # PyNative: a gather of the True positions.
    np.testing.assert_array_equal(Tensor(a)[Tensor(m)].asnumpy(), a[m])
    np.testing.assert_array_equal(
        ops.masked_select(Tensor(a), Tensor(m[0])).asnumpy(),
        a[np.broadcast_to(m[0], a.shape)])
    # Assignment through a symbolic mask is one select in graph mode, with
    # a scalar, a broadcast row, or a one-row value.
    for value in (2.0, Tensor(rand(4, seed=2)), Tensor(rand(1, 4, seed=3))):
        x = Tensor(a)
        x[Tensor(m[:, 0])] = value
        b = a.copy()
        b[m[:, 0]] = value if isinstance(value, float) else value.asnumpy()
        np.testing.assert_array_equal(x.asnumpy(), b)

        def f(t, mask):
            t[mask] = value
            return t + 0.0
        got = ms.jit(f)(Tensor(a), Tensor(m[:, 0])).asnumpy()
        np.testing.assert_array_equal(got, b)
    # PyNative takes one value per True element too.
    x = Tensor(a)
    x[Tensor(m)] = Tensor(np.arange(m.sum(), dtype=np.float32))
    b = a.copy()
    b[m] = np.arange(m.sum())
    np.testing.assert_array_equal(x.asnumpy(), b)


def test_boolean_mask_read_in_graph_is_one_error():
    a = rand(3, 4)

    def f(t, mask):
        return t[mask].sum()

    g = ms.jit(f, jit_config=ms.JitConfig(jit_syntax_level="STRICT"))
    with pytest.raises(ms.GraphSyntaxError) as info:
        g(Tensor(a), Tensor(a > 0))
    message = str(info.value)
    assert "test_setitem.py:" in message
    assert "`return t[mask].sum()`" in message
    assert "boolean mask" in message and "ops.where" in message
    assert message.count("test_setitem.py:") == 1
    # LAX (the default) runs the call in PyNative mode instead.
    with pytest.warns(ms.GraphFallbackWarning):
        got = ms.jit(f)(Tensor(a), Tensor(a > 0)).asnumpy()
    np.testing.assert_allclose(got, a[a > 0].sum(), rtol=1e-6)

    def h(t, mask, v):
        t[mask] = v
        return t
    g = ms.jit(h, jit_config=ms.JitConfig(jit_syntax_level="STRICT"))
    with pytest.raises(ms.GraphSyntaxError, match="one row per True"):
        g(Tensor(a), Tensor(a > 0), Tensor(rand(5)))


def test_setitem_in_a_cell_and_on_parameters():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(Tensor(np.zeros((3, 2), np.float32)),
                                  name="w")

        def construct(self, x):
            y = x * 2.0
            y[:, 0] = 0.0
            self.w[1] = x[0]
            return y + self.w

    a = rand(3, 2)
    eager_net = Net()
    eager = eager_net(Tensor(a)).asnumpy()
    expected = a * 2
    expected[:, 0] = 0
    w = np.zeros((3, 2), np.float32)
    w[1] = a[0]
    np.testing.assert_array_equal(eager, expected + w)
    np.testing.assert_array_equal(eager_net.w.asnumpy(), w)
    ms.set_context(mode=ms.GRAPH_MODE)
    graph_net = Net()
    assert_bitwise(graph_net(Tensor(a)).asnumpy(), eager)
    np.testing.assert_array_equal(graph_net.w.asnumpy(), w)


def test_setitem_errors():
    x = Tensor(rand(3, 4))
    with pytest.raises(IndexError, match="index 3 is out of bounds"):
        x[3] = 1.0
    with pytest.raises(IndexError, match="index 4 is out of bounds"):
        x[:, [0, 4]] = 1.0
    with pytest.raises(ValueError, match=r"could not broadcast input array "
                       r"from shape \[3\] into shape \[2, 4\]"):
        x[1:] = Tensor(rand(3))
    with pytest.raises(IndexError, match="too many indices"):
        x[0, 0, 0] = 1.0
    with pytest.raises(IndexError, match="shape mismatch"):
        x[[0, 1], [0, 1, 2]] = 1.0


def test_other_dtypes_in_pynative():
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    x = Tensor(a)
    x[1, ::-1] = 7
    b = a.copy()
    b[1, ::-1] = 7
    np.testing.assert_array_equal(x.asnumpy(), b)
    assert x.dtype == ms.int32


def test_setitem_gradient_matches_torch_and_graph():
    torch = pytest.importorskip("torch")
    a, u = rand(4, 5), rand(2, 3, seed=4)
    sens = rand(4, 5, seed=6)
    rows = np.array([3, 0])

    def loss(x, v):
        y = x * 1.0
        y[1:3, ::2] = v
        y[rows, 1:4] = v * 3.0
        return ops.reduce_sum(y * y * Tensor(sens))

    eager = ms.grad(loss, grad_position=(0, 1))(Tensor(a), Tensor(u))
    for level in LEVELS:
        graph = ms.jit(ms.grad(loss, grad_position=(0, 1)),
                       jit_config=ms.JitConfig(jit_level=level))(
                           Tensor(a), Tensor(u))
        for e, g in zip(eager, graph):
            assert_bitwise(g.asnumpy(), e.asnumpy())
    x = torch.tensor(a, dtype=torch.float64, requires_grad=True)
    v = torch.tensor(u, dtype=torch.float64, requires_grad=True)
    y = x * 1.0
    y[1:3, ::2] = v
    y[torch.from_numpy(rows), 1:4] = v * 3.0
    (y * y * torch.from_numpy(sens).double()).sum().backward()
    np.testing.assert_allclose(eager[0].asnumpy(), x.grad.numpy(),
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(eager[1].asnumpy(), v.grad.numpy(),
                               rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
def test_gather_gradient_on_every_axis(axis):
    torch = pytest.importorskip("torch")
    a = rand(3, 4, 5)
    ids = np.array([[1, 0], [2, 1], [1, 1]], np.int64)
    out_shape = list(a.shape)
    ax = axis % 3
    out_shape[ax:ax + 1] = ids.shape
    sens = rand(*out_shape, seed=8)

    def loss(x):
        return ops.reduce_sum(ops.gather(x, Tensor(ids), axis) *
                              Tensor(sens))

    eager = ms.grad(loss)(Tensor(a)).asnumpy()
    for level in LEVELS:
        graph = ms.jit(ms.grad(loss),
                       jit_config=ms.JitConfig(jit_level=level))(Tensor(a))
        assert_bitwise(graph.asnumpy(), eager)
    x = torch.tensor(a, dtype=torch.float64, requires_grad=True)
    picked = torch.index_select(x, ax, torch.from_numpy(ids.reshape(-1)))
    picked = picked.reshape(out_shape)
    (picked * torch.from_numpy(sens).double()).sum().backward()
    np.testing.assert_allclose(eager, x.grad.numpy(), rtol=1e-5, atol=1e-6)


def test_gather_gradient_finite_differences():
    """Central differences in float64 on the composed loss (the gather
    itself is linear, so the check is exact up to rounding)."""
    a = rand(2, 3, 4).astype(np.float64)
    ids = np.array([2, 0, 2], np.int32)
    sens = rand(2, 3, 3, seed=9).astype(np.float64)

    def f(x):
        return float((np.take(x, ids, 2) * sens).sum())

    def loss(x):
        return ops.reduce_sum(ops.gather(x, Tensor(ids), 2) *
                              Tensor(sens.astype(np.float32)))

    got = ms.grad(loss)(Tensor(a.astype(np.float32))).asnumpy()
    numeric = np.zeros_like(a)
    eps = 1e-6
    for k in np.ndindex(a.shape):
        d = np.zeros_like(a)
        d[k] = eps
        numeric[k] = (f(a + d) - f(a - d)) / (2 * eps)
    np.testing.assert_allclose(got, numeric, rtol=1e-5, atol=1e-6)


def test_update_kernels_do_not_write_into_their_operands():
    """A PyNative kernel's operands are writable buffers: slice_update and
    scatter_update must write a copy (the gradient above reads dy after
    zeroing a slice of it)."""
    from msmlir._tensor import binary, nary, op
    a = rand(4, 5)
    x = Tensor(a)
    from msmlir.ops._args import _i64_array as arr
    y = binary(op("ms.slice_update", f"{{begin = {arr([0, 1])}, end = "
                  f"{arr([4, 4])}, strides = {arr([1, 1])}}}"), x,
               Tensor(np.zeros((4, 3), np.float32)))
    z = nary(op("ms.scatter_update"), (x, Tensor(np.array([1, 9])),
                                       Tensor(np.zeros((2, 5), np.float32))))
    np.testing.assert_array_equal(x.asnumpy(), a)
    b = a.copy()
    b[:, 1:4] = 0
    np.testing.assert_array_equal(y.asnumpy(), b)
    b = a.copy()
    b[1] = 0                           # index 9 is out of range: no write
    np.testing.assert_array_equal(z.asnumpy(), b)


def test_boolean_mask_read_in_a_graph_mode_cell_names_the_cell():
    class Net(nn.Cell):
        def construct(self, x):
            return x[x > 0].sum()

    ms.set_context(mode=ms.GRAPH_MODE, jit_syntax_level=ms.STRICT)
    with pytest.raises(ms.GraphSyntaxError) as info:
        Net()(Tensor(rand(2, 3)))
    message = str(info.value)
    assert message.startswith("Net: ")
    assert "test_setitem.py:" in message and "`return x[x > 0].sum()`" \
        in message
    assert "ops.masked_select" in message
