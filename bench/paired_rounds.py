"""Paired rounds against peers, for the bench/*.py that compare ms with
PyTorch or numpy.

This is a shared, noisy machine: a slow spell during one side's timing
alone would decide a ratio. So the peers stay loaded in one subprocess
(bench/peer_server.py) and the two sides take turns, each going first in
every other round; a ratio is the median of the rounds' ratios. At one
thread both sides run on the same CPU (see Peer).
"""
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from compare_peers import peer_env  # noqa: E402

# After a parallel run, each side's worker threads keep spinning for a while:
# libomp's for KMP_BLOCKTIME (200 ms), the peer's OpenBLAS threads for up to
# 0.3 s (measured: the peer process's CPU time stopped growing within 0.3 s
# of its timing). A timing that starts then shares the cores with them
# (PyTorch's 2-thread MLP step took 0.368-0.418 ms right after ms's, 0.333
# ms after a 0.3 s pause). Two-thread timings wait this long first.
SETTLE_SECONDS = 0.35


def median(values):
    values = sorted(values)
    return values[len(values) // 2]


def settle_seconds(threads):
    """The rest before each timing of a paired round at `threads`."""
    return SETTLE_SECONDS if threads > 1 else 0.0


def cpus_for(threads):
    """The CPUs a timing at `threads` runs on, the same for both sides: one
    thread on one fixed CPU, the highest this process may use, so that ms
    and its peer never time on cores of unequal speed (this machine's core 0
    is 1-7% slower than core 1, docs/performance-history.md); more threads on every
    CPU."""
    cpus = os.sched_getaffinity(0)
    return {max(cpus)} if threads == 1 else cpus


class Peer:
    """bench/peer_server.py at a thread count, loaded once. While it is
    open, the thread that opened it runs on cpus_for(threads), as does the
    peer, and so do the processes that thread starts (ms-run); close()
    gives the thread its CPUs back."""

    def __init__(self, threads):
        self.cpus_before = os.sched_getaffinity(0)
        os.sched_setaffinity(0, cpus_for(threads))
        try:
            self.process = subprocess.Popen(
                [sys.executable, os.path.join(HERE, "peer_server.py"),
                 str(threads)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                env=peer_env(threads))
        except BaseException:
            os.sched_setaffinity(0, self.cpus_before)
            raise

    def time(self, workload, impl, reps):
        """The peer's median ms of one call of `workload` by `impl`."""
        self.process.stdin.write(f"{workload} {impl} {reps}\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        if not answer:
            raise RuntimeError(f"the peer exited ({self.process.wait()})")
        return float(answer)

    def close(self):
        try:
            self.process.stdin.close()
            self.process.wait()
        finally:
            os.sched_setaffinity(0, self.cpus_before)


def paired(a, b, rounds, settle=0.0):
    """Times a() and b() in `rounds` rounds, taking turns (each side goes
    first in every other round), `settle` seconds of rest before each
    timing; (a's times, b's times, median of the rounds' b/a: how many
    times faster a is than b)."""
    ta, tb = [], []

    def run(f, into):
        time.sleep(settle)
        into.append(f())
    for i in range(rounds):
        if i % 2 == 0:
            run(a, ta)
            run(b, tb)
        else:
            run(b, tb)
            run(a, ta)
    return ta, tb, median([y / x for x, y in zip(ta, tb)])
