#!/usr/bin/env python3
"""msmlir from Python: per-op overhead and whole-network speed.

1. The 100-op elementwise chain on a [1, 10] tensor (the op cycle of
   bench/EagerBench.cpp's BM_Chain100: add, mul, relu, neg, sub, abs,
   maximum, tanh, the binary ones with a second [1, 10] tensor y), run
     - in PyNative mode (one cached kernel per op),
     - as one graph (ms.jit) at O0, O1 and O2,
     - in PyTorch eager (torch.set_num_threads(1), inference_mode), the peer;
   reported in microseconds per op, with ratios.
2. The seed MLP (flatten, dense 784->512, relu, dense 512->512, relu,
   dense 512->10) at B=64 from Python, PyNative and GRAPH at each level,
   against `build/bin/ms-run examples/mlp.mlir --init-params=0 --repeat=200
   --warmup=20 --jit-level=<L>` (median of 200 runs each).

    PYTHONPATH=build/python /usr/bin/python3 bench/python/chain_bench.py
    ... --quick           fewer repetitions
    ... --no-ms-run       skip the ms-run comparison
    ... --levels O0,O2    only these jit levels
    ... --threads 1       O2 graphs on one thread (both sides)

Targets (issue 6): PyNative <= 3 us/op; graph >= 30x faster than PyNative
on the chain; the MLP from Python within 10% of ms-run at the same level.
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import time

import numpy as np

import msmlir as ms
from msmlir import Tensor, nn, ops

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_DIR = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(SOURCE_DIR, "bench"))
sys.path.insert(0, HERE)
from median_time import sorted_times  # noqa: E402
from chain_ops import CHAIN_OPS, chain as generic_chain  # noqa: E402


def chain(x, y):
    """100 elementwise ops, cycling add mul relu neg sub abs maximum tanh."""
    return generic_chain(x, y, ops.relu, ops.maximum, ops.tanh)


def torch_chain(torch, x, y):
    return generic_chain(x, y, torch.relu, torch.maximum, torch.tanh)


def best_of(fn, repeats, inner):
    """Best per-call time in seconds over `repeats` batches of `inner`."""
    fn()
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(inner):
            fn()
        best = min(best, (time.perf_counter() - start) / inner)
    return best


def median_min_of(fn, runs, warmup):
    times = sorted_times(fn, runs, warmup)
    return statistics.median(times), times[0]


class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.dense_relu_sequential = nn.SequentialCell(
            nn.Dense(28 * 28, 512), nn.ReLU(), nn.Dense(512, 512), nn.ReLU(),
            nn.Dense(512, 10))

    def construct(self, x):
        x = self.flatten(x)
        return self.dense_relu_sequential(x)


def ms_run_median(level, runs, warmup, threads):
    exe = os.path.join(SOURCE_DIR, "build", "bin", "ms-run")
    if not os.path.exists(exe):
        return None
    proc = subprocess.run(
        [exe, os.path.join(SOURCE_DIR, "examples", "mlp.mlir"),
         "--init-params=0", f"--repeat={runs}", f"--warmup={warmup}",
         f"--jit-level={level}", f"--num-threads={threads}"],
        capture_output=True, text=True)
    m = re.search(r"median ([0-9.]+) ms, min ([0-9.]+) ms", proc.stderr)
    return (float(m.group(1)) * 1e-3, float(m.group(2)) * 1e-3) if m else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--no-ms-run", action="store_true")
    parser.add_argument("--no-torch", action="store_true")
    parser.add_argument("--levels", default="O0,O1,O2")
    parser.add_argument("--threads", type=int, default=0,
                        help="O2 threads, for msmlir and ms-run (0: cores)")
    args = parser.parse_args()
    ms.set_context(runtime_num_threads=args.threads)
    levels = args.levels.split(",")
    repeats, inner = (3, 200) if args.quick else (7, 1000)

    rng = np.random.default_rng(0)
    x = Tensor(rng.uniform(-1, 1, (1, 10)).astype(np.float32))
    y = Tensor(rng.uniform(-1, 1, (1, 10)).astype(np.float32))

    print(f"== {CHAIN_OPS}-op elementwise chain on [1, 10] "
          "(best batch, per op)")
    # PyNative and the graphs are measured in alternating batches, so that
    # load from other processes on a shared machine hits them alike.
    jitted = {}
    for level in levels:
        f = ms.jit(chain, jit_config=ms.JitConfig(jit_level=level))
        np.testing.assert_array_equal(f(x, y).asnumpy(),
                                      chain(x, y).asnumpy())
        jitted[level] = f
    pynative = float("inf")
    graph = {level: float("inf") for level in levels}
    for _ in range(repeats):
        pynative = min(pynative, best_of(lambda: chain(x, y), 1, inner // 5))
        for level, f in jitted.items():
            graph[level] = min(graph[level],
                               best_of(lambda: f(x, y), 1, inner))
    us = lambda s: s / CHAIN_OPS * 1e6  # noqa: E731
    print(f"PyNative            {us(pynative):8.3f} us/op")
    for level in levels:
        print(f"GRAPH {level}            {us(graph[level]):8.3f} us/op   "
              f"({pynative / graph[level]:6.1f}x PyNative; "
              f"{graph[level] * 1e6:.2f} us per call)")
    if not args.no_torch:
        try:
            import torch
        except ImportError:
            torch = None
        if torch is not None:
            torch.set_num_threads(1)
            tx, ty = (torch.from_numpy(t.asnumpy().copy()) for t in (x, y))
            with torch.inference_mode():
                peer = best_of(lambda: torch_chain(torch, tx, ty),
                               repeats, inner // 5)
            print(f"PyTorch eager       {us(peer):8.3f} us/op   "
                  f"(PyNative is {peer / pynative:.2f}x PyTorch's speed)")

    print("\n== seed MLP, B=64, ms per call (median / min of "
          f"{200 if not args.quick else 50} runs)")
    runs, warmup = (50, 5) if args.quick else (200, 20)
    net = Network()
    inp = Tensor(np.ones([64, 1, 28, 28], np.float32))
    for level in levels:
        ms.set_context(mode=ms.PYNATIVE_MODE, jit_level=level)
        pn = median_min_of(lambda: net(inp), runs // 4 or 1, 2)
        ms.set_context(mode=ms.GRAPH_MODE)
        graph = median_min_of(lambda: net(inp), runs, warmup)
        line = (f"{level}: PyNative {pn[0] * 1e3:7.3f}/{pn[1] * 1e3:7.3f}  "
                f"GRAPH {graph[0] * 1e3:7.3f}/{graph[1] * 1e3:7.3f}")
        if not args.no_ms_run:
            ref = ms_run_median(level, runs, warmup, args.threads)
            if ref is not None:
                line += (f"  ms-run {ref[0] * 1e3:7.3f}/{ref[1] * 1e3:7.3f}"
                         f"  Python/ms-run {graph[0] / ref[0]:5.3f}/"
                         f"{graph[1] / ref[1]:5.3f}")
        print(line)
    ms.set_context(mode=ms.PYNATIVE_MODE, jit_level="", runtime_num_threads=0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
