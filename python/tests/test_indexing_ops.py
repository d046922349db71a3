"""one_hot, argmax/argmin, comparisons, logical ops, where/select and cast:
ms ops checked against numpy, in PyNative and in graphs at every jit_level
(bit for bit)."""

import numpy as np
import pytest

import msmlir as ms
from msmlir import Tensor, nn, ops

LEVELS = ["O0", "O1", "O2"]


def graph_results(fn, *args):
    """fn(*args) in PyNative and as a graph at every jit_level; checks the
    graphs give PyNative's result bit for bit and returns it (numpy)."""
    eager = fn(*args)
    eager = [eager] if not isinstance(eager, tuple) else list(eager)
    for level in LEVELS:
        g = ms.jit(fn, jit_config=ms.JitConfig(jit_level=level))
        out = g(*args)
        out = [out] if not isinstance(out, tuple) else list(out)
        for e, o in zip(eager, out):
            assert e.dtype == o.dtype, level
            a, b = e.asnumpy(), o.asnumpy()
            assert a.shape == b.shape and a.tobytes() == b.tobytes(), level
    return [e.asnumpy() for e in eager]


def test_one_hot_matches_numpy_with_out_of_range_indices():
    rng = np.random.default_rng(0)
    for dtype in (np.int32, np.int64):
        idx = rng.integers(-2, 7, size=(3, 5)).astype(dtype)
        for axis in (-1, 0, 1, 2):
            (y,) = graph_results(
                lambda t: ops.one_hot(t, 5, 0.9, 0.1, axis), Tensor(idx))
            expected = np.where(
                np.arange(5).reshape((5, 1, 1)) == idx[None], 0.9, 0.1)
            expected = np.moveaxis(expected, 0, axis if axis >= 0 else -1)
            assert y.dtype == np.float32
            np.testing.assert_array_equal(y, expected.astype(np.float32))
    # Rows of an index outside [0, depth) are all off_value.
    y = ops.one_hot(Tensor(np.array([3, -1], np.int32)), 3).asnumpy()
    np.testing.assert_array_equal(y, np.zeros((2, 3), np.float32))


def test_one_hot_errors():
    with pytest.raises(TypeError, match="ops.one_hot: indices must be int32"):
        ops.one_hot(Tensor(np.zeros(3, np.float32)), 3)
    with pytest.raises(ValueError, match="axis 3 is out of range"):
        ops.one_hot(Tensor(np.zeros(3, np.int32)), 3, axis=3)


def test_argmax_argmin_match_numpy_with_ties_and_nans():
    rng = np.random.default_rng(1)
    x = rng.integers(0, 4, size=(6, 7)).astype(np.float32)  # many ties
    x[2, 3] = np.nan
    x[4, 1] = x[4, 5] = np.nan
    for axis in (0, 1, -1):
        mx, mn = graph_results(
            lambda t: (t.argmax(axis), ops.argmin(t, axis)), Tensor(x))
        np.testing.assert_array_equal(mx, np.argmax(x, axis))
        np.testing.assert_array_equal(mn, np.argmin(x, axis))
        assert mx.dtype == np.int64 and mn.dtype == np.int32
    ints = rng.integers(-5, 5, size=(4, 9)).astype(np.int32)
    (k,) = graph_results(lambda t: ops.argmax(t, 1, keepdim=True),
                         Tensor(ints))
    np.testing.assert_array_equal(k, np.argmax(ints, 1)[:, None])
    lows = np.full((3, 4), -np.inf, np.float32)  # every element ties
    np.testing.assert_array_equal(Tensor(lows).argmax(1).asnumpy(),
                                  np.zeros(3))
    # axis None: the index into the flattened tensor.
    assert Tensor(ints).argmax().asnumpy() == np.argmax(ints)
    assert Tensor(ints).argmin().asnumpy() == np.argmin(ints)


@pytest.mark.parametrize("name", ["equal", "not_equal", "greater",
                                  "greater_equal", "less", "less_equal"])
def test_comparisons_match_numpy(name):
    rng = np.random.default_rng(2)
    a = rng.integers(0, 3, size=(4, 5)).astype(np.float32)
    b = rng.integers(0, 3, size=(5,)).astype(np.float32)
    a[0, 0] = np.nan
    fn = getattr(ops, name)
    ref = getattr(np, name)
    (y,) = graph_results(fn, Tensor(a), Tensor(b))
    assert y.dtype == np.bool_
    np.testing.assert_array_equal(y, ref(a, b))
    i = rng.integers(-3, 3, size=(3, 1)).astype(np.int64)
    j = rng.integers(-3, 3, size=(1, 4)).astype(np.int64)
    (z,) = graph_results(fn, Tensor(i), Tensor(j))
    np.testing.assert_array_equal(z, ref(i, j))
    p = np.array([True, False, True, False])
    q = np.array([True, True, False, False])
    (w,) = graph_results(fn, Tensor(p), Tensor(q))
    np.testing.assert_array_equal(w, ref(p, q))


def test_operators_promote_and_take_numbers():
    f = Tensor(np.array([0.5, 1.0, 2.0], np.float32))
    i32 = Tensor(np.array([1, 2, 3], np.int32))
    i64 = Tensor(np.array([1, 0, 3], np.int64))
    np.testing.assert_array_equal((f > 0.75).asnumpy(), [False, True, True])
    np.testing.assert_array_equal((i32 == i64).asnumpy(), [True, False, True])
    np.testing.assert_array_equal((i32 >= f).asnumpy(), [True, True, True])
    np.testing.assert_array_equal((i32 < 2.5).asnumpy(), [True, True, False])
    np.testing.assert_array_equal((2 != i32).asnumpy(), [True, False, True])
    np.testing.assert_array_equal((Tensor([1, 2, 3]) == 2).asnumpy(),
                                  [False, True, False])


def test_logical_ops_match_numpy():
    rng = np.random.default_rng(3)
    a = rng.random((4, 6)) < 0.5
    b = rng.random((6,)) < 0.5
    y = graph_results(
        lambda s, t: (ops.logical_and(s, t), ops.logical_or(s, t),
                      ops.logical_not(s), s & t, s | t, ~s),
        Tensor(a), Tensor(b))
    for got, want in zip(y, (a & b, a | b, ~a, a & b, a | b, ~a)):
        np.testing.assert_array_equal(got, want)
    # Numbers count as x != 0.
    np.testing.assert_array_equal(
        ops.logical_and(Tensor(np.array([0.0, 2.0], np.float32)),
                        Tensor(np.array([1, 1], np.int32))).asnumpy(),
        [False, True])


def test_where_broadcasts_and_promotes():
    rng = np.random.default_rng(4)
    x = rng.standard_normal((3, 4)).astype(np.float32)
    y = rng.standard_normal((4,)).astype(np.float32)
    (r,) = graph_results(lambda c, s, t: ops.where(c, s, t),
                         Tensor(x > 0), Tensor(x), Tensor(y))
    np.testing.assert_array_equal(r, np.where(x > 0, x, y))
    (s,) = graph_results(lambda s: ops.where(s > 0, s, 0.0), Tensor(x))
    np.testing.assert_array_equal(s, np.where(x > 0, x, np.float32(0)))
    ints = Tensor(np.array([1, 2, 3], np.int32))
    out = ops.select(ints > 1, ints, Tensor(np.float32(0.5)))
    assert out.dtype == ms.float32
    np.testing.assert_array_equal(out.asnumpy(), [0.5, 2.0, 3.0])


def test_cast_matches_numpy():
    f = np.array([[1.7, -2.5, 0.0], [3.0, -0.2, 1e3]], np.float32)
    i = np.array([[-3, 0, 7], [2 ** 40, 1, -1]], np.int64)
    b = np.array([[True, False, True], [False, False, True]])
    cases = [(f, ms.int32), (f, ms.int64), (f, ms.bool_), (f, ms.float16),
             (i, ms.float32), (i, ms.int32), (i, ms.bool_),
             (b, ms.float32), (b, ms.int32), (b, ms.int64)]
    for src, dt in cases:
        (y,) = graph_results(lambda t: ops.cast(t, dt), Tensor(src))
        expected = src.astype(dt.np)
        assert y.dtype == expected.dtype, (src.dtype, dt)
        np.testing.assert_array_equal(y, expected)
    half = Tensor(f).astype(ms.float16)
    np.testing.assert_array_equal(half.astype(ms.float32).asnumpy(),
                                  f.astype(np.float16).astype(np.float32))


def test_quick_start_evaluation_line():
    """MindSpore Quick Start: correct += (pred.argmax(1) ==
    label).asnumpy().sum() with int32 labels; a sum of bools is an int."""
    rng = np.random.default_rng(5)
    logits = rng.standard_normal((64, 10)).astype(np.float32)
    label = rng.integers(0, 10, 64).astype(np.int32)
    pred, y = Tensor(logits), Tensor(label)
    expected = int((logits.argmax(1) == label).sum())
    assert (pred.argmax(1) == y).asnumpy().sum() == expected
    total = (pred.argmax(1) == y).sum()
    assert total.dtype == ms.int64 and int(total) == expected
    (g,) = graph_results(lambda p, t: (p.argmax(1) == t).sum(), pred, y)
    assert g == expected


def test_bool_tensors_print_and_capture_like_numpy():
    m = Tensor(np.array([[True, False], [False, True]]))
    assert m.dtype == ms.bool_
    assert str(m) == str(np.array([[True, False], [False, True]]))
    assert m.asnumpy().dtype == np.bool_
    # A small bool constant inside a graph is inlined as an i1 constant.
    mask = Tensor(np.array([True, False, True]))
    (y,) = graph_results(lambda t: ops.where(mask, t, -t),
                         Tensor(np.array([1.0, 2.0, 3.0], np.float32)))
    np.testing.assert_array_equal(y, [1.0, -2.0, 3.0])


def test_comparisons_in_a_graph_cell():
    class Net(nn.Cell):
        def construct(self, x, label):
            return (x.argmax(1) == label).sum()

    ms.set_context(mode=ms.GRAPH_MODE)
    x = np.eye(4, dtype=np.float32)
    label = np.array([0, 1, 0, 3], np.int32)
    assert int(Net()(Tensor(x), Tensor(label))) == 3
