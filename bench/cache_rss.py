"""RSS under the graph and kernel cache bounds (issue 18's target: "RSS
flat, within 10%, after 1,000 calls with 200 distinct shapes once the cache
bound is reached").

Makes --calls calls over --shapes distinct input shapes, cycling through the
shapes in order (the worst case for an LRU cache smaller than the number of
shapes: every call misses, compiles, and evicts). Graph mode calls one
jitted function; PyNative runs a few ops, each a kernel per shape. RSS comes
from /proc/self/statm, once the cache first holds --bound entries and at the
end; the run fails (exit 1) when end / after-fill exceeds --limit.

    PYTHONPATH=build/python /usr/bin/python3 bench/cache_rss.py --mode graph --bound 50
    PYTHONPATH=build/python /usr/bin/python3 bench/cache_rss.py --all

--all runs graph and PyNative mode, each with a bound of 50 and with the
default bound, in fresh processes (RSS must not carry over).
"""

import argparse
import gc
import os
import subprocess
import sys
import time

import numpy as np

_PAGE = os.sysconf("SC_PAGE_SIZE")


def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * _PAGE / 2 ** 20


def run(mode, bound, shapes, calls, limit):
    import msmlir as ms
    from msmlir import Tensor, ops
    from msmlir import _jit

    key = "graph_cache_size" if mode == "graph" else "kernel_cache_size"
    if bound:
        ms.set_context(**{key: bound})
    bound = ms.get_context(key)
    inputs = [Tensor(np.full((n, 16), 0.5, np.float32))
              for n in range(1, shapes + 1)]

    @ms.jit
    def graph_fn(x):
        return ops.relu(x * x + x)

    def pynative_fn(x):
        return ops.relu(x * x + x)

    fn = graph_fn if mode == "graph" else pynative_fn
    # PyNative: three kernels (mul, add, relu) per shape.
    per_shape = 1 if mode == "graph" else 3

    def cached():
        if mode == "graph":
            return _jit.cached_graph_count()
        return ms.pynative_stats()["kernels"]

    start = rss_mb()
    filled = None
    filled_at = None
    begin = time.perf_counter()
    for i in range(calls):
        x = inputs[i % shapes]
        out = fn(x)
        if i < shapes:  # the result is right, whatever was evicted
            n = x.shape[0]
            assert out.shape == (n, 16)
            assert float(out.asnumpy()[0, 0]) == 0.75
        if filled is None and cached() >= min(bound, shapes * per_shape):
            gc.collect()
            filled = rss_mb()
            filled_at = i + 1
    gc.collect()
    end = rss_mb()
    seconds = time.perf_counter() - begin
    ratio = end / filled if filled else float("nan")
    extra = ""
    if mode == "graph":
        extra = f", {graph_fn.compile_count} compiles"
    else:
        s = ms.pynative_stats()
        extra = f", {s['misses']} kernel compiles, {s['evictions']} evictions"
    full = min(bound, shapes * per_shape)
    what = "bound reached" if full == bound else \
        f"all {full} entries cached (bound not reached)"
    print(f"{mode}: {key}={bound}, {shapes} shapes, {calls} calls in "
          f"{seconds:.1f} s{extra}; RSS start {start:.0f} MB, {what} "
          f"after call {filled_at} at {filled:.0f} MB, end {end:.0f} MB: "
          f"end/after-fill {ratio:.3f} (limit {limit})")
    return 0 if ratio <= limit else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mode", choices=["graph", "pynative"],
                        default="graph")
    parser.add_argument("--bound", type=int, default=0,
                        help="graph_cache_size / kernel_cache_size (0: the "
                        "default)")
    parser.add_argument("--shapes", type=int, default=200)
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--limit", type=float, default=1.10)
    parser.add_argument("--all", action="store_true")
    args = parser.parse_args()
    if not args.all:
        return run(args.mode, args.bound, args.shapes, args.calls,
                   args.limit)
    status = 0
    for mode in ("graph", "pynative"):
        for bound in (50, 0):
            status |= subprocess.call(
                [sys.executable, __file__, "--mode", mode, "--bound",
                 str(bound), "--shapes", str(args.shapes), "--calls",
                 str(args.calls), "--limit", str(args.limit)])
    return status


if __name__ == "__main__":
    sys.exit(main())
