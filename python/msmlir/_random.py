"""The dropout RNG state: a seed and a counter (MindSpore's global seed).

Training-mode ``ms.dropout`` reads ``rng_state = [seed, offset]`` and draws
element i's mask from Philox4x32-10(key = seed, counter = (i, offset)), so a
mask is a pure function of (seed, offset, element index).

How the offset advances: ``set_seed(s)`` sets seed = s and offset = 0. Every
training-mode dropout that runs takes the current offset and advances it by
one, in the order the dropouts run. In PyNative that happens as each op
runs; a compiled graph has one ``rng_state`` argument per dropout in it,
read in program order on each call, so a graph call consumes the same
offsets the same code would in PyNative and draws the same masks. Without
``set_seed`` the seed is drawn once per process from the OS.
"""

import os

import numpy as np

from ._runtime import STATE, HostTensor
from ._tensor import Parameter, Tensor, _onew

_seed = None
_offset = 0


def reset(seed):
    """Called by set_seed: masks restart from offset 0 under `seed`."""
    global _seed, _offset
    _seed = seed
    _offset = 0


def next_state(seed=None):
    """The [seed, offset] HostTensor of the next dropout; advances the
    offset. `seed` (ops.dropout's) overrides the global seed."""
    global _seed, _offset
    if _seed is None:
        _seed = int.from_bytes(os.urandom(8), "little") >> 1
    key = _seed if seed is None else int(seed)
    state = HostTensor.from_buffer(np.array([key, _offset], dtype=np.int64))
    _offset += 1
    return state


class DropoutRngState(Parameter):
    """The rng_state argument of one dropout in a compiled graph. Reading
    ``_t`` outside capture draws the next state (graph calls read their
    parameters' ``_t`` once per call, in order); while capturing it is only
    a typed placeholder. Not a Cell's parameter: never saved or trained."""

    __slots__ = ("_template", "_current", "_seed")

    def __init__(self, index, seed=None):
        self._template = HostTensor.from_buffer(np.zeros(2, np.int64))
        self._current = self._template
        self._seed = seed
        self._name = self._base_name = f"dropout_rng_state.{index}"
        self.requires_grad = False
        self.layerwise_parallel = False

    @property
    def _t(self):
        if STATE.graph is not None:
            return self._template
        # Kept in a slot: the native fast path borrows the object.
        self._current = next_state(self._seed)
        return self._current


def state_tensor(seed=None):
    """The rng_state operand of a training-mode dropout: a fresh state in
    PyNative, a new graph argument while capturing."""
    graph = STATE.graph
    if graph is None:
        r = _onew(Tensor)
        r._t = next_state(seed)
        return r
    return DropoutRngState(len(graph.params), seed)

