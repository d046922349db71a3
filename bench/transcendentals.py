#!/usr/bin/python3
"""Gelem/s of exp, log, tanh, sigmoid, gelu and softmax on 1M float32
elements: ms-run --repeat on one-op graphs (sink, the given jit level,
one thread), next to numpy on the same data.

    /usr/bin/python3 bench/transcendentals.py [--ms-run build/bin/ms-run]
        [--jit-level O2] [--repeat 100]
"""

import argparse
import os
import re
import subprocess
import tempfile
import time

import numpy as np

N = 1 << 20
SHAPE = "1024x1024"

OPS = {
    # name: (ms op text, input range, numpy function)
    "exp": ("ms.exp %a", (-5, 5), np.exp),
    "log": ("ms.log %a", (0.01, 10), np.log),
    "tanh": ("ms.tanh %a", (-5, 5), np.tanh),
    "sigmoid": ("ms.sigmoid %a", (-5, 5), lambda x: 1 / (1 + np.exp(-x))),
    "gelu (erf)": ("ms.gelu %a {approximate = false}", (-5, 5), None),
    "gelu (tanh)": ("ms.gelu %a", (-5, 5), None),
    "softmax": ("ms.softmax %a axis -1", (-5, 5),
                lambda x: (lambda e: e / e.sum(-1, keepdims=True))(
                    np.exp(x - x.max(-1, keepdims=True)))),
}


def numpy_rate(fn, x, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(x)
        times.append(time.perf_counter() - t0)
    return N / np.median(times) / 1e9


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--ms-run", default="build/bin/ms-run")
    p.add_argument("--jit-level", default="O2")
    p.add_argument("--repeat", type=int, default=100)
    args = p.parse_args()
    rng = np.random.default_rng(0)
    print(f"{'op':12} {'ms Gelem/s':>11} {'numpy Gelem/s':>14}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, (op, (lo, hi), ref) in OPS.items():
            x = rng.uniform(lo, hi, N).astype(np.float32).reshape(1024, 1024)
            npy = os.path.join(tmp, "x.npy")
            np.save(npy, x)
            src = os.path.join(tmp, "op.mlir")
            with open(src, "w") as f:
                f.write(f"func.func @construct(%a: tensor<{SHAPE}xf32>) -> "
                        f"tensor<{SHAPE}xf32> {{\n  %r = {op} : "
                        f"tensor<{SHAPE}xf32>\n  return %r : "
                        f"tensor<{SHAPE}xf32>\n}}\n")
            out = subprocess.run(
                [args.ms_run, src, "--exc-mode=sink",
                 f"--jit-level={args.jit_level}", "--num-threads=1",
                 f"--input={npy}", f"--repeat={args.repeat}", "--warmup=5"],
                capture_output=True, text=True, check=True).stderr
            ms = float(re.search(r"median ([0-9.]+) ms", out).group(1))
            rate = N / (ms * 1e-3) / 1e9
            np_rate = (f"{numpy_rate(ref, x, args.repeat):14.2f}"
                       if ref else f"{'-':>14}")
            print(f"{name:12} {rate:11.2f} {np_rate}", flush=True)


if __name__ == "__main__":
    main()
