"""Every gradient rule of test_autodiff's CASES, on float64 (issue 15): the
one-op function is rewritten from f32 to f64, differentiated, compiled and
checked against central differences along a random direction, sharp enough
in float64 to hold to 1e-6 relative. Also: PyNative-style (kernel by kernel)
and the single compiled function give the same float64 bits, and integer
arguments get no cotangent. The seed MLP's and LeNet-5's gradients, in
float64, match torch.autograd's float64 ones to 1e-5 relative (the float32
check in test_autodiff.py has to allow for float32 rounding in long sums).
"""

import numpy as np
import pytest

from msmlir import _msmlir as native

from conftest import assert_bitwise
from conftest import assert_close
from test_autodiff import (CASES, NETWORKS, case_setup, example,
                           network_arrays, rand, run_grad, torch_grads)

FD_SKIP = {"stop_gradient"}  # its gradient is zero by definition


def to_f64(source):
    # Attributes (epsilon, p, pad values) are typed f32 by the ops
    # themselves; only tensor element types change.
    return source.replace("xf32>", "xf64>").replace("tensor<f32>",
                                                      "tensor<f64>")


def compiled_grad(source, wrt, exc_mode="sink"):
    text = native.autodiff(source, "construct", wrt)
    graph = native.Compiler().compile(
        text,
        native.CompileOptions(jit_level="O0", exc_mode=exc_mode),
        "construct_grad", "<autodiff f64>",
        executor=native.Executor(native.CompileOptions(jit_level="O0")))

    def run(arrays, sens):
        inputs = [native.HostTensor.from_buffer(
            np.require(a.astype(np.float64) if a.dtype.kind == "f" else a,
                       requirements="C"))
            for a in list(arrays) + [sens]]
        outs = [np.array(o) for o in graph.run(inputs)]
        assert all(o.dtype == np.float64 for o in outs)
        return outs
    return run


@pytest.mark.parametrize("name", sorted(set(CASES) - FD_SKIP))
def test_f64_gradient_matches_central_differences(name):
    source, arrays, sens, _, wrt = case_setup(name)
    source = to_f64(source)
    run = compiled_grad(source, wrt)
    rng = np.random.default_rng(11)
    directions = {i: rng.standard_normal(arrays[i].shape) for i in wrt}
    grads = run(arrays, sens)[1:]
    analytic = sum(float(np.sum(g * directions[i]))
                   for g, i in zip(grads, wrt))
    h = 1e-5

    def value(sign):
        moved = [a.astype(np.float64) + sign * h * directions[i]
                 if i in directions else a for i, a in enumerate(arrays)]
        out = run(moved, sens)[0]
        return float(np.sum(out * sens.astype(np.float64)))
    numeric = (value(1) - value(-1)) / (2 * h)
    scale = max(abs(analytic), 1.0)
    assert abs(numeric - analytic) <= 1e-6 * scale, (numeric, analytic)


@pytest.mark.parametrize("to", ["f32", "f16"])
def test_f64_cast_gradient_matches_central_differences(to):
    """cast (not in CASES: its result type is not its input's): float64 in,
    a narrower float out, the cotangent cast back. The cast is linear up to
    its rounding, so a step of 1 is exact but for the rounding of the
    moved inputs, which for f32 is far below the tolerance; f16 rounds
    coarsely, so it gets a coarser tolerance."""
    source = ("func.func @construct(%x: tensor<4x3xf64>) -> "
              f"tensor<4x3x{to}> {{\n"
              f"  %r = ms.cast %x to {to} : tensor<4x3xf64>\n"
              f"  return %r : tensor<4x3x{to}>\n}}\n")
    text = native.autodiff(source, "construct", [0])
    graph = native.Compiler().compile(
        text,
        native.CompileOptions(jit_level="O0", exc_mode="sink"),
        "construct_grad", "<cast f64>")
    rng = np.random.default_rng(5)
    x = rng.standard_normal((4, 3))
    sens = rng.standard_normal((4, 3)).astype(np.float16 if to == "f16"
                                               else np.float32)
    direction = rng.standard_normal((4, 3))

    def run(arg):
        return [np.array(o) for o in graph.run(
            [native.HostTensor.from_buffer(a) for a in (arg, sens)])]
    grad = run(x)[1]
    assert grad.dtype == np.float64
    np.testing.assert_array_equal(grad, sens.astype(np.float64))
    analytic = float(np.sum(grad * direction))

    def value(sign):
        out = run(x + sign * direction)[0].astype(np.float64)
        return float(np.sum(out * sens.astype(np.float64)))
    numeric = (value(1) - value(-1)) / 2
    tolerance = 1e-6 if to == "f32" else 1e-2
    assert abs(numeric - analytic) <= tolerance * max(abs(analytic), 1.0)


@pytest.mark.parametrize("name", ["dense", "conv2d_valid", "softmax",
                                  "layer_norm", "max_pool2d"])
def test_f64_gradients_same_bits_kernel_by_kernel(name):
    source, arrays, sens, _, wrt = case_setup(name)
    source = to_f64(source)
    whole = compiled_grad(source, wrt, "sink")(arrays, sens)
    kernels = compiled_grad(source, wrt, "no_sink")(arrays, sens)
    for a, b in zip(whole, kernels):
        assert_bitwise(a, b)


def test_integer_operand_gets_no_cotangent():
    """ms.select's condition is bool and a gather's indices integers: only
    the float values get gradients, in float64."""
    source = (
        "func.func @construct(%c: tensor<4xi1>, %x: tensor<4xf64>, "
        "%y: tensor<4xf64>) -> tensor<4xf64> {\n"
        "  %r = ms.select %c, %x, %y : tensor<4xi1>, tensor<4xf64>, "
        "tensor<4xf64>\n"
        "  return %r : tensor<4xf64>\n}\n")
    text = native.autodiff(source, "construct", [])
    graph = native.Compiler().compile(
        text,
        native.CompileOptions(jit_level="O0", exc_mode="sink"),
        "construct_grad", "<select f64>")
    c = np.array([True, False, True, False])
    x = np.arange(4, dtype=np.float64)
    y = -np.arange(4, dtype=np.float64)
    sens = np.array([1.0, 2.0, 3.0, 4.0])
    outs = [np.array(o) for o in graph.run(
        [native.HostTensor.from_buffer(a) for a in (c, x, y, sens)])]
    assert len(outs) == 3  # value, d/dx, d/dy: nothing for the bool mask
    np.testing.assert_array_equal(outs[0], np.where(c, x, y))
    np.testing.assert_array_equal(outs[1], np.where(c, sens, 0.0))
    np.testing.assert_array_equal(outs[2], np.where(c, 0.0, sens))


@pytest.mark.parametrize("level", ["O0", "O2"])
@pytest.mark.parametrize("name", sorted(NETWORKS))
def test_f64_network_gradients_match_torch(name, level):
    path, shapes, fn, scale = NETWORKS[name]
    arrays = [a.astype(np.float64) for a in network_arrays(shapes, scale)]
    out_shape = (shapes[0][0], 10)
    sens = rand(out_shape, seed=123).astype(np.float64)
    wrt = list(range(len(shapes)))
    got = run_grad(to_f64(example(path)), arrays, [sens], wrt, level)
    want = torch_grads(fn, arrays, sens, wrt)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == np.float64
        assert_close(g, w, rtol=1e-5)
