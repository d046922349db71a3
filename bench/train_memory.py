#!/usr/bin/env python3
"""Peak RSS of training the seed MLP (batch 64, SGD, CrossEntropyLoss), ms
against PyTorch eager, each in a fresh process (issue 15's memory target).

  PYTHONPATH=build/python /usr/bin/python3 bench/train_memory.py [--steps 200]

Each child imports its framework, builds the net, runs --steps train steps
on one random batch and reports VmHWM (peak resident set) from
/proc/self/status, and its RSS after the imports, so both the whole peak
and the part training added are compared. ms runs under @ms.jit (GRAPH, the
default jit_level) and in PyNative. Also prints ms's caching-allocator
counts over the steady-state steps (misses must stay put).
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

COMMON = r"""
import json, sys
def rss_kb(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
"""

MS_CHILD = COMMON + r"""
import numpy as np
sys.path.insert(0, sys.argv[3])
import msmlir as ms
from msmlir import Tensor, nn
from train_mlp import Network
mode, steps = sys.argv[1], int(sys.argv[2])
ms.set_context(runtime_num_threads=1)
after_import = rss_kb("VmRSS")
ms.set_seed(0)
rng = np.random.default_rng(0)
net = Network()
x = Tensor(rng.random((64, 1, 28, 28), dtype=np.float32))
y = Tensor(rng.integers(0, 10, 64).astype(np.int32))
loss_fn = nn.CrossEntropyLoss()
opt = nn.SGD(net.trainable_params(), 0.01)
grad_fn = ms.value_and_grad(lambda a, b: loss_fn(net(a), b), None,
                            opt.parameters)
def step(a, b):
    loss, grads = grad_fn(a, b)
    opt(grads)
    return loss
if mode == "graph":
    step = ms.jit(step)
for _ in range(3):
    step(x, y)
warm = ms.runtime.memory_stats()
for _ in range(steps):
    step(x, y)
done = ms.runtime.memory_stats()
print(json.dumps({"after_import": after_import, "peak": rss_kb("VmHWM"),
                  "misses": done["cache_misses"] - warm["cache_misses"],
                  "hits": done["cache_hits"] - warm["cache_hits"],
                  "reserved": done["max_reserved_memory"]}))
"""

TORCH_CHILD = COMMON + r"""
import torch
torch.set_num_threads(1)
steps = int(sys.argv[2])
after_import = rss_kb("VmRSS")
torch.manual_seed(0)
net = torch.nn.Sequential(
    torch.nn.Flatten(), torch.nn.Linear(784, 512), torch.nn.ReLU(),
    torch.nn.Linear(512, 512), torch.nn.ReLU(), torch.nn.Linear(512, 10))
x = torch.rand(64, 1, 28, 28)
y = torch.randint(0, 10, (64,))
opt = torch.optim.SGD(net.parameters(), 0.01)
for _ in range(steps + 3):
    opt.zero_grad()
    loss = torch.nn.functional.cross_entropy(net(x), y)
    loss.backward()
    opt.step()
print(json.dumps({"after_import": after_import, "peak": rss_kb("VmHWM")}))
"""


def child(code, *args):
    env = dict(os.environ, OMP_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-c", code, *args], env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=200)
    args = p.parse_args()
    examples = os.path.join(HERE, "..", "examples", "python")
    torch_run = child(TORCH_CHILD, "torch", str(args.steps))
    rows = [("PyTorch eager", torch_run)]
    for mode in ("graph", "pynative"):
        rows.append((f"ms {mode}", child(MS_CHILD, mode, str(args.steps),
                                         examples)))
    print("| run | peak RSS (MiB) | after import (MiB) | added by training "
          "(MiB) | peak / PyTorch's | steady-state misses / hits |")
    print("|---|---|---|---|---|---|")
    for name, r in rows:
        extra = (f"{r['misses']} / {r['hits']}" if "misses" in r else "")
        print(f"| {name} | {r['peak'] / 1024:.1f} | "
              f"{r['after_import'] / 1024:.1f} | "
              f"{(r['peak'] - r['after_import']) / 1024:.1f} | "
              f"{r['peak'] / torch_run['peak']:.2f} | {extra} |")


if __name__ == "__main__":
    main()
