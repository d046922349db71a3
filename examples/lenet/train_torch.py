#!/usr/bin/env python3
"""Trains MindSpore's LeNet-5 on Fashion-MNIST with PyTorch and writes the
reference data that ms is checked against (ms has no training).

Network (MindSpore model zoo's LeNet5, convs without bias as in nn.Conv2d's
default has_bias=False):
  conv 1->6 5x5 valid, relu, maxpool 2; conv 6->16 5x5 valid, relu,
  maxpool 2; flatten; dense 400->120, relu; dense 120->84, relu;
  dense 84->10.
Input: the 28x28 image as float32(pixel) / 255, zero-padded to 32x32
(2 pixels on every side), shape [N, 1, 32, 32].

Writes next to this script:
  lenet5.safetensors        weights under MindSpore's parameter names
  torch_reference.json      test-set accuracy and how it was obtained
  torch_logits_first100.npy logits for the first 100 test images

Run with Debian's interpreter: /usr/bin/python3 examples/lenet/train_torch.py
(about 80 s on one core here). Needs python3-torch and dataset-fashion-mnist;
the product and its tests need neither script nor PyTorch.
"""
import argparse
import gzip
import json
import os
import struct
import sys
import time

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
from safetensors_writer import write_safetensors  # noqa: E402

DATA = "/usr/share/datasets/fashion-mnist"


def read_idx(path):
    """An IDX file (gzipped or not) as a numpy array; written here rather
    than taken from msmlir so the reference does not share ms code."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        raw = f.read()
    zero, dtype_code, ndim = struct.unpack(">HBB", raw[:4])
    assert zero == 0 and dtype_code == 0x08, f"{path}: not a u8 IDX file"
    dims = struct.unpack(f">{ndim}I", raw[4:4 + 4 * ndim])
    return np.frombuffer(raw, np.uint8, offset=4 + 4 * ndim).reshape(dims)


def images(path):
    x = read_idx(path).astype(np.float32) / np.float32(255)
    return np.pad(x, ((0, 0), (2, 2), (2, 2)))[:, None, :, :]


class LeNet5(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(1, 6, 5, bias=False)
        self.conv2 = torch.nn.Conv2d(6, 16, 5, bias=False)
        self.fc1 = torch.nn.Linear(16 * 5 * 5, 120)
        self.fc2 = torch.nn.Linear(120, 84)
        self.fc3 = torch.nn.Linear(84, 10)

    def forward(self, x):
        # Spelled out so that TorchScript (bench/lenet_bench.py) accepts it.
        pool = torch.nn.functional.max_pool2d
        x = pool(torch.relu(self.conv1(x)), 2)
        x = pool(torch.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        x = torch.relu(self.fc1(x))
        x = torch.relu(self.fc2(x))
        return self.fc3(x)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    torch.manual_seed(0)
    torch.set_num_threads(args.threads)

    train_x = torch.from_numpy(images(f"{DATA}/train-images-idx3-ubyte.gz"))
    train_y = torch.from_numpy(
        read_idx(f"{DATA}/train-labels-idx1-ubyte.gz").astype(np.int64))
    test_x = torch.from_numpy(images(f"{DATA}/t10k-images-idx3-ubyte.gz"))
    test_y = read_idx(f"{DATA}/t10k-labels-idx1-ubyte.gz").astype(np.int64)

    net = LeNet5()
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
    schedule = torch.optim.lr_scheduler.StepLR(optimizer, 4, gamma=0.3)
    start = time.time()
    for epoch in range(args.epochs):
        net.train()
        order = torch.randperm(len(train_x))
        for i in range(0, len(order), 64):
            batch = order[i:i + 64]
            optimizer.zero_grad()
            loss = torch.nn.functional.cross_entropy(net(train_x[batch]),
                                                     train_y[batch])
            loss.backward()
            optimizer.step()
        schedule.step()
        net.eval()
        with torch.inference_mode():
            predicted = net(test_x).argmax(1).numpy()
        print(f"epoch {epoch + 1}: loss {loss.item():.4f}, test accuracy "
              f"{100 * np.mean(predicted == test_y):.2f}% "
              f"({time.time() - start:.0f} s)", flush=True)

    net.eval()
    with torch.inference_mode():
        logits = torch.cat([net(test_x[i:i + 100])
                            for i in range(0, len(test_x), 100)]).numpy()
    correct = int(np.sum(logits.argmax(1) == test_y))
    params = {name: value.detach().numpy()
              for name, value in net.state_dict().items()}
    write_safetensors(os.path.join(HERE, "lenet5.safetensors"), params)
    np.save(os.path.join(HERE, "torch_logits_first100.npy"), logits[:100])
    reference = {
        "accuracy_percent": 100.0 * correct / len(test_y),
        "correct": correct,
        "total": int(len(test_y)),
        "correct_first_1000": int(np.sum(logits[:1000].argmax(1) ==
                                         test_y[:1000])),
        "epochs": args.epochs,
        "torch": torch.__version__,
        "preprocessing": "float32(pixel) / 255, zero-padded 28x28 -> 32x32",
    }
    with open(os.path.join(HERE, "torch_reference.json"), "w") as f:
        json.dump(reference, f, indent=2)
        f.write("\n")
    print(json.dumps(reference, indent=2))


if __name__ == "__main__":
    main()
