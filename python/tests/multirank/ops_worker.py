#!/usr/bin/env python3
"""One rank of the collective-op checks (launched by test_multirank.py):
ops.AllReduce (every ReduceOp), AllGather and Broadcast in PyNative, and
AllReduce inside an @ms.jit graph (the ms.all_reduce op and its call into
the runtime, on an argument and on buckets reduced in place), and the
gradient ms-autodiff builds for ms.all_reduce (every reduce_op, with ties
across ranks), against numpy on every rank's inputs, which each rank
regenerates from the ranks' seeds; and ranks that disagree on a call's
collective, dtype, shape or argument getting one error everywhere. Exits
1 with a message on a mismatch.
"""

import sys

import numpy as np

import msmlir as ms
from msmlir import _msmlir as native
from msmlir import ops
from msmlir.communication import init, get_rank, get_group_size


def rank_input(r, dtype):
    # Positive values keep PROD's magnitude in range.
    rng = np.random.default_rng(100 + r)
    return rng.uniform(0.5, 1.5, (3, 5)).astype(dtype)


def fail(message):
    print(f"rank {get_rank()}: {message}", file=sys.stderr)
    sys.exit(1)


def check_buckets(x, inputs):
    """A concatenation only its all-reduce reads is reduced in place (no
    copy; DistributedGradReducer's buckets): two equal ones must still be
    two buffers, each reduced once, and the operands must stay intact."""
    expected = np.concatenate([inputs.sum(axis=0)] * 2, axis=0)

    @ms.jit
    def buckets(t):
        first = ops.AllReduce()(ops.concat((t, t), 0))
        second = ops.AllReduce()(ops.concat((t, t), 0))
        return first, second

    first, second = (r.asnumpy() for r in buckets(x))
    for name, got in (("first", first), ("second", second)):
        if not np.allclose(got, expected, rtol=1e-6, atol=0):
            fail(f"bucket all-reduce ({name} of two equal buckets, "
                 f"{inputs.dtype}): {got} != {expected}")
    if not np.array_equal(x.asnumpy(), inputs[get_rank()]):
        fail("the bucket all-reduce wrote its operand")


def tied_input(r):
    """rank_input with column 0 equal on every rank and the largest, and
    column 1 equal and the smallest: ties for max and min."""
    x = rank_input(r, np.float64)
    x[:, 0], x[:, 1] = 2.0, 0.25
    return x


def check_gradients(size):
    """dx of y = all_reduce(x): every rank's x reaches every rank's y, so
    dx starts from the sum over ranks of dy. sum passes it on, max/min send
    it to every rank whose x equals y (MindSpore's AllReduce bprop, ties
    included), prod scales it as sum_r(dy_r * y) / x."""
    inputs = np.stack([tied_input(r) for r in range(size)])
    sens = np.stack([np.random.default_rng(200 + r).standard_normal((3, 5))
                     for r in range(size)])
    rank = get_rank()
    total = sens.sum(axis=0)
    for name, reduce in (("sum", np.sum), ("max", np.max), ("min", np.min),
                         ("prod", np.prod)):
        y = reduce(inputs, axis=0)
        if name == "sum":
            expected = total
        elif name == "prod":
            expected = (sens * y).sum(axis=0) / inputs[rank]
        else:
            expected = np.where(inputs[rank] == y, total, 0.0)
        source = ("func.func @construct(%x: tensor<3x5xf64>) -> "
                  "tensor<3x5xf64> {\n"
                  f'  %r = ms.all_reduce %x reduce_op "{name}" : '
                  "tensor<3x5xf64>\n  return %r : tensor<3x5xf64>\n}\n")
        graph = native.Compiler().compile(
            native.autodiff(source, "construct", [0]),
            native.CompileOptions(jit_level="O0", exc_mode="sink"),
            "construct_grad", "<all_reduce gradient>")
        value, dx = (np.array(o) for o in graph.run(
            [native.HostTensor.from_buffer(np.ascontiguousarray(a))
             for a in (inputs[rank], sens[rank])]))
        if not np.allclose(value, y, rtol=1e-12, atol=0):
            fail(f"all_reduce({name}) in the gradient function: {value}")
        if not np.allclose(dx, expected, rtol=1e-12, atol=0):
            fail(f"gradient of all_reduce({name}): {dx} != {expected}")


def check_disagreements(rank):
    """Issue 55: ranks that ask a collective for different things get one
    error, on every rank, before any data moves; the next agreeing call
    works."""
    other = rank > 0

    def calls():
        int_or_float = np.int32 if other else np.float32
        yield (lambda: ops.AllReduce()(ms.Tensor(np.ones((2, 3),
                                                         int_or_float))),
               "all_reduce: the ranks disagree: rank 1 asks for all_reduce of "
               "i32[2, 3] with op sum, rank 0 for all_reduce of f32[2, 3] with "
               "op sum")
        yield (lambda: ops.AllReduce("max" if other else "sum")(
                   ms.Tensor(np.ones((2, 3), np.float32))),
               "rank 1 asks for all_reduce of f32[2, 3] with op max, rank 0 "
               "for all_reduce of f32[2, 3] with op sum")
        yield (lambda: ops.Broadcast(0)((ms.Tensor(
                   np.ones(6 if other else 2, np.float32)),)),
               "broadcast: the ranks disagree: rank 1 asks for broadcast of "
               "f32[6] with root 0, rank 0 for broadcast of f32[2] with root "
               "0")
        yield (lambda: ops.AllGather()(ms.Tensor(
                   np.ones((4 if other else 2, 3), np.float32))),
               "all_gather: the ranks disagree: rank 1 asks for all_gather of "
               "f32[4, 3], rank 0 for all_gather of f32[2, 3]")
        yield (lambda: (ops.AllGather() if other else ops.AllReduce())(
                   ms.Tensor(np.ones(2, np.float32))),
               "the ranks disagree: rank 1 asks for all_gather of f32[2], "
               "rank 0 for all_reduce of f32[2] with op sum")

    for call, message in calls():
        try:
            call()
        except ms.MSError as e:
            if message not in str(e):
                fail(f"disagreement: expected {message!r}, got {e}")
        else:
            fail(f"disagreement not detected: {message}")
        agreed = ops.AllReduce()(ms.Tensor(np.ones(3, np.float32))).asnumpy()
        if not np.array_equal(agreed, np.full(3, get_group_size(),
                                                np.float32)):
            fail(f"after a disagreement, AllReduce gives {agreed}")


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
        check_buckets(x, inputs)
        gathered = ops.AllGather()(x).asnumpy()
        if not np.array_equal(gathered, inputs.reshape(size * 3, 5)):
            fail(f"AllGather {dtype.__name__}: {gathered}")
        root = size - 1
        (received,) = ops.Broadcast(root)((x,))
        if not np.array_equal(received.asnumpy(), inputs[root]):
            fail(f"Broadcast from {root} {dtype.__name__}")
    check_gradients(size)
    check_disagreements(rank)
    print(f"rank {rank}/{size}: collective ops OK")


if __name__ == "__main__":
    main()
