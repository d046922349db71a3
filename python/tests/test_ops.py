"""Every functional op and primitive against numpy (float64 references)."""

import math

import numpy as np
import pytest

import msmlir as ms
from msmlir import Tensor, ops

from conftest import assert_close, rand

_erf = np.vectorize(math.erf)


def _softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


UNARY = {
    "relu": (ops.relu, lambda x: np.maximum(x, 0), (-2, 2)),
    "sigmoid": (ops.sigmoid, lambda x: 1 / (1 + np.exp(-x)), (-6, 6)),
    "tanh": (ops.tanh, np.tanh, (-3, 3)),
    "exp": (ops.exp, np.exp, (-3, 3)),
    "log": (ops.log, np.log, (0.1, 5)),
    "sqrt": (ops.sqrt, np.sqrt, (0.0, 4)),
    "neg": (ops.neg, np.negative, (-2, 2)),
    "abs": (ops.abs, np.abs, (-2, 2)),
    "gelu_exact": (ops.gelu, lambda x: 0.5 * x * (1 + _erf(x / math.sqrt(2))),
                   (-4, 4)),
    "gelu_tanh": (lambda x: ops.gelu(x, approximate="tanh"),
                  lambda x: 0.5 * x * (1 + np.tanh(
                      math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3))),
                  (-4, 4)),
    "square": (ops.square, np.square, (-2, 2)),
}


@pytest.mark.parametrize("name", sorted(UNARY))
@pytest.mark.parametrize("shape", [(7,), (3, 5), (2, 3, 4)])
def test_unary(name, shape):
    fn, ref, (lo, hi) = UNARY[name]
    a = rand(*shape, low=lo, high=hi)
    got = fn(Tensor(a))
    assert got.shape == shape and got.dtype == ms.float32
    assert_close(got.asnumpy(), ref(a.astype(np.float64)))


BINARY = {
    "add": (ops.add, np.add), "sub": (ops.sub, np.subtract),
    "mul": (ops.mul, np.multiply), "div": (ops.div, np.divide),
    "maximum": (ops.maximum, np.maximum), "minimum": (ops.minimum, np.minimum),
}


@pytest.mark.parametrize("name", sorted(BINARY))
@pytest.mark.parametrize("shapes", [((3, 4), (3, 4)), ((3, 4), (4,)),
                                    ((2, 1, 4), (3, 1)), ((5,), ())])
def test_binary(name, shapes):
    fn, ref = BINARY[name]
    a = rand(*shapes[0], seed=1)
    b = rand(*shapes[1], low=0.5, high=1.5, seed=2)
    got = fn(Tensor(a), Tensor(b))
    assert_close(got.asnumpy(), ref(a.astype(np.float64), b))
    # A Python number as either operand.
    assert_close(fn(Tensor(a), 0.75).asnumpy(), ref(a.astype(np.float64),
                                                    0.75))
    assert_close(fn(0.75, Tensor(a)).asnumpy(), ref(0.75,
                                                    a.astype(np.float64)))


@pytest.mark.parametrize("shapes", [((4, 3), (3, 5)), ((2, 4, 3), (3, 5)),
                                    ((2, 4, 3), (2, 3, 5)), ((3,), (3, 2)),
                                    ((4, 3), (3,))])
def test_matmul(shapes):
    a, b = rand(*shapes[0], seed=1), rand(*shapes[1], seed=2)
    got = ops.matmul(Tensor(a), Tensor(b))
    assert_close(got.asnumpy(), np.matmul(a.astype(np.float64), b))


@pytest.mark.parametrize("ta,tb", [(False, False), (True, False),
                                   (False, True), (True, True)])
def test_matmul_primitive_transposes(ta, tb):
    a = rand(*((3, 4) if ta else (4, 3)), seed=1)
    b = rand(*((5, 3) if tb else (3, 5)), seed=2)
    got = ops.MatMul(transpose_a=ta, transpose_b=tb)(Tensor(a), Tensor(b))
    ref = (a.T if ta else a).astype(np.float64) @ (b.T if tb else b)
    assert_close(got.asnumpy(), ref)


@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("xshape", [(8, 6), (2, 3, 6)])
def test_dense(bias, xshape):
    x, w, b = rand(*xshape, seed=1), rand(4, 6, seed=2), rand(4, seed=3)
    got = ops.dense(Tensor(x), Tensor(w), Tensor(b) if bias else None)
    ref = x.astype(np.float64) @ w.T.astype(np.float64) + (b if bias else 0)
    assert_close(got.asnumpy(), ref)


def test_reshape_transpose_flatten():
    a = rand(2, 3, 4)
    np.testing.assert_array_equal(ops.reshape(Tensor(a), (4, -1)).asnumpy(),
                                  a.reshape(4, -1))
    np.testing.assert_array_equal(
        ops.transpose(Tensor(a), (2, 0, 1)).asnumpy(), a.transpose(2, 0, 1))
    np.testing.assert_array_equal(ops.flatten(Tensor(a)).asnumpy(),
                                  a.reshape(2, -1))
    np.testing.assert_array_equal(
        ops.flatten(Tensor(a), start_dim=0).asnumpy(), a.reshape(-1))
    np.testing.assert_array_equal(
        ops.Reshape()(Tensor(a), (24,)).asnumpy(), a.reshape(24))
    np.testing.assert_array_equal(
        ops.Transpose()(Tensor(a), (1, 0, 2)).asnumpy(), a.transpose(1, 0, 2))
    with pytest.raises(ValueError, match="cannot reshape"):
        ops.reshape(Tensor(a), (5, 5))
    with pytest.raises(ValueError, match="permutation"):
        ops.transpose(Tensor(a), (0, 0, 1))


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("count", [2, 3, 5])
def test_concat(axis, count):
    parts = [rand(2, i + 1, seed=i) if axis != 0 else rand(i + 1, 3, seed=i)
             for i in range(count)]
    if axis == 0:
        got = ops.concat([Tensor(p) for p in parts], axis)
    else:
        got = ops.cat([Tensor(p) for p in parts], axis)
    np.testing.assert_array_equal(got.asnumpy(), np.concatenate(parts, axis))
    np.testing.assert_array_equal(
        ops.Concat(axis)(tuple(Tensor(p) for p in parts)).asnumpy(),
        np.concatenate(parts, axis))


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_softmax_log_softmax(axis):
    a = rand(4, 6, low=-5, high=5)
    ref = _softmax(a.astype(np.float64), axis)
    assert_close(ops.softmax(Tensor(a), axis).asnumpy(), ref)
    assert_close(ops.Softmax(axis)(Tensor(a)).asnumpy(), ref)
    assert_close(ops.log_softmax(Tensor(a), axis).asnumpy(), np.log(ref))
    assert_close(ops.LogSoftmax(axis)(Tensor(a)).asnumpy(), np.log(ref))


@pytest.mark.parametrize("axis", [(), 0, 1, (0, 2), -1, (1, -1)])
@pytest.mark.parametrize("keep", [False, True])
def test_reductions(axis, keep):
    a = rand(3, 4, 5)
    np_axis = None if axis == () else axis
    a64 = a.astype(np.float64)
    assert_close(ops.reduce_sum(Tensor(a), axis, keep).asnumpy(),
                 a64.sum(axis=np_axis, keepdims=keep))
    assert_close(ops.reduce_mean(Tensor(a), axis, keep).asnumpy(),
                 a64.mean(axis=np_axis, keepdims=keep))
    assert_close(ops.reduce_max(Tensor(a), axis, keep).asnumpy(),
                 a64.max(axis=np_axis, keepdims=keep))
    assert_close(ops.ReduceSum(keep_dims=keep)(Tensor(a), axis).asnumpy(),
                 a64.sum(axis=np_axis, keepdims=keep))
    assert_close(ops.ReduceMean(keep)(Tensor(a), axis).asnumpy(),
                 a64.mean(axis=np_axis, keepdims=keep))
    assert_close(ops.ReduceMax(keep)(Tensor(a), axis).asnumpy(),
                 a64.max(axis=np_axis, keepdims=keep))
    assert_close(ops.sum(Tensor(a), np_axis, keep).asnumpy(),
                 a64.sum(axis=np_axis, keepdims=keep))
    assert_close(ops.mean(Tensor(a), np_axis, keep).asnumpy(),
                 a64.mean(axis=np_axis, keepdims=keep))
    assert_close(ops.amax(Tensor(a), np_axis, keep).asnumpy(),
                 a64.max(axis=np_axis, keepdims=keep))


def test_simple_primitives():
    a, b = rand(3, 4, seed=1), rand(3, 4, low=0.5, high=1.5, seed=2)
    ta, tb = Tensor(a), Tensor(b)
    a64 = a.astype(np.float64)
    assert_close(ops.Add()(ta, tb).asnumpy(), a64 + b)
    assert_close(ops.Sub()(ta, tb).asnumpy(), a64 - b)
    assert_close(ops.Mul()(ta, tb).asnumpy(), a64 * b)
    assert_close(ops.Div()(ta, tb).asnumpy(), a64 / b)
    assert_close(ops.Maximum()(ta, tb).asnumpy(), np.maximum(a64, b))
    assert_close(ops.ReLU()(ta).asnumpy(), np.maximum(a64, 0))
    assert_close(ops.Exp()(ta).asnumpy(), np.exp(a64))
    assert_close(ops.GeLU()(ta).asnumpy(), 0.5 * a64 * (1 + np.tanh(
        math.sqrt(2 / math.pi) * (a64 + 0.044715 * a64 ** 3))))


def test_dropout_function_is_the_identity_at_inference():
    a = rand(3, 4)
    np.testing.assert_array_equal(
        ops.dropout(Tensor(a), 0.5, training=False).asnumpy(), a)


def test_op_errors_name_the_op_and_shapes():
    with pytest.raises(ms.MSError, match=r"ops.add on Float32\[2, 3\], "
                                         r"Float32\[4\].*broadcast"):
        ops.add(Tensor(np.ones((2, 3), np.float32)),
                Tensor(np.ones(4, np.float32)))
    with pytest.raises(ms.MSError, match="ops.matmul"):
        ops.matmul(Tensor(np.ones((2, 3), np.float32)),
                   Tensor(np.ones((4, 2), np.float32)))
    with pytest.raises(TypeError, match="expected a Tensor"):
        ops.relu([1.0, 2.0])
    with pytest.raises(ValueError, match="out of range"):
        ops.softmax(Tensor(np.ones((2, 3), np.float32)), axis=2)


def test_kernel_cache_hits():
    x = Tensor(np.ones((3, 7), np.float32))
    ops.sigmoid(x)
    before = ms.pynative_stats()
    for _ in range(5):
        ops.sigmoid(x)
    after = ms.pynative_stats()
    assert after["hits"] - before["hits"] == 5
    assert after["misses"] == before["misses"]
