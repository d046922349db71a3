"""The Tensor methods that are ops: conversions, operators beyond the
arithmetic ones, comparisons and the methods mirroring msmlir.ops. They
live with the ops they call; msmlir.ops installs them onto Tensor once, at
import (_tensor.install_methods), so _tensor.py never imports this layer.
"""

import numpy as np

from .. import dtype as mstype
from .._tensor import Tensor
from . import functional as F
from . import indexing


class TensorMethods:
    """Methods for Tensor (and so Parameter), copied onto it by
    install_methods: every attribute defined here becomes Tensor's."""

    __getitem__ = indexing.tensor_getitem
    __setitem__ = indexing.setitem
    # Defining __eq__ here sets __hash__ to None: keep Tensor's own.
    __hash__ = Tensor.__hash__

    def masked_fill(self, mask, value):
        return F.masked_fill(self, mask, value)

    def astype(self, dtype, copy=True):
        return F.cast(self, dtype)

    to = astype

    def float(self):
        return self.astype(mstype.float32)

    def half(self):
        return self.astype(mstype.float16)

    def double(self):
        return self.astype(mstype.float64)

    def bfloat16(self):
        return self.astype(mstype.bfloat16)

    def short(self):
        return self.astype(mstype.int16)

    def byte(self):
        return self.astype(mstype.uint8)

    def __matmul__(self, other):
        return F.matmul(self, other)

    def __rmatmul__(self, other):
        return F.matmul(other, self)

    # ** // %: ms.pow, ms.floor_div, ms.floor_mod (F.pow, ...).
    def __pow__(self, other):
        return F.pow(self, other)

    def __rpow__(self, other):
        return F.pow(other, self)

    def __floordiv__(self, other):
        return F.floor_divide(self, other)

    def __rfloordiv__(self, other):
        return F.floor_divide(other, self)

    def __mod__(self, other):
        return F.remainder(self, other)

    def __rmod__(self, other):
        return F.remainder(other, self)

    # Comparisons and logic: ms ops, so graphs capture them (results bool).
    def __gt__(self, other):
        return F.greater(self, other)

    def __ge__(self, other):
        return F.greater_equal(self, other)

    def __lt__(self, other):
        return F.less(self, other)

    def __le__(self, other):
        return F.less_equal(self, other)

    def __eq__(self, other):
        if not isinstance(other, (Tensor, int, float, np.ndarray,
                                  np.generic)):
            return NotImplemented
        return F.equal(self, other)

    def __ne__(self, other):
        if not isinstance(other, (Tensor, int, float, np.ndarray,
                                  np.generic)):
            return NotImplemented
        return F.not_equal(self, other)

    def __and__(self, other):
        return F.logical_and(self, other)

    __rand__ = __and__

    def __or__(self, other):
        return F.logical_or(self, other)

    __ror__ = __or__

    def __invert__(self):
        return F.logical_not(self)

    def reshape(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = shape[0]
        return F.reshape(self, shape)

    def view(self, *shape):
        return self.reshape(*shape)

    def flatten(self, order="C", *, start_dim=0, end_dim=-1):
        # Tensor.flatten flattens everything by default (unlike F.flatten).
        return F.flatten(self, order, start_dim=start_dim, end_dim=end_dim)

    def transpose(self, *axes):
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = axes[0]
        if not axes:
            axes = tuple(reversed(range(self.ndim)))
        return F.transpose(self, tuple(axes))

    @property
    def T(self):
        return self.transpose()

    def expand_dims(self, axis):
        return F.expand_dims(self, axis)

    def squeeze(self, axis=None):
        return F.squeeze(self, axis)

    def sum(self, axis=None, dtype=None, keepdims=False, initial=None):
        return F.sum(self, axis, keepdims, dtype=dtype)

    def argmax(self, axis=None, keepdims=False):
        return F.argmax(self, axis, keepdims)

    def argmin(self, axis=None, keepdims=False):
        return F.argmin(self, axis, keepdims)

    def logical_and(self, other):
        return F.logical_and(self, other)

    def logical_or(self, other):
        return F.logical_or(self, other)

    def logical_not(self):
        return F.logical_not(self)

    def bool(self):
        return self.astype(mstype.bool_)

    def int(self):
        return self.astype(mstype.int32)

    def long(self):
        return self.astype(mstype.int64)

    def mean(self, axis=None, keep_dims=False):
        return F.reduce_mean(self, () if axis is None else axis, keep_dims)

    def max(self, axis=None, keepdims=False, *, initial=None, where=True,
            return_indices=False):
        if return_indices:
            return F.max(self, axis, keepdims)
        return F.reduce_max(self, () if axis is None else axis, keepdims)

    def min(self, axis=None, keepdims=False, *, initial=None, where=True,
            return_indices=False):
        """The minimum (values only: reduce_max of the negation for floats;
        ops.min's values otherwise), or (values, indices) with
        return_indices."""
        if return_indices or axis is None or not self.dtype.is_float:
            values, indices = F.min(self, axis, keepdims)
            return (values, indices) if return_indices else values
        return -F.reduce_max(-self, axis, keepdims)

    def amax(self, axis=None, keepdims=False):
        return self.max(axis, keepdims)

    def exp(self):
        return F.exp(self)

    def log(self):
        return F.log(self)

    def sqrt(self):
        return F.sqrt(self)

    def relu(self):
        return F.relu(self)

    def sigmoid(self):
        return F.sigmoid(self)

    def tanh(self):
        return F.tanh(self)

    def softmax(self, axis=-1):
        return F.softmax(self, axis)

    def matmul(self, other):
        return F.matmul(self, other)

    def pow(self, exponent):
        return F.pow(self, exponent)

    def floor_divide(self, other):
        return F.floor_divide(self, other)

    def remainder(self, other):
        return F.remainder(self, other)

    def fmod(self, other):
        return F.fmod(self, other)

    def cumsum(self, axis=None, dtype=None):
        """Tensor.cumsum: axis None sums over the flattened tensor."""
        x = self
        if axis is None:
            x, axis = x.reshape((-1,)), 0
        return F.cumsum(x, axis, dtype)

    def sort(self, axis=-1, descending=False):
        return F.sort(self, axis, descending)

    def argsort(self, axis=-1, descending=False):
        return F.argsort(self, axis, descending)

    def topk(self, k, dim=None, largest=True, sorted=True):
        return F.topk(self, k, dim, largest, sorted)

    def gather_elements(self, dim, index):
        return F.gather_elements(self, dim, index)

    # Comparisons, arithmetic, indexing and shape, as MindSpore's Tensor
    # methods (each is its ops.* function with self first).
    def equal(self, other):
        return F.equal(self, other)

    def not_equal(self, other):
        return F.not_equal(self, other)

    def greater(self, other):
        return F.greater(self, other)

    def greater_equal(self, other):
        return F.greater_equal(self, other)

    def less(self, other):
        return F.less(self, other)

    def less_equal(self, other):
        return F.less_equal(self, other)

    def square(self):
        return F.square(self)

    def rsqrt(self):
        return F.rsqrt(self)

    def clamp(self, min=None, max=None):
        return F.clamp(self, min, max)

    def clip(self, min=None, max=None):
        return F.clamp(self, min, max)

    def gather(self, input_indices, axis, batch_dims=0):
        return F.gather(self, input_indices, axis, batch_dims)

    def index_select(self, axis, index):
        return F.index_select(self, axis, index)

    def split(self, split_size_or_sections, axis=0):
        return F.split(self, split_size_or_sections, axis)

    def chunk(self, chunks, axis=0):
        return F.chunk(self, chunks, axis)

    def unsqueeze(self, dim):
        return F.unsqueeze(self, dim)

    def permute(self, *axis):
        """x.permute(0, 2, 1) or x.permute((0, 2, 1))."""
        if len(axis) == 1 and isinstance(axis[0], (tuple, list)):
            axis = axis[0]
        return F.permute(self, tuple(axis))

    def tile(self, reps):
        return F.tile(self, reps)

    def broadcast_to(self, shape):
        return F.broadcast_to(self, shape)

    def std(self, axis=None, ddof=0, keepdims=False):
        return F.std(self, axis, ddof, keepdims)

    def var(self, axis=None, ddof=0, keepdims=False):
        return F.var(self, axis, ddof, keepdims)
