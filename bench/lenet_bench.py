#!/usr/bin/env python3
"""LeNet-5 (examples/lenet) at batch 64: ms against PyTorch, in one run.

  /usr/bin/python3 bench/lenet_bench.py [--build build] [--quick] [--rounds N]

ms runs examples/lenet/lenet5.mlir through `ms-run --repeat --warmup` at O0,
O1 and O2 (graph mode) and in PyNative, on 1 and 2 threads. PyTorch 1.13
(Debian's python3-torch) runs the same network with the same weights in a
subprocess with the same thread count, twice: eager under
torch.inference_mode, and TorchScript frozen by
torch.jit.optimize_for_inference. Figures are medians of many runs.

This is a shared, noisy machine: a slow spell during one side's timing alone
would skew the ratio. So ms O2 and optimize_for_inference are timed in
paired rounds, taking turns (PyTorch stays loaded in one subprocess between
rounds), and the optimized/O2 ratio is the median of the rounds' ratios,
with their range, and the ratio of each side's quickest round (both
undisturbed). Prints a markdown table.
"""
import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from compare_peers import ms_time, peer_env  # noqa: E402

NETWORK = os.path.join(ROOT, "examples", "lenet", "lenet5.mlir")

TORCH = r"""
import sys
import numpy as np
import torch
threads = int(sys.argv[1])
sys.path.insert(0, sys.argv[2])
from train_torch import LeNet5
torch.set_num_threads(threads)
net = LeNet5().eval()
x = torch.from_numpy(np.random.default_rng(1).random((64, 1, 32, 32), dtype=np.float32))
with torch.no_grad():
    scripted = torch.jit.optimize_for_inference(torch.jit.script(net))
sys.path.insert(0, sys.argv[3])
from median_time import median_ms
def eager():
    with torch.inference_mode():
        return net(x)
def jit():
    with torch.no_grad():
        return scripted(x)
# One request per line, "eager REPS" or "jit REPS"; answers the median ms.
for line in sys.stdin:
    kind, reps = line.split()
    fn = eager if kind == "eager" else jit
    print(median_ms(fn, int(reps), max(5, int(reps) // 10)), flush=True)
"""


class TorchPeer:
    """PyTorch's LeNet-5 in a subprocess that stays loaded between timings."""

    def __init__(self, threads):
        self.process = subprocess.Popen(
            [sys.executable, "-c", TORCH, str(threads),
             os.path.join(ROOT, "examples", "lenet"), HERE],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            env=peer_env(threads))

    def time(self, kind, reps):
        self.process.stdin.write(f"{kind} {reps}\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        if not answer:
            raise RuntimeError(f"the PyTorch peer exited ({self.process.wait()})")
        return float(answer)

    def close(self):
        self.process.stdin.close()
        self.process.wait()


def median(values):
    values = sorted(values)
    return values[len(values) // 2]


def paired_rounds(ms_run, threads, reps, rounds, torch):
    """ms O2 and optimize_for_inference timed `rounds` times, taking turns
    (each going first in every other round); the per-round times and
    ratios."""
    o2, jit, compile_ms = [], [], []
    for i in range(rounds):
        def time_ms():
            median_ms, compiled = ms_time(ms_run, NETWORK, "graph", "O2",
                                          threads, reps)
            o2.append(median_ms)
            compile_ms.append(compiled)
        if i % 2 == 0:
            time_ms()
            jit.append(torch.time("jit", reps))
        else:
            jit.append(torch.time("jit", reps))
            time_ms()
    ratios = [j / m for j, m in zip(jit, o2)]
    return o2, jit, ratios, median(compile_ms)


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--rounds", type=int, default=None,
                        help="paired ms O2 / optimize_for_inference rounds "
                        "(default 7, 3 with --quick)")
    args = parser.parse_args()
    ms_run = os.path.join(args.build, "bin", "ms-run")
    reps = 100 if args.quick else 300
    rounds = args.rounds or (3 if args.quick else 7)
    slow = max(5, reps // 15)
    rows = []
    for threads in (1, 2):
        r = {"threads": threads}
        torch = TorchPeer(threads)
        try:
            r["eager"] = torch.time("eager", reps)
            o2, jit, ratios, r["compile"] = paired_rounds(ms_run, threads, reps,
                                                          rounds, torch)
        finally:
            torch.close()
        r["O2"], r["jit"], r["ratio"] = median(o2), median(jit), median(ratios)
        r["ratios"] = ratios
        # Each side's quietest round: the ratio when neither is disturbed.
        r["best"] = min(jit) / min(o2)
        r["O0"], _ = ms_time(ms_run, NETWORK, "graph", "O0", threads, slow)
        r["O1"], _ = ms_time(ms_run, NETWORK, "graph", "O1", threads, slow)
        r["pynative"], _ = ms_time(ms_run, NETWORK, "pynative", "O0", threads,
                                   slow)
        rows.append(r)
        print(f"# threads={threads}: O2 " +
              " ".join(f"{t:.3f}" for t in o2) + " | optimize_for_inference " +
              " ".join(f"{t:.3f}" for t in jit) + " | ratios " +
              " ".join(f"{q:.2f}" for q in ratios), file=sys.stderr)
    print("| threads | ms O0 | ms O1 | ms O2 | ms PyNative | PyTorch eager | "
          "PyTorch optimize_for_inference | eager/O2 | optimized/O2 "
          f"(median of {rounds} rounds) | rounds' range | best round / best "
          "round | O2 compile ms |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['threads']} | {r['O0']:.2f} | {r['O1']:.2f} | "
              f"{r['O2']:.3f} | {r['pynative']:.2f} | {r['eager']:.3f} | "
              f"{r['jit']:.3f} | {r['eager'] / r['O2']:.2f}x | "
              f"{r['ratio']:.2f}x | {min(r['ratios']):.2f}-"
              f"{max(r['ratios']):.2f}x | {r['best']:.2f}x | "
              f"{r['compile']:.0f} |")


if __name__ == "__main__":
    main()
