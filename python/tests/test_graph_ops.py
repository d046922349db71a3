"""Every op captured into a graph, at every jit_level, against PyNative:
bit for bit for elementwise ops, shapes and contractions, 1e-6 relative
for reductions and softmax (DESIGN §7)."""

import numpy as np
import pytest

import msmlir as ms
from msmlir import Tensor, ops

from conftest import assert_bitwise, assert_close, rand

LEVELS = ["O0", "O1", "O2"]

EXACT = {
    "add": lambda a, b, c: a + b,
    "sub_bcast": lambda a, b, c: a - ops.reshape(c, (6, 1)),
    "mul_scalar": lambda a, b, c: a * 1.5,
    "div": lambda a, b, c: a / (ops.abs(b) + 1.0),
    "maximum": lambda a, b, c: ops.maximum(a, b),
    "minimum": lambda a, b, c: ops.minimum(a, b),
    "relu": lambda a, b, c: ops.relu(a),
    "sigmoid": lambda a, b, c: ops.sigmoid(a),
    "tanh": lambda a, b, c: ops.tanh(a),
    "gelu": lambda a, b, c: ops.gelu(a, "tanh"),
    "gelu_exact": lambda a, b, c: ops.gelu(a),
    "exp": lambda a, b, c: ops.exp(a),
    "log": lambda a, b, c: ops.log(ops.abs(a) + 0.1),
    "sqrt": lambda a, b, c: ops.sqrt(ops.abs(a)),
    "neg": lambda a, b, c: ops.neg(a),
    "abs": lambda a, b, c: ops.abs(a),
    "matmul": lambda a, b, c: ops.matmul(a, ops.transpose(b, (1, 0))),
    "matmul_tb": lambda a, b, c: ops.MatMul(transpose_b=True)(a, b),
    "dense": lambda a, b, c: ops.dense(a, b, c),
    "reshape": lambda a, b, c: ops.reshape(a, (2, -1)),
    "transpose": lambda a, b, c: ops.transpose(a, (1, 0)),
    "flatten": lambda a, b, c: ops.flatten(ops.reshape(a, (2, 3, -1))),
    "concat0": lambda a, b, c: ops.concat([a, b], 0),
    "concat1": lambda a, b, c: ops.concat([a, b, a], 1),
}

APPROX = {
    "softmax": lambda a, b, c: ops.softmax(a),
    "softmax0": lambda a, b, c: ops.softmax(a, 0),
    "log_softmax": lambda a, b, c: ops.log_softmax(a),
    "log_softmax0": lambda a, b, c: ops.log_softmax(a, 0),
    "reduce_sum_all": lambda a, b, c: ops.reduce_sum(a),
    "reduce_sum0": lambda a, b, c: ops.reduce_sum(a, 0, True),
    "reduce_mean1": lambda a, b, c: ops.reduce_mean(a, 1),
    "reduce_max0": lambda a, b, c: ops.reduce_max(a, 0),
    "mul_then_softmax0": lambda a, b, c: ops.softmax(a * b, 0),
}


def _inputs():
    return (Tensor(rand(6, 8, seed=1)), Tensor(rand(6, 8, seed=2)),
            Tensor(rand(6, seed=3)))


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("name", sorted(EXACT))
def test_graph_op_is_bit_identical_to_pynative(name, level):
    fn = EXACT[name]
    a, b, c = _inputs()
    eager = fn(a, b, c).asnumpy()
    graph = ms.jit(fn, jit_config=ms.JitConfig(jit_level=level))(a, b, c)
    assert_bitwise(graph.asnumpy(), eager)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("name", sorted(APPROX))
def test_graph_reduction_matches_pynative(name, level):
    fn = APPROX[name]
    a, b, c = _inputs()
    eager = fn(a, b, c).asnumpy()
    graph = ms.jit(fn, jit_config=ms.JitConfig(jit_level=level))(a, b, c)
    assert graph.shape == eager.shape
    assert_close(graph.asnumpy(), eager, 1e-6)
