"""nn.Cell machinery and every layer against numpy."""

import math
from collections import OrderedDict

import numpy as np
import pytest

import msmlir as ms
from msmlir import Tensor, nn

from conftest import Network, assert_close, rand

_erf = np.vectorize(math.erf)


SEED_NAMES = [f"dense_relu_sequential.{i}.{kind}"
              for i in (0, 2, 4) for kind in ("weight", "bias")]


def test_parameter_names_are_cell_paths():
    net = Network()
    assert [n for n, _ in net.parameters_and_names()] == SEED_NAMES
    assert [p.name for p in net.trainable_params()] == SEED_NAMES
    assert [n for n, _ in net.cells_and_names()] == [
        "", "flatten", "dense_relu_sequential"] + [
        f"dense_relu_sequential.{i}" for i in range(5)]
    assert net.dense_relu_sequential[2].cell_path == "dense_relu_sequential.2"
    assert net.dense_relu_sequential[2].cell_description() == \
        "dense_relu_sequential.2 (Dense)"
    shapes = [tuple(p.shape) for p in net.trainable_params()]
    assert shapes == [(512, 784), (512,), (512, 512), (512,), (10, 512),
                      (10,)]


def test_names_follow_reparenting():
    inner = nn.Dense(3, 2)
    assert inner.weight.name == "weight"
    outer = nn.SequentialCell(inner)
    assert inner.weight.name == "0.weight"

    class Top(nn.Cell):
        def __init__(self):
            super().__init__()
            self.body = outer

        def construct(self, x):
            return self.body(x)

    Top()
    assert inner.weight.name == "body.0.weight"


def test_sequential_forms():
    a, b = nn.ReLU(), nn.Tanh()
    for seq in (nn.SequentialCell(a, b), nn.SequentialCell([a, b]),
                nn.SequentialCell(OrderedDict([("r", a), ("t", b)]))):
        assert len(seq) == 2
        x = rand(2, 3)
        assert_close(seq(Tensor(x)).asnumpy(), np.tanh(np.maximum(x, 0)))
    seq = nn.SequentialCell(nn.ReLU())
    seq.append(nn.Sigmoid())
    assert len(seq) == 2 and isinstance(seq[1], nn.Sigmoid)
    with pytest.raises(TypeError):
        nn.SequentialCell(lambda x: x)


def test_set_train_is_recursive():
    net = nn.SequentialCell(nn.Dense(2, 2), nn.Dropout(p=0.1))
    assert not net.training
    net.set_train()
    assert all(c.training for _, c in net.cells_and_names())
    net.set_train(False)
    assert not any(c.training for _, c in net.cells_and_names())


def test_cell_must_call_super_init():
    class Bad(nn.Cell):
        def __init__(self):
            self.dense = nn.Dense(2, 2)

    with pytest.raises(ms.MSError, match=r"super\(\)\.__init__"):
        Bad()


@pytest.mark.parametrize("has_bias", [True, False])
def test_dense_matches_numpy(has_bias):
    d = nn.Dense(6, 4, has_bias=has_bias)
    x = rand(5, 6)
    w = d.weight.asnumpy().astype(np.float64)
    ref = x @ w.T
    if has_bias:
        ref = ref + d.bias.asnumpy()
    else:
        assert d.bias is None
    assert_close(d(Tensor(x)).asnumpy(), ref)
    # [..., in] inputs keep their leading dims.
    x3 = rand(2, 3, 6)
    ref3 = x3 @ w.T + (d.bias.asnumpy() if has_bias else 0)
    assert_close(d(Tensor(x3)).asnumpy(), ref3)


def test_dense_default_init_bounds_and_layout():
    ms.set_seed(0)
    d = nn.Dense(400, 300)
    w, b = d.weight.asnumpy(), d.bias.asnumpy()
    assert w.shape == (300, 400) and b.shape == (300,)
    bound = 1 / math.sqrt(400)  # HeUniform(sqrt 5) and the bias Uniform
    assert np.abs(w).max() <= bound and np.abs(b).max() <= bound
    assert np.abs(w).max() > 0.95 * bound
    # Uniform: variance bound^2 / 3
    assert abs(w.var() - bound ** 2 / 3) < 0.05 * bound ** 2
    ms.set_seed(0)
    again = nn.Dense(400, 300)
    np.testing.assert_array_equal(again.weight.asnumpy(), w)


def test_dense_custom_init():
    d = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
    np.testing.assert_array_equal(d.weight.asnumpy(), np.ones((2, 3)))
    np.testing.assert_array_equal(d.bias.asnumpy(), np.zeros(2))
    w = np.arange(6, dtype=np.float32).reshape(2, 3)
    d = nn.Dense(3, 2, weight_init=Tensor(w), bias_init=0.5)
    np.testing.assert_array_equal(d.weight.asnumpy(), w)
    np.testing.assert_array_equal(d.bias.asnumpy(), [0.5, 0.5])
    with pytest.raises(ValueError):
        nn.Dense(3, 2, weight_init=np.ones((3, 3), np.float32))
    with pytest.raises(ValueError):
        nn.Dense(0, 2)


@pytest.mark.parametrize("activation,ref", [
    ("relu", lambda y: np.maximum(y, 0)),
    ("sigmoid", lambda y: 1 / (1 + np.exp(-y))),
    ("tanh", np.tanh),
    ("softmax", lambda y: np.exp(y) / np.exp(y).sum(-1, keepdims=True)),
])
def test_dense_activation_by_name_and_cell(activation, ref):
    x = rand(4, 5)
    for act in (activation, {"relu": nn.ReLU, "sigmoid": nn.Sigmoid,
                             "tanh": nn.Tanh,
                             "softmax": nn.Softmax}[activation]()):
        d = nn.Dense(5, 3, activation=act)
        y = x @ d.weight.asnumpy().astype(np.float64).T + d.bias.asnumpy()
        assert_close(d(Tensor(x)).asnumpy(), ref(y))
    with pytest.raises(ValueError, match="unknown activation"):
        nn.Dense(5, 3, activation="swishy")


LAYERS = {
    "ReLU": (nn.ReLU(), lambda x: np.maximum(x, 0)),
    "Sigmoid": (nn.Sigmoid(), lambda x: 1 / (1 + np.exp(-x))),
    "Tanh": (nn.Tanh(), np.tanh),
    "GELU": (nn.GELU(), lambda x: 0.5 * x * (1 + np.tanh(
        math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))),
    "GELU_exact": (nn.GELU(approximate=False),
                   lambda x: 0.5 * x * (1 + _erf(x / math.sqrt(2)))),
    "Softmax": (nn.Softmax(), lambda x: np.exp(x - x.max(-1, keepdims=True))
                / np.exp(x - x.max(-1, keepdims=True)).sum(-1,
                                                           keepdims=True)),
    "Softmax_axis0": (nn.Softmax(axis=0),
                      lambda x: np.exp(x) / np.exp(x).sum(0, keepdims=True)),
    "LogSoftmax": (nn.LogSoftmax(), lambda x: x - x.max(-1, keepdims=True) -
                   np.log(np.exp(x - x.max(-1, keepdims=True)).sum(
                       -1, keepdims=True))),
    "Flatten": (nn.Flatten(), lambda x: x.reshape(x.shape[0], -1)),
    "Dropout": (nn.Dropout(p=0.5), lambda x: x),
    "Dropout_keep_prob": (nn.Dropout(keep_prob=0.9), lambda x: x),
}


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_layers_match_numpy(name):
    cell, ref = LAYERS[name]
    x = rand(4, 3, 5, low=-3, high=3)
    assert_close(cell(Tensor(x)).asnumpy(), ref(x.astype(np.float64)))


def test_dropout_p_must_be_below_one():
    with pytest.raises(ValueError):
        nn.Dropout(p=1.0)


def test_seed_network_forward_matches_numpy():
    net = Network()
    x = rand(64, 1, 28, 28, low=0, high=1)
    h = x.reshape(64, -1).astype(np.float64)
    params = dict(net.parameters_and_names())
    for i in (0, 2, 4):
        h = h @ params[f"dense_relu_sequential.{i}.weight"].asnumpy().T + \
            params[f"dense_relu_sequential.{i}.bias"].asnumpy()
        if i != 4:
            h = np.maximum(h, 0)
    assert_close(net(Tensor(x)).asnumpy(), h)


def test_cell_repr_lists_children():
    text = repr(Network())
    assert "(dense_relu_sequential)" in text
    assert "input_channels=784, output_channels=512" in text
