#!/usr/bin/env python3
"""One rank of a data-parallel training run (launched by mpirun from
test_multirank.py), or the single-process reference (--standalone).

Trains the seed MLP or LeNet-5 for --steps steps with each of SGD, Momentum
and Adam, on synthetic global batches of --global-batch samples drawn from
one seeded generator (in micro-batches with --micro-batch-size): rank r
of N takes rows [r*B/N, (r+1)*B/N) of every global batch, the reference
takes all of them. Every optimizer starts from
the same initial parameters (set_seed), and the final parameters of each
are saved to --out (an .npz per rank: <out>.rank<r>.npz).

--fault injects a failure on rank 1 after 2 steps: "die" (SIGKILL),
"exit" (release() and exit 0 while the others go on), "shape" (rank 1
builds the MLP with a wider hidden layer), or "deterministic" (rank 1 skips
set_deterministic).
"""

import argparse
import os
import re
import signal
import sys
import warnings

import numpy as np

import msmlir as ms
from msmlir import nn
from msmlir.communication import init, get_rank, get_group_size, release

# MindSpore model zoo's LeNet5, as the examples define it.
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                             "..", "..", "..", "examples", "python"))
from lenet_fashion_mnist import LeNet5  # noqa: E402


class MLP(nn.Cell):
    """The seed MLP (784-512-512-10)."""

    def __init__(self, hidden=512):
        super().__init__()
        self.flatten = nn.Flatten()
        self.dense_relu_sequential = nn.SequentialCell(
            nn.Dense(28 * 28, hidden), nn.ReLU(), nn.Dense(hidden, 512),
            nn.ReLU(), nn.Dense(512, 10))

    def construct(self, x):
        return self.dense_relu_sequential(self.flatten(x))


OPTIMIZERS = {
    "sgd": lambda params: nn.SGD(params, 0.05),
    "momentum": lambda params: nn.Momentum(params, 0.05, 0.9),
    "adam": lambda params: nn.Adam(params, 1e-3),
}


def batches(net, steps, global_batch):
    rng = np.random.default_rng(7)
    shape = (1, 28, 28) if net == "mlp" else (1, 32, 32)
    for _ in range(steps):
        x = rng.standard_normal((global_batch,) + shape).astype(np.float32)
        y = rng.integers(0, 10, global_batch).astype(np.int32)
        yield x, y


def ir_dir(args, rank):
    return f"{args.out}.ir.rank{rank}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--net", choices=("mlp", "lenet"), default="mlp")
    parser.add_argument("--optimizers", default="sgd,momentum,adam")
    parser.add_argument("--mode", choices=("pynative", "graph"),
                        default="pynative")
    parser.add_argument("--dtype", choices=("float32", "float64"),
                        default="float32")
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--global-batch", type=int, default=32)
    parser.add_argument("--micro-batch-size", type=int,
                        help="set_deterministic(True, micro_batch_size=M)")
    parser.add_argument("--fusion-mb", type=float,
                        help="comm_fusion bucket size in MB (default 64)")
    parser.add_argument("--standalone", action="store_true")
    parser.add_argument("--fault",
                        choices=("die", "exit", "shape", "deterministic"))
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    # A train step that fell back to PyNative would not test GRAPH mode.
    warnings.simplefilter("error", ms.GraphFallbackWarning)

    ms.set_context(runtime_num_threads=1)
    if args.mode == "graph":
        ms.set_context(mode=ms.GRAPH_MODE)
    rank, size = 0, 1
    if not args.standalone:
        init()
        rank, size = get_rank(), get_group_size()
        ms.set_auto_parallel_context(
            parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
        if args.fusion_mb:
            ms.set_auto_parallel_context(comm_fusion={
                "allreduce": {"mode": "size", "config": args.fusion_mb}})
    if args.micro_batch_size and not (args.fault == "deterministic" and
                                      rank == 1):
        ms.set_deterministic(True, micro_batch_size=args.micro_batch_size)
    if args.global_batch % size:
        sys.exit(f"global batch {args.global_batch} is not a multiple of "
                 f"{size} ranks")
    local = args.global_batch // size
    if args.mode == "graph" and args.fusion_mb:
        ms.set_context(save_graphs=True, save_graphs_path=ir_dir(args, rank))
    results = {}
    for name in args.optimizers.split(","):
        ms.set_seed(1)
        if args.net == "mlp":
            hidden = 513 if args.fault == "shape" and rank == 1 else 512
            net = MLP(hidden)
        else:
            net = LeNet5()
        if args.dtype == "float64":
            for p in net.trainable_params():
                p.set_data(ms.Tensor(p.asnumpy().astype(np.float64)))
        step = nn.TrainOneStepCell(
            nn.WithLossCell(net, nn.CrossEntropyLoss()),
            OPTIMIZERS[name](net.trainable_params()))
        step.set_train()
        for i, (x, y) in enumerate(batches(args.net, args.steps,
                                           args.global_batch)):
            if args.fault and rank == 1 and i == 2:
                if args.fault == "die":
                    os.kill(os.getpid(), signal.SIGKILL)
                if args.fault == "exit":
                    release()
                    sys.exit(0)
            rows = slice(rank * local, (rank + 1) * local)
            step(ms.Tensor(x[rows].astype(args.dtype)), ms.Tensor(y[rows]))
        for p in net.trainable_params():
            results[f"{name}/{p.name}"] = p.asnumpy()
        if args.mode == "graph":
            # The compiled train step itself holds the collectives.
            runner = step.__dict__.get("_graph_runner")
            sources = runner.graphs() if runner is not None else []
            # Generic ("ms.all_reduce"(...)) or custom (ms.all_reduce %x)
            # form: linked gradients print in the custom one.
            results[f"meta/{name}/all_reduce_ops"] = np.array(
                sum(len(re.findall(r'"?\bms\.all_reduce\b(?!_)', s))
                    for s in sources))
    if args.mode == "graph" and args.fusion_mb:
        # Buckets whose all-reduce overlaps the rest of backward, and
        # buckets of several gradients shared with the runtime: the lowered
        # steps' started all-reduces and shared buckets (save_graphs, below).
        def lowered_count(text, stage="ms-to-linalg.mlir"):
            return np.array(sum(
                open(os.path.join(root, f)).read().count(text)
                for root, _, files in os.walk(ir_dir(args, rank))
                for f in files if f.endswith(stage)))
        results["meta/overlapped"] = lowered_count(
            "call @ms_comm_all_reduce_start")
        results["meta/shared"] = lowered_count("call @ms_comm_share_bucket")
        # Buckets whose updates the ranks split (ms-shard-bucket-updates).
        results["meta/sharded"] = lowered_count(
            "call @ms_comm_share_shards", "bufferize.mlir")
        # Steps that shared their buckets through the window at run time.
        results["meta/shared_steps"] = np.array(
            ms.communication.management._comm.stats()["shared_steps"])
    np.savez(f"{args.out}.rank{rank}.npz", **results)
    if not args.standalone:
        stats = ms.communication.management._comm.stats()
        print(f"rank {rank}/{size}: {stats['calls']} collectives, "
              f"{stats['bytes']} bytes, {stats['seconds']:.3f} s")


if __name__ == "__main__":
    main()
