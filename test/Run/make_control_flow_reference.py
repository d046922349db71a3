#!/usr/bin/env python3
"""Inputs and numpy (float64) references for test/Run/control-flow.mlir.

  make_control_flow_reference.py DIR

Writes DIR/x.npy (8x16 float32 in [0, 1)), DIR/n0.npy and DIR/n3.npy (the
loop counts, int32 scalars) and DIR/expected_n0.npy / expected_n3.npy: the
graph doubles x n times in a while loop, then takes the matmul branch when
the sum exceeds 100 (n = 3) and the negation branch otherwise (n = 0).
"""
import os
import sys

import numpy as np


def reference(x, n):
    a = x.astype(np.float64)
    for _ in range(n):
        a = a + a
    if a.sum() > 100.0:
        y = np.maximum(a, 0.0)
        return ((y @ a.T) @ y).astype(np.float32)
    return (-a).astype(np.float32)


def main():
    out = sys.argv[1]
    x = np.random.default_rng(17).uniform(0.0, 1.0, (8, 16)).astype(
        np.float32)
    np.save(os.path.join(out, "x.npy"), x)
    for n in (0, 3):
        np.save(os.path.join(out, f"n{n}.npy"), np.array(n, np.int32))
        np.save(os.path.join(out, f"expected_n{n}.npy"), reference(x, n))


if __name__ == "__main__":
    main()
