"""A Cell's plain Tensor attributes in graph mode behave as in PyNative:
construct reads their value at each call, and `self.x = ...` in construct
updates them after the call (issue 55, item 11)."""

import numpy as np
import pytest

import msmlir as ms
from msmlir import nn, ops, Tensor

LEVELS = ["O0", "O1", "O2"]


@pytest.fixture(autouse=True)
def _pynative_after():
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE, jit_config={"jit_level": ""})


def _graph(level):
    ms.set_context(mode=ms.GRAPH_MODE, jit_config={"jit_level": level})


class Counter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.count = Tensor(np.zeros(3, np.float32))

    def construct(self, x):
        self.count = self.count + 1
        return self.count * x


def _three_calls(net):
    x = Tensor(np.arange(3, dtype=np.float32))
    return [net(x).asnumpy() for _ in range(3)]


@pytest.mark.parametrize("level", LEVELS)
def test_an_attribute_assigned_in_construct_matches_pynative(level):
    expected = _three_calls(Counter())
    assert expected[2].tolist() == [0.0, 3.0, 6.0]
    _graph(level)
    net = Counter()
    got = _three_calls(net)
    for a, b in zip(got, expected):
        assert a.tobytes() == b.tobytes()
    # The attribute holds a real value, not the graph's symbol.
    assert net.count.asnumpy().tolist() == [3.0, 3.0, 3.0]
    assert net._graph_runner.compile_count == 1


def test_a_kept_reference_keeps_its_old_value_as_in_pynative():
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        net = Counter()
        kept = net.count
        net(Tensor(np.ones(3, np.float32)))
        assert kept.asnumpy().tolist() == [0.0, 0.0, 0.0]
        assert net.count.asnumpy().tolist() == [1.0, 1.0, 1.0]


class Scale(nn.Cell):
    def __init__(self):
        super().__init__()
        self.k = Tensor(np.ones(3, np.float32))

    def construct(self, x):
        # k + 1 alone would be folded at capture if k were a constant.
        return (self.k + 1) * x


@pytest.mark.parametrize("level", LEVELS)
def test_an_attribute_rebound_outside_construct_is_read_at_the_next_call(
        level):
    _graph(level)
    net = Scale()
    x = Tensor(np.ones(3, np.float32))
    assert net(x).asnumpy().tolist() == [2.0, 2.0, 2.0]
    net.k = Tensor(np.full(3, 5, np.float32))
    assert net(x).asnumpy().tolist() == [6.0, 6.0, 6.0]
    assert net._graph_runner.compile_count == 1  # same type: same graph
    net.k = Tensor(np.full(4, 2, np.float32))
    with pytest.raises(ms.MSError, match="do not broadcast"):
        net(x)  # [4] * [3], as in PyNative
    net.k = Tensor(np.full((2, 3), 2, np.float32))
    assert net(x).asnumpy().tolist() == [[3.0] * 3] * 2


class AssignsParameter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(Tensor(np.ones(2, np.float32)), "w")

    def construct(self, x):
        self.w = self.w * x
        return x


def test_assigning_a_tensor_to_a_parameter_in_construct_is_one_error():
    ms.set_context(mode=ms.GRAPH_MODE)
    with pytest.raises(ms.GraphSyntaxError) as info:
        AssignsParameter()(Tensor(np.ones(2, np.float32)))
    message = str(info.value)
    assert "test_cell_attributes.py:" in message
    assert "ops.assign(self.w, value)" in message


class CountsInLoss(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(2, 1)
        self.seen = Tensor(np.zeros(1, np.float32))

    def construct(self, x):
        self.seen = self.seen + 1
        return self.dense(x).sum()


def test_assigning_an_attribute_while_differentiated_is_one_error():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = CountsInLoss()
    step = ms.value_and_grad(net, None, net.trainable_params())
    with pytest.raises(ms.GraphSyntaxError) as info:
        step(Tensor(np.ones((4, 2), np.float32)))
    message = str(info.value)
    assert "test_cell_attributes.py:" in message
    assert "attribute seen of CountsInLoss" in message
    assert net.seen.asnumpy().tolist() == [0.0]


def test_a_symbolic_tensor_kept_past_its_capture_says_so():
    kept = []

    @ms.jit
    def f(x):
        y = x * 2
        kept.append(y)
        return y

    f(Tensor(np.ones(2, np.float32)))
    with pytest.raises(ms.MSError) as info:
        kept[0].asnumpy()
    message = str(info.value)
    assert "captured earlier" in message and "STRICT" not in message


def test_attributes_of_subcells_are_read_at_each_call():
    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = Scale()

        def construct(self, x):
            return ops.relu(self.inner(x))

    ms.set_context(mode=ms.GRAPH_MODE)
    net = Outer()
    x = Tensor(np.ones(3, np.float32))
    assert net(x).asnumpy().tolist() == [2.0, 2.0, 2.0]
    net.inner.k = Tensor(np.full(3, -3, np.float32))
    assert net(x).asnumpy().tolist() == [0.0, 0.0, 0.0]
