#!/usr/bin/env python3
"""LeNet-5 (MindSpore's model zoo) on the Fashion-MNIST test set, in
PyNative mode and in GRAPH mode at jit_level O0, O1 and O2.

The weights (examples/lenet/lenet5.safetensors) were trained with PyTorch by
examples/lenet/train_torch.py, under MindSpore's parameter names. For each
mode the script prints the accuracy and the speed, then checks:

  - the accuracy is within 0.1 percentage points of PyTorch's on the same
    weights (examples/lenet/torch_reference.json: the whole test set, or
    the first 1000 images with --limit 1000; other limits are only printed);
  - the logits of the first 100 images are within 1e-4 relative of
    PyTorch's (examples/lenet/torch_logits_first100.npy), with the relative
    error of test/Run/compare.py: |a - b| / max(|b|, max|b| / 10);
  - every mode's logits are bit for bit equal to PyNative's.

It exits 1, saying which check failed, if any does. Run from the source tree
after `ninja -C build msmlir`:

  PYTHONPATH=build/python /usr/bin/python3 examples/python/lenet_fashion_mnist.py
  ... --limit 1000 --modes pynative,O2 --batch 64 --threads 1

Needs Fashion-MNIST in /usr/share/datasets/fashion-mnist (Debian's
dataset-fashion-mnist package), or --dataset-dir.
"""

import argparse
import json
import os
import sys
import time

import numpy as np

import msmlir as ms
from msmlir import Tensor, nn

HERE = os.path.dirname(os.path.abspath(__file__))
LENET = os.path.join(HERE, "..", "lenet")
MODES = ("pynative", "O0", "O1", "O2")


class LeNet5(nn.Cell):
    """MindSpore model zoo's LeNet5 (research/cv/lenet, src/lenet.py)."""

    def __init__(self, num_class=10, num_channel=1, include_top=True):
        super().__init__()
        self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.include_top = include_top
        if self.include_top:
            self.flatten = nn.Flatten()
            self.fc1 = nn.Dense(16 * 5 * 5, 120)
            self.fc2 = nn.Dense(120, 84)
            self.fc3 = nn.Dense(84, num_class)

    def construct(self, x):
        x = self.conv1(x)
        x = self.relu(x)
        x = self.max_pool2d(x)
        x = self.conv2(x)
        x = self.relu(x)
        x = self.max_pool2d(x)
        if not self.include_top:
            return x
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        x = self.fc3(x)
        return x


def relative_error(actual, expected):
    """max over elements of |a - e| / max(|e|, max|e| / 10)
    (test/Run/compare.py)."""
    a = np.asarray(actual, np.float64)
    e = np.asarray(expected, np.float64)
    floor = max(0.1 * np.max(np.abs(e)), np.finfo(np.float64).tiny)
    return float(np.max(np.abs(a - e) / np.maximum(np.abs(e), floor)))


def label(mode):
    return "PyNative" if mode == "pynative" else f"GRAPH {mode}"


def set_mode(mode, threads):
    if mode == "pynative":
        ms.set_context(mode=ms.PYNATIVE_MODE, jit_level="O0")
    else:
        ms.set_context(mode=ms.GRAPH_MODE, jit_level=mode,
                       runtime_num_threads=threads)


def evaluate(net, images, batch):
    """Logits for all images, batch by batch. The last batch is smaller when
    the batch size does not divide the count: GRAPH mode compiles once more
    for its shape, and the rows are the same as in a full batch (a row's
    result does not depend on the batch it is in).

    Returns (logits, seconds spent in calls that compiled a graph or a
    PyNative kernel, seconds and images in the other calls)."""
    logits = []
    compile_seconds = run_seconds = 0.0
    run_images = 0
    for start in range(0, len(images), batch):
        x = Tensor(images[start:start + batch])
        graphs = net.compile_count
        kernels = ms.pynative_stats()["misses"]
        begin = time.perf_counter()
        y = net(x).asnumpy()
        seconds = time.perf_counter() - begin
        if net.compile_count != graphs or \
                ms.pynative_stats()["misses"] != kernels:
            compile_seconds += seconds
        else:
            run_seconds += seconds
            run_images += len(y)
        logits.append(y.copy())
    return np.concatenate(logits), compile_seconds, run_seconds, run_images


def main():
    parser = argparse.ArgumentParser(
        description="LeNet-5 on Fashion-MNIST in PyNative and GRAPH mode, "
                    "checked against PyTorch")
    parser.add_argument("--limit", type=int, default=None,
                        help="evaluate the first N test images (default: "
                             "all 10000)")
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--modes", default=",".join(MODES),
                        help="comma-separated subset of "
                             f"{','.join(MODES)} (default: all)")
    parser.add_argument("--threads", type=int, default=0,
                        help="threads for O2 graphs (0: every core)")
    parser.add_argument("--dataset-dir", default=ms.dataset.FASHION_MNIST_DIR)
    parser.add_argument("--weights",
                        default=os.path.join(LENET, "lenet5.safetensors"))
    args = parser.parse_args()
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    bad = [m for m in modes if m not in MODES]
    if bad or not modes:
        parser.error(f"--modes: unknown {bad}; expected a comma-separated "
                     f"subset of {','.join(MODES)}")
    if args.batch <= 0:
        parser.error("--batch must be positive")
    if args.limit is not None and args.limit <= 0:
        parser.error("--limit must be positive")

    try:
        images, labels = ms.dataset.load_fashion_mnist(
            "test", args.dataset_dir, num_samples=args.limit)
    except (ValueError, ms.MSError) as e:
        print(f"error: cannot read Fashion-MNIST: {e}", file=sys.stderr)
        return 1
    x = ms.dataset.lenet_input(images)
    total = len(labels)

    net = LeNet5()
    try:
        params = ms.load_checkpoint(args.weights)
    except (ValueError, ms.MSError) as e:
        print(f"error: cannot read the weights: {e}", file=sys.stderr)
        return 1
    not_loaded, unused = ms.load_param_into_net(net, params)
    if not_loaded or unused:
        print(f"error: {args.weights} does not fit LeNet5: missing "
              f"{not_loaded}, unused {unused}", file=sys.stderr)
        return 1
    net.set_train(False)

    weights = os.path.relpath(args.weights)
    if weights.startswith(".."):
        weights = os.path.abspath(args.weights)
    print(f"LeNet-5 on the first {total} Fashion-MNIST test images, batch "
          f"{args.batch}, weights {weights}")
    results = {}
    for mode in modes:
        set_mode(mode, args.threads)
        logits, compile_s, run_s, run_n = evaluate(net, x, args.batch)
        results[mode] = logits
        correct = int(np.sum(logits.argmax(1) == labels))
        name = "PyNative (O0 kernels)" if mode == "pynative" else label(mode)
        speed = (f"{run_n / run_s:8.0f} images/s" if run_s > 0 else
                 "   (every batch compiled)")
        print(f"{name:21s} accuracy {100.0 * correct / total:6.2f}% "
              f"({correct}/{total}), {speed}; batches that compiled: "
              f"{compile_s:.2f} s", flush=True)
    ms.set_context(mode=ms.PYNATIVE_MODE, jit_level="")

    failures = []
    with open(os.path.join(LENET, "torch_reference.json")) as f:
        reference = json.load(f)
    if total == reference["total"]:
        expected = reference["accuracy_percent"]
    elif total == 1000:
        expected = 100.0 * reference["correct_first_1000"] / 1000
    else:
        expected = None
    if expected is None:
        print(f"accuracy: PyTorch has no reference for the first {total} "
              "images (only 1000 and all); not checked")
    else:
        for mode, logits in results.items():
            accuracy = 100.0 * np.sum(logits.argmax(1) == labels) / total
            if abs(accuracy - expected) > 0.1 + 1e-9:  # 1/1000 is 0.1
                failures.append(f"{label(mode)}: accuracy {accuracy:.2f}% "
                                "is more than 0.1 points from PyTorch's "
                                f"{expected:.2f}%")
        print(f"accuracy within 0.1 points of PyTorch's {expected:.2f}%: "
              f"{'FAIL' if failures else 'OK'}")

    torch_logits = np.load(os.path.join(LENET, "torch_logits_first100.npy"))
    n = min(100, total)
    errors = {m: relative_error(r[:n], torch_logits[:n])
              for m, r in results.items()}
    worst = max(errors.values())
    print(f"logits of the first {n} images vs PyTorch's: max relative error "
          f"{worst:.2e} (limit 1e-4): {'OK' if worst <= 1e-4 else 'FAIL'}")
    for mode, error in errors.items():
        if error > 1e-4:
            failures.append(f"{label(mode)}: logits of the first {n} images "
                            f"differ from PyTorch's by {error:.2e} relative "
                            "(> 1e-4)")

    base = "pynative" if "pynative" in results else modes[0]
    others = [m for m in results if m != base]
    if others:
        differ = [m for m in others if results[m].tobytes() !=
                  results[base].tobytes()]
        for m in differ:
            count = int(np.sum(results[m] != results[base]))
            failures.append(f"{label(m)}: logits are not bit for bit equal "
                            f"to {label(base)}'s ({count} of "
                            f"{results[m].size} values differ)")
        print(f"logits of {', '.join(label(m) for m in others)} bit for "
              f"bit equal to {label(base)}'s: {'FAIL' if differ else 'OK'}")

    for failure in failures:
        print(f"FAIL: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
