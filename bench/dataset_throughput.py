#!/usr/bin/env python3
"""The Quick Start data pipeline's throughput on one core, against numpy
(and a torch DataLoader) doing the same work, in one run.

  PYTHONPATH=build/python /usr/bin/python3 bench/dataset_throughput.py \
      [--rounds N] [--cpu K] [--no-torch]

The pipeline is MindSpore's Quick Start over the 60,000 Fashion-MNIST
training images (Debian's dataset-fashion-mnist):
FashionMnistDataset(shuffle=True) -> Rescale(1/255, 0) -> Normalize(0.1307,
0.3081) -> HWC2CHW -> TypeCast(int32) on the label -> batch(64), iterated
to the end of an epoch. The files are decoded once, before timing (as
msmlir does when the dataset is made). The whole process is pinned to one
CPU (the prefetch thread included), so "images/s" is per core.

Peers, each producing the same float32 [64, 1, 28, 28] and int32 [64]
batches in a fresh random order per epoch:
  numpy        vectorized per batch: gather, astype, *, +, -, /
  torch        torch.utils.data.DataLoader (num_workers=0, one thread) over
               a map-style Dataset doing the transforms per sample in torch
               (what a torch user writes without torchvision)
Rounds alternate between the contenders; each figure is the median epoch.
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np

FASHION = "/usr/share/datasets/fashion-mnist"
MEAN, STD, SCALE = 0.1307, 0.3081, 1.0 / 255.0


def msmlir_epochs(output_numpy):
    import msmlir as ms
    from msmlir.dataset import FashionMnistDataset, transforms, vision
    train = FashionMnistDataset(FASHION, usage="train")
    train = train.map([vision.Rescale(SCALE, 0),
                       vision.Normalize(mean=(MEAN,), std=(STD,)),
                       vision.HWC2CHW()], "image")
    train = train.map(transforms.TypeCast(ms.int32), "label").batch(64)
    iterator = train.create_tuple_iterator(output_numpy=output_numpy)

    def epoch():
        n = 0
        for image, label in iterator:
            n += image.shape[0]
        return n
    return epoch


def numpy_epochs():
    from msmlir.dataset import load_fashion_mnist
    images, labels = load_fashion_mnist("train", FASHION)
    rng = np.random.default_rng(0)
    scale, mean, std = np.float32(SCALE), np.float32(MEAN), np.float32(STD)

    def epoch():
        order = rng.permutation(len(images))
        n = 0
        for start in range(0, len(order), 64):
            idx = order[start:start + 64]
            x = images[idx].astype(np.float32)[:, None] * scale + \
                np.float32(0)
            x = (x - mean) / std
            y = labels[idx].astype(np.int32)
            n += x.shape[0]
        return n
    return epoch


def torch_epochs():
    import torch
    from msmlir.dataset import load_fashion_mnist
    torch.set_num_threads(1)
    images, labels = load_fashion_mnist("train", FASHION)
    images = torch.from_numpy(images)
    labels = torch.from_numpy(labels)

    class QuickStart(torch.utils.data.Dataset):
        def __len__(self):
            return len(images)

        def __getitem__(self, i):
            x = images[i].to(torch.float32)[None] * SCALE
            return (x - MEAN) / STD, labels[i].to(torch.int32)

    loader = torch.utils.data.DataLoader(QuickStart(), batch_size=64,
                                         shuffle=True, num_workers=0)

    def epoch():
        n = 0
        for x, y in loader:
            n += x.shape[0]
        return n
    return epoch


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--cpu", type=int, default=None,
                        help="the CPU to pin to (default: the first allowed)")
    parser.add_argument("--no-torch", action="store_true")
    args = parser.parse_args()
    if not os.path.isdir(FASHION):
        sys.exit(f"{FASHION} is absent (install dataset-fashion-mnist)")
    cpu = args.cpu if args.cpu is not None else min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})

    contenders = {
        "msmlir (Tensors)": msmlir_epochs(False),
        "msmlir (output_numpy)": msmlir_epochs(True),
        "numpy, batched": numpy_epochs(),
    }
    if not args.no_torch:
        try:
            contenders["torch DataLoader"] = torch_epochs()
        except ImportError:
            pass
    rates = {name: [] for name in contenders}
    for name, epoch in contenders.items():
        epoch()  # Warm-up (first-touch pages, imports).
    for _ in range(args.rounds):
        for name, epoch in contenders.items():
            if name == "torch DataLoader" and len(rates[name]) >= 2:
                continue  # Slow; two epochs tell its rate.
            start = time.perf_counter()
            n = epoch()
            rates[name].append(n / (time.perf_counter() - start))
            assert n == 60000, (name, n)

    best = statistics.median(rates["msmlir (Tensors)"])
    print(f"Quick Start pipeline, 60,000 images per epoch, batch 64, CPU "
          f"{cpu} only; median of {args.rounds} epochs\n")
    print("| pipeline | images/s | range | msmlir (Tensors) is |")
    print("|---|---:|---|---:|")
    for name, values in rates.items():
        median = statistics.median(values)
        print(f"| {name} | {median:,.0f} | {min(values):,.0f} - "
              f"{max(values):,.0f} | {best / median:.2f}x |")
    target = 500_000
    print(f"\ntarget >= {target:,} images/s: "
          f"{'met' if best >= target else 'missed'} ({best:,.0f})")


if __name__ == "__main__":
    main()
