"""pow, floor_divide, remainder and fmod beyond the OpInfo table: integer
division by zero and overflow (numpy's integer results, no trap), negative
integer exponents, the operators and their reflected forms, dtype
promotion, float64 through the native API, and the gradients' special
points (torch.autograd as the reference)."""

import numpy as np
import pytest
import torch

import msmlir as ms
from msmlir import Tensor, ops
from msmlir import _msmlir as native

from conftest import assert_bitwise

LEVELS = ["O0", "O1", "O2"]


def _int_cases(dtype):
    info = np.iinfo(dtype)
    a = np.array([7, -7, 7, -7, 0, 5, -5, info.min, info.min, info.max, 3],
                 dtype)
    b = np.array([2, 2, -2, -2, 0, 0, 0, -1, 1, -1, 3], dtype)
    return a, b


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_integer_division_by_zero_and_overflow_match_numpy(dtype):
    a, b = _int_cases(dtype)
    with np.errstate(all="ignore"):
        want = {"floor_divide": np.floor_divide(a, b),
                "remainder": np.remainder(a, b), "fmod": np.fmod(a, b)}
    for name, expected in want.items():
        got = getattr(ops, name)(Tensor(a), Tensor(b)).asnumpy()
        assert got.dtype == dtype
        np.testing.assert_array_equal(got, expected, err_msg=name)
        graph = ms.jit(getattr(ops, name))(Tensor(a), Tensor(b)).asnumpy()
        assert_bitwise(graph, got)


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_integer_pow_negative_exponent_and_wraparound(dtype):
    base = np.array([1, -1, -1, 2, -3, 0, 3, 7], dtype)
    exponent = np.array([-5, -3, -4, -1, -2, 3, 40, 1], dtype)
    got = ops.pow(Tensor(base), Tensor(exponent)).asnumpy()
    # trunc(1 / b^-e) for negative exponents; numpy's wrapping power else.
    wrapped = np.power(base[5:].astype(dtype), exponent[5:].astype(dtype))
    np.testing.assert_array_equal(got, [1, -1, 1, 0, 0, *wrapped])


def test_operators_and_reflected_operators():
    x = np.array([[1.5, -2.25], [3.0, -0.5]], np.float32)
    t = Tensor(x)
    np.testing.assert_allclose((t ** 2).asnumpy(), x ** 2, rtol=1e-6)
    np.testing.assert_allclose((2 ** t).asnumpy(), 2.0 ** x, rtol=1e-6)
    np.testing.assert_array_equal((t // 0.5).asnumpy(), x // 0.5)
    np.testing.assert_array_equal((7 // t).asnumpy(), 7 // x)
    np.testing.assert_array_equal((t % 2).asnumpy(), x % 2)
    np.testing.assert_array_equal((5 % t).asnumpy(), 5 % x)
    np.testing.assert_allclose(t.pow(3).asnumpy(), x ** 3, rtol=1e-6)
    np.testing.assert_array_equal(t.remainder(-1.25).asnumpy(),
                                  np.remainder(x, np.float32(-1.25)))
    np.testing.assert_array_equal(t.floor_divide(t).asnumpy(),
                                  np.ones_like(x))
    np.testing.assert_array_equal(t.fmod(2).asnumpy(), np.fmod(x, 2))
    i = Tensor(np.array([-7, 8], np.int32))
    assert (i // 2).dtype == ms.int32
    np.testing.assert_array_equal((i // 2).asnumpy(), [-4, 4])
    np.testing.assert_array_equal((i % -3).asnumpy(), [-1, -1])
    np.testing.assert_array_equal((i ** 2).asnumpy(), [49, 64])
    # A Python float against an integer tensor computes in float32.
    half = i ** 0.5
    assert half.dtype == ms.float32
    np.testing.assert_allclose(half.asnumpy(), [np.nan, np.sqrt(8)],
                               rtol=1e-6)
    assert ops.Pow()(t, 2).shape == (2, 2)
    np.testing.assert_array_equal(ops.FloorMod()(i, Tensor(np.int32(3))).asnumpy(),
                                  [2, 2])
    np.testing.assert_array_equal(ops.FloorDiv()(i, Tensor(np.int32(3))).asnumpy(),
                                  [-3, 2])


def test_operators_in_graph_mode_match_pynative():
    x = Tensor(np.linspace(-3, 3, 12, dtype=np.float32).reshape(3, 4))
    y = Tensor(np.array([0.75, -1.5, 2.0, 1.25], np.float32))

    def f(a, b):
        return (a // b) + (a % b) * abs(a) ** b

    eager = f(x, y).asnumpy()
    for level in LEVELS:
        got = ms.jit(f, jit_config=ms.JitConfig(jit_level=level))(x, y)
        assert_bitwise(got.asnumpy(), eager)


# float64 tensors are not yet made by the Python front end; the kernels are
# run straight through the native executor and graph compiler.
F64_OPS = {"pow": np.power, "floor_div": np.floor_divide,
           "floor_mod": np.remainder, "fmod": np.fmod}


@pytest.mark.parametrize("name", sorted(F64_OPS))
def test_float64_kernels(name):
    rng = np.random.default_rng(3)
    a = rng.uniform(0.1, 9, (3, 4))
    b = rng.uniform(0.5, 3, (4,)) * np.array([1, -1, 1, -1])
    if name == "pow":
        a = np.abs(a)
    with np.errstate(all="ignore"):
        want = F64_OPS[name](a, b)
    call = native.OpCall("ms." + name, "")
    inputs = [native.HostTensor.from_buffer(np.ascontiguousarray(v))
              for v in (a, b)]
    executor = native.Executor(native.CompileOptions(jit_level="O0"))
    eager = np.array(executor.call(call, *inputs))
    assert eager.dtype == np.float64
    if name == "pow":
        np.testing.assert_allclose(eager, want, rtol=1e-14)
    else:
        np.testing.assert_array_equal(eager, want)
    source = ("func.func @construct(%a: tensor<3x4xf64>, %b: tensor<4xf64>)"
              " -> tensor<3x4xf64> {\n"
              f"  %r = ms.{name} %a, %b : tensor<3x4xf64>, tensor<4xf64>\n"
              "  return %r : tensor<3x4xf64>\n}\n")
    for level in LEVELS:
        graph = native.Compiler().compile(
            source,
            native.CompileOptions(jit_level=level, exc_mode="sink"),
            "construct", "<f64 test>")
        got = np.array(graph.run(inputs)[0])
        assert_bitwise(got, eager)


def test_pow_gradient_at_zero_base_and_zero_exponent_matches_torch():
    x = np.array([0.0, 0.0, 2.0, 0.0, 1.5], np.float32)
    y = np.array([0.0, 2.0, 0.0, 0.5, 3.0], np.float32)

    def loss(a, b):
        return (ops.pow(a, b) * Tensor(np.arange(1, 6, dtype=np.float32))).sum()

    gx, gy = ms.grad(loss, grad_position=(0, 1))(Tensor(x), Tensor(y))
    tx = torch.tensor(x, dtype=torch.float64, requires_grad=True)
    ty = torch.tensor(y, dtype=torch.float64, requires_grad=True)
    (torch.pow(tx, ty) * torch.arange(1, 6, dtype=torch.float64)).sum().backward()
    # 0^0.5 has an infinite slope in both: assert_allclose compares infs.
    np.testing.assert_allclose(gx.asnumpy(), tx.grad.numpy(), rtol=1e-5)
    np.testing.assert_allclose(gy.asnumpy(), ty.grad.numpy(), rtol=1e-5)


def test_floor_divide_has_zero_gradient_and_remainder_passes_through():
    x = Tensor(np.array([3.5, -2.0, 7.25], np.float32))
    y = Tensor(np.array([2.0, 1.5, -3.0], np.float32))

    def f(a, b):
        return (ops.floor_divide(a, b) + ops.remainder(a, b)).sum()

    gx, gy = ms.grad(f, grad_position=(0, 1))(x, y)
    np.testing.assert_array_equal(gx.asnumpy(), [1.0, 1.0, 1.0])
    q = np.floor_divide(x.asnumpy(), y.asnumpy())
    np.testing.assert_array_equal(gy.asnumpy(), -q)
