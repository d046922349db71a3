"""mindspore.train.Model: train equals a hand-written TrainOneStepCell loop
bit for bit (PyNative, GRAPH_MODE, and the compiled step of
dataset_sink_mode), eval/predict/fit, initial_epoch, sink_size, and every
argument error's message."""

import os
import re
import subprocess
import sys

import numpy as np
import pytest

import msmlir as ms
from msmlir import Tensor, nn
from msmlir.dataset import NumpySlicesDataset
from msmlir.train import Accuracy, Callback, Loss, Model

from conftest import assert_bitwise

BATCH, BATCHES = 8, 4


def _data(n=BATCH * BATCHES, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, (n, 6)).astype(np.float32)
    y = (x[:, 0] + x[:, 1] > 0).astype(np.int32)
    return x, y


def _dataset(n=BATCH * BATCHES, seed=0):
    x, y = _data(n, seed)
    return NumpySlicesDataset((x, y), column_names=["data", "label"],
                              shuffle=False).batch(BATCH)


def _net():
    ms.set_seed(9)
    return nn.SequentialCell(nn.Dense(6, 8), nn.ReLU(), nn.Dense(8, 2))


def _model(net, metrics=None, lr=0.1):
    opt = nn.Momentum(net.trainable_params(), lr, 0.9)
    return Model(net, nn.CrossEntropyLoss(), opt, metrics=metrics)


class _Losses(Callback):
    def __init__(self):
        self.losses = []
        self.steps = []

    def on_train_step_end(self, run_context):
        cb = run_context.original_args()
        self.losses.append(cb.net_outputs.asnumpy().copy())
        self.steps.append((cb.cur_epoch_num, cb.cur_step_num))


def _manual(batches):
    """The same training by hand: TrainOneStepCell over the batches."""
    net = _net()
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()),
                               nn.Momentum(net.trainable_params(), 0.1, 0.9))
    step.set_train()
    x, y = _data()
    losses = []
    for b in batches:
        rows = slice(b * BATCH, (b + 1) * BATCH)
        losses.append(step(Tensor(x[rows]), Tensor(y[rows])).asnumpy())
    return losses, net


@pytest.mark.parametrize("mode, sink", [(ms.PYNATIVE_MODE, False),
                                        (ms.GRAPH_MODE, False),
                                        (ms.PYNATIVE_MODE, True),
                                        (ms.GRAPH_MODE, True)])
def test_train_equals_a_manual_loop(mode, sink):
    want, manual_net = _manual(list(range(BATCHES)) * 3)
    ms.set_context(mode=mode)
    net = _net()
    record = _Losses()
    _model(net).train(3, _dataset(), callbacks=[record],
                      dataset_sink_mode=sink)
    if sink:
        # A sink of BATCHES steps is one callback step: its last loss.
        want = want[BATCHES - 1::BATCHES]
        assert record.steps == [(e, e * BATCHES) for e in (1, 2, 3)]
    assert len(record.losses) == len(want)
    for a, b in zip(record.losses, want):
        assert_bitwise(a, b)
    for p, q in zip(net.trainable_params(), manual_net.trainable_params()):
        assert_bitwise(p.asnumpy(), q.asnumpy())
    assert record.steps[-1] == (3, 3 * BATCHES)


def test_sink_size_takes_batches_across_epochs():
    """sink_size=3 of 4 batches: epochs run batches 0-2, 3-1 (wrapping),
    2-0; the step counter goes on by 3 a sink, step-in-epoch is 3."""
    want, manual_net = _manual([0, 1, 2, 3, 0, 1, 2, 3, 0])
    net = _net()
    record = _Losses()
    model = _model(net)
    model.train(3, _dataset(), callbacks=[record], dataset_sink_mode=True,
                sink_size=3)
    assert record.steps == [(1, 3), (2, 6), (3, 9)]
    for a, b in zip(record.losses, want[2::3]):
        assert_bitwise(a, b)
    for p, q in zip(net.trainable_params(), manual_net.trainable_params()):
        assert_bitwise(p.asnumpy(), q.asnumpy())
    assert model._compiled_step.compile_count == 1


def test_sink_mode_runs_the_steps_natively(monkeypatch):
    """After each sink's first step, no Python runs per step: the train
    network's Python call count is one per sink."""
    from msmlir._jit import Compiled
    calls = []
    original = Compiled.__call__

    def counting(self, *args, **kwargs):
        calls.append(self.name)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Compiled, "__call__", counting)
    model = _model(_net())
    model.train(2, _dataset(), dataset_sink_mode=True)
    # (The optimizer's construct is called once more, inlined while the
    # first step is captured.)
    assert calls.count("TrainOneStepCell") == 2


def test_sink_mode_compiles_a_last_partial_batch_and_goes_on():
    """Batches of 8, 8, 8 and 4 rows: the native loop stops at the short
    batch, which compiles its own step from Python; the next epoch's
    first full batch goes back to the first graph. Same bits as by hand."""
    x, y = _data(28)
    net = _net()
    data = NumpySlicesDataset((x, y), column_names=["data", "label"],
                              shuffle=False).batch(BATCH)
    record = _Losses()
    model = _model(net)
    model.train(2, data, callbacks=[record], dataset_sink_mode=True)
    manual = _net()
    step = nn.TrainOneStepCell(nn.WithLossCell(manual, nn.CrossEntropyLoss()),
                               nn.Momentum(manual.trainable_params(), 0.1,
                                           0.9))
    step.set_train()
    losses = [step(Tensor(x[i:i + BATCH]), Tensor(y[i:i + BATCH])).asnumpy()
              for _ in range(2) for i in range(0, 28, BATCH)]
    assert record.steps == [(1, 4), (2, 8)]
    assert_bitwise(record.losses[0], losses[3])
    assert_bitwise(record.losses[1], losses[7])
    for p, q in zip(net.trainable_params(), manual.trainable_params()):
        assert_bitwise(p.asnumpy(), q.asnumpy())
    assert model._compiled_step.compile_count == 2


def test_sink_mode_steps_from_python_when_no_native_loop_can(monkeypatch):
    """A step the native loop cannot run (JIT Fallback's segments) goes
    step by step from Python, to the same bits and callback steps."""
    from msmlir._jit import Compiled
    monkeypatch.setattr(Compiled, "sink_entry", lambda self: None)
    want, manual_net = _manual(list(range(BATCHES)) * 2)
    net = _net()
    record = _Losses()
    _model(net).train(2, _dataset(), callbacks=[record],
                      dataset_sink_mode=True)
    assert record.steps == [(1, BATCHES), (2, 2 * BATCHES)]
    for a, b in zip(record.losses, want[BATCHES - 1::BATCHES]):
        assert_bitwise(a, b)
    for p, q in zip(net.trainable_params(), manual_net.trainable_params()):
        assert_bitwise(p.asnumpy(), q.asnumpy())


def test_sink_mode_with_a_python_map_and_a_shuffle_equals_the_batch_loop():
    """Rows made by a Python function and reshuffled each pass: sink mode
    trains on the same rows in the same order as the per-batch loop."""
    def dataset():
        x, y = _data()
        return NumpySlicesDataset((x, y), column_names=["data", "label"],
                                  shuffle=True).map(
            lambda v: (v * 2).astype(np.float32),
            input_columns=["data"]).batch(BATCH)

    ms.set_seed(3)
    plain = _net()
    _model(plain).train(2, dataset())
    ms.set_seed(3)
    sunk = _net()
    _model(sunk).train(2, dataset(), dataset_sink_mode=True)
    for p, q in zip(plain.trainable_params(), sunk.trainable_params()):
        assert_bitwise(p.asnumpy(), q.asnumpy())


def test_initial_epoch_runs_the_later_epochs():
    record = _Losses()
    _model(_net()).train(5, _dataset(), callbacks=[record], initial_epoch=3)
    assert [e for e, _ in record.steps] == [4] * BATCHES + [5] * BATCHES


def test_eval_and_predict():
    net = _net()
    model = _model(net, metrics={"acc": Accuracy(), "loss": Loss()})
    model.train(2, _dataset())
    result = model.eval(_dataset(seed=1))
    x, y = _data(seed=1)
    logits = net(Tensor(x)).asnumpy()
    assert result["acc"] == np.mean(logits.argmax(1) == y)
    losses = [nn.CrossEntropyLoss()(Tensor(logits[i:i + BATCH]),
                                    Tensor(y[i:i + BATCH])).asnumpy()
              for i in range(0, len(y), BATCH)]
    assert result["loss"] == pytest.approx(float(np.mean(losses)), rel=1e-6)
    np.testing.assert_array_equal(model.predict(Tensor(x)).asnumpy(), logits)
    assert not net.training
    assert set(_model(_net(), {"acc", "loss"}).eval(_dataset())) == \
        {"acc", "loss"}


def test_fit_evaluates_every_valid_frequency_epochs():
    seen = []

    class Watch(Callback):
        def on_train_epoch_end(self, run_context):
            cb = run_context.original_args()
            seen.append((cb.cur_epoch_num, cb.get("eval_results")))

        def on_eval_end(self, run_context):
            seen.append(("eval", run_context.original_args().mode))
    model = _model(_net(), metrics={"acc": Accuracy()})
    model.fit(4, _dataset(), _dataset(seed=1), valid_frequency=2,
              callbacks=[Watch()])
    assert [s[0] for s in seen] == [1, "eval", 2, 3, "eval", 4]
    assert seen[2][1].keys() == {"acc", "eval_loss"}
    assert seen[0][1] is None and seen[1][1] == "eval"
    seen.clear()
    model.fit(2, _dataset(), _dataset(seed=1), valid_frequency=[2],
              callbacks=[Watch()])
    # Evaluation runs before the epoch's on_train_epoch_end.
    assert [s[0] for s in seen] == [1, "eval", 2]


def test_networks_and_properties():
    net = _net()
    model = _model(net, metrics={"acc": Accuracy()})
    assert isinstance(model.train_network, nn.TrainOneStepCell)
    assert isinstance(model.eval_network, nn.WithEvalCell)
    assert model.predict_network is net
    assert Model(net).train_network is net


def _cells():
    net = _net()
    return net, nn.Momentum(net.trainable_params(), 0.1, 0.9)


@pytest.mark.parametrize("call, error, message", [
    (lambda: Model(lambda x: x), TypeError,
     "For 'Model', the argument 'network' must be Cell"),
    (lambda: Model(_net(), nn.MSELoss(), _cells()[1], boost=1), ValueError,
     "The argument in 'kwargs' should be 'loss_scale_manager' or "
     "'keep_batchnorm_fp32' or 'boost_config_dict' or 'acc_level', but got "
     "'boost'."),
    (lambda: Model(_net(), nn.MSELoss(), amp_level="O2"), ValueError,
     "Auto mixed precision will not work because 'optimizer' is None.Please "
     "set amp_level='O0'"),
    (lambda: Model(_net(), nn.MSELoss(), _cells()[1], amp_level="O2"),
     NotImplementedError,
     "Model: mixed precision"),
    (lambda: Model(_net(), loss_scale_manager=object()), ValueError,
     "The argument 'optimizer' can not be None when set "
     "'loss_scale_manager'."),
    (lambda: Model(_net(), metrics={"acc": Accuracy()}), ValueError,
     "If `metrics` is set, `eval_network` must not be None."),
    (lambda: Model(_net(), metrics=["acc"]), TypeError,
     "For 'Model', the argument 'metrics' must be a set of metric names or "
     "a dict"),
    (lambda: Model(_net(), eval_network=_net(), eval_indexes=[0, 1],
                   metrics={"acc": Accuracy()}), ValueError,
     "The argument 'eval_indexes' must be a list or None."),
    (lambda: _model(_net()).eval(_dataset()), ValueError,
     "For Model.eval, the model argument 'metrics' can not be None or "
     "empty"),
    (lambda: _model(_net()).train(2, _dataset(), initial_epoch=2),
     ValueError, "For 'Model.train', the parameter 'epoch' must bigger than "
     "parameter 'initial_epoch', but got the parameter 'epoch' is 2, "
     "'initial_epoch' is 2."),
    (lambda: _model(_net()).train(1, _dataset(), dataset_sink_mode=True,
                                  sink_size=0), ValueError,
     "For 'Model.train', The argument 'sink_size' must be -1 or positive, "
     "but got 0."),
    (lambda: _model(_net()).train(1, _dataset(), dataset_sink_mode=1),
     TypeError, "The 'dataset_sink_mode' must be bool"),
    (lambda: _model(_net()).train(1, [1, 2]), TypeError,
     "For 'Model.train', the dataset must be a mindspore.dataset Dataset"),
    (lambda: _model(_net()).train(
        1, NumpySlicesDataset((np.ones((4, 6), np.float32),) * 3,
                              column_names=["a", "b", "c"])),
     ValueError, "When 'loss_fn' is not None, 'train_dataset' should return "
     "two elements, but got 3"),
    (lambda: _model(_net()).train(1, _dataset(), callbacks=[1]), TypeError,
     "When the 'callbacks' is a list, the elements in 'callbacks' must be "
     "Callback functions."),
    (lambda: _model(_net(), {"acc"}).fit(1, _dataset(), _dataset(),
                                         valid_frequency=1.0), TypeError,
     "For 'Model.fit', the type of 'valid_frequency' must be a list or an "
     "integer"),
    (lambda: _model(_net()).fit(1, _dataset(), _dataset()), ValueError,
     "For 'Model.fit', if valid_dataset is not None, the model argument "
     "'metrics' can not beNone or empty"),
])
def test_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


FASHION = "/usr/share/datasets/fashion-mnist"
EXAMPLE = os.path.join(os.path.dirname(__file__), "..", "..", "examples",
                       "python", "model_train_mnist.py")


@pytest.mark.skipif(not os.path.isdir(FASHION),
                    reason="Debian's dataset-fashion-mnist is not installed")
@pytest.mark.parametrize("sink", [False, True])
def test_the_example_trains_on_fashion_mnist(tmp_path, sink):
    env = dict(os.environ, PYTHONPATH=os.path.dirname(
        os.path.dirname(ms.__file__)))
    command = [sys.executable, EXAMPLE, "--batches", "120", "--ckpt-dir",
               str(tmp_path)] + (["--sink"] if sink else [])
    out = subprocess.run(command, env=env, capture_output=True, text=True,
                         check=True).stdout.splitlines()
    # LossMonitor(100) prints at step 100; in sink mode the 120 steps are
    # one callback step, as in MindSpore.
    step = 120 if sink else 100
    assert re.fullmatch(rf"epoch: 1 step: {step}, loss is [0-9.e-]+", out[0])
    assert re.fullmatch(r"Train epoch time: [0-9.]+ ms, per step time: "
                        r"[0-9.]+ ms", out[1])
    accuracy = float(out[2].split()[-1])
    assert accuracy > 0.6, out
    assert os.listdir(tmp_path) == ["mlp-1_120.ckpt"]
