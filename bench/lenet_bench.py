#!/usr/bin/env python3
"""LeNet-5 (examples/lenet) at batch 64: ms against PyTorch, in one run.

  /usr/bin/python3 bench/lenet_bench.py [--build build] [--quick]

ms runs examples/lenet/lenet5.mlir through `ms-run --repeat --warmup` at O0,
O1 and O2 (graph mode) and in PyNative, on 1 and 2 threads. PyTorch 1.13
(Debian's python3-torch) runs the same network with the same weights in a
subprocess with the same thread count, twice: eager under
torch.inference_mode, and TorchScript frozen by
torch.jit.optimize_for_inference. Figures are medians of many runs; ratios
are PyTorch's time / ms O2's time from this same run. Prints a markdown
table.
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
threads, reps = int(sys.argv[1]), int(sys.argv[2])
sys.path.insert(0, sys.argv[3])
from train_torch import LeNet5
torch.set_num_threads(threads)
net = LeNet5().eval()
x = torch.from_numpy(np.random.default_rng(1).random((64, 1, 32, 32), dtype=np.float32))
with torch.no_grad():
    scripted = torch.jit.optimize_for_inference(torch.jit.script(net))
sys.path.insert(0, sys.argv[4])
from median_time import median_ms
def timeit(fn):
    return median_ms(fn, reps, max(5, reps // 10))
def eager():
    with torch.inference_mode():
        return net(x)
def jit():
    with torch.no_grad():
        return scripted(x)
print(timeit(eager), timeit(jit))
"""


def torch_times(threads, reps):
    out = subprocess.run(
        [sys.executable, "-c", TORCH, str(threads), str(reps),
         os.path.join(ROOT, "examples", "lenet"), HERE],
        capture_output=True, text=True, env=peer_env(threads), check=True)
    eager, jit = map(float, out.stdout.split())
    return eager, jit


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    args = parser.parse_args()
    ms_run = os.path.join(args.build, "bin", "ms-run")
    reps = 100 if args.quick else 500
    slow = max(5, reps // 25)
    rows = []
    for threads in (1, 2):
        r = {"threads": threads}
        r["O0"], _ = ms_time(ms_run, NETWORK, "graph", "O0", threads, slow)
        r["O1"], _ = ms_time(ms_run, NETWORK, "graph", "O1", threads, slow)
        r["O2"], r["compile"] = ms_time(ms_run, NETWORK, "graph", "O2", threads,
                                        reps)
        r["pynative"], _ = ms_time(ms_run, NETWORK, "pynative", "O0", threads,
                                   slow)
        r["eager"], r["jit"] = torch_times(threads, reps)
        rows.append(r)
        print(f"# done threads={threads}", file=sys.stderr)
    print("| threads | ms O0 | ms O1 | ms O2 | ms PyNative | PyTorch eager | "
          "PyTorch optimize_for_inference | eager/O2 | optimized/O2 | "
          "O2 compile ms |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['threads']} | {r['O0']:.2f} | {r['O1']:.2f} | "
              f"{r['O2']:.3f} | {r['pynative']:.2f} | {r['eager']:.3f} | "
              f"{r['jit']:.3f} | {r['eager'] / r['O2']:.2f}x | "
              f"{r['jit'] / r['O2']:.2f}x | {r['compile']:.0f} |")


if __name__ == "__main__":
    main()
