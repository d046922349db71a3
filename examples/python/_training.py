"""The training loop shared by train_mlp.py and train_lenet.py: MindSpore's
Quick Start loop (value_and_grad + optimizer in a train_step), on numpy
batches of Fashion-MNIST from msmlir.dataset.load_fashion_mnist.

Options choose the mode (pynative, graph: GRAPH_MODE, jit: @ms.jit on the
train step, cell: nn.TrainOneStepCell), the number of epochs and of
batches per epoch, and --check, which exits 1 unless the loss went down and
the test accuracy beats chance (10%) by --margin points.
"""

import argparse
import sys
import time

import numpy as np

import msmlir as ms
from msmlir import Tensor, nn


def arguments(description, default_lr):
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--mode", choices=("pynative", "graph", "jit", "cell"),
                   default="pynative")
    p.add_argument("--jit-level", default="", help="O0, O1 or O2 (graph "
                   "modes; default O2)")
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--batches", type=int, default=0,
                   help="batches per epoch (0: the whole training set)")
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--lr", type=float, default=default_lr)
    p.add_argument("--test-samples", type=int, default=0,
                   help="test images to evaluate (0: all 10000)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=0)
    p.add_argument("--dataset-dir",
                   default=ms.dataset.FASHION_MNIST_DIR)
    p.add_argument("--check", action="store_true",
                   help="exit 1 unless the loss went down and the accuracy "
                        "beats chance by --margin points")
    p.add_argument("--margin", type=float, default=20.0)
    args = p.parse_args()
    # Before the model is built: its initial weights come from this seed.
    ms.set_seed(args.seed)
    return args


def train(args, network, optimizer, preprocess):
    ms.set_context(runtime_num_threads=args.threads)
    if args.mode in ("graph", "cell"):
        ms.set_context(mode=ms.GRAPH_MODE, jit_level=args.jit_level)
    elif args.jit_level:
        ms.set_context(jit_level=args.jit_level)
    images, labels = ms.dataset.load_fashion_mnist("train", args.dataset_dir)
    test_images, test_labels = ms.dataset.load_fashion_mnist(
        "test", args.dataset_dir, args.test_samples or None)
    loss_fn = nn.CrossEntropyLoss()

    def forward_fn(data, label):
        logits = network(data)
        loss = loss_fn(logits, label)
        return loss, logits

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters,
                                has_aux=True)

    def train_step(data, label):
        (loss, _), grads = grad_fn(data, label)
        optimizer(grads)
        return loss

    if args.mode == "jit":
        train_step = ms.jit(train_step)
    elif args.mode == "cell":
        cell = nn.TrainOneStepCell(nn.WithLossCell(network, loss_fn),
                                   optimizer)
        cell.set_train()
        train_step = cell

    rng = np.random.default_rng(args.seed)
    per_epoch = len(images) // args.batch_size
    if args.batches:
        per_epoch = min(per_epoch, args.batches)
    first = last = None
    start = time.perf_counter()
    steps = 0
    for epoch in range(args.epochs):
        order = rng.permutation(len(images))
        losses = []
        for b in range(per_epoch):
            index = order[b * args.batch_size:(b + 1) * args.batch_size]
            data = Tensor(preprocess(images[index]))
            label = Tensor(labels[index])
            loss = float(train_step(data, label).asnumpy())
            losses.append(loss)
            steps += 1
            if b % 100 == 0:
                print(f"epoch {epoch + 1} batch {b:4d}/{per_epoch}: "
                      f"loss {loss:.6f}", flush=True)
        if first is None:
            first = float(np.mean(losses[:max(1, len(losses) // 10)]))
        last = float(np.mean(losses[-max(1, len(losses) // 10):]))
    seconds = time.perf_counter() - start
    accuracy = evaluate(network, test_images, test_labels, preprocess)
    print(f"{steps} steps in {seconds:.2f} s ({1e3 * seconds / steps:.3f} "
          f"ms/step); loss {first:.4f} -> {last:.4f}; test accuracy "
          f"{accuracy:.2f}% on {len(test_images)} images")
    if args.check:
        failed = []
        if not last < first:
            failed.append(f"the loss did not go down ({first} -> {last})")
        if not accuracy >= 10.0 + args.margin:
            failed.append(f"accuracy {accuracy:.2f}% is not "
                          f"{args.margin} points above chance")
        for f in failed:
            print("FAILED:", f)
        if failed:
            sys.exit(1)
        print("checks passed")
    return accuracy


def evaluate(network, images, labels, preprocess, batch=1000):
    network.set_train(False)
    correct = 0
    for i in range(0, len(images), batch):
        logits = network(Tensor(preprocess(images[i:i + batch]))).asnumpy()
        correct += int(np.sum(logits.argmax(1) == labels[i:i + batch]))
    network.set_train(True)
    return 100.0 * correct / len(images)
