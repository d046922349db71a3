#!/usr/bin/env python3
"""The first PyNative call of the seed MLP, op by op (issue 14's cold
PyNative row, broken down): a fresh process runs each layer once and prints
how long each took, kernel compile included. The flatten also pays the
JIT's one-time start.

  PYTHONPATH=build/python /usr/bin/python3 bench/pynative_first_call.py [THREADS]
"""

import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "python"))

import msmlir as ms  # noqa: E402
from chain_bench import Network  # noqa: E402


def timed(label, fn):
    start = time.perf_counter()
    out = fn()
    out.asnumpy()
    print(f"{label:>16} {(time.perf_counter() - start) * 1e3:7.1f} ms")
    return out


def main():
    threads = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    ms.set_context(mode=ms.PYNATIVE_MODE, runtime_num_threads=threads)
    net = Network()
    x = ms.Tensor(np.ones((64, 1, 28, 28), np.float32))
    h = timed("flatten", lambda: net.flatten(x))
    for layer in net.dense_relu_sequential:
        h = timed(type(layer).__name__, lambda layer=layer, h=h: layer(h))


if __name__ == "__main__":
    main()
