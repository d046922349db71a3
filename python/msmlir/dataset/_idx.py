"""Datasets as numpy arrays: IDX files (the MNIST / Fashion-MNIST format)
and Fashion-MNIST as Debian's dataset-fashion-mnist package installs it.

    images, labels = ms.dataset.load_fashion_mnist("test")
    x = ms.Tensor(ms.dataset.lenet_input(images[:64]))   # [64, 1, 32, 32]

These are the numpy-level helpers msmlir had before the MindSpore-style
API (MnistDataset, ...) in this package; they stay for the examples.

Errors follow load_checkpoint: a missing file or directory raises
ValueError; a file that is not a valid IDX file (bad magic, unknown dtype
code, truncated header or data, trailing bytes, a corrupt gzip stream)
raises ms.MSError. Every message names the file and the problem.
"""

import os

import numpy as np

from .._msmlir import data as _data
from .._runtime import MSError

__all__ = ["read_idx", "load_fashion_mnist", "lenet_input",
           "FASHION_MNIST_DIR"]

# Where Debian's dataset-fashion-mnist package puts the files.
FASHION_MNIST_DIR = "/usr/share/datasets/fashion-mnist"


def read_idx(path):
    """The contents of an IDX file as a numpy array in native byte order.

    The file may be gzip-compressed (recognized by its magic bytes 1f 8b,
    whatever its name). Supported element types: 0x08 uint8, 0x09 int8,
    0x0B int16, 0x0C int32, 0x0D float32, 0x0E float64. The file is read by
    the runtime's IDX reader (lib/Runtime/Idx.cpp), the one ms-run uses.
    """
    path = os.fspath(path)
    if not os.path.exists(path):
        raise ValueError(f"read_idx: {path}: no such file")
    if os.path.isdir(path):
        raise ValueError(f"read_idx: {path}: is a directory, not a file")
    return _data.read_idx(path)


_FASHION_FILES = {
    "train": ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"),
    "test": ("t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz"),
}


def _fashion_split(dataset_dir, usage):
    image_file, label_file = (os.path.join(dataset_dir, name)
                              for name in _FASHION_FILES[usage])
    images = read_idx(image_file)
    labels = read_idx(label_file)
    if images.dtype != np.uint8 or images.ndim != 3:
        raise MSError(f"{image_file}: expected uint8 images [N, H, W], got "
                      f"{images.dtype} {list(images.shape)}")
    if labels.dtype != np.uint8 or labels.ndim != 1:
        raise MSError(f"{label_file}: expected uint8 labels [N], got "
                      f"{labels.dtype} {list(labels.shape)}")
    if len(images) != len(labels):
        raise MSError(f"{dataset_dir}: {len(images)} {usage} images but "
                      f"{len(labels)} labels")
    return images, labels


def load_fashion_mnist(usage="test", dataset_dir=FASHION_MNIST_DIR,
                       num_samples=None):
    """Fashion-MNIST as (images uint8 [N, 28, 28], labels int32 [N]).

    usage: 'test' (10000 images, the default), 'train' (60000) or 'all'
    (train then test, as MindSpore's FashionMnistDataset). num_samples: the
    first that many (None: all). dataset_dir holds the four
    *-idx?-ubyte.gz files; the default is where Debian's
    dataset-fashion-mnist package installs them.
    """
    if usage not in ("train", "test", "all"):
        raise ValueError("load_fashion_mnist: usage must be 'train', 'test' "
                         f"or 'all', got {usage!r}")
    if num_samples is not None and (
            not isinstance(num_samples, (int, np.integer)) or
            isinstance(num_samples, bool) or num_samples <= 0):
        raise ValueError("load_fashion_mnist: num_samples must be a "
                         f"positive int or None, got {num_samples!r}")
    dataset_dir = os.fspath(dataset_dir)
    if not os.path.isdir(dataset_dir):
        raise ValueError(f"load_fashion_mnist: {dataset_dir}: no such "
                         "directory (install Debian's dataset-fashion-mnist "
                         f"package, which puts the files in "
                         f"{FASHION_MNIST_DIR}, or pass dataset_dir)")
    splits = ["train", "test"] if usage == "all" else [usage]
    parts = [_fashion_split(dataset_dir, u) for u in splits]
    images = np.concatenate([p[0] for p in parts]) if len(parts) > 1 else \
        parts[0][0]
    labels = np.concatenate([p[1] for p in parts]) if len(parts) > 1 else \
        parts[0][1]
    if num_samples is not None:
        images, labels = images[:num_samples], labels[:num_samples]
    return np.ascontiguousarray(images), labels.astype(np.int32)


def lenet_input(images):
    """LeNet-5's input from 28x28 uint8 images [N, 28, 28]: float32(pixel)
    / 255, zero-padded by 2 on every side to 32x32, as float32
    [N, 1, 32, 32] (the preprocessing examples/lenet/train_torch.py trained
    with)."""
    images = np.asarray(images)
    if images.ndim != 3:
        raise ValueError(f"lenet_input: expected images [N, H, W], got shape "
                         f"{list(images.shape)}")
    x = images.astype(np.float32) / np.float32(255)
    x = np.pad(x, ((0, 0), (2, 2), (2, 2)))
    return np.ascontiguousarray(x[:, None, :, :])
