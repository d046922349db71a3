"""mindspore.train.Model: train / eval / predict / fit over a dataset with
callbacks and metrics, as MindSpore's Model runs them.

The networks are built once: the train network is
TrainOneStepCell(WithLossCell(network, loss_fn), optimizer), the eval
network WithEvalCell(network, loss_fn) (or the given eval_network), the
predict network the network itself. Each dataset row's columns are the
train network's arguments.

dataset_sink_mode: each epoch is sink_size steps of the train network
compiled as one graph (ms.jit), taken from the dataset without restarting
it between epochs, and is one step for the callbacks, as in MindSpore on
Ascend. The first step of each runs from Python; the rest run in a native
loop (CompiledGraph.run_steps) that feeds each step the C++ pipeline's
next batch and the parameters the last step left, with no Python between
steps (docs/python.md, "Sink mode").
"""

import itertools

from .._jit import jit
from .._parallel_context import get_auto_parallel_context
from .._checkparam import check_bool, check_int, check_non_negative_int
from ..nn.cell import Cell
from ..nn.optim.optimizer import Optimizer
from ..nn.wrap import TrainOneStepCell, WithEvalCell, WithLossCell
from .callback import TimeMonitor
from .callback._callback import (Callback, CallbackList, CallbackParams,
                                 RunContext, old_style_hooks)
from .callback._checkpoint import ModelCheckpoint
from . import callback as _callbacks
from .metrics import Loss, Metric, get_metric_fn

__all__ = ["Model"]

_KWARGS = ("loss_scale_manager", "keep_batchnorm_fp32", "boost_config_dict",
           "acc_level")
# The built-in callbacks fit leaves out of its evaluation (all but
# TimeMonitor), as MindSpore does.
_TRAIN_ONLY = tuple(getattr(_callbacks, n) for n in _callbacks.__all__
                    if n not in ("Callback", "RunContext", "TimeMonitor",
                                 "CheckpointConfig"))


def _check_kwargs(kwargs, optimizer, amp_level, boost_level):
    for key in kwargs:
        if key not in _KWARGS:
            raise ValueError("The argument in 'kwargs' should be "
                             "'loss_scale_manager' or 'keep_batchnorm_fp32' "
                             "or 'boost_config_dict' or 'acc_level', but got "
                             f"'{key}'.")
    if optimizer is None and amp_level != "O0":
        raise ValueError("Auto mixed precision will not work because "
                         "'optimizer' is None.Please set amp_level='O0' to "
                         "disable auto mixed precision or set 'optimizer' "
                         "not be None to use auto mixed precision.")
    manager = kwargs.get("loss_scale_manager")
    if manager is not None and optimizer is None:
        raise ValueError("The argument 'optimizer' can not be None when set "
                         "'loss_scale_manager'.")
    # Mixed precision belongs to mindspore.amp, which msmlir has not yet.
    if amp_level != "O0" or manager is not None:
        raise NotImplementedError(
            "Model: mixed precision (amp_level other than 'O0', "
            "loss_scale_manager) is not supported by msmlir yet; use "
            "amp_level='O0' and no loss_scale_manager")
    if boost_level not in ("O0", None):
        raise NotImplementedError(
            f"Model: boost_level {boost_level!r} is not supported by msmlir; "
            "use 'O0'")


def _metric_fns(metrics):
    if not metrics:
        return {}
    if isinstance(metrics, set):
        return {name: get_metric_fn(name) for name in sorted(metrics)}
    if isinstance(metrics, dict):
        for name, fn in metrics.items():
            if not isinstance(name, str) or not isinstance(fn, Metric):
                raise TypeError("For 'Model', the 'metrics' dict must map "
                                "names to Metric instances.")
        return dict(metrics)
    raise TypeError("For 'Model', the argument 'metrics' must be a set of "
                    "metric names or a dict of Metric instances, but got "
                    f"{type(metrics)}.")


def _callbacks_list(callbacks):
    if callbacks is None:
        return []
    if isinstance(callbacks, Callback):
        return [callbacks]
    return list(callbacks)


def _check_dataset(dataset, who):
    for method in ("get_dataset_size", "create_tuple_iterator"):
        if not hasattr(dataset, method):
            raise TypeError(f"For '{who}', the dataset must be a "
                            "mindspore.dataset Dataset, but got "
                            f"{type(dataset)}.")
    if dataset.get_dataset_size() == 0:
        raise ValueError("There is no valid data in dataset, please check "
                         "dataset file firstly.")


class Model:
    def __init__(self, network, loss_fn=None, optimizer=None, metrics=None,
                 eval_network=None, eval_indexes=None, amp_level="O0",
                 boost_level="O0", **kwargs):
        if not isinstance(network, Cell):
            raise TypeError("For 'Model', the argument 'network' must be "
                            f"Cell, but got {type(network)}.")
        _check_kwargs(kwargs, optimizer, amp_level, boost_level)
        if optimizer is not None and not isinstance(optimizer, Optimizer):
            raise TypeError("For 'Model', the argument 'optimizer' must be "
                            f"an Optimizer, but got {type(optimizer)}.")
        self._network = network
        self._loss_fn = loss_fn
        self._optimizer = optimizer
        self._metric_fns = _metric_fns(metrics)
        self._train_network = self._build_train_network()
        self._eval_network, self._eval_indexes = self._build_eval_network(
            eval_network, eval_indexes)
        self._predict_network = network
        self._compiled_step = None

    # -- the networks --------------------------------------------------------
    def _build_train_network(self):
        network = self._network
        if self._loss_fn is not None:
            network = WithLossCell(network, self._loss_fn)
        if self._optimizer is not None:
            network = TrainOneStepCell(network, self._optimizer)
        return network.set_train()

    def _build_eval_network(self, eval_network, eval_indexes):
        if not self._metric_fns:
            return eval_network, eval_indexes
        if eval_network is not None:
            if eval_indexes is not None and not (
                    isinstance(eval_indexes, list) and
                    len(eval_indexes) == 3):
                raise ValueError("The argument 'eval_indexes' must be a "
                                 "list or None. If 'eval_indexes' is a list, "
                                 "length of it must be three. But got "
                                 f"'eval_indexes' {eval_indexes}")
            return eval_network, eval_indexes
        if self._loss_fn is None:
            raise ValueError("If `metrics` is set, `eval_network` must not "
                             "be None. Do not set `metrics` if you don't "
                             "want an evaluation.\nIf evaluation is "
                             "required, you need to specify `eval_network`, "
                             "which will be used in the framework to "
                             "evaluate the model.\nFor the simple scenarios "
                             "with one data, one label and one logits, "
                             "`eval_network` is optional, and then you can "
                             "set `eval_network` or `loss_fn`.")
        return WithEvalCell(self._network, self._loss_fn), [0, 1, 2]

    @property
    def train_network(self):
        return self._train_network

    @property
    def eval_network(self):
        return self._eval_network

    @property
    def predict_network(self):
        return self._predict_network

    # -- metrics -------------------------------------------------------------
    def _clear_metrics(self):
        for metric in self._metric_fns.values():
            metric.clear()

    def _update_metrics(self, outputs, metrics=None):
        metrics = self._metric_fns if metrics is None else metrics
        if not isinstance(outputs, tuple):
            if isinstance(outputs, list):
                raise ValueError("The argument 'outputs' should be tuple, "
                                 f"but got {type(outputs)}.")
            outputs = (outputs,)
        if self._eval_indexes is None:
            for metric in metrics.values():
                metric.update(*outputs)
            return
        if len(outputs) < 3:
            raise ValueError("The length of 'outputs' must be >= 3, but got "
                             f"{len(outputs)}")
        loss_at, pred_at, label_at = self._eval_indexes
        for metric in metrics.values():
            if isinstance(metric, Loss):
                metric.update(outputs[loss_at])
            else:
                metric.update(outputs[pred_at], outputs[label_at])

    def _get_metrics(self):
        return {name: metric.eval() for name, metric in
                self._metric_fns.items()}

    # -- train ---------------------------------------------------------------
    def _check_train_args(self, who, epoch, dataset, sink, sink_size,
                          initial_epoch):
        check_bool(sink, "dataset_sink_mode")
        check_int(sink_size)
        check_non_negative_int(epoch)
        check_non_negative_int(initial_epoch)
        if initial_epoch >= epoch:
            raise ValueError(f"For '{who}', the parameter 'epoch' must "
                             "bigger than parameter 'initial_epoch', but got "
                             f"the parameter 'epoch' is {epoch}, "
                             f"'initial_epoch' is {initial_epoch}.")
        _check_dataset(dataset, who)
        size = dataset.get_dataset_size()
        if sink_size == -1:
            sink_size = size
        if sink_size < -1 or sink_size == 0:
            raise ValueError(f"For '{who}', The argument 'sink_size' must be "
                             f"-1 or positive, but got {sink_size}.")
        return sink_size if sink else size

    def _train_params(self, epoch, dataset, callbacks, sink, batch_num,
                      initial_epoch):
        return CallbackParams(
            train_network=self._train_network, epoch_num=epoch - initial_epoch,
            batch_num=batch_num, mode="train", loss_fn=self._loss_fn,
            optimizer=self._optimizer,
            parallel_mode=get_auto_parallel_context("parallel_mode"),
            device_number=get_auto_parallel_context("device_num"),
            train_dataset=dataset, list_callback=callbacks,
            train_dataset_element=None, network=self._network,
            last_save_ckpt_step=None, latest_ckpt_file=None, cur_step_num=0,
            dataset_sink_mode=sink, cur_epoch_num=initial_epoch,
            net_outputs=None)

    def train(self, epoch, train_dataset, callbacks=None,
              dataset_sink_mode=False, sink_size=-1, initial_epoch=0):
        """Trains `epoch - initial_epoch` epochs of train_dataset."""
        self._train("Model.train", epoch, train_dataset, callbacks,
                    dataset_sink_mode, sink_size, initial_epoch)

    def _train(self, who, epoch, dataset, callbacks, sink, sink_size,
               initial_epoch, valid=None):
        batch_num = self._check_train_args(who, epoch, dataset, sink,
                                           sink_size, initial_epoch)
        callbacks = _callbacks_list(callbacks)
        self._check_callbacks(callbacks, who == "Model.fit")
        cb = self._train_params(epoch, dataset, callbacks, sink, batch_num,
                                initial_epoch)
        listeners = CallbackList(callbacks)
        run_context = RunContext(cb)
        rows = self._rows(dataset, sink, epoch - initial_epoch)
        step = self._step_function(sink)
        self._train_network.set_train()
        try:
            listeners.on_train_begin(run_context)
            for i in range(initial_epoch, epoch):
                cb.cur_epoch_num = i + 1
                listeners.on_train_epoch_begin(run_context)
                if sink:
                    self._train_sink(step, rows, batch_num, cb, listeners,
                                     run_context)
                else:
                    self._train_epoch(step, next(rows), cb, listeners,
                                      run_context)
                if valid is not None:
                    valid(cb, callbacks)
                listeners.on_train_epoch_end(run_context)
                cb.pop("metrics", None)
                cb.pop("eval_results", None)
                if run_context.get_stop_requested():
                    break
            listeners.on_train_end(run_context)
        except Exception:
            self._save_breakpoint(callbacks, cb)
            raise
        finally:
            if sink:
                rows.stop()

    def _check_callbacks(self, callbacks, fitting):
        for cb in callbacks:
            if not isinstance(cb, Callback):
                raise TypeError("When the 'callbacks' is a list, the "
                                "elements in 'callbacks' must be Callback "
                                "functions.")
            old = old_style_hooks(cb)
            if fitting and old and not isinstance(cb, _TRAIN_ONLY +
                                                  (TimeMonitor,)):
                raise ValueError(f"For {type(cb).__name__} callback, {old} "
                                 "methods may not be supported in later "
                                 "version, Use methods prefixed with "
                                 "'on_train' or 'on_eval' instead when "
                                 "using customized callbacks.")

    def _step_function(self, sink):
        """The train network, or (sink mode) it compiled as one graph."""
        if not sink:
            return self._train_network
        if self._compiled_step is None:
            self._compiled_step = jit(self._train_network)
        return self._compiled_step

    @staticmethod
    def _rows(dataset, sink, epochs):
        """One iterable of rows per epoch; in sink mode one iterator over
        the dataset's passes without end, from which each epoch takes its
        sink_size rows, continuing where the last epoch stopped."""
        if not sink:
            iterator = dataset.create_tuple_iterator(num_epochs=epochs)
            return (iterator for _ in itertools.count())
        return dataset.create_tuple_iterator(num_epochs=-1)

    def _train_sink(self, step, rows, batch_num, cb, listeners, run_context):
        """Dataset sink mode: batch_num steps are one callback step, as in
        MindSpore. The first runs from Python (it compiles the step, and
        re-checks it after callbacks changed Parameters); the others run in
        the native step loop, batches straight from the C++ pipeline."""
        first = _next_row(rows)
        self._check_row(first)
        cb.train_dataset_element = first
        listeners.on_train_step_begin(run_context)
        out, ran = step(*first), 1
        while ran < batch_num:
            entry = step.sink_entry()
            if entry is None:   # JIT Fallback's segments: from Python
                last, more = _python_steps(step, rows, batch_num - ran)
                unmatched = None
            else:
                last, more, unmatched = entry.run_steps(rows.native(),
                                                        batch_num - ran)
            if more:
                out, ran = last, ran + more
            if unmatched is None:
                break
            # A batch of another shape: it compiles its own step here.
            out, ran = step(*unmatched), ran + 1
        cb.cur_step_num += ran
        cb.net_outputs = out
        listeners.on_train_step_end(run_context)

    def _train_epoch(self, step, rows, cb, listeners, run_context):
        for row in rows:
            self._check_row(row)
            cb.cur_step_num += 1
            cb.train_dataset_element = row
            listeners.on_train_step_begin(run_context)
            cb.net_outputs = step(*row)
            listeners.on_train_step_end(run_context)
            if run_context.get_stop_requested():
                return

    def _check_row(self, row):
        if self._loss_fn is not None and len(row) != 2:
            raise ValueError("When 'loss_fn' is not None, 'train_dataset' "
                             "should return two elements, but got "
                             f"{len(row)}, please check the number of "
                             "elements returned by 'train_dataset'")

    @staticmethod
    def _save_breakpoint(callbacks, cb):
        """ModelCheckpoint with exception_save: the state at the failure."""
        for c in callbacks:
            if isinstance(c, ModelCheckpoint) and c._config.exception_save \
                    and cb.cur_step_num > 0:
                c._save_breakpoint(cb)

    # -- eval, predict, fit ------------------------------------------------------
    def eval(self, valid_dataset, callbacks=None, dataset_sink_mode=False):
        """The metrics over valid_dataset: {name: value}."""
        check_bool(dataset_sink_mode, "dataset_sink_mode")
        if not self._metric_fns:
            raise ValueError("For Model.eval, the model argument 'metrics' "
                             "can not be None or empty, you should set the "
                             "argument 'metrics' for model.")
        _check_dataset(valid_dataset, "Model.eval")
        callbacks = _callbacks_list(callbacks)
        cb = CallbackParams(
            eval_network=self._eval_network, valid_dataset=valid_dataset,
            batch_num=valid_dataset.get_dataset_size(), mode="eval",
            cur_step_num=0, list_callback=callbacks, network=self._network,
            dataset_sink_mode=False, eval_dataset_element=None,
            net_outputs=None)
        return self._evaluate(cb, CallbackList(callbacks), self._metric_fns)

    def _evaluate(self, cb, listeners, metrics):
        run_context = RunContext(cb)
        for metric in metrics.values():
            metric.clear()
        self._eval_network.set_train(False)
        listeners.on_eval_begin(run_context)
        listeners.on_eval_epoch_begin(run_context)
        for row in cb.valid_dataset.create_tuple_iterator(num_epochs=1):
            cb.cur_step_num += 1
            cb.eval_dataset_element = row
            listeners.on_eval_step_begin(run_context)
            outputs = self._eval_network(*row)
            cb.net_outputs = outputs
            listeners.on_eval_step_end(run_context)
            self._update_metrics(outputs, metrics)
            if run_context.get_stop_requested():
                break
        listeners.on_eval_epoch_end(run_context)
        cb.metrics = {name: m.eval() for name, m in metrics.items()}
        listeners.on_eval_end(run_context)
        return cb.metrics

    def predict(self, *predict_data, backend=None):
        """The network's output on predict_data, in inference mode."""
        self._predict_network.set_train(False)
        result = self._predict_network(*predict_data)
        if result is None:
            raise RuntimeError("The output data can not be None, please "
                               "check your net or input data.")
        return result

    def fit(self, epoch, train_dataset, valid_dataset=None,
            valid_frequency=1, callbacks=None, dataset_sink_mode=False,
            valid_dataset_sink_mode=False, sink_size=-1, initial_epoch=0):
        """Trains, evaluating on valid_dataset after every valid_frequency-th
        epoch (an int, or a list of epochs)."""
        if isinstance(valid_frequency, bool) or not isinstance(
                valid_frequency, (int, list)):
            raise TypeError("For 'Model.fit', the type of 'valid_frequency' "
                            "must be a list or an integer, but got type "
                            f"{type(valid_frequency)}.")
        if valid_dataset is not None and not self._metric_fns:
            raise ValueError("For 'Model.fit', if valid_dataset is not None, "
                             "the model argument 'metrics' can not beNone or "
                             "empty, you should set the argument 'metrics' "
                             "for model.")
        valid = None
        if valid_dataset is not None:
            _check_dataset(valid_dataset, "Model.fit")

            def valid(cb, callbacks):
                self._fit_eval(cb, callbacks, valid_dataset, valid_frequency)
        self._train("Model.fit", epoch, train_dataset, callbacks,
                    dataset_sink_mode, sink_size, initial_epoch, valid)

    def _fit_eval(self, cb, callbacks, valid_dataset, frequency):
        epoch = cb.cur_epoch_num
        due = epoch in frequency if isinstance(frequency, list) else \
            epoch % frequency == 0
        if not due:
            return
        saved = {k: cb[k] for k in ("mode", "cur_step_num", "batch_num",
                                    "dataset_sink_mode", "net_outputs")}
        cb.update(mode="eval", cur_step_num=0, dataset_sink_mode=False,
                  batch_num=valid_dataset.get_dataset_size(),
                  eval_network=self._eval_network,
                  valid_dataset=valid_dataset, eval_dataset_element=None)
        eval_callbacks = [c for c in callbacks
                          if not isinstance(c, _TRAIN_ONLY)]
        metrics = dict(self._metric_fns)
        if self._eval_indexes is not None:
            metrics["eval_loss"] = Loss()
        results = self._evaluate(cb, CallbackList(eval_callbacks), metrics)
        cb.metrics = {k: v for k, v in results.items() if k != "eval_loss"}
        cb.eval_results = dict(results)
        self._train_network.set_train()
        cb.update(saved)


def _next_row(rows):
    """The next row of an endless dataset iterator, past an epoch's end."""
    try:
        return next(rows)
    except StopIteration:
        pass
    try:
        return next(rows)
    except StopIteration:
        raise ValueError("dataset_sink_mode: the dataset has no rows") \
            from None


def _python_steps(step, rows, count):
    """`count` steps on the next rows, from Python: (last output, count)."""
    out = None
    for _ in range(count):
        out = step(*_next_row(rows))
    return out, count
