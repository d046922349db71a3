"""Executor.call, PyNative's per-op entry: a METH_FASTCALL function bound
to the executor (python/src/MSMlirModule.cpp, runFast) that bypasses
pybind11's dispatcher, so it checks its own arguments and translates its
own errors. Each check here is one the dispatcher used to make."""

import numpy as np
import pytest

import msmlir as ms
from msmlir import _msmlir as native


def host(a):
    return native.HostTensor.from_buffer(np.ascontiguousarray(a))


def eager_executor():
    return native.Executor(native.CompileOptions(jit_level="O0",
                                                 num_threads=1))


@pytest.fixture(scope="module")
def ex():
    return eager_executor()


def test_unary_binary_and_ternary_calls_match_numpy(ex):
    a = np.array([[1.5, -2.0, 3.25]], np.float32)
    b = np.array([0.5, 4.0, -1.0], np.float32)
    np.testing.assert_array_equal(
        np.array(ex.call(native.OpCall("ms.neg"), host(a))), -a)
    np.testing.assert_array_equal(
        np.array(ex.call(native.OpCall("ms.add"), host(a), host(b))), a + b)
    cond = np.array([[True, False, True]])
    np.testing.assert_array_equal(
        np.array(ex.call(native.OpCall("ms.select"), host(cond), host(a),
                         host(np.broadcast_to(b, a.shape)))),
        np.where(cond, a, b))


def test_the_bound_function_keeps_its_executor_alive():
    call = eager_executor().call
    a = np.arange(4, dtype=np.float32)
    np.testing.assert_array_equal(
        np.array(call(native.OpCall("ms.abs"), host(-a))), a)


def test_an_op_failure_is_msmlir_MSError(ex):
    a, b = host(np.ones((2, 3), np.float32)), host(np.ones((4,), np.float32))
    with pytest.raises(ms.MSError, match="broadcast|shape"):
        ex.call(native.OpCall("ms.add"), a, b)
    with pytest.raises(ms.MSError, match="not an ms op"):
        ex.call(native.OpCall("arith.addf"), a, a)


X = host(np.ones(3, np.float32))
NEG = native.OpCall("ms.neg")


@pytest.mark.parametrize("args, message", [
    ((), "takes an OpCall and 1 to 8"),
    ((NEG,), "takes an OpCall and 1 to 8"),
    ((NEG,) + (X,) * 9, "takes an OpCall and 1 to 8"),
    ((X, X), "first argument must be an OpCall"),
    ((NEG, 1.0), "operand 0 is not a HostTensor"),
    ((NEG, X, None), "operand 1 is not a HostTensor"),
])
def test_bad_arguments_are_type_errors(ex, args, message):
    with pytest.raises(TypeError, match=message):
        ex.call(*args)
