#!/usr/bin/env python3
"""Train-step time (forward + backward + SGD update) of ms against PyTorch
eager, in one run, at 1 and 2 threads.

  PYTHONPATH=build/python /usr/bin/python3 bench/train_step.py [--reps N]

Workloads: the seed MLP at batch 64 and LeNet-5 at batch 64, with
nn.CrossEntropyLoss on class indices and nn.SGD(lr=0.01). ms runs the
Quick Start train step (value_and_grad + optimizer) under @ms.jit (GRAPH,
default jit_level O2: one native function per step) and in PyNative mode
(the tape). PyTorch (Debian's python3-torch) runs the same step eagerly
(zero_grad, forward, cross_entropy, backward, SGD.step) in a subprocess
with torch.set_num_threads and the environment of bench/compare_peers.py.
Every figure is the median of --reps steps after a warm-up; the ratio is
torch time / ms time from this same run. Prints a markdown table with the
targets of issue 15 marked met or missed.
"""
import argparse
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "examples", "python"))
from compare_peers import peer_env  # noqa: E402
from median_time import median_ms  # noqa: E402

TORCH = r"""
import sys
import numpy as np
import torch
sys.path.insert(0, sys.argv[4])
sys.path.insert(0, sys.argv[5])
from median_time import median_ms
from train_torch import LeNet5
workload, threads, reps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
torch.set_num_threads(threads)
torch.manual_seed(0)
rng = np.random.default_rng(0)
if workload == "mlp64":
    net = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(784, 512), torch.nn.ReLU(),
                              torch.nn.Linear(512, 512), torch.nn.ReLU(), torch.nn.Linear(512, 10))
    x = torch.from_numpy(rng.random((64, 1, 28, 28), dtype=np.float32))
else:
    net = LeNet5()
    x = torch.from_numpy(rng.random((64, 1, 32, 32), dtype=np.float32))
y = torch.from_numpy(rng.integers(0, 10, 64)).long()
opt = torch.optim.SGD(net.parameters(), 0.01)
def step():
    opt.zero_grad()
    loss = torch.nn.functional.cross_entropy(net(x), y)
    loss.backward()
    opt.step()
print(median_ms(step, reps, max(5, reps // 10)))
"""


def torch_ms(workload, threads, reps):
    out = subprocess.run(
        [sys.executable, "-c", TORCH, workload, str(threads), str(reps),
         HERE, os.path.join(HERE, "..", "examples", "lenet")],
        env=peer_env(threads), capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def ms_ms(workload, mode, threads, reps):
    import msmlir as ms
    from msmlir import Tensor, nn
    ms.set_context(mode=ms.PYNATIVE_MODE, jit_level="",
                   runtime_num_threads=threads)
    ms.set_seed(0)
    rng = np.random.default_rng(0)
    if workload == "mlp64":
        from train_mlp import Network
        net = Network()
        x = Tensor(rng.random((64, 1, 28, 28), dtype=np.float32))
    else:
        from lenet_fashion_mnist import LeNet5
        net = LeNet5()
        x = Tensor(rng.random((64, 1, 32, 32), dtype=np.float32))
    y = Tensor(rng.integers(0, 10, 64).astype(np.int32))
    loss_fn = nn.CrossEntropyLoss()
    optimizer = nn.SGD(net.trainable_params(), 0.01)
    grad_fn = ms.value_and_grad(lambda a, b: loss_fn(net(a), b), None,
                                optimizer.parameters)

    def step(a, b):
        loss, grads = grad_fn(a, b)
        optimizer(grads)
        return loss

    if mode == "graph":
        step = ms.jit(step)
    return median_ms(lambda: step(x, y), reps, max(5, reps // 10))


TARGETS = {
    ("mlp64", "graph"): ("GRAPH >= 1.5x faster than PyTorch eager", 1.5),
    ("mlp64", "pynative"): ("PyNative no slower than 1.2x PyTorch eager",
                            1 / 1.2),
    ("lenet64", "graph"): ("GRAPH >= 1.5x faster than PyTorch eager", 1.5),
}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--reps", type=int, default=200)
    p.add_argument("--threads", default="1,2")
    args = p.parse_args()
    rows = []
    for threads in [int(t) for t in args.threads.split(",")]:
        for workload in ("mlp64", "lenet64"):
            t = torch_ms(workload, threads, args.reps)
            for mode in ("graph", "pynative"):
                m = ms_ms(workload, mode, threads, args.reps)
                target = TARGETS.get((workload, mode))
                verdict = ""
                if target:
                    verdict = (f"{target[0]}: "
                               f"{'met' if t / m >= target[1] else 'missed'}")
                rows.append((workload, threads, mode, m, t, t / m, verdict))
                print(f"{workload} {threads} thread(s) {mode}: ms {m:.3f} ms,"
                      f" torch {t:.3f} ms, ratio {t / m:.2f}", flush=True)
    print()
    print("| workload | threads | ms mode | ms (ms/step) | PyTorch eager "
          "(ms/step) | torch / ms | target |")
    print("|---|---|---|---|---|---|---|")
    for w, th, mode, m, t, r, verdict in rows:
        print(f"| {w} | {th} | {mode} | {m:.3f} | {t:.3f} | {r:.2f} | "
              f"{verdict} |")


if __name__ == "__main__":
    main()
