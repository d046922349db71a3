"""Accuracy of the vectorized exp, log, tanh, erf and sigmoid (the
ms-approximate-transcendentals expansions) against float64 references, on
the real compiled code, and their bit parity across modes and levels.

Inputs: every 4099-th float32 bit pattern (about a million values over all
exponents, both signs, denormals, NaN payloads and large |x| included), a
dense sweep of [-12, 12], the denormals, and special values. The bounds are
the figures docs/pipelines.md documents (measured over every float32 input
by scripts/transcendentals_ulp.py).
"""

import importlib.util
import os

import numpy as np
import pytest

import msmlir as ms
from msmlir import Tensor, ops

_SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                       "scripts", "transcendentals_ulp.py")
_spec = importlib.util.spec_from_file_location("transcendentals_ulp", _SCRIPT)
tu = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tu)

# Max ulp error per function (docs/pipelines.md, Numerics).
MAX_ULP = {"exp": 1.0, "log": 1.0, "tanh": 1.25, "erf": 1.5, "sigmoid": 1.75}

PYNATIVE = {"exp": ops.exp, "log": ops.log, "tanh": ops.tanh,
            "sigmoid": ops.sigmoid}

_N = 1 << 21


def _inputs():
    f = np.float32
    denormals = np.arange(1, 1 << 23, 61, dtype=np.uint32).view(f)
    x = np.concatenate([
        tu.special_inputs(),
        tu.bit_patterns(4099),
        np.linspace(-12, 12, 200001, dtype=f),
        denormals, -denormals,
    ])
    assert x.size <= _N
    return x


X = _inputs()


@pytest.fixture(scope="module")
def graph_results():
    """Each function compiled at O0 and at O2 (1 and 2 threads)."""
    out = {}
    for name in tu.FUNCTIONS:
        out[name] = {
            "O0": tu.Compiled(name, "O0", 1, n=_N)(X),
            "O2": tu.Compiled(name, "O2", 1, n=_N)(X),
            "O2 2 threads": tu.Compiled(name, "O2", 2, n=_N)(X),
        }
    return out


@pytest.mark.parametrize("name", sorted(tu.FUNCTIONS))
def test_max_ulp(name, graph_results):
    got = graph_results[name]["O0"]
    with np.errstate(all="ignore"):
        ref = tu.FUNCTIONS[name][2](X.astype(np.float64))
    err = tu.ulp_error(got, ref)
    i = int(np.argmax(err))
    assert err[i] <= MAX_ULP[name], (
        f"{name}({X[i]!r}) = {got[i]!r}, reference {ref[i]!r}: "
        f"{err[i]:.3f} ulp > {MAX_ULP[name]}")
    # NaN exactly where the reference is NaN (ulp_error checks it too).
    np.testing.assert_array_equal(np.isnan(got), np.isnan(ref))


@pytest.mark.parametrize("name", sorted(tu.FUNCTIONS))
def test_levels_and_threads_are_bit_identical(name, graph_results):
    r = graph_results[name]
    for key in ("O2", "O2 2 threads"):
        np.testing.assert_array_equal(r[key].view(np.uint32),
                                      r["O0"].view(np.uint32), err_msg=key)


@pytest.mark.parametrize("name", sorted(PYNATIVE))
@pytest.mark.parametrize("level", ["O0", "O2"])
def test_pynative_and_graph_mode_are_bit_identical(name, level, graph_results):
    x = Tensor(X)
    ms.set_context(mode=ms.PYNATIVE_MODE, jit_level=level)
    eager = PYNATIVE[name](x).asnumpy().copy()
    ms.set_context(mode=ms.GRAPH_MODE, jit_level=level)
    graph = ms.jit(PYNATIVE[name])(x).asnumpy().copy()
    ms.set_context(mode=ms.PYNATIVE_MODE)
    want = graph_results[name]["O0"].view(np.uint32)
    np.testing.assert_array_equal(eager.view(np.uint32), want)
    np.testing.assert_array_equal(graph.view(np.uint32), want)


def _run(name, values):
    x = np.array(values, dtype=np.float32)
    return tu.Compiled(name, "O0", 1, n=x.size)(x)


def test_special_values():
    inf, nan = np.inf, np.nan
    tiny = np.float32(1e-45)  # smallest denormal
    e = _run("exp", [0.0, -0.0, inf, -inf, nan, 88.73, -103.3, -103.99,
                     -87.5, 1e-45])
    assert list(e[:4]) == [1.0, 1.0, inf, 0.0] and np.isnan(e[4])
    assert e[5] == inf and e[6] == tiny and e[7] == 0.0
    assert 0 < e[8] < np.finfo(np.float32).tiny  # a subnormal result
    assert e[9] == 1.0
    lg = _run("log", [0.0, -0.0, inf, -inf, -1.0, nan, 1.0, 1e-45])
    assert list(lg[:3]) == [-inf, -inf, inf] and np.isnan(lg[3:6]).all()
    assert lg[6] == 0.0 and abs(lg[7] - np.log(np.float64(tiny))) < 1e-5
    for name, big in (("tanh", 1.0), ("erf", 1.0)):
        r = _run(name, [0.0, -0.0, inf, -inf, nan, 1e-45, -1e-45, 30.0, -30.0])
        assert r[0] == 0 and not np.signbit(r[0])
        assert r[1] == 0 and np.signbit(r[1]), f"{name}(-0) must be -0"
        assert list(r[2:4]) == [big, -big] and np.isnan(r[4])
        assert list(r[7:9]) == [big, -big]
    s = _run("sigmoid", [0.0, -0.0, inf, -inf, nan, -100.0, -200.0, 100.0])
    assert list(s[:4]) == [0.5, 0.5, 1.0, 0.0] and np.isnan(s[4])
    # e^-100 is a subnormal float32: sigmoid keeps it instead of 0.
    assert s[5] == np.float32(np.exp(-100.0)) and s[6] == 0 and s[7] == 1.0
