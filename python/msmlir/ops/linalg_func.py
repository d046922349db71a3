"""Contractions: matmul with numpy semantics and dense (part of
``mindspore.ops``)."""

from .._tensor import binary, nary, op
from ._args import _tensor
from .array_func import reshape

__all__ = [
    "matmul", "dense"
]


_DENSE = op("ms.dense")


def _matmul_op(transpose_a, transpose_b):
    flags = [name for name, on in (("transpose_a", transpose_a),
                                   ("transpose_b", transpose_b)) if on]
    return op("ms.matmul", "{" + ", ".join(flags) + "}" if flags else "",
              "ops.matmul")


def matmul(input, other):
    """Matrix product with numpy semantics (1-D operands are promoted and
    the added dimension removed; batch dims broadcast)."""
    input = _tensor(input, "ops.matmul")
    other = _tensor(other, "ops.matmul")
    a_nd, b_nd = input.ndim, other.ndim
    if a_nd == 0 or b_nd == 0:
        raise ValueError("ops.matmul: operands must have rank 1 or more")
    if a_nd >= 2 and b_nd >= 2:
        return binary(_MATMUL_PLAIN, input, other)
    a = reshape(input, (1,) + input.shape) if a_nd == 1 else input
    b = reshape(other, other.shape + (1,)) if b_nd == 1 else other
    out = binary(_MATMUL_PLAIN, a, b)
    shape = out.shape
    if a_nd == 1:
        shape = shape[:-2] + shape[-1:]
    if b_nd == 1:
        shape = shape[:-1]
    return reshape(out, shape)


_MATMUL_PLAIN = _matmul_op(False, False)


def dense(input, weight, bias=None):
    """input @ weight^T + bias, weight [out, in] (MindSpore's ops.dense)."""
    if bias is None:
        return binary(_DENSE, input, weight)
    return nary(_DENSE, (input, weight, bias))
