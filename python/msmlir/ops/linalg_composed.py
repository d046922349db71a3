"""Matrix functions composed of the dialect's ops (part of
``mindspore.ops``): diagonals and bands as selects with constant masks,
tensor_dot as a transpose, reshape and matmul."""

import numpy as np

from .._tensor import Tensor
from .array_composed import diagonal, meshgrid, outer, ravel
from .array_func import concat, expand_dims, pad, reshape, stack, transpose, \
    where, zeros_like
from .linalg_func import matmul
from .math_func import mul

__all__ = ["tensor_dot", "matrix_band_part", "matrix_diag",
           "matrix_diag_part", "diag", "diagflat", "block_diag",
           "cartesian_prod", "ger"]


def tensor_dot(x1, x2, axes):
    """The sum of products over x1's axes[0] and x2's axes[1] (an int n:
    the last n of x1 and the first n of x2)."""
    if isinstance(axes, int):
        a1 = list(range(x1.ndim - axes, x1.ndim))
        a2 = list(range(axes))
    else:
        a1, a2 = ([a] if isinstance(a, int) else list(a) for a in axes)
    a1 = [a % x1.ndim for a in a1]
    a2 = [a % x2.ndim for a in a2]
    free1 = [i for i in range(x1.ndim) if i not in a1]
    free2 = [i for i in range(x2.ndim) if i not in a2]
    k = int(np.prod([x1.shape[a] for a in a1]))
    left = reshape(transpose(x1, tuple(free1 + a1)), (-1, k))
    right = reshape(transpose(x2, tuple(a2 + free2)), (k, -1))
    shape = tuple(x1.shape[i] for i in free1) + \
        tuple(x2.shape[i] for i in free2)
    return reshape(matmul(left, right), shape)


def matrix_band_part(x, lower, upper):
    """The band of the last two dims: `lower` diagonals below the main one
    and `upper` above (a negative count: all)."""
    rows, cols = x.shape[-2:]
    i = np.arange(rows)[:, None]
    j = np.arange(cols)[None, :]
    keep = np.ones((rows, cols), bool)
    if lower >= 0:
        keep &= i - j <= lower
    if upper >= 0:
        keep &= j - i <= upper
    return where(Tensor(keep), x, zeros_like(x))


def matrix_diag(x):
    """[..., n] -> [..., n, n] with x on the diagonal."""
    n = x.shape[-1]
    return mul(expand_dims(x, -1), Tensor(np.eye(n), x.dtype))


def matrix_diag_part(x):
    """The main diagonal of the last two dims."""
    return diagonal(x, 0, -2, -1)


def diag(input):
    """A 1-D tensor as the diagonal of a square matrix."""
    if input.ndim != 1:
        raise ValueError("For 'diag', msmlir supports 1-D input only, but "
                         f"got {input.ndim}-D.")
    return matrix_diag(input)


def diagflat(input, offset=0):
    """The flattened input on diagonal `offset` of a square matrix."""
    d = matrix_diag(ravel(input))
    if offset == 0:
        return d
    k = abs(offset)
    # Rows then columns of padding move the diagonal off the main one.
    pads = (k, 0, 0, k) if offset > 0 else (0, k, k, 0)
    return pad(d, pads)


def block_diag(*inputs):
    """The 2-D inputs (1-D: rows) as the blocks of a block-diagonal
    matrix."""
    mats = [reshape(m, (1, -1)) if m.ndim == 1 else m for m in inputs]
    total = sum(m.shape[1] for m in mats)
    rows, left = [], 0
    for m in mats:
        right = total - left - m.shape[1]
        rows.append(pad(m, (left, right, 0, 0)))
        left += m.shape[1]
    return concat(rows, 0)


def cartesian_prod(*inputs):
    """Every combination of the 1-D inputs' elements, one per row."""
    grids = meshgrid(*inputs, indexing="ij")
    return stack([ravel(g) for g in grids], 1)


def ger(input, vec2):
    return outer(input, vec2)
