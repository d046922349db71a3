"""Graph mode: jit as decorator / method decorator / transform, GRAPH_MODE
Cells, mode parity, the compile cache, parameters as graph arguments,
jit_syntax_level STRICT / LAX, and what the captured graph looks like."""

import os
import warnings

import numpy as np
import pytest

import msmlir as ms
from msmlir import Tensor, nn, ops

from conftest import Network, assert_bitwise, assert_close, rand

LEVELS = ["O0", "O1", "O2"]


class JitNetwork(Network):
    @ms.jit
    def construct(self, x):
        x = self.flatten(x)
        return self.dense_relu_sequential(x)


def seed_input(batch=64):
    return Tensor(np.ones([batch, 1, 28, 28]).astype(np.float32))


# -- mode parity ---------------------------------------------------------------

@pytest.mark.parametrize("level", LEVELS)
def test_pynative_and_graph_are_bit_identical_on_the_mlp(level):
    net = Network()
    x = seed_input()
    xr = Tensor(rand(64, 1, 28, 28, low=0, high=1))
    eager = [net(x).asnumpy().copy(), net(xr).asnumpy().copy()]
    net.set_jit_config(ms.JitConfig(jit_level=level))
    ms.set_context(mode=ms.GRAPH_MODE)
    graph = [net(x).asnumpy(), net(xr).asnumpy()]
    for e, g in zip(eager, graph):
        assert_bitwise(e, g)
    # A jitted function and a jitted construct agree too.
    f = ms.jit(lambda t: net(t), jit_config=ms.JitConfig(jit_level=level))
    assert_bitwise(f(xr).asnumpy(), eager[1])
    # And the PyNative kernels compiled at this level.
    ms.set_context(mode=ms.PYNATIVE_MODE, jit_level=level)
    assert_bitwise(net(xr).asnumpy(), eager[1])


@pytest.mark.parametrize("level", LEVELS)
def test_elementwise_chain_parity(level):
    def chain(x, y):
        for _ in range(5):
            x = ops.tanh(x * y + 0.5) - ops.sigmoid(x) / 3.0
            x = ops.maximum(x, ops.neg(y)) * ops.exp(ops.abs(y) * 0.1)
        return ops.softmax(x), ops.reduce_sum(x, 1)

    x, y = Tensor(rand(4, 10, seed=1)), Tensor(rand(10, seed=2))
    eager = chain(x, y)
    graph = ms.jit(chain, jit_config=ms.JitConfig(jit_level=level))(x, y)
    assert_bitwise(graph[0].asnumpy(), eager[0].asnumpy())
    assert_close(graph[1].asnumpy(), eager[1].asnumpy(), 1e-6)


# -- the five ways in ------------------------------------------------------------

def test_jit_decorator_on_a_function_freezes_cells_built_inside():
    @ms.jit
    def run(x):
        model = Network()
        return model(x)

    x = seed_input()
    first = run(x).asnumpy().copy()
    assert first.shape == (64, 10)
    # Later calls reuse the compiled graph and the weights captured with it,
    # even though Network() would draw new random weights in PyNative mode.
    again = run(x).asnumpy()
    assert_bitwise(first, again)
    assert run.compile_count == 1
    assert np.allclose(first, first[0])  # all rows alike (input of ones)


def test_jit_transform():
    net = Network()
    run_with_jit = ms.jit(net.construct)
    x = seed_input()
    assert_bitwise(run_with_jit(x).asnumpy(), net(x).asnumpy())

    def run(t):
        return net(t) * 2.0

    assert_bitwise(ms.jit(run)(x).asnumpy(), run(x).asnumpy())


def test_jit_on_construct_caches_per_instance():
    a, b = JitNetwork(), JitNetwork()
    x = seed_input()
    ya, yb = a(x).asnumpy().copy(), b(x).asnumpy().copy()
    assert not np.array_equal(ya, yb)  # different weights, different caches
    assert a.compile_count == 1 and b.compile_count == 1
    a(x)
    assert a.compile_count == 1
    # Same numbers as running the plain construct eagerly.
    plain = Network()
    for (_, p), (_, q) in zip(plain.parameters_and_names(),
                              a.parameters_and_names()):
        p.set_data(q.asnumpy().copy())
    assert_bitwise(plain(x).asnumpy(), ya)


def test_graph_mode_context_compiles_construct():
    net = Network()
    x = seed_input()
    eager = net(x).asnumpy().copy()
    ms.set_context(mode=ms.GRAPH_MODE)
    assert ms.get_context("mode") == ms.GRAPH_MODE
    before = ms.compile_count()
    assert_bitwise(net(x).asnumpy(), eager)
    assert ms.compile_count() == before + 1
    assert net.compile_count == 1


def test_jit_with_config_arguments():
    @ms.jit(jit_config=ms.JitConfig(jit_level="O2"))
    def f(x):
        return ops.relu(x) + 1.0

    x = Tensor(rand(3, 3))
    assert_close(f(x).asnumpy(), np.maximum(x.asnumpy(), 0) + 1)


# -- the compile cache -----------------------------------------------------------

def test_same_shape_hits_new_shape_compiles_once():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = Network()
    net(seed_input(64))
    assert net.compile_count == 1
    for _ in range(3):
        net(seed_input(64))
    assert net.compile_count == 1
    net(seed_input(8))
    assert net.compile_count == 2
    net(seed_input(8))
    net(seed_input(64))
    assert net.compile_count == 2

    @ms.jit
    def f(x):
        return x * 2.0

    f(Tensor(np.ones((2, 2), np.float32)))
    f(Tensor(np.ones((2, 2), np.float32)))
    assert f.compile_count == 1
    f(Tensor(np.ones((3, 2), np.float32)))
    assert f.compile_count == 2
    assert f.cache_size == 2


def test_non_tensor_arguments_are_part_of_the_key():
    @ms.jit
    def scale(x, k, axis=1):
        return ops.softmax(x * k, axis)

    x = Tensor(rand(3, 4))
    a = scale(x, 2.0)
    scale(x, 2.0)
    assert scale.compile_count == 1
    b = scale(x, 3.0)
    assert scale.compile_count == 2
    c = scale(x, 2.0, axis=0)
    assert scale.compile_count == 3
    assert_close(a.asnumpy(), ops.softmax(x * 2.0, 1).asnumpy())
    assert_close(b.asnumpy(), ops.softmax(x * 3.0, 1).asnumpy())
    assert_close(c.asnumpy(), ops.softmax(x * 2.0, 0).asnumpy())


def test_loading_parameters_after_compiling_takes_effect(tmp_path):
    ms.set_context(mode=ms.GRAPH_MODE)
    net = Network()
    x = seed_input()
    before = net(x).asnumpy().copy()
    other = Network()
    path = str(tmp_path / "other.safetensors")
    ms.save_checkpoint(other, path)
    ms.load_param_into_net(net, ms.load_checkpoint(path))
    after = net(x).asnumpy()
    assert net.compile_count == 1  # no recompilation
    assert not np.array_equal(before, after)
    ms.set_context(mode=ms.PYNATIVE_MODE)
    assert_bitwise(after, other(x).asnumpy())


def test_parameters_are_graph_arguments_and_locations_name_cells():
    net = JitNetwork()
    net(seed_input())
    compiled = [v for k, v in net.__dict__.items() if k.startswith("_ms_jit")]
    source = compiled[0].graphs()[0]
    assert 'ms.param = "dense_relu_sequential.0.weight"' in source
    assert 'ms.param = "dense_relu_sequential.4.bias"' in source
    here = os.path.abspath(__file__)
    assert f'loc("dense_relu_sequential.0"("{here}":' in source
    assert f'loc("flatten"("{here}":' in source
    assert source.count('"ms.dense"') == 3


def test_multiple_outputs_structures_and_constants():
    @ms.jit
    def f(x, pair):
        a, b = pair
        return {"sum": x + a, "list": [x * b, 7], "same": x}

    x = Tensor(rand(2, 3, seed=1))
    a, b = Tensor(rand(2, 3, seed=2)), Tensor(rand(3, seed=3))
    out = f(x, (a, b))
    assert_close(out["sum"].asnumpy(), x.asnumpy() + a.asnumpy())
    assert_close(out["list"][0].asnumpy(), x.asnumpy() * b.asnumpy())
    assert out["list"][1] == 7
    np.testing.assert_array_equal(out["same"].asnumpy(), x.asnumpy())


def test_closure_constants_and_nested_jit():
    big = Tensor(rand(40, 40, seed=5))   # passed as a captured argument
    small = Tensor(rand(40, seed=6))     # inlined as arith.constant

    @ms.jit
    def inner(x):
        return ops.matmul(x, big) + small

    @ms.jit
    def outer(x):
        return ops.relu(inner(x))

    x = Tensor(rand(3, 40))
    ref = np.maximum(x.asnumpy().astype(np.float64) @ big.asnumpy() +
                     small.asnumpy(), 0)
    assert_close(outer(x).asnumpy(), ref)
    assert inner.compile_count == 0  # inlined into outer's graph
    assert outer.compile_count == 1


def test_save_graphs_writes_the_captured_mlir(tmp_path):
    ms.set_context(save_graphs=True, save_graphs_path=str(tmp_path))

    @ms.jit
    def f(x):
        return ops.relu(x)

    f(Tensor(rand(2, 2)))
    files = sorted(os.listdir(tmp_path))
    assert any(name.endswith(".mlir") for name in files)
    dumped = [d for d in files if os.path.isdir(tmp_path / d)]
    assert dumped and os.listdir(tmp_path / dumped[0])



class _PictureNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(4, 3)
        self.act = nn.ReLU()

    def construct(self, x):
        return self.act(self.fc(x))


def test_save_graphs_draws_the_graph_with_cell_paths_and_shapes(tmp_path):
    import shutil
    import xml.etree.ElementTree as ET
    ms.set_context(mode=ms.GRAPH_MODE, save_graphs=True,
                   save_graphs_path=str(tmp_path))
    _PictureNet()(Tensor(rand(2, 4)))
    (graph_dir,) = [d for d in tmp_path.iterdir() if d.is_dir()]
    dot = (graph_dir / "00_input.dot").read_text()
    # A box per op: its name, the Cell that ran it, its result's shape.
    assert 'label="ms.dense\\lfc\\ltensor<2x3xf32>\\l"' in dot
    assert 'label="ms.relu\\lact\\ltensor<2x3xf32>\\l"' in dot
    assert 'label="fc.weight\\ltensor<3x4xf32>\\l"' in dot
    if shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is not installed: only the .dot is written")
    svg = ET.parse(graph_dir / "00_input.svg").getroot()
    texts = [t.text for t in svg.iter("{http://www.w3.org/2000/svg}text")]
    for label in ("ms.dense", "fc", "ms.relu", "act", "tensor<2x3xf32>",
                  "fc.weight", "fc.bias"):
        assert label in texts, (label, texts)

# -- jit_syntax_level --------------------------------------------------------------

def branchy(x):
    # float() reads the tensor's value (a tensor condition itself compiles
    # to scf.if: test_control_flow.py).
    y = x * 2.0
    if float(y.sum()) > 0:
        return y + 1.0
    return y - 1.0


def _branchy_line():
    import inspect
    lines, start = inspect.getsourcelines(branchy)
    return start + [i for i, l in enumerate(lines)
                    if "if float(y.sum())" in l][0]


@pytest.mark.parametrize("level", ["STRICT", "COMPATIBLE"])
def test_strict_rejects_value_dependent_control_flow(level):
    f = ms.jit(branchy, jit_config=ms.JitConfig(jit_syntax_level=level))
    with pytest.raises(ms.GraphSyntaxError) as info:
        f(Tensor(np.ones((2, 2), np.float32)))
    message = str(info.value)
    assert f"{os.path.abspath(__file__)}:{_branchy_line()}" in message
    assert "if float(y.sum()) > 0:" in message
    assert "LAX" in message  # says what to do


def test_strict_from_the_context():
    ms.set_context(jit_syntax_level=ms.STRICT)
    with pytest.raises(ms.GraphSyntaxError):
        ms.jit(branchy)(Tensor(np.ones((2, 2), np.float32)))


@pytest.mark.parametrize("config", [None, ms.JitConfig(jit_syntax_level="LAX"),
                                    ms.JitConfig(jit_syntax_level="")])
def test_lax_runs_the_statement_in_python_with_a_warning(config):
    """JIT Fallback: `float(...)` runs in Python between two compiled
    segments; the call is not rerun in PyNative mode."""
    f = ms.jit(branchy, jit_config=config)
    pos = Tensor(np.ones((2, 2), np.float32))
    with pytest.warns(ms.GraphFallbackWarning, match="if float") as record:
        out = f(pos)
    assert f"test_modes.py:{_branchy_line()}" in str(record[0].message)
    np.testing.assert_array_equal(out.asnumpy(), np.full((2, 2), 3.0))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # later calls do not warn again
        neg = f(Tensor(-np.ones((2, 2), np.float32)))
        np.testing.assert_array_equal(neg.asnumpy(), np.full((2, 2), -3.0))
        # The segment before float() and each branch's tail compiled once.
        assert f.compile_count == 3
        f(pos)
        f(Tensor(-np.ones((2, 2), np.float32)))
    assert f.compile_count == 3
    assert f.fallback_count == 4


def test_lax_fallback_in_a_graph_mode_cell():
    class Branchy(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(3, 3)

        def construct(self, x):
            y = self.dense(x)
            print(y)  # reads the value: not capturable
            return y

    ms.set_context(mode=ms.GRAPH_MODE)
    net = Branchy()
    x = Tensor(rand(2, 3))
    with pytest.warns(ms.GraphFallbackWarning, match="print"):
        out = net(x)
    ms.set_context(mode=ms.PYNATIVE_MODE)
    assert_bitwise(out.asnumpy(), net.dense(x).asnumpy())


def test_unknown_levels_raise_value_error():
    with pytest.raises(ValueError, match="jit_level"):
        ms.JitConfig(jit_level="O3")
    with pytest.raises(ValueError, match="jit_syntax_level"):
        ms.JitConfig(jit_syntax_level="LOOSE")
    with pytest.raises(ValueError, match="exc_mode"):
        ms.JitConfig(exc_mode="fast")
    with pytest.raises(ValueError, match="jit_level"):
        ms.set_context(jit_config={"jit_level": "fast"})
    with pytest.raises(ValueError):
        ms.set_context(mode=5)


def test_jit_spellings():
    x = Tensor(rand(2, 3))

    @ms.jit()
    def a(t):
        return t + 1.0

    def b(t):
        return t * 3.0

    b_jit = ms.jit(fn=b, jit_config=ms.JitConfig(jit_level="O0"))
    cell = nn.Dense(3, 2)
    c = ms.jit(cell)
    assert_close(a(x).asnumpy(), x.asnumpy() + 1)
    assert_close(b_jit(x).asnumpy(), x.asnumpy() * 3)
    assert_bitwise(c(x).asnumpy(), cell(x).asnumpy())
    assert c.compile_count == 1
    assert b_jit.__name__ == "b"
    with pytest.raises(TypeError):
        ms.jit(42)
    with pytest.raises(TypeError):
        ms.jit(b, jit_config={"jit_level": "O1"})


def test_graph_call_follows_context_changes():
    f = ms.jit(lambda t: ops.relu(t))
    x = Tensor(rand(2, 3))
    f(x)
    ms.set_context(jit_level="O1")  # not the default O2: a new graph
    f(x)
    assert f.compile_count == 2
    f(x)
    assert f.compile_count == 2


def test_training_flag_is_part_of_a_cells_graph_key():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = nn.SequentialCell(nn.Dense(3, 3), nn.Dropout(p=0.5))
    x = Tensor(rand(2, 3))
    eval_out = net(x).asnumpy()
    net.set_train(True)
    train_out = net(x).asnumpy()  # a second graph, with the dropout mask
    assert not np.array_equal(train_out, eval_out)
    net.set_train(False)
    np.testing.assert_array_equal(net(x).asnumpy(), eval_out)
    assert net.compile_count == 2
