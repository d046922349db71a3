"""Micro-batched gradients for set_deterministic(micro_batch_size=m).

A train step cuts its batch into micro-batches of m rows, computes the loss
and gradients of each, and adds them in a pairwise tree: micro-batches
(0,1), (2,3), ... first, then (0,2), (4,6), ..., the order the runtime's
deterministic all-reduce uses across ranks (runtime/Communication.h). A
rank that holds a power-of-two number of consecutive micro-batches then
computes a whole subtree of one process's tree, and the all-reduce adds
the subtrees as the process would: with a power-of-two rank count, the
bits agree. Scaling by a power of two (1/micro-batch count, 1/ranks) is
exact short of subnormals, so the means agree too.
"""

from .._tensor import Tensor

__all__ = ["split_into_micro_batches", "tree_sum"]


def _batched(x):
    return isinstance(x, Tensor) and len(x.shape) > 0


def split_into_micro_batches(inputs, size, where):
    """The inputs of each micro-batch: every Tensor with a batch dimension
    cut into `size`-row pieces along dim 0, anything else passed to every
    piece. Raises ValueError naming `where` when the batches disagree or
    `size` does not divide them."""
    rows = {x.shape[0] for x in inputs if _batched(x)}
    if not rows:
        raise ValueError(f"{where}: set_deterministic(micro_batch_size="
                         f"{size}) needs a Tensor input with a batch "
                         "dimension")
    if len(rows) > 1:
        raise ValueError(f"{where}: set_deterministic(micro_batch_size="
                         f"{size}) cuts every input along dim 0, but the "
                         f"inputs have {sorted(rows)} rows")
    batch = rows.pop()
    if batch == 0 or batch % size:
        raise ValueError(f"{where}: set_deterministic(micro_batch_size="
                         f"{size}) needs a batch that is a multiple of "
                         f"{size} rows; this one has {batch}")
    return [tuple(x[start:start + size] if _batched(x) else x
                  for x in inputs)
            for start in range(0, batch, size)]


def _add(a, b):
    if isinstance(a, tuple):
        return tuple(_add(x, y) for x, y in zip(a, b))
    return a + b


def tree_sum(values):
    """The pairwise-tree sum of `values` (Tensors, or equally nested tuples
    of them, added leaf by leaf)."""
    values = list(values)
    step = 1
    while step < len(values):
        for first in range(0, len(values) - step, 2 * step):
            values[first] = _add(values[first], values[first + step])
        step *= 2
    return values[0]
