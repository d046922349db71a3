#!/usr/bin/env python3
"""Graph-mode performance of ms against PyTorch eager and numpy, in one run.

  /usr/bin/python3 bench/compare_peers.py [--build build] [--quick] [--only B=1]

Workloads: the seed MLP at batch 1, 64 and 256; matmul 64x784x512 and
512x512x512. ms runs through `ms-run --repeat --warmup` at O0, O1, O2 and in
PyNative, on 1 and 2 threads (threads only change O2). PyTorch (Debian's
python3-torch, torch.inference_mode, torch.set_num_threads) and numpy
(OpenBLAS, OPENBLAS_NUM_THREADS) run in subprocesses with the same thread
count; at 2 threads torch gets GOMP_SPINCOUNT=0. Every figure is the median
of many runs; ratios are peer time / ms O2 time from this same run. Prints a
markdown table.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

PEER = r"""
import sys, os
import numpy as np
kind, impl, threads, reps = sys.argv[1], sys.argv[2], int(sys.argv[4]), int(sys.argv[5])
size = tuple(map(int, sys.argv[3].split("x")))
batch = size[0]
rng = np.random.default_rng(0)
sys.path.insert(0, sys.argv[6])
from median_time import median_ms
def timeit(fn):
    return median_ms(fn, reps, max(3, reps // 10))
if kind == "mlp":
    shapes = [(784, 512), (512, 512), (512, 10)]
    x = rng.random((batch, 1, 28, 28), dtype=np.float32)
    ws = [rng.standard_normal((o, i), dtype=np.float32) * 0.05 for i, o in shapes]
    bs = [rng.standard_normal(o, dtype=np.float32) * 0.05 for _, o in shapes]
else:
    m, k, n = size
    a = rng.random((m, k), dtype=np.float32); b = rng.random((k, n), dtype=np.float32)
if impl == "numpy":
    if kind == "mlp":
        def run():
            h = x.reshape(batch, -1)
            for i in range(3):
                h = h @ ws[i].T + bs[i]
                if i < 2:
                    h = np.maximum(h, 0)
            return h
    else:
        run = lambda: a @ b
else:
    import torch
    torch.set_num_threads(threads)
    if kind == "mlp":
        net = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(784, 512), torch.nn.ReLU(),
                                  torch.nn.Linear(512, 512), torch.nn.ReLU(), torch.nn.Linear(512, 10))
        tx = torch.from_numpy(x)
        def run():
            with torch.inference_mode():
                return net(tx)
    else:
        ta, tb = torch.from_numpy(a), torch.from_numpy(b)
        def run():
            with torch.inference_mode():
                return ta @ tb
print(timeit(run))
"""


def mlp_source(batch):
    with open(os.path.join(ROOT, "examples", "mlp.mlir")) as f:
        text = f.read()
    return text.replace("tensor<64x", f"tensor<{batch}x")


def matmul_source(m, k, n):
    return (f"func.func @construct(%a: tensor<{m}x{k}xf32>, %b: tensor<{k}x{n}xf32>)"
            f" -> tensor<{m}x{n}xf32> {{\n"
            f"  %0 = ms.matmul %a, %b : tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>\n"
            f"  return %0 : tensor<{m}x{n}xf32>\n}}\n")


def ms_time(ms_run, path, mode, level, threads, reps):
    args = [ms_run, path, f"--mode={mode}", f"--jit-level={level}",
            f"--num-threads={threads}", "--init-params=0", "--input=rand:1",
            f"--repeat={reps}", f"--warmup={max(3, reps // 10)}"]
    if mode == "graph":
        args.append("--time-compile")
    out = subprocess.run(args, capture_output=True, text=True, check=True).stderr
    median = float(re.search(r"median ([0-9.]+) ms", out).group(1))
    compile_ms = re.search(r"compile ([0-9.]+) ms", out)
    return median, float(compile_ms.group(1)) if compile_ms else None


def peer_env(threads):
    """The environment peers run in: `threads` threads for OpenBLAS and
    OpenMP, and no spinning OpenMP threads at 2 threads."""
    env = dict(os.environ)
    # Older OpenBLAS settings on this machine slow a current numpy.
    env.pop("OPENBLAS_CORETYPE", None)
    env.pop("OPENBLAS_L2_SIZE", None)
    env["OPENBLAS_NUM_THREADS"] = str(threads)
    env["OMP_NUM_THREADS"] = str(threads)
    if threads > 1:
        env["GOMP_SPINCOUNT"] = "0"
    return env


def peer_time(kind, impl, size, threads, reps):
    env = peer_env(threads)
    size_arg = str(size) if kind == "mlp" else "x".join(map(str, size))
    out = subprocess.run([sys.executable, "-c", PEER, kind, impl, size_arg,
                          str(threads), str(reps), HERE],
                         capture_output=True, text=True, env=env, check=True)
    return float(out.stdout.strip())


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--only", default="",
                        help="run only workloads whose name contains this "
                             "(e.g. 'B=1')")
    args = parser.parse_args()
    ms_run = os.path.join(args.build, "bin", "ms-run")
    scale = 0.2 if args.quick else 1.0
    workloads = [("MLP B=1", "mlp", 1, 2000), ("MLP B=64", "mlp", 64, 300),
                 ("MLP B=256", "mlp", 256, 100),
                 ("matmul 64x784x512", "matmul", (64, 784, 512), 300),
                 ("matmul 512x512x512", "matmul", (512, 512, 512), 50)]
    workloads = [w for w in workloads if args.only in w[0]]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, kind, size, reps in workloads:
            reps = max(10, int(reps * scale))
            path = os.path.join(tmp, name.replace(" ", "_") + ".mlir")
            with open(path, "w") as f:
                f.write(mlp_source(size) if kind == "mlp" else matmul_source(*size))
            flops = (2 * size * (784 * 512 + 512 * 512 + 512 * 10) if kind == "mlp"
                     else 2 * size[0] * size[1] * size[2])
            for threads in (1, 2):
                r = {"workload": name, "threads": threads, "flops": flops}
                slow = max(10, reps // 20)
                r["O0"], r["compile_O0"] = ms_time(ms_run, path, "graph", "O0", threads, slow)
                r["O1"], r["compile_O1"] = ms_time(ms_run, path, "graph", "O1", threads, slow)
                r["O2"], r["compile_O2"] = ms_time(ms_run, path, "graph", "O2", threads, reps)
                r["pynative"], _ = ms_time(ms_run, path, "pynative", "O0", threads, slow)
                r["torch"] = peer_time(kind, "torch", size, threads, reps)
                r["numpy"] = peer_time(kind, "numpy", size, threads, reps)
                rows.append(r)
                print(f"# done {name} threads={threads}", file=sys.stderr)
    print("| workload | threads | O0 ms | O1 ms | O2 ms | PyNative ms | PyTorch ms | numpy ms "
          "| O2 GF/s | PyTorch/O2 | numpy/O2 | O1 vs O0 | O2 compile ms |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['workload']} | {r['threads']} | {r['O0']:.3f} | {r['O1']:.3f} | "
              f"{r['O2']:.3f} | {r['pynative']:.3f} | {r['torch']:.3f} | {r['numpy']:.3f} | "
              f"{r['flops'] / r['O2'] / 1e6:.1f} | {r['torch'] / r['O2']:.2f}x | "
              f"{r['numpy'] / r['O2']:.2f}x | {r['O0'] / r['O1']:.2f}x faster | "
              f"{r['compile_O2']:.0f} |")


if __name__ == "__main__":
    main()
