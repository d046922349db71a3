"""TimeMonitor(data_size=None, data_time=False): prints each epoch's time
and the time per step, "Train epoch time: 1234.567 ms, per step time:
12.346 ms" (with data_time, the mean wait for data between steps too)."""

import time

from ..._checkparam import check_bool, check_positive_int
from ._callback import Callback

__all__ = ["TimeMonitor"]


class TimeMonitor(Callback):
    def __init__(self, data_size=None, data_time=False):
        super().__init__()
        self.data_size = data_size
        self.data_time = check_bool(data_time)
        self.epoch_time = time.time()
        self._data_waits = []
        self._step_end_time = None

    def epoch_begin(self, run_context):
        self.epoch_time = time.time()
        self._data_waits = []
        self._step_end_time = None

    def step_begin(self, run_context):
        if self._step_end_time is not None:
            self._data_waits.append(time.time() - self._step_end_time)

    def step_end(self, run_context):
        self._step_end_time = time.time()

    def epoch_end(self, run_context):
        epoch_ms = (time.time() - self.epoch_time) * 1000
        cb = run_context.original_args()
        steps = cb.get("batch_num")
        if not isinstance(steps, int) or steps <= 0:
            steps = self.data_size
        check_positive_int(steps)
        mode = cb.get("mode", "")
        line = "{} epoch time: {:5.3f} ms, per step time: {:5.3f} ms".format(
            mode.title(), epoch_ms, epoch_ms / steps)
        if self.data_time and self._data_waits and \
                not cb.get("dataset_sink_mode", False):
            wait = sum(self._data_waits) / len(self._data_waits) * 1000
            line += " (data time: {:5.3f} ms)".format(wait)
        print(line, flush=True)
