#!/usr/bin/env python3
"""Model.train in dataset sink mode against the step it runs and against
the same training written by hand, in one run (issue 56's targets).

  PYTHONPATH=build/python /usr/bin/python3 bench/model_sink.py
      [--batches 300] [--rounds 5] [--threads 0] [--data DIR]

The seed MLP on Fashion-MNIST (batch 64, nn.CrossEntropyLoss,
nn.Momentum(lr=0.01, momentum=0.9), the tutorial's Rescale / Normalize /
HWC2CHW pipeline, shuffled), in GRAPH mode at default settings (O2, every
core). Per round, each timed over --batches batches of the train set:

- step:  the compiled train step (ms.jit of TrainOneStepCell) called on
         one batch already in memory, --batches times: the step's own
         compiled time, with no data pipeline;
- sink:  Model.train(1, dataset, dataset_sink_mode=True): a Python step,
         then the native step loop fed by the C++ pipeline;
- hand:  the loop a user writes: for data, label in
         dataset.create_tuple_iterator(): train_net(data, label), with
         train_net the same TrainOneStepCell in GRAPH_MODE;
- pipeline: the data pipeline alone (iterating the dataset), whose
         prefetch thread shares the cores with the step in sink and hand.

Each dataset is made (its files read and decoded, about 0.45 s) before
its timing starts.

Each variant goes first in turn; the figures are medians over the rounds
of the per-step time, and of the per-round ratios sink/step (target <=
1.05) and hand/sink (target >= 1.3).
"""
import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "examples", "python"))
from paired_rounds import median  # noqa: E402
from train_mlp import Network  # noqa: E402  (the seed MLP)

import msmlir as ms  # noqa: E402
from msmlir import nn  # noqa: E402
from msmlir.dataset import FashionMnistDataset, transforms, vision  # noqa: E402
from msmlir.train import Model  # noqa: E402


def dataset(data_dir, batches):
    data = FashionMnistDataset(data_dir, usage="train", shuffle=True)
    data = data.map([vision.Rescale(1.0 / 255.0, 0),
                     vision.Normalize(mean=(0.2860,), std=(0.3530,)),
                     vision.HWC2CHW()], "image")
    data = data.map(transforms.TypeCast(ms.int32), "label")
    return data.batch(64, drop_remainder=True).take(batches)


def train_parts():
    net = Network()
    loss_fn = nn.CrossEntropyLoss()
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.01,
                      momentum=0.9)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), opt)
    step.set_train()
    return net, loss_fn, opt, step


def time_step(args):
    _, _, _, step = train_parts()
    compiled = ms.jit(step)
    data, label = next(dataset(args.data, 1).create_tuple_iterator())
    compiled(data, label)
    start = time.perf_counter()
    for _ in range(args.batches):
        compiled(data, label)
    return time.perf_counter() - start


def time_pipeline(args):
    data = dataset(args.data, args.batches)
    start = time.perf_counter()
    for _ in data.create_tuple_iterator():
        pass
    return time.perf_counter() - start


def time_sink(args):
    net, loss_fn, opt, _ = train_parts()
    model = Model(net, loss_fn=loss_fn, optimizer=opt)
    warm = dataset(args.data, 2)
    model.train(1, warm, dataset_sink_mode=True)  # compiles
    data = dataset(args.data, args.batches)  # reads the files
    start = time.perf_counter()
    model.train(1, data, dataset_sink_mode=True)
    return time.perf_counter() - start


def time_hand(args):
    ms.set_context(mode=ms.GRAPH_MODE)
    _, _, _, step = train_parts()
    for data, label in dataset(args.data, 2).create_tuple_iterator():
        step(data, label)  # compiles
    data = dataset(args.data, args.batches)  # reads the files
    start = time.perf_counter()
    for image, label in data.create_tuple_iterator():
        step(image, label)
    elapsed = time.perf_counter() - start
    ms.set_context(mode=ms.PYNATIVE_MODE)
    return elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--batches", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--data", default="/usr/share/datasets/fashion-mnist")
    parser.add_argument("--threads", type=int, default=0,
                        help="runtime_num_threads (0, the default: every "
                        "core)")
    args = parser.parse_args()
    ms.set_context(runtime_num_threads=args.threads)
    ms.set_seed(0)
    variants = [("step", time_step), ("sink", time_sink), ("hand", time_hand),
                ("pipeline", time_pipeline)]
    times = {name: [] for name, _ in variants}
    for r in range(args.rounds):
        order = variants[r % 4:] + variants[:r % 4]
        for name, fn in order:
            times[name].append(fn(args) / args.batches * 1e3)
    sink_step = median([s / t for s, t in zip(times["sink"], times["step"])])
    hand_sink = median([h / s for h, s in zip(times["hand"], times["sink"])])
    print(f"seed MLP, batch 64, {args.batches} batches, {args.rounds} rounds,"
          f" {os.cpu_count()} cores, runtime_num_threads={args.threads}")
    print("| variant | ms per step (median) |")
    print("|---|---:|")
    for name, _ in variants:
        print(f"| {name} | {median(times[name]):.3f} |")
    print(f"\nsink / step = {sink_step:.3f} (target <= 1.05: "
          f"{'met' if sink_step <= 1.05 else 'missed'})")
    print(f"hand / sink = {hand_sink:.3f} (target >= 1.3: "
          f"{'met' if hand_sink >= 1.3 else 'missed'})")


if __name__ == "__main__":
    main()
