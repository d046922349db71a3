"""The callbacks inside Model.train / eval / fit: the hook order and
cb_params, the lines LossMonitor and TimeMonitor print (MindSpore's
format), ModelCheckpoint's files, retention and prefixes, EarlyStopping,
ReduceLROnPlateau, History, LambdaCallback, LearningRateScheduler, and the
error messages."""

import os
import re

import numpy as np
import pytest

import msmlir as ms
from msmlir import nn
from msmlir.dataset import NumpySlicesDataset
from msmlir.train import (Accuracy, Callback, CheckpointConfig,
                          EarlyStopping, History, LambdaCallback,
                          LearningRateScheduler, LossMonitor, Model,
                          ModelCheckpoint, ReduceLROnPlateau, RunContext,
                          TimeMonitor)

BATCH, BATCHES = 4, 3


def _dataset(seed=0, n=BATCH * BATCHES):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, (n, 3)).astype(np.float32)
    y = (x[:, 0] > 0).astype(np.int32)
    return NumpySlicesDataset((x, y), column_names=["data", "label"],
                              shuffle=False).batch(BATCH)


def _model(lr=0.05, metrics=None):
    ms.set_seed(2)
    net = nn.Dense(3, 2)
    opt = nn.Momentum(net.trainable_params(), lr, 0.9)
    return Model(net, nn.CrossEntropyLoss(), opt, metrics=metrics)


class _Order(Callback):
    def __init__(self):
        self.calls = []

    def __getattribute__(self, name):
        if name.startswith("on_"):
            calls = object.__getattribute__(self, "calls")
            return lambda run_context: calls.append(name)
        return object.__getattribute__(self, name)


def test_hook_order_in_train_and_eval():
    order = _Order()
    model = _model(metrics={"acc": Accuracy()})
    model.train(2, _dataset(), callbacks=order)
    step = ["on_train_step_begin", "on_train_step_end"]
    epoch = ["on_train_epoch_begin"] + step * BATCHES + \
        ["on_train_epoch_end"]
    assert order.calls == ["on_train_begin"] + epoch * 2 + ["on_train_end"]
    order.calls.clear()
    model.eval(_dataset(), callbacks=[order])
    assert order.calls == (["on_eval_begin", "on_eval_epoch_begin"] +
                           ["on_eval_step_begin", "on_eval_step_end"] *
                           BATCHES + ["on_eval_epoch_end", "on_eval_end"])


def test_old_style_hooks_run_from_the_new_ones():
    seen = []

    class Old(Callback):
        def step_end(self, run_context):
            seen.append(run_context.original_args().mode)
    model = _model(metrics={"acc": Accuracy()})
    model.train(1, _dataset(), callbacks=Old())
    model.eval(_dataset(), callbacks=Old())
    assert seen == ["train"] * BATCHES + ["eval"] * BATCHES
    with pytest.raises(ValueError, match=r"For Old callback, \['step_end'\] "
                       "methods may not be supported in later version"):
        model.fit(1, _dataset(), callbacks=Old())


def test_cb_params():
    keys = {}

    class Keys(Callback):
        def on_train_step_end(self, run_context):
            cb = run_context.original_args()
            keys.update(cb)
    model = _model()
    model.train(2, _dataset(), callbacks=Keys())
    for key in ("train_network", "epoch_num", "batch_num", "mode", "loss_fn",
                "optimizer", "parallel_mode", "device_number",
                "train_dataset", "list_callback", "train_dataset_element",
                "network", "cur_step_num", "dataset_sink_mode",
                "cur_epoch_num", "net_outputs"):
        assert key in keys, key
    assert keys["epoch_num"] == 2 and keys["batch_num"] == BATCHES
    assert keys["cur_step_num"] == 2 * BATCHES
    assert keys["train_network"] is model.train_network


def test_stop_request_ends_the_epoch_at_once():
    class Stop(Callback):
        def on_train_step_end(self, run_context):
            if run_context.original_args().cur_step_num == 2:
                run_context.request_stop()
    order = _Order()
    _model().train(3, _dataset(), callbacks=[Stop(), order])
    assert order.calls.count("on_train_step_end") == 2
    assert order.calls[-2:] == ["on_train_epoch_end", "on_train_end"]


def test_loss_monitor_lines(capsys):
    losses = []

    class Record(Callback):
        def on_train_step_end(self, run_context):
            losses.append(run_context.original_args().net_outputs)
    _model().train(2, _dataset(), callbacks=[Record(), LossMonitor(2)])
    lines = capsys.readouterr().out.splitlines()
    # Global steps 2, 4 and 6: step-in-epoch 2, 1 and 3.
    want = [(1, 2, 1), (2, 1, 3), (2, 3, 5)]
    assert lines == [f"epoch: {e} step: {s}, loss is "
                     f"{float(losses[i].asnumpy())}" for e, s, i in want]


def test_loss_monitor_stops_on_nan():
    x = np.full((8, 3), np.nan, np.float32)
    nan_data = NumpySlicesDataset((x, np.zeros(8, np.int32)),
                                  column_names=["data", "label"]).batch(4)
    with pytest.raises(ValueError, match="In epoch: 1 step: 1, loss is NAN "
                       "or INF, training process cannot continue, "
                       "terminating training."):
        _model().train(1, nan_data, callbacks=LossMonitor(0))


def test_loss_monitor_prints_fit_metrics(capsys):
    _model(metrics={"acc": Accuracy()}).fit(
        1, _dataset(), _dataset(1), callbacks=LossMonitor(100))
    out = capsys.readouterr().out
    assert re.fullmatch(r"Eval result: epoch 1, metrics: \{'acc': "
                        r"[0-9.]+\}\n", out), out


def test_time_monitor_lines(capsys):
    _model(metrics={"acc": Accuracy()}).fit(
        2, _dataset(), _dataset(1), callbacks=TimeMonitor(data_time=True))
    lines = capsys.readouterr().out.splitlines()
    number = r"\d+\.\d{3}"
    line = (rf"(Train|Eval) epoch time: {number} ms, per step time: "
            rf"{number} ms \(data time: {number} ms\)")
    # fit evaluates before the training epoch ends.
    assert [re.fullmatch(line, text).group(1) for text in lines] == \
        ["Eval", "Train", "Eval", "Train"]


def test_model_checkpoint_files_and_retention(tmp_path):
    config = CheckpointConfig(save_checkpoint_steps=2, keep_checkpoint_max=3,
                              append_info=["epoch_num", "step_num"])
    ckpt = ModelCheckpoint("net", str(tmp_path), config)
    model = _model()
    model.train(3, _dataset(), callbacks=ckpt)
    # Saves at global steps 2, 4, 6, 8 (epoch 3 step 2), then the end (9).
    assert sorted(os.listdir(tmp_path)) == ["net-2_3.ckpt", "net-3_2.ckpt",
                                            "net-3_3.ckpt"]
    assert ckpt.latest_ckpt_file_name == str(tmp_path / "net-3_3.ckpt")
    loaded = ms.load_checkpoint(ckpt.latest_ckpt_file_name)
    for p in model.train_network.trainable_params():
        np.testing.assert_array_equal(loaded[p.name].asnumpy(), p.asnumpy())
    assert "moments.weight" in loaded and "learning_rate" in loaded
    assert int(loaded["epoch_num"].asnumpy()) == 3
    assert int(loaded["step_num"].asnumpy()) == 9
    again = ModelCheckpoint("net", str(tmp_path), config)
    _model().train(1, _dataset(), callbacks=again)
    assert "net_1-1_2.ckpt" in os.listdir(tmp_path)
    assert ModelCheckpoint("net", str(tmp_path))._prefix == "net_2"


def test_checkpoint_of_a_saved_network_and_on_exception(tmp_path):
    model = _model()
    config = CheckpointConfig(save_checkpoint_steps=100,
                              saved_network=model.predict_network,
                              exception_save=True)
    ckpt = ModelCheckpoint("b", str(tmp_path), config)

    class Fail(Callback):
        def on_train_step_end(self, run_context):
            if run_context.original_args().cur_step_num == 2:
                raise RuntimeError("boom")
    with pytest.raises(RuntimeError, match="boom"):
        model.train(1, _dataset(), callbacks=[ckpt, Fail()])
    assert os.listdir(tmp_path) == ["b-1_2_breakpoint.ckpt"]
    saved = ms.load_checkpoint(str(tmp_path / "b-1_2_breakpoint.ckpt"))
    assert sorted(saved) == ["bias", "weight"]


def _fit_with(callback, epochs=6, lr=0.05):
    epochs_run = []

    class Count(Callback):
        def on_train_epoch_end(self, run_context):
            epochs_run.append(run_context.original_args().cur_epoch_num)
    model = _model(lr, metrics={"acc": Accuracy()})
    model.fit(epochs, _dataset(), _dataset(1), callbacks=[callback, Count()])
    return epochs_run, model


def test_early_stopping(capsys):
    stop = EarlyStopping(monitor="acc", patience=2, mode="max", verbose=True,
                         baseline=2.0)
    epochs, _ = _fit_with(stop)
    # Accuracy never beats the baseline 2.0: stop after `patience` epochs.
    assert epochs == [1, 2] and stop.stopped_epoch == 2
    assert capsys.readouterr().out == "Epoch 00002: early stopping\n"
    stop = EarlyStopping(monitor="eval_loss", patience=100)
    epochs, _ = _fit_with(stop, epochs=3)
    assert epochs == [1, 2, 3] and stop.best < np.inf


def test_early_stopping_restores_the_best_weights():
    best = {}

    class Snapshot(Callback):
        def on_train_epoch_end(self, run_context):
            cb = run_context.original_args()
            loss = float(cb.eval_results["eval_loss"])
            if not best or loss < best["loss"]:
                best.update(loss=loss, weight=cb.network.weight.asnumpy()
                            .copy())
    stop = EarlyStopping(patience=0, restore_best_weights=True)
    _, model = _fit_with_callbacks([Snapshot(), stop])
    np.testing.assert_array_equal(model.predict_network.weight.asnumpy(),
                                  best["weight"])


def _fit_with_callbacks(callbacks):
    model = _model(0.05, metrics={"acc": Accuracy()})
    model.fit(3, _dataset(), _dataset(1), callbacks=callbacks)
    return None, model


def test_reduce_lr_on_plateau(capsys):
    reduce = ReduceLROnPlateau(monitor="acc", mode="max", patience=1,
                               factor=0.5, min_delta=10.0, verbose=True)
    _, model = _fit_with(reduce, epochs=3)
    lr = float(model.train_network.optimizer.learning_rate.asnumpy())
    # Epoch 1 sets the best; 2 and 3 fail to improve by 10: two halvings.
    assert lr == pytest.approx(0.05 * 0.25)
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Epoch 00002: ReduceLROnPlateau reducing learning " \
        "rate to 0.02500000037252903."


def test_reduce_lr_needs_a_fixed_rate():
    net = nn.Dense(3, 2)
    opt = nn.Momentum(net.trainable_params(), [0.1] * 10, 0.9)
    model = Model(net, nn.CrossEntropyLoss(), opt)
    with pytest.raises(ValueError, match="ReduceLROnPlateau does not "
                       "support dynamic learning rate and group learning "
                       "rate now."):
        model.train(1, _dataset(), callbacks=ReduceLROnPlateau("loss"))


def test_history():
    history = History()
    _fit_with(history, epochs=2)
    assert history.epoch == {"epoch": [1, 2]}
    assert len(history.history["net_output"]) == 2
    assert len(history.history["acc"]) == 2


def test_lambda_callback_and_learning_rate_scheduler():
    calls = []
    cb = LambdaCallback(on_train_epoch_end=lambda rc: calls.append(
        rc.original_args().cur_epoch_num))
    scheduler = LearningRateScheduler(
        lambda lr, step: lr * 0.5 if step % BATCHES == 0 else lr)
    model = _model(0.08)
    model.train(2, _dataset(), callbacks=[cb, scheduler])
    assert calls == [1, 2]
    assert float(model.train_network.optimizer.learning_rate.asnumpy()) == \
        pytest.approx(0.02)


@pytest.mark.parametrize("call, error, message", [
    (lambda: RunContext([]), TypeError,
     "The argument 'original_args' of RunContext should be dict type"),
    (lambda: LossMonitor(1.0), TypeError,
     "The input value must be int, but got 'float'"),
    (lambda: LossMonitor(-1), ValueError,
     "The input value must be int and must >= 0, but got '-1' with type "
     "'int'."),
    (lambda: TimeMonitor(data_time=1), TypeError, "must be bool"),
    (lambda: CheckpointConfig(0, 0, 0, 0), ValueError,
     "For 'CheckpointConfig', the input arguments 'save_checkpoint_steps', "
     "'save_checkpoint_seconds', 'keep_checkpoint_max' and "
     "'keep_checkpoint_per_n_minutes' can't be all None or 0."),
    (lambda: CheckpointConfig(saved_network=1), TypeError,
     "For 'CheckpointConfig', the type of 'saved_network' must be None or "
     "Cell, but got int."),
    (lambda: CheckpointConfig(append_info=["epoch"]), ValueError,
     r"must be in \['epoch_num', 'step_num'\], but got epoch."),
    (lambda: ModelCheckpoint("a/b"), ValueError,
     "For 'ModelCheckpoint', the argument 'prefix' for checkpoint file name "
     "is invalid, it must be string and does not contain '/', but got a/b."),
    (lambda: ModelCheckpoint(config={}), TypeError,
     "For 'ModelCheckpoint', the type of argument 'config' should be "
     "'CheckpointConfig'"),
    (lambda: EarlyStopping(mode="up"), ValueError,
     "mode should be 'auto', 'min' or 'max', but got up."),
    (lambda: ReduceLROnPlateau(factor=1.0), ValueError,
     r"should be in range of \(0.0, 1.0\)"),
    (lambda: ReduceLROnPlateau(patience=-1), ValueError,
     "The input value must be int and must >= 0"),
])
def test_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_missing_monitor_warns():
    with pytest.warns(UserWarning, match="Early stopping is conditioned on "
                      "acc, which is not available"):
        _model().train(1, _dataset(), callbacks=EarlyStopping("acc"))


