#!/usr/bin/env python3
"""LeNet-5 (MindSpore's model zoo) trained on Fashion-MNIST with
nn.Momentum (learning rate 0.01, momentum 0.9), batch 64,
nn.CrossEntropyLoss.

  PYTHONPATH=build/python /usr/bin/python3 examples/python/train_lenet.py
  ... --mode graph --epochs 1 --batches 100 --check

Options as train_mlp.py. Needs Fashion-MNIST in
/usr/share/datasets/fashion-mnist (Debian's dataset-fashion-mnist package),
or --dataset-dir.
"""

from msmlir import nn
import msmlir as ms

from _training import arguments, train
from lenet_fashion_mnist import LeNet5


def main():
    args = arguments(__doc__.splitlines()[0], 1e-2)
    model = LeNet5()
    optimizer = nn.Momentum(model.trainable_params(), args.lr, 0.9)
    train(args, model, optimizer, ms.dataset.lenet_input)


if __name__ == "__main__":
    main()
