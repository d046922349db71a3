"""What the Profiler records (msmlir.profiler reads it): timed spans on
named tracks, each with the Cell path it ran under.

The layers that do the work (PyNative dispatch in _tensor, Cells in nn,
compiled graphs and compiles in _jit, the data pipeline in dataset) read
RECORDER and record a span only when it is set, so nothing is timed, and
nothing costs, while no Profiler runs. Only start() and stop() here set it.
"""

import time

_now = time.perf_counter_ns

# The tracks of the timeline, in the order the trace lists them.
PYNATIVE_OPS = "PyNative ops"
CELLS = "Cells"
GRAPHS = "Compiled graphs"
COMPILES = "Compiles"
DATA = "Data pipeline waits"
TRACKS = (PYNATIVE_OPS, CELLS, GRAPHS, COMPILES, DATA)


class Recorder:
    """Spans (track, name, cell path, start ns, end ns) in the order they
    end, and the stack of Cells running in PyNative mode."""

    def __init__(self):
        self.origin = _now()
        self.spans = []
        self.cells = []

    def cell(self):
        """The path of the innermost Cell running, or ""."""
        return self.cells[-1] if self.cells else ""

    def record(self, track, name, start):
        """A span from `start` (a perf_counter_ns reading) until now."""
        self.spans.append((track, name, self.cell(), start, _now()))

    def timed(self, track, name, fn, *args):
        """fn(*args), recorded as one span."""
        start = _now()
        try:
            return fn(*args)
        finally:
            self.record(track, name, start)

    def run_cell(self, path, fn, args, kwargs):
        """A Cell's construct, with `path` innermost while it runs."""
        start = _now()
        self.cells.append(path)
        try:
            return fn(*args, **kwargs)
        finally:
            self.cells.pop()
            self.spans.append((CELLS, path, path, start, _now()))

    def traced_kernel(self, run):
        """The PyNative executor's call/run, timing each op by name."""
        def traced(call, *operands):
            start = _now()
            try:
                return run(call, *operands)
            finally:
                self.record(PYNATIVE_OPS, call.name, start)
        return traced


RECORDER = None


def start(recorder):
    """Records into `recorder` from now on."""
    global RECORDER
    RECORDER = recorder


def stop():
    """Ends the recording; returns its Recorder (None if none ran)."""
    global RECORDER
    recorder, RECORDER = RECORDER, None
    return recorder
