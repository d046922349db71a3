"""The package top's small functions (MindSpore's ``mindspore.tensor``,
``get_py_obj_dtype``, ``manual_seed``/``initial_seed``/``seed``,
``lazy_inline``/``no_inline``, ``run_check``, ``check_checkpoint``)."""

import os

import numpy as np

from . import dtype as mstype
from ._context import get_seed, set_seed
from ._tensor import Tensor
from .train.serialization import load_checkpoint

# The package's version (msmlir.__version__ is this).
VERSION = "0.1.0"

__all__ = ["tensor", "get_py_obj_dtype", "manual_seed", "initial_seed",
           "seed", "lazy_inline", "no_inline", "run_check",
           "check_checkpoint"]


def tensor(input_data=None, dtype=None, shape=None, init=None):
    """A Tensor (MindSpore 2.3's lower-case constructor)."""
    return Tensor(input_data, dtype, shape, init)


def get_py_obj_dtype(obj):
    """The MindSpore dtype of a Tensor, a Python number or a Python
    type."""
    if isinstance(obj, Tensor):
        return obj.dtype
    if isinstance(obj, type):
        return mstype.pytype_to_dtype(obj)
    if isinstance(obj, (bool, int, float)):
        return mstype.pytype_to_dtype(type(obj))
    raise TypeError(f"For 'get_py_obj_dtype', the type {type(obj)} has no "
                    "MindSpore dtype.")


def manual_seed(seed):
    """Seeds the global generator (set_seed)."""
    set_seed(seed)


def initial_seed():
    """The seed set last (None before any)."""
    return get_seed()


def seed():
    """Seeds the global generator from the OS and returns the seed."""
    value = int.from_bytes(os.urandom(4), "little") >> 1
    set_seed(value)
    return value


def lazy_inline(fn=None, attrs=None, policy=None):
    """MindSpore compiles a decorated Cell's construct once and reuses it;
    msmlir inlines every Cell into its graph, so the decorator keeps the
    function as it is."""
    if fn is None:
        return lambda f: f
    return fn


def no_inline(fn=None):
    """MindSpore keeps a decorated function out of line; msmlir's graphs
    inline calls (the results are the same), so it returns fn."""
    if fn is None:
        return lambda f: f
    return fn


def run_check():
    """Checks that msmlir computes: adds two tensors and prints what
    MindSpore's run_check prints."""
    print(f"MindSpore version: {VERSION}")
    x = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    if (x + x).asnumpy().tolist() != [2.0, 4.0, 6.0]:
        print("The result of multiplication calculation is not correct.")
        return
    print("The result of multiplication calculation is correct, MindSpore "
          "has been installed on platform [CPU] successfully!")


def check_checkpoint(ckpt_file_name, enc_key=None, enc_mode="AES-GCM"):
    """True when the file loads as a checkpoint."""
    try:
        load_checkpoint(ckpt_file_name)
    except (ValueError, OSError, RuntimeError):
        return False
    return True
