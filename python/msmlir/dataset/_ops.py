"""The base of the built-in transforms: a Python object holding the C++ op
(include/ms/Data/Transforms.h) that a map runs without Python."""

import numbers
import random

import numpy as np

from .._msmlir import data as _data
from . import config


def check_number(op, name, value):
    if not isinstance(value, numbers.Real) or isinstance(value, bool):
        raise TypeError(f"{op}: {name} must be a number, got "
                        f"{type(value).__name__}")
    return float(value)


def check_positive_int(op, name, value):
    if not isinstance(value, numbers.Integral) or isinstance(value, bool):
        raise TypeError(f"{op}: {name} must be an int, got "
                        f"{type(value).__name__}")
    if value <= 0:
        raise ValueError(f"{op}: {name} must be positive, got {value}")
    return int(value)


def check_sequence(op, name, value, lengths):
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"{op}: {name} must be a list or tuple, got "
                        f"{type(value).__name__}")
    if len(value) not in lengths:
        raise ValueError(f"{op}: {name} must have "
                         f"{' or '.join(map(str, lengths))} values, got "
                         f"{len(value)}")
    return list(value)


class CppTransform:
    """A transform that runs in C++. Calling it applies it to one numpy
    array (or anything numpy.asarray takes) and returns a numpy array."""

    def __init__(self, **args):
        self._args = args
        self._op = _data.make_op(type(self).__name__, args)

    def __call__(self, data):
        seed = random.Random(config._pipeline_seed()).getrandbits(63)
        return np.array(_data.apply_op(self._op, data, seed))

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in self._args.items())
        return f"{type(self).__name__}({args})"
