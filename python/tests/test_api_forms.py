"""Issue 16: every op is reachable in MindSpore's three forms, the ops.*
function, the Tensor method and the Primitive. The functions are checked
against numpy/torch by the OpInfo table (test_opinfo.py); here each method
and Primitive must give the functional op's exact bits, in PyNative and
inside a jitted function, and the Primitives' own argument conventions
(Pad's per-dimension pairs, Split's output_num, Argmax's output_type,
Squeeze's ()) are checked against numpy."""

import numpy as np
import pytest

import msmlir as ms
from msmlir import Tensor, ops

from conftest import assert_bitwise

X = np.random.default_rng(5).uniform(-3, 3, (4, 6)).astype(np.float32)
Y = np.random.default_rng(6).uniform(-3, 3, (4, 6)).astype(np.float32)
MASK = X > 0
IDX = np.array([2, 0, 3], np.int32)

# name -> (method form, functional form), both of (x, y, mask, idx)
METHODS = {
    "equal": (lambda x, y, m, i: x.equal(y), lambda x, y, m, i: ops.equal(x, y)),
    "not_equal": (lambda x, y, m, i: x.not_equal(y),
                  lambda x, y, m, i: ops.not_equal(x, y)),
    "greater": (lambda x, y, m, i: x.greater(y),
                lambda x, y, m, i: ops.greater(x, y)),
    "greater_equal": (lambda x, y, m, i: x.greater_equal(y),
                      lambda x, y, m, i: ops.greater_equal(x, y)),
    "less": (lambda x, y, m, i: x.less(y), lambda x, y, m, i: ops.less(x, y)),
    "less_equal": (lambda x, y, m, i: x.less_equal(y),
                   lambda x, y, m, i: ops.less_equal(x, y)),
    "square": (lambda x, y, m, i: x.square(), lambda x, y, m, i: ops.square(x)),
    "rsqrt": (lambda x, y, m, i: y.abs().rsqrt(),
              lambda x, y, m, i: ops.rsqrt(ops.abs(y))),
    "clamp": (lambda x, y, m, i: x.clamp(-1.0, 2.0),
              lambda x, y, m, i: ops.clamp(x, -1.0, 2.0)),
    "clip": (lambda x, y, m, i: x.clip(max=0.5),
             lambda x, y, m, i: ops.clip(x, None, 0.5)),
    "gather": (lambda x, y, m, i: x.gather(i, 1),
               lambda x, y, m, i: ops.gather(x, i, 1)),
    "index_select": (lambda x, y, m, i: x.index_select(0, i),
                     lambda x, y, m, i: ops.index_select(x, 0, i)),
    "split": (lambda x, y, m, i: x.split(2, 1)[1],
              lambda x, y, m, i: ops.split(x, 2, 1)[1]),
    "chunk": (lambda x, y, m, i: x.chunk(2)[0],
              lambda x, y, m, i: ops.chunk(x, 2)[0]),
    "unsqueeze": (lambda x, y, m, i: x.unsqueeze(1),
                  lambda x, y, m, i: ops.unsqueeze(x, 1)),
    "permute": (lambda x, y, m, i: x.unsqueeze(0).permute(2, 0, 1),
                lambda x, y, m, i: ops.permute(ops.unsqueeze(x, 0),
                                               (2, 0, 1))),
    "tile": (lambda x, y, m, i: x.tile((2, 1)),
             lambda x, y, m, i: ops.tile(x, (2, 1))),
    "broadcast_to": (lambda x, y, m, i: x[0].broadcast_to((3, 6)),
                     lambda x, y, m, i: ops.broadcast_to(x[0], (3, 6))),
    "std": (lambda x, y, m, i: x.std(1, 1, True),
            lambda x, y, m, i: ops.std(x, 1, 1, True)),
    "var": (lambda x, y, m, i: x.var(0),
            lambda x, y, m, i: ops.var(x, 0)),
}

PRIMITIVES = {
    "Equal": (lambda x, y, m, i: ops.Equal()(x, y), ops.equal),
    "NotEqual": (lambda x, y, m, i: ops.NotEqual()(x, y), ops.not_equal),
    "Greater": (lambda x, y, m, i: ops.Greater()(x, y), ops.greater),
    "GreaterEqual": (lambda x, y, m, i: ops.GreaterEqual()(x, y),
                     ops.greater_equal),
    "Less": (lambda x, y, m, i: ops.Less()(x, y), ops.less),
    "LessEqual": (lambda x, y, m, i: ops.LessEqual()(x, y), ops.less_equal),
    "LogicalAnd": (lambda x, y, m, i: ops.LogicalAnd()(x > 0, y > 0),
                   lambda x, y: ops.logical_and(x > 0, y > 0)),
    "LogicalOr": (lambda x, y, m, i: ops.LogicalOr()(x > 0, y > 0),
                  lambda x, y: ops.logical_or(x > 0, y > 0)),
    "LogicalNot": (lambda x, y, m, i: ops.LogicalNot()(x > 0),
                   lambda x, y: ops.logical_not(x > 0)),
    "Select": (lambda x, y, m, i: ops.Select()(x > y, x, y),
               lambda x, y: ops.select(x > y, x, y)),
    "Square": (lambda x, y, m, i: ops.Square()(x), lambda x, y: ops.square(x)),
    "Rsqrt": (lambda x, y, m, i: ops.Rsqrt()(ops.abs(x)),
              lambda x, y: ops.rsqrt(ops.abs(x))),
    "Cast": (lambda x, y, m, i: ops.Cast()(x, ms.int32),
             lambda x, y: ops.cast(x, ms.int32)),
    "MaskedFill": (lambda x, y, m, i: ops.MaskedFill()(x, x > y, 0.5),
                   lambda x, y: ops.masked_fill(x, x > y, 0.5)),
    "ExpandDims": (lambda x, y, m, i: ops.ExpandDims()(x, -1),
                   lambda x, y: ops.expand_dims(x, -1)),
    "Tile": (lambda x, y, m, i: ops.Tile()(x, (1, 3)),
             lambda x, y: ops.tile(x, (1, 3))),
    "ZerosLike": (lambda x, y, m, i: ops.ZerosLike()(x) + y,
                  lambda x, y: ops.zeros_like(x) + y),
    "OnesLike": (lambda x, y, m, i: ops.OnesLike()(x) * y,
                 lambda x, y: ops.ones_like(x) * y),
    "Gather": (lambda x, y, m, i: ops.Gather()(x, i, 1),
               lambda x, y: ops.gather(x, Tensor(IDX), 1)),
    "Stack": (lambda x, y, m, i: ops.Stack(1)((x, y)),
              lambda x, y: ops.stack((x, y), 1)),
    "BroadcastTo": (lambda x, y, m, i: ops.BroadcastTo((2, 4, 6))(x),
                    lambda x, y: ops.broadcast_to(x, (2, 4, 6))),
}


def _tensors():
    return Tensor(X), Tensor(Y), Tensor(MASK), Tensor(IDX)


def _bits(t):
    return np.asarray(t._t)


@pytest.mark.parametrize("name", sorted(METHODS))
def test_method_is_the_function(name):
    method, function = METHODS[name]
    want = function(*_tensors())
    got = method(*_tensors())
    assert got.dtype is want.dtype
    assert_bitwise(_bits(got), _bits(want))
    graph = ms.jit(method)(*_tensors())
    assert_bitwise(_bits(graph), _bits(want))


@pytest.mark.parametrize("name", sorted(PRIMITIVES))
def test_primitive_is_the_function(name):
    primitive, function = PRIMITIVES[name]
    x, y, m, i = _tensors()
    want = function(x, y)
    got = primitive(x, y, m, i)
    assert got.dtype is want.dtype
    assert_bitwise(_bits(got), _bits(want))
    graph = ms.jit(primitive)(*_tensors())
    assert_bitwise(_bits(graph), _bits(want))


def test_primitive_argument_conventions_match_numpy():
    x = Tensor(X)
    # Argmax/Argmin: last axis and int32 by default, as MindSpore's.
    got = ops.Argmax()(x)
    assert got.dtype is ms.int32
    np.testing.assert_array_equal(got.asnumpy(), X.argmax(-1))
    got = ops.Argmin(axis=0, output_type=ms.int64)(x)
    assert got.dtype is ms.int64
    np.testing.assert_array_equal(got.asnumpy(), X.argmin(0))
    # Pad: one (before, after) pair per dimension, first dimension first.
    np.testing.assert_array_equal(ops.Pad(((1, 0), (0, 2)))(x).asnumpy(),
                                  np.pad(X, ((1, 0), (0, 2))))
    # Split: output_num equal parts.
    parts = ops.Split(axis=1, output_num=3)(x)
    for got, want in zip(parts, np.split(X, 3, axis=1)):
        np.testing.assert_array_equal(got.asnumpy(), want)
    # Squeeze(): every unit dimension.
    assert ops.Squeeze()(Tensor(X.reshape(1, 4, 1, 6))).shape == (4, 6)
    assert ops.Squeeze(2)(Tensor(X.reshape(1, 4, 1, 6))).shape == (1, 4, 6)
    # OneHot: axis, depth, on/off values.
    one = ops.OneHot(axis=0)(Tensor(IDX), 4, Tensor(2.0), Tensor(-1.0))
    want = np.where(np.arange(4)[:, None] == IDX[None, :], 2.0, -1.0)
    np.testing.assert_array_equal(one.asnumpy(), want)
    # Zeros, Ones, Fill, ops.fill: shape and dtype arguments.
    assert ops.Zeros()((2, 3), ms.int32).asnumpy().tolist() == [[0] * 3] * 2
    assert ops.Ones()(4, ms.float16).dtype is ms.float16
    np.testing.assert_array_equal(ops.Fill()(ms.float32, (2,), 1.5).asnumpy(),
                                  [1.5, 1.5])
    assert ops.fill(ms.int64, (3,), 7).asnumpy().tolist() == [7, 7, 7]
    # ResizeNearestNeighbor: numpy's floor(dst * in / out) source index.
    img = X.reshape(1, 1, 4, 6)
    got = ops.ResizeNearestNeighbor((8, 3))(Tensor(img)).asnumpy()
    rows = np.floor(np.arange(8) * 4 / 8).astype(int)
    cols = np.floor(np.arange(3) * 6 / 3).astype(int)
    np.testing.assert_array_equal(got, img[:, :, rows][:, :, :, cols])


def test_primitive_argument_errors():
    x = Tensor(X)
    with pytest.raises(ValueError, match="does not split into 4 equal"):
        ops.Split(axis=1, output_num=4)(x)
    with pytest.raises(ValueError, match="1 \\(before, after\\) pairs for a "
                       "rank-2 input"):
        ops.Pad(((1, 1),))(x)
    with pytest.raises(ValueError, match="align_corners=True is not "
                       "supported"):
        ops.ResizeNearestNeighbor((2, 2), align_corners=True)
