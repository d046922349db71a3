#!/usr/bin/env python3
"""A None-batch graph (Cell.set_inputs) against static compiles (issue 17).

  PYTHONPATH=build/python /usr/bin/python3 bench/dynamic_batch.py \
      [--rounds 20] [--reps 50] [--level O2]

The seed MLP and LeNet-5 in GRAPH_MODE: one graph compiled with a ? batch
runs batches 64, 37 and 1; a static graph is compiled per batch (ms.jit of
the same Cell). Both run in the same process, taking turns in rounds of
--reps calls each, so a slow spell on this shared machine hits both; the
figure per side is the quickest call of all rounds (min of many reps), and
the median for reference. Also prints the first-call (compile) time of
each. Prints a markdown table; the target is dynamic/static <= 1.10.
"""
import argparse
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "python", "tests"))

import msmlir as ms  # noqa: E402
from msmlir import Tensor  # noqa: E402
from conftest import LeNet5, Network as MLP  # noqa: E402

BATCHES = [64, 37, 1]


def timed(fn, x, reps):
    out = []
    for _ in range(reps):
        start = time.perf_counter()
        fn(x)
        out.append(time.perf_counter() - start)
    return out


def first_call(fn, x):
    start = time.perf_counter()
    fn(x)
    return time.perf_counter() - start


def bench(name, cls, sample, args):
    ms.set_seed(1)
    net = cls()
    static = ms.jit(net)
    dynamic = cls()
    dynamic.set_inputs(Tensor(shape=[None, *sample], dtype=ms.float32))
    for (_, a), (_, b) in zip(net.parameters_and_names(),
                              dynamic.parameters_and_names()):
        b.set_data(a)
    rng = np.random.default_rng(0)
    rows = []
    compile_dyn = None
    for n in BATCHES:
        x = Tensor(rng.standard_normal((n,) + sample).astype(np.float32))
        compile_static = first_call(static, x)
        t = first_call(dynamic, x)
        if compile_dyn is None:
            compile_dyn = t
        assert np.array_equal(static(x).asnumpy(), dynamic(x).asnumpy())
        s_times, d_times = [], []
        for _ in range(args.rounds):
            s_times += timed(static, x, args.reps)
            d_times += timed(dynamic, x, args.reps)
        rows.append((n, min(s_times), min(d_times), np.median(s_times),
                     np.median(d_times), compile_static))
    assert dynamic.compile_count == 1
    print(f"\n{name} ({args.level}; dynamic graph compiled once in "
          f"{compile_dyn * 1e3:.0f} ms)\n")
    print("| batch | static min (ms) | dynamic min (ms) | dynamic/static "
          "(min) | static median | dynamic median | static compile (ms) |")
    print("|---|---|---|---|---|---|---|")
    for n, smin, dmin, smed, dmed, comp in rows:
        ratio = dmin / smin
        flag = "" if ratio <= 1.10 else " **miss**"
        print(f"| {n} | {smin * 1e3:.3f} | {dmin * 1e3:.3f} | "
              f"{ratio:.2f}{flag} | {smed * 1e3:.3f} | {dmed * 1e3:.3f} | "
              f"{comp * 1e3:.0f} |")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--reps", type=int, default=50)
    parser.add_argument("--level", default="O2")
    parser.add_argument("--nets", default="mlp,lenet",
                        help="comma-separated: mlp, lenet")
    args = parser.parse_args()
    ms.set_context(mode=ms.GRAPH_MODE, jit_level=args.level)
    nets = {"mlp": ("MLP", MLP, (1, 28, 28)),
            "lenet": ("LeNet-5", LeNet5, (1, 32, 32))}
    for key in args.nets.split(","):
        bench(*nets[key], args)


if __name__ == "__main__":
    main()
