#!/usr/bin/env python3
"""O2 at 1 thread against 2 threads, in paired rounds of fresh ms-run
processes (the issue-14 "Threads" evidence).

  flock /tmp/ms-build.lock /usr/bin/python3 bench/thread_rounds.py
      [--rounds 7] [--reps 1000] [--env KEY=VALUE ...] [--taskset CPUS]
      [--workloads lenet,mlp]

Each round runs `ms-run --jit-level=O2 --repeat=REPS --warmup=REPS/10`
once with --num-threads=1 and once with --num-threads=2, taking turns in
going first. --env sets variables for both (for example KMP_BLOCKTIME=0),
--taskset pins both with taskset -c. Prints each round's medians and how
many rounds 2 threads won.
"""
import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from paired_rounds import median  # noqa: E402

WORKLOADS = {
    "lenet": ["examples/lenet/lenet5.mlir",
              "--params=examples/lenet/lenet5.safetensors"],
    "mlp": ["examples/mlp.mlir", "--init-params=0"],
}


def run(build, workload, threads, reps, env, taskset):
    args = [os.path.join(build, "bin", "ms-run"), *WORKLOADS[workload],
            "--jit-level=O2", "--input=rand:1", f"--num-threads={threads}",
            f"--repeat={reps}", f"--warmup={max(10, reps // 10)}"]
    if taskset:
        args = ["taskset", "-c", taskset] + args
    out = subprocess.run(args, capture_output=True, text=True, cwd=ROOT,
                         env=env, check=True).stderr
    return float(re.search(r"median ([0-9.]+) ms", out).group(1))


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--reps", type=int, default=1000)
    parser.add_argument("--env", action="append", default=[])
    parser.add_argument("--taskset", default=None)
    parser.add_argument("--workloads", default="lenet,mlp")
    args = parser.parse_args()
    env = dict(os.environ)
    for item in args.env:
        key, value = item.split("=", 1)
        env[key] = value
    for workload in args.workloads.split(","):
        t1, t2 = [], []
        for i in range(args.rounds):
            order = (1, 2) if i % 2 == 0 else (2, 1)
            for threads in order:
                (t1 if threads == 1 else t2).append(
                    run(args.build, workload, threads, args.reps, env,
                        args.taskset))
        wins = sum(b < a for a, b in zip(t1, t2))
        print(f"{workload} {' '.join(args.env) or 'default'}"
              f"{' taskset ' + args.taskset if args.taskset else ''}: "
              f"1 thread {' '.join(f'{t:.3f}' for t in t1)} (median "
              f"{median(t1):.3f}); 2 threads {' '.join(f'{t:.3f}' for t in t2)}"
              f" (median {median(t2):.3f}); 2 threads won {wins}/{len(t1)}",
              flush=True)


if __name__ == "__main__":
    main()
