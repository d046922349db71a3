"""``mindspore.common.initializer``: ``initializer(init, shape, dtype)``
and the Initializer classes (their code is in _initializers.py).

MindSpore returns a lazy Tensor that ``init_data()`` fills; msmlir fills it
at once (``init_data()`` returns the Tensor), so the values are drawn when
``initializer`` is called, from the generator ``set_seed`` seeds."""

import numpy as np

from .. import dtype as mstype
from .._initializers import (Initializer, Zero, One, Constant, Normal,
                             TruncatedNormal, Uniform, XavierUniform,
                             XavierNormal, HeUniform, HeNormal, Orthogonal,
                             Identity, Dirac, Sparse, VarianceScaling,
                             check_shape)
from .._tensor import Tensor

__all__ = ["initializer", "Initializer", "Zero", "One", "Constant",
           "Normal", "TruncatedNormal", "Uniform", "XavierUniform",
           "XavierNormal", "HeUniform", "HeNormal", "Orthogonal", "Identity",
           "Dirac", "Sparse", "VarianceScaling"]


def initializer(init, shape=None, dtype=mstype.float32):
    """A Tensor of `shape` and `dtype` with values from `init`: a Tensor
    (returned as it is, after a shape check), a number (Constant), a name
    ('zeros', 'ones', 'normal', 'he_uniform', ..., case-insensitive) or an
    Initializer."""
    if isinstance(init, np.ndarray):
        init = Tensor(init, dtype)
    if isinstance(init, Tensor):
        if shape is not None and tuple(init.shape) != check_shape(shape):
            raise ValueError("For 'initializer', the shape of the 'init' "
                             "argument should be same as the argument "
                             f"'shape', but got the 'init' shape "
                             f"{list(init.shape)} and the 'shape' "
                             f"{list(check_shape(shape))}.")
        return init
    if shape is None:
        raise ValueError("For 'initializer', the argument 'shape' can not be "
                         "None when 'init' is not a Tensor.")
    return Tensor(shape=check_shape(shape), dtype=dtype, init=init)
