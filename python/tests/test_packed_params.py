"""Batch-1 parameter prepacking (ms-pack-parameters): at O2 a batch-1 dense
reads its weight as [in, out], a copy the runtime makes once per bound
parameter buffer. Updating the weights (set_data, load_param_into_net,
rebinding) must show in the next result, and the bits must match PyNative."""

import numpy as np
import pytest

import msmlir as ms
from msmlir import Tensor

from conftest import Network, assert_bitwise, rand


# Two threads split each dense's columns, and rows of 512 f32 are packed
# padded ("transpose_padded"); one thread packs them plain.
@pytest.fixture(params=[1, 2], ids=["1thread", "2threads"])
def graph_o2(request):
    ms.set_context(mode=ms.GRAPH_MODE, runtime_num_threads=request.param)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE, runtime_num_threads=0)


def make_net():
    net = Network()
    net.set_jit_config(ms.JitConfig(jit_level="O2"))
    return net


def modules(net):
    runner = net.__dict__["_graph_runner"]
    return [e.module for c in runner._caches.values() for e in c.values()
            if getattr(e, "module", None) is not None]


def pynative(net, x):
    ms.set_context(mode=ms.PYNATIVE_MODE)
    try:
        return net(x).asnumpy().copy()
    finally:
        ms.set_context(mode=ms.GRAPH_MODE)


def first_weight(net):
    return dict(net.parameters_and_names())["dense_relu_sequential.0.weight"]


def test_batch1_packs_once_and_matches_pynative(graph_o2):
    net = make_net()
    x = Tensor(rand(1, 1, 28, 28, low=0, high=1))
    out = [net(x).asnumpy().copy() for _ in range(3)]
    (module,) = modules(net)
    assert module.packed_param_count == 3  # the three dense weights, once
    # At one thread every other call reads the panels from the last.
    assert_bitwise(out[0], out[1])
    assert_bitwise(out[0], out[2])
    assert_bitwise(out[0], pynative(net, x))


def test_set_data_repacks(graph_o2):
    net = make_net()
    x = Tensor(rand(1, 1, 28, 28, low=0, high=1))
    before = net(x).asnumpy().copy()
    w = first_weight(net)
    w.set_data(Tensor(w.asnumpy() * 2))
    after = net(x).asnumpy().copy()
    assert not np.array_equal(before, after)
    assert_bitwise(after, pynative(net, x))
    assert modules(net)[0].packed_param_count == 6


def test_set_data_of_the_same_buffer_repacks(graph_o2):
    # New values written into the bound buffer, then set_data with it.
    net = make_net()
    x = Tensor(rand(1, 1, 28, 28, low=0, high=1))
    before = net(x).asnumpy().copy()
    w = first_weight(net)
    w.asnumpy()[:] = -w.asnumpy()
    w.set_data(w)
    after = net(x).asnumpy().copy()
    assert not np.array_equal(before, after)
    assert_bitwise(after, pynative(net, x))


def test_load_param_into_net_repacks(graph_o2):
    net, other = make_net(), make_net()
    x = Tensor(rand(1, 1, 28, 28, low=0, high=1))
    net(x)
    expected = pynative(other, x)
    params = {name: Tensor(p.asnumpy().copy())
              for name, p in other.parameters_and_names()}
    ms.load_param_into_net(net, params)
    assert_bitwise(net(x).asnumpy(), expected)


def test_rebinding_a_parameter_repacks(graph_o2):
    # A parameter replaced by another object (a new buffer).
    net = make_net()
    x = Tensor(rand(1, 1, 28, 28, low=0, high=1))
    before = net(x).asnumpy().copy()
    layer = net.dense_relu_sequential[0]
    layer.weight = ms.Parameter(Tensor(layer.weight.asnumpy() + 1),
                                name=layer.weight.name)
    after = net(x).asnumpy().copy()
    assert not np.array_equal(before, after)
    assert_bitwise(after, pynative(net, x))


def test_an_update_in_place_repacks():
    """A train step that writes a weight's update over the weight
    (ms-update-parameters-in-place) leaves it in the same buffer, so the
    batch-1 graph's packed copy must be made again all the same."""
    from msmlir import nn
    ms.set_context(mode=ms.GRAPH_MODE, runtime_num_threads=1)
    ms.set_seed(1)
    net = nn.SequentialCell(nn.Flatten(), nn.Dense(784, 64), nn.ReLU(),
                            nn.Dense(64, 10))
    net.set_jit_config(ms.JitConfig(jit_level="O2"))
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()),
                               nn.Adam(net.trainable_params(), 1e-3))
    rng = np.random.default_rng(0)
    batch = Tensor(rng.random((16, 1, 28, 28), dtype=np.float32))
    labels = Tensor(rng.integers(0, 10, 16).astype(np.int32))
    weight = net[1].weight

    def train_step():
        step(batch, labels)
        view = np.asarray(weight._t)
        return view.ctypes.data

    train_step()
    train_step()  # from here on the weight keeps its buffer
    x = Tensor(rand(1, 1, 28, 28, low=0, high=1))
    before = net(x).asnumpy().copy()
    (module,) = modules(net)
    packs = module.packed_param_count
    assert packs > 0
    address = train_step()
    assert train_step() == address  # updated in place
    after = net(x).asnumpy().copy()
    assert module.packed_param_count > packs
    assert not np.array_equal(after, before)
    assert_bitwise(after, pynative(net, x))
    ms.set_context(mode=ms.PYNATIVE_MODE, runtime_num_threads=0)
