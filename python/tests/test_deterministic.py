"""set_deterministic: MindSpore's switch, and ms's micro-batched train step
(micro_batch_size), whose gradients are the pairwise-tree sum of the
micro-batches' gradients. The multi-rank tests (multirank/) check what it
is for: N ranks train to one process's bits."""

import numpy as np
import pytest

import msmlir as ms
from msmlir import Tensor, nn

from conftest import Network
from msmlir.nn._micro_batches import split_into_micro_batches


def _batch(rows, seed=5):
    rng = np.random.default_rng(seed)
    return (rng.uniform(0, 1, (rows, 1, 28, 28)).astype(np.float32),
            rng.integers(0, 10, rows).astype(np.int32))


def _fresh():
    ms.set_seed(11)
    net = Network()
    return net, nn.WithLossCell(net, nn.CrossEntropyLoss())


def test_switch_and_context():
    assert ms.get_context("deterministic") == "OFF"
    ms.set_context(deterministic="ON")
    assert ms.get_context("deterministic") == "ON"
    assert ms._msmlir.comm.is_deterministic()
    ms.set_deterministic(False)
    assert ms.get_context("deterministic") == "OFF"
    assert not ms._msmlir.comm.is_deterministic()
    with pytest.raises(ValueError, match="'ON' or 'OFF'"):
        ms.set_context(deterministic=True)
    with pytest.raises(TypeError, match="must be a bool"):
        ms.set_deterministic("ON")
    with pytest.raises(ValueError, match="needs deterministic=True"):
        ms.set_deterministic(False, micro_batch_size=8)
    for bad in (0, -2, 2.0, True):
        with pytest.raises(ValueError, match="int >= 1"):
            ms.set_deterministic(True, micro_batch_size=bad)


def _tree_reference(rows, size):
    """One SGD step computed by hand: value_and_grad on each micro-batch
    (PyNative), the gradients added as ((g0 + g1) + (g2 + g3)) in numpy,
    times 1/4, then the optimizer."""
    x, y = _batch(rows)
    net, with_loss = _fresh()
    opt = nn.SGD(net.trainable_params(), 0.1)
    grad_fn = ms.value_and_grad(with_loss, None, opt.parameters)
    parts = [grad_fn(Tensor(x[i:i + size]), Tensor(y[i:i + size]))
             for i in range(0, rows, size)]
    assert len(parts) == 4
    loss = [p[0].asnumpy() for p in parts]
    grads = [[g.asnumpy() for g in p[1]] for p in parts]
    quarter = np.float32(0.25)
    summed = [((a + b) + (c + d)) * quarter for a, b, c, d in zip(*grads)]
    opt(tuple(Tensor(g) for g in summed))
    return (((loss[0] + loss[1]) + (loss[2] + loss[3])) * quarter,
            [p.asnumpy().copy() for p in net.trainable_params()])


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_micro_batched_step_is_the_tree_sum(mode):
    rows, size = 16, 4
    want_loss, want_params = _tree_reference(rows, size)
    if mode == "graph":
        ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_deterministic(True, micro_batch_size=size)
    net, with_loss = _fresh()
    step = nn.TrainOneStepCell(with_loss,
                               nn.SGD(net.trainable_params(), 0.1))
    x, y = _batch(rows)
    loss = step(Tensor(x), Tensor(y)).asnumpy()
    assert np.array_equal(loss, want_loss)
    for got, want in zip(net.trainable_params(), want_params):
        assert np.array_equal(got.asnumpy(), want), got.name


def test_setting_applies_to_cells_made_after_it():
    net, with_loss = _fresh()
    step = nn.TrainOneStepCell(with_loss,
                               nn.SGD(net.trainable_params(), 0.1))
    ms.set_deterministic(True, micro_batch_size=4)
    x, y = _batch(10)
    step(Tensor(x), Tensor(y))  # made before: whole batches, any size
    made_after = nn.TrainOneStepCell(with_loss,
                                     nn.SGD(net.trainable_params(), 0.1))
    with pytest.raises(ValueError, match="TrainOneStepCell: .*multiple of 4 "
                       "rows; this one has 10"):
        made_after(Tensor(x), Tensor(y))


def test_inputs_must_agree_on_rows():
    ms.set_deterministic(True, micro_batch_size=2)
    net, with_loss = _fresh()
    step = nn.TrainOneStepCell(with_loss,
                               nn.SGD(net.trainable_params(), 0.1))
    x, _ = _batch(4)
    _, y = _batch(6)
    with pytest.raises(ValueError, match=r"inputs have \[4, 6\] rows"):
        step(Tensor(x), Tensor(y))


def test_context_switch_keeps_the_micro_batch_size():
    ms.set_deterministic(True, micro_batch_size=4)
    ms.set_context(deterministic="ON")
    net, with_loss = _fresh()
    x, y = _batch(10)
    with pytest.raises(ValueError, match="multiple of 4 rows"):
        nn.TrainOneStepCell(with_loss, nn.SGD(net.trainable_params(),
                                              0.1))(Tensor(x), Tensor(y))
    ms.set_context(deterministic="OFF")  # clears it
    ms.set_context(deterministic="ON")
    nn.TrainOneStepCell(with_loss, nn.SGD(net.trainable_params(),
                                          0.1))(Tensor(x), Tensor(y))


def test_split_cuts_batched_tensors_only():
    x = Tensor(np.arange(8, dtype=np.float32).reshape(4, 2))
    scalar = Tensor(np.float32(3))
    pieces = split_into_micro_batches((x, scalar, 0.5), 2, "here")
    assert len(pieces) == 2
    for i, (xi, si, fi) in enumerate(pieces):
        assert np.array_equal(xi.asnumpy(), x.asnumpy()[2 * i:2 * i + 2])
        assert si is scalar and fi == 0.5
    with pytest.raises(ValueError, match="here: .*this one has 0"):
        split_into_micro_batches((Tensor(np.zeros((0, 2), np.float32)),), 2,
                                 "here")
    with pytest.raises(ValueError, match="here: .*batch dimension"):
        split_into_micro_batches((scalar, 1), 2, "here")
