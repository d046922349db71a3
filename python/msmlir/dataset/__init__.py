"""Datasets with MindSpore's API (``mindspore.dataset``).

    from msmlir.dataset import MnistDataset, vision, transforms
    dataset = MnistDataset("/path/to/mnist", usage="train")
    dataset = dataset.map([vision.Rescale(1.0 / 255.0, 0),
                           vision.Normalize(mean=(0.1307,), std=(0.3081,)),
                           vision.HWC2CHW()], "image")
    dataset = dataset.map(transforms.TypeCast(msmlir.int32), "label")
    for image, label in dataset.batch(64):
        ...

Reading (the IDX reader ms-run uses), the built-in transforms, batching,
shuffling and prefetching run in C++ (include/ms/Data); see docs/dataset.md.
The numpy helpers read_idx, load_fashion_mnist and lenet_input remain.
"""

from . import config, transforms, vision
from ._datasets import (Dataset, FashionMnistDataset, GeneratorDataset,
                        MnistDataset, NumpySlicesDataset)
from ._datasets import zip_datasets as zip  # noqa: A001 (MindSpore's name)
from ._idx import FASHION_MNIST_DIR, lenet_input, load_fashion_mnist, read_idx

__all__ = ["Dataset", "MnistDataset", "FashionMnistDataset",
           "GeneratorDataset", "NumpySlicesDataset", "vision", "transforms",
           "config", "read_idx", "load_fashion_mnist", "lenet_input",
           "FASHION_MNIST_DIR", "zip"]
