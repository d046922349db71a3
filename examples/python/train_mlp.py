#!/usr/bin/env python3
"""MindSpore's Quick Start training on Fashion-MNIST: the seed MLP, SGD with
learning rate 1e-2, batch 64, nn.CrossEntropyLoss, 3 epochs.

  PYTHONPATH=build/python /usr/bin/python3 examples/python/train_mlp.py
  ... --mode graph            # GRAPH_MODE (the train step is one graph)
  ... --mode jit              # @ms.jit on the train step
  ... --mode cell             # nn.TrainOneStepCell in GRAPH_MODE
  ... --epochs 1 --batches 100 --check   # a slice, as ctest runs it

Needs Fashion-MNIST in /usr/share/datasets/fashion-mnist (Debian's
dataset-fashion-mnist package), or --dataset-dir.
"""

import numpy as np

from msmlir import nn

from _training import arguments, train


class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.dense_relu_sequential = nn.SequentialCell(
            nn.Dense(28 * 28, 512), nn.ReLU(), nn.Dense(512, 512), nn.ReLU(),
            nn.Dense(512, 10))

    def construct(self, x):
        x = self.flatten(x)
        logits = self.dense_relu_sequential(x)
        return logits


def preprocess(images):
    """The Quick Start's transforms: Rescale(1/255), Normalize(0.1307,
    0.3081), HWC2CHW: float32 [N, 1, 28, 28]."""
    x = images.astype(np.float32) / np.float32(255)
    x = (x - np.float32(0.1307)) / np.float32(0.3081)
    return np.ascontiguousarray(x[:, None, :, :])


def main():
    args = arguments(__doc__.splitlines()[0], 1e-2)
    model = Network()
    optimizer = nn.SGD(model.trainable_params(), args.lr)
    train(args, model, optimizer, preprocess)


if __name__ == "__main__":
    main()
