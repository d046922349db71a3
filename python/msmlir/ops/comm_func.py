"""Collective ops (MindSpore's ops.AllReduce, ops.AllGather, ops.Broadcast
and ops.ReduceOp) over msmlir.communication's MPI group.

PyNative runs each collective at once through the runtime's communication
layer (runtime/Communication.h). Inside a compiled graph, AllReduce is the
``ms.all_reduce`` op, whose lowering calls the same layer; AllGather and
Broadcast are PyNative-only (a graph that uses them needs a tensor's value:
an error under STRICT, a PyNative fallback under LAX).

The collectives are not differentiable: use them on gradients (as
nn.DistributedGradReducer does), not inside a function being
differentiated.
"""

from .. import _msmlir as native
from .._graph import value_dependent
from .._runtime import STATE
from .._tensor import Tensor, op, symbolic, _onew
from ..communication.management import _check_group, _require_init

__all__ = ["ReduceOp", "AllReduce", "AllGather", "Broadcast"]

_comm = native.comm


class ReduceOp:
    """How AllReduce combines the ranks' values."""
    SUM = "sum"
    MAX = "max"
    MIN = "min"
    PROD = "prod"


_REDUCE_OPS = (ReduceOp.SUM, ReduceOp.MAX, ReduceOp.MIN, ReduceOp.PROD)


def _tensor_arg(x, what):
    if not isinstance(x, Tensor):
        raise TypeError(f"{what}: expected a Tensor, got {type(x).__name__}")
    return x


def _wrap(host):
    r = _onew(Tensor)
    r._t = host
    return r


def all_reduce_op(reduce_op):
    """The ms.all_reduce Op of one ReduceOp."""
    return op("ms.all_reduce", '{reduce_op = "' + reduce_op + '"}',
              "ops.AllReduce")


def all_reduce(x, reduce_op=ReduceOp.SUM):
    """x reduced elementwise over all ranks (a new Tensor on every rank)."""
    _tensor_arg(x, "ops.AllReduce")
    if STATE.graph is not None:
        return symbolic(all_reduce_op(reduce_op), (x,))
    _require_init("ops.AllReduce")
    return _wrap(_comm.all_reduce(x._t, reduce_op))


class _Collective:
    def __repr__(self):
        return f"Prim[{type(self).__name__}]"


class AllReduce(_Collective):
    """AllReduce(op=ReduceOp.SUM, group=GlobalComm.WORLD_COMM_GROUP)(x):
    every rank gets the elementwise reduction of all ranks' x."""

    def __init__(self, op=ReduceOp.SUM, group=None):
        if op not in _REDUCE_OPS:
            raise ValueError(f"ops.AllReduce: unknown op {op!r}; expected "
                             "ReduceOp.SUM, MAX, MIN or PROD")
        _check_group(group, "ops.AllReduce")
        self.op = op

    def __call__(self, x):
        return all_reduce(x, self.op)


def _pynative_only(what):
    value_dependent(f"calls {what}, which runs in PyNative mode only",
                    f"Call {what} outside the jitted function.")


class AllGather(_Collective):
    """AllGather(group=GlobalComm.WORLD_COMM_GROUP)(x): every rank's x
    concatenated along dim 0, in rank order."""

    def __init__(self, group=None):
        _check_group(group, "ops.AllGather")

    def __call__(self, x):
        _tensor_arg(x, "ops.AllGather")
        if STATE.graph is not None:
            _pynative_only("ops.AllGather")
        _require_init("ops.AllGather")
        return _wrap(_comm.all_gather(x._t))


class Broadcast(_Collective):
    """Broadcast(root_rank, group=GlobalComm.WORLD_COMM_GROUP)(x): rank
    root_rank's tensors on every rank. x is a tuple of Tensors (MindSpore's
    signature) and so is the result; a single Tensor gives a Tensor."""

    def __init__(self, root_rank, group=None):
        if not isinstance(root_rank, int) or isinstance(root_rank, bool) or \
                root_rank < 0:
            raise ValueError("ops.Broadcast: root_rank must be an int >= 0, "
                             f"got {root_rank!r}")
        _check_group(group, "ops.Broadcast")
        self.root_rank = root_rank

    def __call__(self, x):
        single = isinstance(x, Tensor)
        items = (x,) if single else tuple(x)
        for item in items:
            _tensor_arg(item, "ops.Broadcast")
        if STATE.graph is not None:
            _pynative_only("ops.Broadcast")
        _require_init("ops.Broadcast")
        out = tuple(_wrap(_comm.broadcast(t._t, self.root_rank))
                    for t in items)
        return out[0] if single else out


