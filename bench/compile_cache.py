#!/usr/bin/env python3
"""The persistent compile cache, cold against warm, in separate processes.

For the seed MLP and LeNet-5 (batch 64, GRAPH_MODE, the default O2), each
run is a new Python process that builds the network and calls it once:

- cold: an empty cache directory, so the graph compiles and is stored
  (a miss);
- warm: the directory a cold run filled, so the graph is loaded (a hit).

Reported per network and kind: the median compile time of the first call
(the graph compiler's own figure: MLIR pipeline + LLVM on a miss; key,
read, checks and object load on a hit), the median first-call wall time
(capture + compile + run), and every run's cache status, misses included.
Also ms-run's figures for examples/mlp.mlir and examples/lenet/lenet5.mlir
with --cache-dir.

    PYTHONPATH=build/python /usr/bin/python3 bench/compile_cache.py [--runs N]
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

CHILD = r"""
import json, sys, time
import numpy as np
import msmlir as ms
from msmlir import Tensor

kind, cache = sys.argv[1], sys.argv[2]
ms.set_context(mode=ms.GRAPH_MODE, enable_compile_cache=True,
               compile_cache_path=cache)
ms.set_seed(1)
# The networks the tests use: the seed MLP and LeNet-5.
sys.path.insert(0, sys.argv[3])
if kind == "mlp":
    from conftest import Network
    net = Network()
    x = np.ones([64, 1, 28, 28], np.float32)
else:
    from conftest import LeNet5
    net = LeNet5()
    x = np.ones([64, 1, 32, 32], np.float32)
x = Tensor(x)
start = time.perf_counter()
y = net(x).asnumpy()
first = time.perf_counter() - start
stats = ms.compile_cache_stats()
status = [k for k in ("hit", "miss", "rebuilt") if stats[k]]
print(json.dumps({"first_ms": first * 1e3,
                  "compile_ms": stats["compile_seconds"] * 1e3,
                  "status": status[0] if status else "off",
                  "checksum": float(np.abs(y).sum())}))
"""


def child(kind, cache):
    tests = os.path.join(ROOT, "python", "tests")
    proc = subprocess.run([sys.executable, "-c", CHILD, kind, cache, tests],
                          capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        sys.exit(f"{kind} child failed:\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def ms_run(net_args, cache):
    exe = os.path.join(ROOT, "build", "bin", "ms-run")
    proc = subprocess.run([exe] + net_args + ["--cache-dir=" + cache,
                                              "--time-compile"],
                          capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        sys.exit(f"ms-run failed:\n{proc.stderr}")
    ms = float(re.search(r"compile ([0-9.]+) ms", proc.stderr).group(1))
    status = re.search(r"compile cache (\w+)", proc.stderr).group(1)
    return ms, status


def summarize(label, runs):
    compile_ms = statistics.median(r["compile_ms"] for r in runs)
    first_ms = statistics.median(r["first_ms"] for r in runs)
    statuses = ",".join(r["status"] for r in runs)
    print(f"| {label} | {compile_ms:.1f} | {first_ms:.1f} | {statuses} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print("| network, run | compile (ms, median) | first call (ms, median) "
          "| cache status of each run |")
    print("|---|---|---|---|")
    for kind in ("mlp", "lenet"):
        cold, warm = [], []
        for _ in range(args.runs):
            with tempfile.TemporaryDirectory() as cache:
                cold.append(child(kind, cache))
                warm.append(child(kind, cache))
        assert len({r["checksum"] for r in cold + warm}) == 1, \
            "cold and warm results differ"
        summarize(f"{kind}, cold (new process, empty cache)", cold)
        summarize(f"{kind}, warm (second process)", warm)
    nets = {"mlp.mlir": ["examples/mlp.mlir", "--init-params=0"],
            "lenet5.mlir": ["examples/lenet/lenet5.mlir",
                            "--params=examples/lenet/lenet5.safetensors"]}
    for name, net_args in nets.items():
        net_args = [os.path.join(ROOT, net_args[0])] + [
            a.replace("examples/", os.path.join(ROOT, "examples") + "/")
            for a in net_args[1:]]
        cold, warm = [], []
        for _ in range(args.runs):
            with tempfile.TemporaryDirectory() as cache:
                cold.append(ms_run(net_args, cache))
                warm.append(ms_run(net_args, cache))
        for label, runs in (("cold", cold), ("warm", warm)):
            print(f"| ms-run {name}, {label} | "
                  f"{statistics.median(r[0] for r in runs):.1f} | - | "
                  f"{','.join(r[1] for r in runs)} |")


if __name__ == "__main__":
    main()
