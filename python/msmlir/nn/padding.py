"""Padding Cells of ``mindspore.nn``: ConstantPad1d/2d/3d, ZeroPad2d and
Pad (paddings per dimension, first dimension first), over ops.pad."""

from .. import ops
from .cell import Cell

__all__ = ["ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ZeroPad2d",
           "Pad"]


def _pairs(padding, dims, name):
    """(left, right, top, bottom, ...) for the last `dims` dims, from an
    int or a tuple of 2 * dims ints (last dim first, as torch)."""
    if isinstance(padding, int):
        return (padding,) * (2 * dims)
    padding = tuple(padding)
    if len(padding) != 2 * dims:
        raise ValueError(f"For '{name}', the length of 'padding' must be "
                         f"{2 * dims}, but got {len(padding)}.")
    return padding


class _ConstantPad(Cell):
    _dims = 1

    def __init__(self, padding, value):
        super().__init__()
        self.padding = _pairs(padding, self._dims, type(self).__name__)
        self.value = value

    def construct(self, x):
        return ops.pad(x, self.padding, "constant", self.value)


class ConstantPad1d(_ConstantPad):
    _dims = 1


class ConstantPad2d(_ConstantPad):
    _dims = 2


class ConstantPad3d(_ConstantPad):
    _dims = 3


class ZeroPad2d(ConstantPad2d):
    def __init__(self, padding):
        super().__init__(padding, 0.0)


class Pad(Cell):
    """nn.Pad(paddings, mode='CONSTANT'): paddings is ((before, after),
    ...) per dimension, first dimension first; only 'CONSTANT' (zeros)."""

    def __init__(self, paddings, mode="CONSTANT"):
        super().__init__()
        if mode != "CONSTANT":
            raise ValueError("nn.Pad: only mode='CONSTANT' is supported by "
                             f"msmlir, got {mode!r}")
        flat = []
        for before, after in reversed(tuple(paddings)):
            flat += [before, after]
        self.paddings = tuple(paddings)
        self._flat = tuple(flat)

    def construct(self, x):
        return ops.pad(x, self._flat, "constant", 0.0)
