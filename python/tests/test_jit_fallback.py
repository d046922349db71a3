"""JIT Fallback (jit_syntax_level=LAX): a statement that needs a tensor's
value runs in Python between two compiled segments; the rest of the
function stays compiled, and the call's Python runs once."""

import inspect
import os
import warnings

import numpy as np
import pytest

import msmlir as ms
from msmlir import Tensor, Parameter, nn, ops

from conftest import assert_bitwise, rand

LEVELS = ["O0", "O1", "O2"]


def _line_of(fn, text):
    lines, start = inspect.getsourcelines(fn)
    return start + [i for i, line in enumerate(lines) if text in line][0]


def _quiet(fn, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ms.GraphFallbackWarning)
        return fn(*args)


seen = []


def scaled(x, w):
    y = ops.matmul(x, w)
    peak = float(y.max())        # the statement that needs a value
    seen.append(peak)            # a side effect: once per call
    z = ops.relu(y - peak / 2)
    return z * 3.0, y


@pytest.mark.parametrize("level", LEVELS)
def test_statement_runs_once_and_the_rest_compiles(level):
    f = ms.jit(scaled, jit_config=ms.JitConfig(jit_level=level))
    w = Tensor(rand(4, 3))
    xs = [Tensor(rand(2, 4) * (i + 1)) for i in range(4)]
    seen.clear()
    with pytest.warns(ms.GraphFallbackWarning, match=r"float\(y.max\(\)\)"):
        first = f(xs[0], w)
    assert len(seen) == 1
    compiles = f.compile_count
    assert compiles == 2  # the segment before float(), and the one after
    outs = [first] + [_quiet(f, x, w) for x in xs[1:]]
    assert f.compile_count == compiles  # other values: nothing recompiles
    assert len(seen) == 4
    assert f.fallback_count == 4
    graph_peaks = list(seen)
    seen.clear()
    for x, (z, y) in zip(xs, outs):
        rz, ry = scaled(x, w)    # PyNative
        assert_bitwise(z.asnumpy(), rz.asnumpy())
        assert_bitwise(y.asnumpy(), ry.asnumpy())
    assert graph_peaks == seen
    # numpy reference
    for x, (z, _) in zip(xs, outs):
        y = x.asnumpy() @ w.asnumpy()
        ref = np.maximum(y - np.float32(y.max()) / 2, 0) * 3
        np.testing.assert_allclose(z.asnumpy(), ref, rtol=1e-5, atol=1e-6)


def test_print_in_a_graph_mode_cell_runs_once_per_call(capsys):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(3, 2)

        def construct(self, x):
            y = self.dense(x)
            print("y =", y)
            return ops.relu(y)

    net = Net()
    x = Tensor(rand(2, 3))
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        with pytest.warns(ms.GraphFallbackWarning, match="print"):
            out = net(x)
        _quiet(net, x)
        printed = capsys.readouterr().out
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert printed.count("y =") == 2
    expected = net(x)
    assert_bitwise(out.asnumpy(), expected.asnumpy())
    assert str(net.dense(x).asnumpy()[0, 0])[:4] in printed


def test_parameter_updates_before_the_statement_happen_once():
    class Counter(nn.Cell):
        def __init__(self):
            super().__init__()
            self.count = Parameter(Tensor(np.zeros((), np.float32)),
                                   name="count")

        def construct(self, x):
            ops.assign(self.count, self.count + 1.0)
            n = float(self.count)
            return x * n

    net = Counter()
    f = ms.jit(net.construct)
    x = Tensor(rand(3))
    outs = [_quiet(f, x) for _ in range(3)]
    assert float(net.count.asnumpy()) == 3.0
    for i, out in enumerate(outs):
        np.testing.assert_array_equal(out.asnumpy(),
                                      x.asnumpy() * np.float32(i + 1))


def value_in_branch(x):
    if x.sum() > 0:
        y = x * float(x.max())
    else:
        y = x
    return y


def test_fallback_inside_a_tensor_conditioned_branch_is_an_error():
    f = ms.jit(value_in_branch)
    with pytest.raises(ms.GraphSyntaxError) as info:
        f(Tensor(rand(3)))
    message = str(info.value)
    line = _line_of(value_in_branch, "float(x.max())")
    assert f"{os.path.abspath(__file__)}:{line}" in message
    assert "JIT Fallback" in message and "tensor-conditioned" in message


def test_fallback_inside_a_differentiated_function_is_an_error():
    def loss(x):
        return x * float(x.sum())

    grad = ms.grad(loss)

    @ms.jit
    def step(x):
        return grad(x)

    with pytest.raises(ms.GraphSyntaxError, match="differentiated"):
        step(Tensor(rand(3)))


@pytest.mark.parametrize("level", ["STRICT", "COMPATIBLE"])
def test_strict_levels_still_reject_the_statement(level):
    f = ms.jit(scaled, jit_config=ms.JitConfig(jit_syntax_level=level))
    seen.clear()
    with pytest.raises(ms.GraphSyntaxError, match="LAX"):
        f(Tensor(rand(2, 4)), Tensor(rand(4, 3)))
    assert seen == []


def test_values_read_in_python_flow_back_into_the_graph():
    def f(x):
        scale = x.asnumpy().max()        # numpy on the value
        steps = int(x.sum().asnumpy() > 0) + 1
        for _ in range(steps):           # a Python loop on a Python int
            x = x * scale
        return x

    jf = ms.jit(f)
    for a in (rand(4), -rand(4)):
        got = _quiet(jf, Tensor(a))
        assert_bitwise(got.asnumpy(), f(Tensor(a)).asnumpy())
