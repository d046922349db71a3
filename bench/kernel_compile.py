#!/usr/bin/env python3
"""What a PyNative kernel's compile costs (issue 14, cold compile).

  PYTHONPATH=build/python /usr/bin/python3 bench/kernel_compile.py \
      [--kernels 40] [--threads 1]

Runs relu on [n, 4] for n = 1 .. --kernels in one process. Each new shape
is a new kernel, so every call but the first (which also starts the JIT)
compiles one: the figure is the mean of those compiles, almost all of it
the fixed cost of the pipeline, LLVM and linking (the kernel's own code is
one short loop). Prints ms per kernel.
"""
import argparse
import time

import numpy as np

import msmlir as ms
from msmlir import ops


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kernels", type=int, default=40)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    ms.set_context(mode=ms.PYNATIVE_MODE, runtime_num_threads=args.threads)
    inputs = [ms.Tensor(np.ones((n, 4), np.float32))
              for n in range(1, args.kernels + 1)]
    ops.relu(inputs[0]).asnumpy()
    start = time.perf_counter()
    for x in inputs[1:]:
        ops.relu(x).asnumpy()
    seconds = time.perf_counter() - start
    print(f"{seconds * 1e3 / (len(inputs) - 1):.1f} ms per kernel "
          f"({len(inputs) - 1} kernels, {args.threads} thread(s))")


if __name__ == "__main__":
    main()
