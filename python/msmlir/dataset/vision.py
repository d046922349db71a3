"""Image transforms (``mindspore.dataset.vision``), run in C++.

Images are numpy-style HWC arrays, [H, W] or [H, W, C], as MindSpore's
vision ops take them.
"""

import enum
import numbers

from ._ops import (CppTransform, check_number, check_positive_int,
                   check_sequence)

__all__ = ["Inter", "Border", "Rescale", "Normalize", "HWC2CHW", "Resize",
           "RandomCrop", "RandomHorizontalFlip"]


class Inter(enum.IntEnum):
    """Interpolation modes (those msmlir implements)."""
    NEAREST = 0
    LINEAR = 1
    BILINEAR = 1


class Border(str, enum.Enum):
    """Padding modes (msmlir implements CONSTANT)."""
    CONSTANT = "constant"
    EDGE = "edge"
    REFLECT = "reflect"
    SYMMETRIC = "symmetric"


class Rescale(CppTransform):
    """``output = image * rescale + shift``, as float32."""

    def __init__(self, rescale, shift):
        super().__init__(rescale=check_number("Rescale", "rescale", rescale),
                         shift=check_number("Rescale", "shift", shift))


class Normalize(CppTransform):
    """``output[..., c] = (image[..., c] - mean[c]) / std[c]``, as float32.
    One mean/std value serves every channel."""

    def __init__(self, mean, std, is_hwc=True):
        mean = check_sequence("Normalize", "mean", mean, range(1, 5))
        std = check_sequence("Normalize", "std", std, range(1, 5))
        mean = [check_number("Normalize", "mean", m) for m in mean]
        std = [check_number("Normalize", "std", s) for s in std]
        if len(mean) != len(std):
            raise ValueError(f"Normalize: mean has {len(mean)} values and "
                             f"std {len(std)}; they must match")
        if any(s <= 0 for s in std):
            raise ValueError(f"Normalize: std values must be positive, got "
                             f"{std}")
        if not isinstance(is_hwc, bool):
            raise TypeError("Normalize: is_hwc must be a bool")
        super().__init__(mean=mean, std=std, is_hwc=is_hwc)


class HWC2CHW(CppTransform):
    """[H, W, C] to [C, H, W]; an [H, W] image stays as it is."""

    def __init__(self):
        super().__init__()


def _size_pair(op, size):
    if isinstance(size, numbers.Integral) and not isinstance(size, bool):
        return [check_positive_int(op, "size", size)]
    size = check_sequence(op, "size", size, (1, 2))
    return [check_positive_int(op, "size", s) for s in size]


class Resize(CppTransform):
    """Resizes to size (h, w); an int size makes the shorter side that long,
    keeping the aspect ratio. Inter.LINEAR (default) or Inter.NEAREST, with
    OpenCV's pixel mapping. uint8 or float32 images; the type is kept."""

    def __init__(self, size, interpolation=Inter.LINEAR):
        if interpolation not in (Inter.LINEAR, Inter.NEAREST):
            raise ValueError(f"Resize: interpolation {interpolation!r} is not "
                             "supported (Inter.LINEAR or Inter.NEAREST)")
        super().__init__(size=_size_pair("Resize", size),
                         nearest=interpolation == Inter.NEAREST)


class RandomCrop(CppTransform):
    """Pads by ``padding`` (an int, (left/right, top/bottom) or (left, top,
    right, bottom)), then crops ``size`` at a random place."""

    def __init__(self, size, padding=None, pad_if_needed=False, fill_value=0,
                 padding_mode=Border.CONSTANT):
        size = _size_pair("RandomCrop", size)
        if len(size) == 1:
            size = size * 2
        if padding is None:
            padding = [0, 0, 0, 0]
        elif isinstance(padding, numbers.Integral):
            padding = [int(padding)] * 4
        else:
            padding = check_sequence("RandomCrop", "padding", padding, (2, 4))
            if len(padding) == 2:
                padding = padding * 2
        if any(not isinstance(p, numbers.Integral) or p < 0
               for p in padding):
            raise ValueError(f"RandomCrop: padding must be non-negative ints, "
                             f"got {padding}")
        if isinstance(fill_value, numbers.Integral):
            fill_value = [int(fill_value)]
        else:
            fill_value = check_sequence("RandomCrop", "fill_value",
                                        fill_value, (3,))
        if any(not 0 <= int(f) <= 255 for f in fill_value):
            raise ValueError(f"RandomCrop: fill_value must be in [0, 255], "
                             f"got {fill_value}")
        if padding_mode != Border.CONSTANT:
            raise ValueError(f"RandomCrop: padding_mode {padding_mode!r} is "
                             "not supported (Border.CONSTANT)")
        super().__init__(size=size, padding=[int(p) for p in padding],
                         pad_if_needed=bool(pad_if_needed),
                         fill_value=[float(f) for f in fill_value])


class RandomHorizontalFlip(CppTransform):
    """Flips the image left to right with probability ``prob``."""

    def __init__(self, prob=0.5):
        prob = check_number("RandomHorizontalFlip", "prob", prob)
        if not 0 <= prob <= 1:
            raise ValueError(f"RandomHorizontalFlip: prob must be in [0, 1], "
                             f"got {prob}")
        super().__init__(prob=prob)
