#!/usr/bin/env python3
"""Test accuracy after training, ms against PyTorch from the same initial
weights and the same batch order (issue 15's accuracy target: within 1
point).

  PYTHONPATH=build/python /usr/bin/python3 bench/train_accuracy.py --net mlp
  ... --net lenet --epochs 3

mlp: the seed MLP as MindSpore's Quick Start trains it (nn.SGD 1e-2, batch
64, nn.CrossEntropyLoss, Quick Start preprocessing). lenet: LeNet-5 with
nn.Momentum(lr 0.01, momentum 0.9), batch 64. ms runs the train step under
@ms.jit (GRAPH, O2); PyTorch (Debian's python3-torch) runs torch.optim.SGD
with the equivalent settings on a copy of ms's initial weights. Prints both
accuracies on the 10000 test images and their difference.
"""
import argparse
import os
import sys
import time

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "examples", "python"))
sys.path.insert(0, os.path.join(HERE, "..", "examples", "lenet"))

import msmlir as ms  # noqa: E402
from msmlir import Tensor, nn  # noqa: E402


def torch_net(name, params):
    if name == "mlp":
        net = torch.nn.Sequential(
            torch.nn.Flatten(), torch.nn.Linear(784, 512), torch.nn.ReLU(),
            torch.nn.Linear(512, 512), torch.nn.ReLU(),
            torch.nn.Linear(512, 10))
    else:
        from train_torch import LeNet5
        net = LeNet5()
    tparams = list(net.parameters())
    assert len(tparams) == len(params)
    with torch.no_grad():
        for tp, p in zip(tparams, params):
            tp.copy_(torch.from_numpy(p.asnumpy().copy()))
    return net


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--net", choices=("mlp", "lenet"), default="mlp")
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--threads", type=int, default=2)
    args = p.parse_args()
    ms.set_seed(0)
    ms.set_context(runtime_num_threads=args.threads)
    torch.set_num_threads(args.threads)
    images, labels = ms.dataset.load_fashion_mnist("train")
    test_images, test_labels = ms.dataset.load_fashion_mnist("test")
    if args.net == "mlp":
        from train_mlp import Network, preprocess
        net = Network()
        optimizer = nn.SGD(net.trainable_params(), 1e-2)
        topt = lambda ps: torch.optim.SGD(ps, 1e-2)  # noqa: E731
    else:
        from lenet_fashion_mnist import LeNet5
        preprocess = ms.dataset.lenet_input
        net = LeNet5()
        optimizer = nn.Momentum(net.trainable_params(), 1e-2, 0.9)
        topt = lambda ps: torch.optim.SGD(ps, 1e-2, momentum=0.9)  # noqa
    tnet = torch_net(args.net, net.trainable_params())
    toptimizer = topt(tnet.parameters())
    loss_fn = nn.CrossEntropyLoss()
    grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None,
                                optimizer.parameters)

    @ms.jit
    def step(x, y):
        loss, grads = grad_fn(x, y)
        optimizer(grads)
        return loss

    rng = np.random.default_rng(0)
    ms_s = torch_s = 0.0
    for epoch in range(args.epochs):
        order = rng.permutation(len(images))
        for b in range(len(images) // 64):
            index = order[b * 64:(b + 1) * 64]
            x = preprocess(images[index])
            y = labels[index]
            t = time.perf_counter()
            step(Tensor(x), Tensor(y))
            ms_s += time.perf_counter() - t
            t = time.perf_counter()
            toptimizer.zero_grad()
            tl = torch.nn.functional.cross_entropy(
                tnet(torch.from_numpy(x)), torch.from_numpy(y).long())
            tl.backward()
            toptimizer.step()
            torch_s += time.perf_counter() - t
        print(f"epoch {epoch + 1} done", flush=True)
    x = preprocess(test_images)
    ms_acc = 100.0 * np.mean(net(Tensor(x)).asnumpy().argmax(1) ==
                             test_labels)
    with torch.no_grad():
        t_acc = 100.0 * np.mean(
            tnet(torch.from_numpy(x)).numpy().argmax(1) == test_labels)
    print(f"{args.net}, {args.epochs} epochs: ms {ms_acc:.2f}% "
          f"({ms_s:.1f} s in train steps), PyTorch {t_acc:.2f}% "
          f"({torch_s:.1f} s); difference {ms_acc - t_acc:+.2f} points "
          f"({'within' if abs(ms_acc - t_acc) <= 1.0 else 'NOT within'} 1)")


if __name__ == "__main__":
    main()
