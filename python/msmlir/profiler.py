"""mindspore.Profiler on the host CPU: where a script's time goes.

    profiler = ms.Profiler(output_path="./data")
    ...  # train or infer
    profiler.analyse()

While it records, each PyNative op, each Cell's construct (PyNative
mode), each call of a compiled graph, each capture-and-compile and each
wait for the data pipeline's next row is timed. analyse() writes, under
<output_path>/profiler/:

- cpu_op_type_info_<rank>.csv: per op (PyNative ops by ms op name,
  compiled graphs by function name): calls, total and average time, share;
- cpu_cell_info_<rank>.csv: per Cell path, the same for its construct
  (including the Cells and ops it calls);
- cpu_profile_summary_<rank>.txt: both tables, aligned for reading;
- cpu_timeline_<rank>.json: a Chrome trace (Perfetto, chrome://tracing)
  with one track each for PyNative ops, Cells, compiled graphs, compiles
  and data-pipeline waits.

A compiled graph is one span: its ops are fused into kernels that no
longer run one by one (save_graphs shows them). The files are ms's own,
not MindSpore Insight's.
"""

import csv
import json
import os
import warnings

from . import _trace
from ._runtime import pynative_level
from ._tensor import bind_executor
from .communication.management import GlobalComm, get_rank

__all__ = ["Profiler"]

# MindSpore's options for Ascend and GPU profiling: accepted and ignored on
# the host CPU, with a warning.
_DEVICE_OPTIONS = {
    "profiler_level", "op_time", "profile_communication", "profile_memory",
    "parallel_strategy", "aicore_metrics", "l2_cache", "hbm_ddr", "pcie",
    "sync_enable", "data_process", "timeline_limit", "profile_framework",
    "data_simplification", "with_stack", "mstx", "host_stack",
}


class Profiler:
    """MindSpore's Profiler(output_path="./data", start_profile=True): one
    at a time; start(), stop() and analyse()."""

    _active = None

    def __init__(self, **kwargs):
        if Profiler._active is not None:
            raise RuntimeError("Do not init twice in the profiler.")
        output_path = kwargs.pop("output_path", "./data")
        start_profile = kwargs.pop("start_profile", True)
        if not isinstance(output_path, str):
            raise TypeError(f"For 'Profiler', the parameter output_path must "
                            f"be str, but got {type(output_path).__name__}")
        if not isinstance(start_profile, bool):
            raise TypeError("For 'Profiler', the parameter start_profile "
                            "must be bool")
        _warn_unsupported(kwargs)
        self._output_path = os.path.join(os.path.abspath(output_path),
                                         "profiler")
        self._recorder = _trace.Recorder()
        self._started = False
        Profiler._active = self
        if start_profile:
            self.start()

    def start(self):
        """Starts (or resumes) recording."""
        if self._started:
            raise RuntimeError("The profiler has already started. Do not "
                               "turn on again in the open state.")
        self._started = True
        _trace.start(self._recorder)
        bind_executor(pynative_level())

    def stop(self):
        """Pauses recording; start() resumes it."""
        if not self._started:
            raise RuntimeError("The profiler has not started, so can not "
                               "stop. Please call the start() method before "
                               "calling the stop() method.")
        self._started = False
        _trace.stop()
        bind_executor(pynative_level())

    def analyse(self, offline_path=None, pretty=False, step_list=None,
                mode="sync"):
        """Stops recording and writes the tables and the timeline."""
        if offline_path is not None:
            raise NotImplementedError(
                "Profiler.analyse: offline_path: ms analyses the data it "
                "recorded in this process only")
        if self._started:
            self.stop()
        Profiler._active = None
        rank = get_rank() if GlobalComm.INITED else 0
        _write_results(self._recorder, self._output_path, rank, pretty)

    @property
    def output_path(self):
        """The directory analyse() writes to: <output_path>/profiler."""
        return self._output_path


def _warn_unsupported(kwargs):
    for key in kwargs:
        if key in _DEVICE_OPTIONS:
            warnings.warn(f"Profiler: {key} profiles Ascend or GPU devices; "
                          "ms runs on the host CPU and ignores it",
                          stacklevel=3)
        else:
            raise TypeError(f"Profiler got an unexpected keyword argument "
                            f"'{key}'")


def _statistics(spans, tracks):
    """Rows (name, calls, total ms, average ms, percent) of the spans on
    `tracks`, by name, the longest total first."""
    totals = {}
    for track, name, _, start, end in spans:
        if track in tracks:
            calls, total = totals.get(name, (0, 0))
            totals[name] = (calls + 1, total + end - start)
    whole = sum(total for _, total in totals.values()) or 1
    rows = [(name, calls, total / 1e6, total / 1e6 / calls,
             100.0 * total / whole)
            for name, (calls, total) in totals.items()]
    rows.sort(key=lambda row: -row[2])
    return rows


_OP_HEADER = ("op_type", "calls", "total_time(ms)", "avg_time(ms)",
              "percent")
_CELL_HEADER = ("cell", "calls", "total_time(ms)", "avg_time(ms)", "percent")


def _write_results(recorder, directory, rank, pretty):
    os.makedirs(directory, exist_ok=True)
    ops = _statistics(recorder.spans, (_trace.PYNATIVE_OPS, _trace.GRAPHS))
    cells = _statistics(recorder.spans, (_trace.CELLS,))
    path = os.path.join(directory, "{}_%d.{}" % rank)
    _write_csv(path.format("cpu_op_type_info", "csv"), _OP_HEADER, ops)
    _write_csv(path.format("cpu_cell_info", "csv"), _CELL_HEADER, cells)
    with open(path.format("cpu_profile_summary", "txt"), "w") as f:
        f.write(_table(_OP_HEADER, ops) + "\n" + _table(_CELL_HEADER, cells))
    with open(path.format("cpu_timeline", "json"), "w") as f:
        json.dump(_chrome_trace(recorder, rank), f,
                  indent=2 if pretty else None)


def _write_csv(filename, header, rows):
    with open(filename, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(header)
        for name, calls, total, average, percent in rows:
            writer.writerow((name, calls, f"{total:.6f}", f"{average:.6f}",
                             f"{percent:.2f}"))


def _table(header, rows):
    cells = [header] + [(name, str(calls), f"{total:.3f}", f"{average:.4f}",
                         f"{percent:.1f}")
                        for name, calls, total, average, percent in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    lines = ["  ".join(value.ljust(width) if i == 0 else value.rjust(width)
                       for i, (value, width) in enumerate(zip(row, widths)))
             for row in cells]
    return "\n".join(lines) + "\n"


def _chrome_trace(recorder, rank):
    """Chrome's trace-event JSON: a thread per track, a complete ("X")
    event per span, times in microseconds from the recording's start."""
    tid = {track: i + 1 for i, track in enumerate(_trace.TRACKS)}
    events = [{"name": "process_name", "ph": "M", "pid": rank,
               "args": {"name": f"ms rank {rank}"}}]
    for track, i in tid.items():
        events.append({"name": "thread_name", "ph": "M", "pid": rank,
                       "tid": i, "args": {"name": track}})
        events.append({"name": "thread_sort_index", "ph": "M", "pid": rank,
                       "tid": i, "args": {"sort_index": i}})
    origin = recorder.origin
    for track, name, cell, start, end in recorder.spans:
        event = {"name": name, "cat": track, "ph": "X", "pid": rank,
                 "tid": tid[track], "ts": (start - origin) / 1e3,
                 "dur": (end - start) / 1e3}
        if cell:
            event["args"] = {"cell": cell}
        events.append(event)
    return {"traceEvents": events, "displayTimeUnit": "ms"}
