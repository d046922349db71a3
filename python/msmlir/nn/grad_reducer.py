"""nn.DistributedGradReducer: all-reduces gradients across ranks (data
parallelism), as MindSpore's does; nn.TrainOneStepCell uses it under
ParallelMode.DATA_PARALLEL.

Gradients are bucketed: consecutive gradients of one dtype, last parameter
first, are flattened and concatenated into one buffer of at most the
comm_fusion size (set_auto_parallel_context), each starting on a 64-byte
cache line (zeros fill the gaps), and each bucket is one all-reduce. Few
large messages cost less than many small ones (each MPI call has its
latency; see docs/distributed.md), and in a compiled step a
bucket's all-reduce starts as soon as backward has computed its gradients
(ms-start-collectives-early) and is waited for where the optimizer first
reads it. The same ops run in PyNative and inside a compiled
train step (where the all-reduce is the ms.all_reduce op), so the two modes
reduce in the same buckets and agree bit for bit.

Before its first collective, the reducer checks that every rank has the
same parameters (names, dtypes, shapes): a mismatch would otherwise reduce
unrelated values or hang. The error names the first parameter that differs.
It also checks that the ranks called set_deterministic alike.
"""

import numpy as np

from .. import ops
from .. import _msmlir as native
from .._parallel_context import bucket_bytes, get_auto_parallel_context
from .._runtime import MSError, STATE
from ..ops.comm_func import all_reduce
from ..communication.management import (_check_group, _require_init,
                                        get_group_size, get_rank)
from .cell import Cell

__all__ = ["DistributedGradReducer"]

_comm = native.comm
_HT = native.HostTensor


def _signature(params):
    return [f"{p.name}|{p.dtype}|{list(p.shape)}" for p in params]


def _gather_signatures(lines):
    """Every rank's `lines` (at least one), in rank order (two all-gathers:
    the lengths, then the padded bytes)."""
    data = "\n".join(lines).encode()
    length = _HT.from_buffer(np.array([len(data)], dtype=np.int64))
    lengths = np.array(_comm.all_gather(length))
    width = max(1, int(lengths.max()))
    padded = np.zeros(width, dtype=np.uint8)
    padded[:len(data)] = np.frombuffer(data, dtype=np.uint8)
    gathered = np.array(_comm.all_gather(_HT.from_buffer(padded)))
    gathered = gathered.reshape(len(lengths), width)
    return [bytes(row[:n]).decode().split("\n")
            for row, n in zip(gathered, lengths)]


def _describe(line):
    name, dtype, shape = line.split("|")
    return name, f"{dtype}{shape}"


def _determinism_setting():
    """This rank's set_deterministic call, as the error would print it."""
    if not _comm.is_deterministic():
        return "off"
    size = STATE.micro_batch_size
    return "on" if size is None else f"on, micro_batch_size={size}"


def check_ranks_agree(params, what="DistributedGradReducer"):
    """Raises MSError when the ranks differ in their parameters (naming the
    first that differs) or in their set_deterministic calls: either would
    reduce unrelated values or hang. A collective, one pair of all-gathers:
    every rank must call it."""
    every = _gather_signatures([_determinism_setting()] + _signature(params))
    _check_parameters([lines[1:] for lines in every], what)
    _check_determinism([lines[0] for lines in every], what)


def _check_parameters(every, what):
    """`every`: each rank's parameter signature lines, in rank order."""
    reference = every[0]
    for rank, lines in enumerate(every):
        if lines == reference:
            continue
        for index in range(max(len(lines), len(reference))):
            ours = lines[index] if index < len(lines) else None
            theirs = reference[index] if index < len(reference) else None
            if ours == theirs:
                continue
            if ours is None or theirs is None:
                present, where, absent = ((theirs, 0, rank)
                                          if ours is None else
                                          (ours, rank, 0))
                name, _ = _describe(present)
                raise MSError(
                    f"{what}: rank {where} has {len(every[where])} "
                    f"parameters and rank {absent} "
                    f"{len(every[absent])}: parameter {name!r} (number "
                    f"{index}) exists on rank {where} only; every rank must "
                    "train the same network")
            name0, type0 = _describe(theirs)
            name1, type1 = _describe(ours)
            if name0 != name1:
                raise MSError(
                    f"{what}: parameter number {index} is {name0!r} "
                    f"({type0}) on rank 0 but {name1!r} ({type1}) on rank "
                    f"{rank}; every rank must train the same network")
            raise MSError(
                f"{what}: parameter {name0!r} is {type0} on rank 0 but "
                f"{type1} on rank {rank}; every rank must train the same "
                "network")


def _check_determinism(every, what):
    """`every`: each rank's set_deterministic setting, in rank order. A rank
    on the tree all-reduce would wait in an all-gather for ranks in MPI's
    all-reduce."""
    if all(setting == every[0] for setting in every):
        return
    ranks = "; ".join(f"rank {r}: {setting}"
                      for r, setting in enumerate(every))
    raise MSError(f"{what}: set_deterministic differs between ranks ({ranks});"
                  " call it the same way on every rank, before building the "
                  "network's cells")


def plan_buckets(params, limit):
    """Lists of parameter indices, last parameter first (the order backward
    computes their gradients, so the first bucket is ready first and its
    all-reduce can start while backward goes on): consecutive parameters
    of one dtype whose gradients together take at most `limit` bytes (a
    larger one is a bucket of its own)."""
    buckets, current, size, dtype = [], [], 0, None
    for i in reversed(range(len(params))):
        p = params[i]
        nbytes = p._t.nbytes
        if current and (p.dtype != dtype or size + nbytes > limit):
            buckets.append(current)
            current, size = [], 0
        current.append(i)
        size += nbytes
        dtype = p.dtype
    if current:
        buckets.append(current)
    return buckets


# Gradients start on cache lines of this many bytes in their bucket.
_LINE_BYTES = 64


def bucket_layout(params, bucket):
    """The pieces of `bucket`'s buffer in order, as (parameter index,
    elements) for a gradient and (None, elements) for the zeros that pad
    the buffer to the next cache line before one. Without them a gradient
    after the 10 of a last layer's bias would start 40 bytes into a line,
    and every 64-byte vector that backward stores into it, or the update
    loads from it, would span two lines: the 2-rank MLP step took 2.2-2.3
    ms so, 1.8-1.9 ms with them (docs/performance-history.md)."""
    pieces, offset = [], 0
    for i in bucket:
        width = _LINE_BYTES // params[i].itemsize
        pad = -offset % width
        if pad:
            pieces.append((None, pad))
        pieces.append((i, params[i].size))
        offset += pad + params[i].size
    return tuple(pieces)


class DistributedGradReducer(Cell):
    """DistributedGradReducer(parameters, mean=None, degree=None,
    fusion_type=1, group=GlobalComm.WORLD_COMM_GROUP): calling it on the
    gradients of `parameters` returns them summed over all ranks, divided by
    `degree` (the group size by default) when `mean` is True (None: the
    context's gradients_mean). Needs communication.init()."""

    def __init__(self, parameters, mean=None, degree=None, fusion_type=1,
                 group=None):
        super().__init__(auto_prefix=False)
        _check_group(group, "DistributedGradReducer")
        _require_init("DistributedGradReducer")
        if mean is None:
            mean = get_auto_parallel_context("gradients_mean")
        size = get_group_size()
        if degree is None:
            degree = size
        if not isinstance(degree, int) or isinstance(degree, bool) or \
                degree < 1:
            raise ValueError("DistributedGradReducer: degree must be an int "
                             f">= 1, got {degree!r}")
        params = list(parameters)
        check_ranks_agree(params)
        d = self.__dict__
        d["mean"] = bool(mean)
        d["degree"] = degree
        d["rank"] = get_rank()
        d["_shapes"] = tuple(tuple(p.shape) for p in params)
        d["_dtypes"] = tuple(p.dtype for p in params)
        d["_buckets"] = tuple(bucket_layout(params, b) for b in
                              plan_buckets(params, bucket_bytes()))

    def construct(self, grads):
        grads = tuple(grads)
        if len(grads) != len(self._shapes):
            raise ValueError(f"DistributedGradReducer: got {len(grads)} "
                             f"gradients for {len(self._shapes)} parameters")
        out = list(grads)
        scale = 1.0 / self.degree
        for bucket in self._buckets:
            # A bucket starts with a gradient: no pad at offset 0.
            dtype = self._dtypes[bucket[0][0]]
            flat = [ops.zeros((n,), dtype) if i is None else
                    ops.reshape(grads[i], (n,)) for i, n in bucket]
            buffer = flat[0] if len(flat) == 1 else ops.concat(flat, 0)
            reduced = all_reduce(buffer)
            pieces = ((reduced,) if len(bucket) == 1 else
                      ops.split(reduced, [n for _, n in bucket]))
            for (i, _), piece in zip(bucket, pieces):
                if i is None:
                    continue
                out[i] = ops.reshape(piece, self._shapes[i])
                # Scaled per gradient, not per bucket: in a compiled step
                # the scale then fuses into the optimizer's update instead
                # of being a pass over the whole bucket.
                if self.mean:
                    out[i] = out[i] * scale
        return tuple(out)
