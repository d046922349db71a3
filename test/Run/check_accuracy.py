#!/usr/bin/env python3
"""Checks an accuracy line of `ms-run --eval-labels` against PyTorch's.

  check_accuracy.py REFERENCE.json < ms-run-output

The line reads "accuracy 90.13% (9013/10000), ...". REFERENCE.json is what
examples/lenet/train_torch.py wrote: "correct" over the whole test set and
"correct_first_1000" over the first 1000 images. Passes when the two
accuracies differ by at most 0.1 percentage points; exits 1 with one line
saying by how much otherwise.
"""
import json
import re
import sys


def main():
    reference = json.load(open(sys.argv[1]))
    text = sys.stdin.read()
    match = re.search(r"accuracy [0-9.]+% \((\d+)/(\d+)\)", text)
    if not match:
        print(f"FAIL: no accuracy line in: {text!r}")
        return 1
    correct, total = int(match.group(1)), int(match.group(2))
    keys = {reference["total"]: "correct", 1000: "correct_first_1000"}
    if total not in keys:
        print(f"FAIL: no PyTorch reference for the first {total} images")
        return 1
    expected = reference[keys[total]]
    gap = 100.0 * abs(correct - expected) / total
    verdict = "OK" if gap <= 0.1 else "FAIL"
    print(f"{verdict}: ms {correct}/{total}, PyTorch {expected}/{total}, "
          f"gap {gap:.2f} percentage points (limit 0.1)")
    return 0 if verdict == "OK" else 1


if __name__ == "__main__":
    sys.exit(main())
