"""nn.Upsample (MindSpore's names and defaults): ops.interpolate as a
Cell."""

from .. import ops
from .cell import Cell

__all__ = ["Upsample"]


class Upsample(Cell):
    """Upsample(size=None, scale_factor=None, mode='nearest',
    align_corners=None, recompute_scale_factor=None) on NCHW input, modes
    'nearest' and 'bilinear' (see ops.interpolate)."""

    def __init__(self, size=None, scale_factor=None, mode="nearest",
                 align_corners=None, recompute_scale_factor=None):
        super().__init__()
        self.size = size
        self.scale_factor = scale_factor
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def construct(self, x):
        return ops.interpolate(x, self.size, self.scale_factor, self.mode,
                               self.align_corners,
                               self.recompute_scale_factor)
