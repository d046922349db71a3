"""General transforms (``mindspore.dataset.transforms``): TypeCast and
OneHot run in C++; Compose chains transforms (C++ ones and Python
callables)."""


import numpy as np

from ._ops import CppTransform, check_number, check_positive_int

__all__ = ["TypeCast", "OneHot", "Compose"]


def numpy_dtype_name(data_type):
    """numpy's name for an msmlir dtype, a numpy dtype or its name."""
    np_dtype = getattr(data_type, "np", data_type)
    try:
        return np.dtype(np_dtype).name
    except TypeError:
        raise TypeError(f"TypeCast: {data_type!r} is not a data type") \
            from None


class TypeCast(CppTransform):
    """Converts to ``data_type`` (msmlir.int32, numpy.float32, 'uint8', ...)
    as numpy's astype does."""

    def __init__(self, data_type):
        name = numpy_dtype_name(data_type)
        self.data_type = data_type
        super().__init__(dtype=name)


class OneHot(CppTransform):
    """Integer labels (a scalar or [N]) to one-hot rows of ``num_classes``.
    The result keeps the label type; with ``smoothing_rate`` > 0 it is
    float32, ``1 - rate + rate / num_classes`` for the class and
    ``rate / num_classes`` elsewhere."""

    def __init__(self, num_classes, smoothing_rate=0.0):
        num_classes = check_positive_int("OneHot", "num_classes",
                                         num_classes)
        rate = check_number("OneHot", "smoothing_rate", smoothing_rate)
        if not 0 <= rate <= 1:
            raise ValueError(f"OneHot: smoothing_rate must be in [0, 1], got "
                             f"{rate}")
        super().__init__(num_classes=num_classes, smoothing_rate=rate)


class Compose:
    """Applies ``transforms`` in order. In a map, its built-in transforms
    run in C++ like a list of them would."""

    def __init__(self, transforms):
        if not isinstance(transforms, (list, tuple)) or not transforms:
            raise ValueError("Compose: transforms must be a non-empty list")
        for t in transforms:
            if not callable(t):
                raise TypeError(f"Compose: {t!r} is not a transform or a "
                                "callable")
        self.transforms = list(transforms)

    def __call__(self, *data):
        for t in self.transforms:
            data = t(*data)
            if not isinstance(data, tuple):
                data = (data,)
        return data[0] if len(data) == 1 else data
