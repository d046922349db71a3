#!/usr/bin/env python3
"""Runs one of the seed programs (examples/python/*.py) and checks that it
exits 0 and prints a [64, 10] array the way numpy prints it: 64 rows of 10
finite values, all rows equal (the input is a batch of ones).

    run_seed_program.py examples/python/mlp_pynative.py

Used by ctest (python-seed-*) and by test_seed_programs.py.
"""

import re
import subprocess
import sys

import numpy as np


def parse_numpy_print(text):
    """The rows of a 2-D array printed by numpy, or raises ValueError."""
    text = text.strip()
    if not (text.startswith("[[") and text.endswith("]]")):
        raise ValueError("output is not a printed 2-D array")
    rows = re.split(r"\]\s*\n\s*\[", text[2:-2])
    values = []
    for row in rows:
        values.append([float(v) for v in row.split()])
    return values


def check(path):
    proc = subprocess.run([sys.executable, path], capture_output=True,
                          text=True, timeout=600)
    if proc.returncode != 0:
        return f"{path}: exit code {proc.returncode}\n{proc.stderr}"
    try:
        rows = parse_numpy_print(proc.stdout)
    except ValueError as e:
        return f"{path}: {e}:\n{proc.stdout[:500]}"
    if len(rows) != 64 or any(len(r) != 10 for r in rows):
        return (f"{path}: expected 64 rows of 10 values, got {len(rows)} rows"
                f" of {sorted(set(len(r) for r in rows))}")
    a = np.array(rows)
    if not np.all(np.isfinite(a)):
        return f"{path}: non-finite values"
    if not np.all(a == a[0]):
        return f"{path}: rows differ for an input of ones"
    if any(len(line) > 75 for line in proc.stdout.splitlines()):
        # numpy's default print width
        return f"{path}: lines longer than numpy's 75 columns"
    return None


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    error = check(sys.argv[1])
    if error:
        print("FAIL:", error)
        return 1
    print(f"OK: {sys.argv[1]} printed [64, 10]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
