"""Gradients through tensor-conditioned `if` and `while` (scf.if and
scf.while in the graph, ms-autodiff's reverses of them): GRAPH at every
jit_level against PyNative (whose tape records the branch taken and each
iteration) bit for bit, and against torch."""

import numpy as np
import pytest

import msmlir as ms
from msmlir import Tensor, nn, ops

from conftest import assert_bitwise, rand

torch = pytest.importorskip("torch")


class Gate(nn.Cell):
    """Which branch runs depends on the data."""

    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 3)

    def construct(self, x):
        y = self.dense(x)
        if x.sum() > 0:
            z = ops.exp(y) * x[:, :3]
        elif x.max() > 0.5:
            z = ops.relu(y) + y
        else:
            z = y * y
        return (z + y).sum()


def _loss(net):
    def loss(x):
        return net(x)
    return loss


def _torch_loss(net, x):
    w = torch.tensor(net.dense.weight.asnumpy(), requires_grad=True)
    b = torch.tensor(net.dense.bias.asnumpy(), requires_grad=True)
    xt = torch.tensor(x, requires_grad=True)
    y = xt @ w.T + b
    if xt.sum() > 0:
        z = torch.exp(y) * xt[:, :3]
    elif xt.max() > 0.5:
        z = torch.relu(y) + y
    else:
        z = y * y
    (z + y).sum().backward()
    return [t.grad.numpy() for t in (xt, w, b)]


def _branch(x):
    return 0 if x.sum() > 0 else (1 if x.max() > 0.5 else 2)


def _one_large(x):
    x = x.copy()
    x[0, 3] = 0.9
    return x


# One input per branch, and one more for the first.
INPUTS = [np.abs(rand(2, 4, seed=0)),
          _one_large(-np.abs(rand(2, 4, seed=1))),
          -np.abs(rand(2, 4, seed=2)),
          np.abs(rand(2, 4, seed=3)) * 2]


@pytest.mark.parametrize("level", ["O0", "O1", "O2"])
def test_gradients_through_if_match_pynative_and_torch(level):
    ms.set_seed(3)
    net = Gate()
    params = net.trainable_params()
    grad = ms.grad(_loss(net), grad_position=0, weights=params)
    jitted = ms.jit(grad, jit_config=ms.JitConfig(jit_level=level))
    for x in INPUTS:
        gx, gw = jitted(Tensor(x))
        px, pw = grad(Tensor(x))              # PyNative tape
        assert_bitwise(gx.asnumpy(), px.asnumpy())
        for a, b in zip(gw, pw):
            assert_bitwise(a.asnumpy(), b.asnumpy())
        tx, tw, tb = _torch_loss(net, x)
        np.testing.assert_allclose(gx.asnumpy(), tx, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(gw[0].asnumpy(), tw, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(gw[1].asnumpy(), tb, rtol=1e-5, atol=1e-6)
    # Every branch was taken, on one compile.
    assert sorted({_branch(x) for x in INPUTS}) == [0, 1, 2]
    assert jitted.compile_count == 1


class Grow(nn.Cell):
    """A data-dependent number of iterations, a weight read in the body,
    and a for over a tensor range."""

    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(3, 3)

    def construct(self, x, n):
        while x.sum() < 4.0:
            x = ops.tanh(self.dense(x)) + x * 1.5 + 0.25
        for _ in range(n):
            x = x * self.dense.bias
        return (x * x).sum()


def _torch_grow(net, x, n):
    w = torch.tensor(net.dense.weight.asnumpy(), requires_grad=True)
    b = torch.tensor(net.dense.bias.asnumpy(), requires_grad=True)
    xt = torch.tensor(x, requires_grad=True)
    h = xt
    while h.sum() < 4.0:
        h = torch.tanh(h @ w.T + b) + h * 1.5 + 0.25
    for _ in range(n):
        h = h * b
    (h * h).sum().backward()
    return [t.grad.numpy() for t in (xt, w, b)]


@pytest.mark.parametrize("level", ["O0", "O1", "O2"])
def test_gradients_through_while_match_pynative_and_torch(level):
    ms.set_seed(5)
    net = Grow()
    grad = ms.grad(lambda x, n: net(x, n), grad_position=0,
                   weights=net.trainable_params())
    jitted = ms.jit(grad, jit_config=ms.JitConfig(jit_level=level))
    for seed, n in ((0, 2), (1, 0), (2, 3)):
        x = rand(2, 3, seed=seed) * 0.5
        tn = Tensor(np.int32(n))
        gx, gw = jitted(Tensor(x), tn)
        px, pw = grad(Tensor(x), tn)               # PyNative tape
        assert_bitwise(gx.asnumpy(), px.asnumpy())
        for a, b in zip(gw, pw):
            assert_bitwise(a.asnumpy(), b.asnumpy())
        tx, tw, tb = _torch_grow(net, x, n)
        np.testing.assert_allclose(gx.asnumpy(), tx, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(gw[0].asnumpy(), tw, rtol=1e-5,
                                   atol=1e-5)
        np.testing.assert_allclose(gw[1].asnumpy(), tb, rtol=1e-5,
                                   atol=1e-5)
    assert jitted.compile_count == 1
