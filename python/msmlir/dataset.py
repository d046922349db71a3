"""Datasets as numpy arrays: IDX files (the MNIST / Fashion-MNIST format)
and Fashion-MNIST as Debian's dataset-fashion-mnist package installs it.

    images, labels = ms.dataset.load_fashion_mnist("test")
    x = ms.Tensor(ms.dataset.lenet_input(images[:64]))   # [64, 1, 32, 32]

Errors follow load_checkpoint: a missing file or directory raises
ValueError; a file that is not a valid IDX file (bad magic, unknown dtype
code, truncated header or data, trailing bytes, a corrupt gzip stream)
raises ms.MSError. Every message names the file and the problem.
"""

import math
import os
import zlib

import numpy as np

from ._runtime import MSError

__all__ = ["read_idx", "load_fashion_mnist", "lenet_input",
           "FASHION_MNIST_DIR"]

# Where Debian's dataset-fashion-mnist package puts the files.
FASHION_MNIST_DIR = "/usr/share/datasets/fashion-mnist"

# IDX dtype codes (the third byte of the magic number); data is big-endian.
_IDX_DTYPES = {
    0x08: np.dtype(">u1"),
    0x09: np.dtype(">i1"),
    0x0B: np.dtype(">i2"),
    0x0C: np.dtype(">i4"),
    0x0D: np.dtype(">f4"),
    0x0E: np.dtype(">f8"),
}

_GZIP_MAGIC = b"\x1f\x8b"


def _gunzip(path, raw):
    """The data of a gzip file (one or more members); the messages are the
    runtime's IDX reader's (lib/Runtime/Idx.cpp)."""
    parts = []
    while True:
        stream = zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            parts.append(stream.decompress(raw))
        except zlib.error as e:
            raise MSError(f"{path}: corrupt gzip stream ({e})") from None
        if not stream.eof:
            raise MSError(f"{path}: truncated gzip stream (the file ends "
                          "before the compressed data does)")
        raw = stream.unused_data
        if not raw:
            return b"".join(parts)
        if raw[:2] != _GZIP_MAGIC:
            raise MSError(f"{path}: unexpected bytes after the gzip stream")


def _read_bytes(path, what):
    if not os.path.exists(path):
        raise ValueError(f"{what}: {path}: no such file")
    if os.path.isdir(path):
        raise ValueError(f"{what}: {path}: is a directory, not a file")
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:2] == _GZIP_MAGIC:
        return _gunzip(path, raw), "the decompressed file"
    return raw, "the file"


def read_idx(path):
    """The contents of an IDX file as a numpy array in native byte order.

    The file may be gzip-compressed (recognized by its magic bytes 1f 8b,
    whatever its name). Supported element types: 0x08 uint8, 0x09 int8,
    0x0B int16, 0x0C int32, 0x0D float32, 0x0E float64.
    """
    path = os.fspath(path)
    raw, kind = _read_bytes(path, "read_idx")
    if len(raw) < 4:
        raise MSError(f"{path}: too short for an IDX header ({len(raw)} "
                      "bytes)")
    if raw[0] != 0 or raw[1] != 0:
        raise MSError(f"{path}: not an IDX file (it does not start with two "
                      "zero bytes)")
    code, rank = raw[2], raw[3]
    dtype = _IDX_DTYPES.get(code)
    if dtype is None:
        raise MSError(f"{path}: unknown IDX element type 0x{code:02X} "
                      "(expected 0x08, 0x09, 0x0B, 0x0C, 0x0D or 0x0E)")
    if rank == 0:
        raise MSError(f"{path}: IDX rank is 0; expected at least one "
                      "dimension")
    header = 4 + 4 * rank
    if len(raw) < header:
        raise MSError(f"{path}: truncated IDX header: rank {rank} needs "
                      f"{header} bytes, {kind} has {len(raw)}")
    dims = tuple(int(d) for d in np.frombuffer(raw, ">u4", rank, 4))
    expected = math.prod(dims) * dtype.itemsize
    have = len(raw) - header
    if have < expected:
        raise MSError(f"{path}: truncated: the header says {expected} bytes "
                      f"of data, {kind} has {have}")
    if have > expected:
        raise MSError(f"{path}: {have - expected} unexpected bytes after the "
                      f"data (the header says {expected})")
    data = np.frombuffer(raw, dtype, offset=header).reshape(dims)
    return data.astype(dtype.newbyteorder("="))


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
