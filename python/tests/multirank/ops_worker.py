#!/usr/bin/env python3
"""One rank of the collective-op checks (launched by test_multirank.py):
ops.AllReduce (every ReduceOp), AllGather and Broadcast in PyNative, and
AllReduce inside an @ms.jit graph (the ms.all_reduce op and its call into
the runtime), against numpy on every rank's inputs, which each rank
regenerates from the ranks' seeds. Exits 1 with a message on a mismatch.
"""

import sys

import numpy as np

import msmlir as ms
from msmlir import ops
from msmlir.communication import init, get_rank, get_group_size


def rank_input(r, dtype):
    # Positive values keep PROD's magnitude in range.
    rng = np.random.default_rng(100 + r)
    return rng.uniform(0.5, 1.5, (3, 5)).astype(dtype)


def fail(message):
    print(f"rank {get_rank()}: {message}", file=sys.stderr)
    sys.exit(1)


def main():
    init()
    rank, size = get_rank(), get_group_size()
    reductions = {"sum": np.sum, "max": np.max, "min": np.min,
                  "prod": np.prod}
    for dtype in (np.float32, np.float64):
        inputs = np.stack([rank_input(r, dtype) for r in range(size)])
        x = ms.Tensor(inputs[rank])
        for name, reduce in reductions.items():
            expected = reduce(inputs, axis=0)
            eager = ops.AllReduce(name)(x).asnumpy()

            @ms.jit
            def graph(t):
                # On the argument itself: the runtime reduces a copy, never
                # the caller's buffer.
                return ops.AllReduce(name)(t)

            compiled = graph(x).asnumpy()
            if not np.array_equal(x.asnumpy(), inputs[rank]):
                fail(f"the compiled AllReduce({name}) wrote its input")
            if not np.allclose(eager, expected, rtol=1e-6, atol=0):
                fail(f"AllReduce({name}) {dtype.__name__}: {eager} != "
                     f"{expected}")
            if not np.array_equal(eager, compiled):
                fail(f"AllReduce({name}) {dtype.__name__}: PyNative and "
                     "the compiled graph differ")
            if '"ms.all_reduce"' not in graph.graphs()[0]:
                fail("the jitted AllReduce is not an ms.all_reduce op")
        gathered = ops.AllGather()(x).asnumpy()
        if not np.array_equal(gathered, inputs.reshape(size * 3, 5)):
            fail(f"AllGather {dtype.__name__}: {gathered}")
        root = size - 1
        (received,) = ops.Broadcast(root)((x,))
        if not np.array_equal(received.asnumpy(), inputs[root]):
            fail(f"Broadcast from {root} {dtype.__name__}")
    print(f"rank {rank}/{size}: collective ops OK")


if __name__ == "__main__":
    main()
