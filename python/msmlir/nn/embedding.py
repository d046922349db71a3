"""nn.Embedding (MindSpore's names, defaults and parameter name)."""

import numbers


from .. import dtype as mstype
from .. import ops
from .._tensor import Parameter, Tensor
from .cell import Cell
from .layers import initializer

__all__ = ["Embedding"]


class Embedding(Cell):
    """A lookup table: construct(ids) is embedding_table[ids], of shape
    ids.shape + [embedding_size], through the ms.gather op. ids are int32
    or int64; an id outside [0, vocab_size) gives a row of zeros.
    embedding_table defaults to 'normal' (N(0, 0.01)); with padding_idx that
    row starts at zero. use_one_hot=True computes one_hot(ids) @ table
    instead in MindSpore; here both give the same values, so it is
    accepted and gathers too."""

    def __init__(self, vocab_size, embedding_size, use_one_hot=False,
                 embedding_table="normal", dtype=mstype.int32,
                 padding_idx=None):
        super().__init__()
        what = "nn.Embedding"
        for value, name in ((vocab_size, "vocab_size"),
                            (embedding_size, "embedding_size")):
            if not isinstance(value, numbers.Integral) or \
                    isinstance(value, bool) or value <= 0:
                raise ValueError(f"{what}: {name} must be a positive int, "
                                 f"got {value!r}")
        if dtype not in (mstype.int32, mstype.int64):
            raise TypeError(f"{what}: dtype must be int32 or int64, got "
                            f"{dtype}")
        if padding_idx is not None and not (
                isinstance(padding_idx, numbers.Integral) and
                0 <= padding_idx < vocab_size):
            raise ValueError(f"{what}: padding_idx must be None or in [0, "
                             f"{vocab_size}), got {padding_idx!r}")
        self.vocab_size = int(vocab_size)
        self.embedding_size = int(embedding_size)
        self.use_one_hot = bool(use_one_hot)
        self.dtype = dtype
        self.padding_idx = padding_idx
        table = initializer(embedding_table,
                            (self.vocab_size, self.embedding_size),
                            mstype.float32)
        if padding_idx is not None:
            data = table.asnumpy().copy()
            data[padding_idx] = 0
            table = Tensor(data)
        self.embedding_table = Parameter(table, name="embedding_table")

    def construct(self, ids):
        if ids.dtype not in (mstype.int32, mstype.int64):
            raise TypeError(f"Embedding expects int32 or int64 ids, got "
                            f"{ids.dtype}")
        return ops.gather(self.embedding_table, ids, 0)

    def extend_repr(self):
        return (f"vocab_size={self.vocab_size}, embedding_size="
                f"{self.embedding_size}, use_one_hot={self.use_one_hot}, "
                f"embedding_table={self.embedding_table!r}, dtype="
                f"{self.dtype}, padding_idx={self.padding_idx}")
