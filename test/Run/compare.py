#!/usr/bin/env python3
"""Compares an ms-run result (.npy) with a reference (.npy).

  compare.py ACTUAL.npy EXPECTED.npy [--rtol 1e-5]   numeric comparison
  compare.py ACTUAL.npy EXPECTED.npy --exact         bit-for-bit (mode parity)

The relative error of an element is |a - e| / max(|e|, max|e| / 10). Large
elements are held to rtol relative to themselves; elements below a tenth of
the tensor's largest magnitude, whose values come from cancellation (a dot
product summing to nearly zero, gelu of a very negative x), are held to
rtol * max|e| / 10 absolute, since float32 cannot do better there whatever
the summation order. Exits 1, with one line saying where, when the check fails.
"""
import argparse
import sys

import numpy as np


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("actual")
    parser.add_argument("expected")
    parser.add_argument("--rtol", type=float, default=1e-5)
    parser.add_argument("--exact", action="store_true")
    args = parser.parse_args()
    actual = np.load(args.actual)
    expected = np.load(args.expected)
    if actual.shape != expected.shape or actual.dtype != expected.dtype:
        print(f"FAIL: {args.actual} is {actual.dtype}{list(actual.shape)}, "
              f"expected {expected.dtype}{list(expected.shape)}")
        return 1
    if args.exact:
        a = actual.reshape(-1).view(np.uint8)
        e = expected.reshape(-1).view(np.uint8)
        if not np.array_equal(a, e):
            # One row of bytes per element, whatever the dtype's size.
            rows = (actual.size, actual.dtype.itemsize)
            diff = np.flatnonzero(np.any(a.reshape(rows) != e.reshape(rows),
                                         axis=1))
            i = diff[0]
            print(f"FAIL: not bit-identical: {len(diff)} elements differ, first "
                  f"at flat index {i}: {actual.reshape(-1)[i]!r} vs "
                  f"{expected.reshape(-1)[i]!r}")
            return 1
        print(f"OK: bit-identical ({actual.size} elements)")
        return 0
    a = actual.astype(np.float64)
    e = expected.astype(np.float64)
    if not np.all(np.isfinite(a) == np.isfinite(e)):
        print("FAIL: non-finite values differ")
        return 1
    finite = np.isfinite(e)
    scale = np.max(np.abs(e[finite])) if finite.any() else 0.0
    floor = max(0.1 * scale, np.finfo(np.float64).tiny)
    rel = np.abs(a - e)[finite] / np.maximum(np.abs(e[finite]), floor)
    worst = float(rel.max()) if rel.size else 0.0
    if worst > args.rtol:
        i = int(np.argmax(rel))
        print(f"FAIL: max relative error {worst:.3g} > {args.rtol:g} at flat "
              f"index {i}: {a[finite][i]!r} vs {e[finite][i]!r}")
        return 1
    print(f"OK: max relative error {worst:.3g} <= {args.rtol:g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
