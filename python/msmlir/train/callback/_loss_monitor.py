"""LossMonitor(per_print_times=1): prints "epoch: E step: S, loss is L"
every per_print_times steps (S is the step in the epoch), and the
evaluation results at epoch ends during fit; a NaN or infinite loss stops
training."""

import math

from ..._checkparam import check_non_negative_int
from ._callback import Callback, handle_loss

__all__ = ["LossMonitor"]


class LossMonitor(Callback):
    def __init__(self, per_print_times=1):
        super().__init__()
        check_non_negative_int(per_print_times)
        self._per_print_times = per_print_times
        self._last_print_time = 0

    def step_end(self, run_context):
        cb = run_context.original_args()
        loss = handle_loss(cb.net_outputs)
        step_in_epoch = (cb.cur_step_num - 1) % cb.batch_num + 1
        epoch = cb.get("cur_epoch_num", 1)
        if isinstance(loss, float) and (math.isnan(loss) or
                                        math.isinf(loss)):
            raise ValueError(f"In epoch: {epoch} step: {step_in_epoch}, loss "
                             "is NAN or INF, training process cannot "
                             "continue, terminating training.")
        if self._per_print_times != 0 and \
                cb.cur_step_num - self._last_print_time >= \
                self._per_print_times:
            self._last_print_time = cb.cur_step_num
            print(f"epoch: {epoch} step: {step_in_epoch}, loss is {loss}",
                  flush=True)

    def on_train_epoch_end(self, run_context):
        cb = run_context.original_args()
        metrics = cb.get("metrics")
        if metrics:
            print("Eval result: epoch %d, metrics: %s" %
                  (cb.cur_epoch_num, metrics), flush=True)
