"""Global dataset settings (``mindspore.dataset.config``).

The seed fixes every random choice of a pipeline: the shuffle of a source,
``shuffle(buffer_size)``, and random transforms. It is read when an
iterator starts. Without ``set_seed`` here, the global ``msmlir.set_seed``
seed is used; without either, each iterator draws a fresh random seed.
"""

import random

from .._runtime import STATE

__all__ = ["set_seed", "get_seed", "set_prefetch_size", "get_prefetch_size",
           "set_num_parallel_workers", "get_num_parallel_workers"]

# std::mt19937's default seed, which MindSpore reports when none is set.
_DEFAULT_SEED = 5489

_seed = None
_prefetch_size = 16
_num_parallel_workers = 8


def _check_int(name, value, low, high=2 ** 32 - 1):
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be in [{low}, {high}], got {value}")


def set_seed(seed):
    """Seeds the dataset pipeline's random choices (0 <= seed < 2**32)."""
    global _seed
    _check_int("seed", seed, 0)
    _seed = seed


def get_seed():
    """The seed set by set_seed (or msmlir.set_seed); 5489 if none is."""
    seed = _explicit_seed()
    return _DEFAULT_SEED if seed is None else seed


def _explicit_seed():
    if _seed is not None:
        return _seed
    return STATE.seed


def _pipeline_seed():
    """The seed an iterator starts from."""
    seed = _explicit_seed()
    return random.SystemRandom().getrandbits(63) if seed is None else seed


def set_prefetch_size(size):
    """Rows (batches) the background thread keeps ready. Default 16."""
    global _prefetch_size
    _check_int("size", size, 1, 2 ** 31 - 1)
    _prefetch_size = size


def get_prefetch_size():
    return _prefetch_size


def set_num_parallel_workers(num):
    """Accepted for compatibility: msmlir runs a pipeline on one worker
    thread."""
    global _num_parallel_workers
    _check_int("num", num, 1, 2 ** 31 - 1)
    _num_parallel_workers = num


def get_num_parallel_workers():
    return _num_parallel_workers
