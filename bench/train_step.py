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
that stays loaded (bench/peer_server.py), with torch.set_num_threads and
the environment of bench/compare_peers.py.

ms and PyTorch take turns in --rounds paired rounds (each going first in
every other round), each timing the median of --reps steps after a
warm-up; the ratio is the median of the rounds' torch time / ms time, so
one slow spell of a shared machine cannot decide it. Prints a markdown
table with the targets of issue 15 marked met or missed.
"""
import argparse
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "examples", "python"))
from median_time import median_ms  # noqa: E402
from paired_rounds import Peer, median, paired, settle_seconds  # noqa: E402

def ms_step(workload, mode, threads):
    """ms's train step of `workload` in `mode`, compiled and warm, and a
    function that restores the weights it started from (each timing starts
    there, as PyTorch's does: thousands of steps on one batch drive the
    gradients towards denormals, which are slow)."""
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
    params = net.trainable_params()
    initial = [p.asnumpy().copy() for p in params]

    def reset():
        for p, value in zip(params, initial):
            p.set_data(Tensor(value))
    step(x, y)
    return lambda: step(x, y), reset


TARGETS = {
    ("mlp64", "graph"): ("GRAPH >= 1.5x faster than PyTorch eager", 1.5),
    ("mlp64", "pynative"): ("PyNative no slower than 1.2x PyTorch eager",
                            1 / 1.2),
    ("lenet64", "graph"): ("GRAPH >= 1.5x faster than PyTorch eager", 1.5),
}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--reps", type=int, default=200,
                   help="steps per timing (default 200)")
    p.add_argument("--rounds", type=int, default=5,
                   help="paired rounds per ratio (default 5)")
    p.add_argument("--threads", default="1,2")
    args = p.parse_args()
    warmup = max(5, args.reps // 10)
    rows = []
    for threads in [int(t) for t in args.threads.split(",")]:
        peer = Peer(threads)
        try:
            for workload in ("mlp64", "lenet64"):
                def torch_ms():
                    return peer.time(f"{workload}-train", "torch", args.reps)
                for mode in ("graph", "pynative"):
                    step, reset = ms_step(workload, mode, threads)

                    def ms_ms():
                        reset()
                        return median_ms(step, args.reps, warmup)
                    ms_t, torch_t, r = paired(ms_ms, torch_ms, args.rounds,
                                              settle_seconds(threads))
                    rows.append(row(workload, threads, mode, ms_t, torch_t, r))
        finally:
            peer.close()
    print()
    print("| workload | threads | ms mode | ms (ms/step) | PyTorch eager "
          "(ms/step) | torch / ms (median of rounds) | rounds' range | "
          "target |")
    print("|---|---|---|---|---|---|---|---|")
    for cells in rows:
        print("| " + " | ".join(cells) + " |")


def row(workload, threads, mode, ms_t, torch_t, ratio):
    """One table row (printed as it comes, too)."""
    target = TARGETS.get((workload, mode))
    verdict = ""
    if target:
        verdict = f"{target[0]}: {'met' if ratio >= target[1] else 'missed'}"
    ratios = [t / m for m, t in zip(ms_t, torch_t)]
    print(f"{workload} {threads} thread(s) {mode}: ms {median(ms_t):.3f} ms,"
          f" torch {median(torch_t):.3f} ms, ratio {ratio:.2f} (rounds "
          + " ".join(f"{q:.2f}" for q in ratios) + ")", flush=True)
    return (workload, str(threads), mode, f"{median(ms_t):.3f}",
            f"{median(torch_t):.3f}", f"{ratio:.2f}",
            f"{min(ratios):.2f}-{max(ratios):.2f}", verdict)


if __name__ == "__main__":
    main()
