"""Issue 18 (reliability), the Python slice: Python ints that do not fit
their dtype raise instead of wrapping; GRAPH_MODE notices a replaced, resized
or deleted Parameter as PyNative does; the graph and kernel caches are
bounded (LRU) and configurable through set_context."""

import warnings

import numpy as np
import pytest

import msmlir as ms
from msmlir import Parameter, Tensor, nn, ops
from msmlir import _jit
from msmlir.dataset import transforms, vision
from msmlir.nn.layers import initializer

MODES = [ms.PYNATIVE_MODE, ms.GRAPH_MODE]


# -- Python integers -----------------------------------------------------------

@pytest.mark.parametrize("data, dtype, bad", [
    ([2 ** 63], None, 2 ** 63),
    ([-2 ** 63 - 1], None, -2 ** 63 - 1),
    ([2 ** 64], None, 2 ** 64),
    ([2 ** 63, -1], None, 2 ** 63),        # numpy would make it float64
    ([[1, 2], [3, 2 ** 70]], None, 2 ** 70),
    (2 ** 63, None, 2 ** 63),
    ([[2 ** 40]], ms.int32, 2 ** 40),
    ([[1, 2], [3, 2 ** 31]], ms.int32, 2 ** 31),
    ([-2 ** 31 - 1], ms.int32, -2 ** 31 - 1),
    (2 ** 40, ms.int32, 2 ** 40),
    ((5, 2 ** 63), ms.int64, 2 ** 63),
    ([2 ** 40, 1.5], ms.int32, 2 ** 40),
])
def test_python_int_out_of_bounds_raises(data, dtype, bad):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpy 1.24 warns, then wraps
        with pytest.raises(OverflowError, match=f"{bad} out of bounds"):
            Tensor(data, dtype=dtype)


def test_python_ints_that_fit_keep_their_values_and_dtypes():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        t = Tensor([2 ** 63 - 1, -2 ** 63])
        assert t.dtype == ms.int64
        assert t.asnumpy().tolist() == [2 ** 63 - 1, -2 ** 63]
        t = Tensor([[2 ** 31 - 1], [-2 ** 31]], dtype=ms.int32)
        assert t.asnumpy().tolist() == [[2 ** 31 - 1], [-2 ** 31]]
        assert Tensor(3).dtype == ms.int64
        assert Tensor([1, 2]).dtype == ms.int64
        assert Tensor([1.0, 2]).dtype == ms.float32
        assert Tensor([True, False]).dtype == ms.bool_
        # A float among the ints: a float tensor, as numpy would infer.
        t = Tensor([2 ** 63, 1.5])
        assert t.dtype == ms.float32
        assert t.asnumpy()[0] == np.float32(2 ** 63)
        # Big ints into a float dtype are floats, not errors.
        assert Tensor([2 ** 70], dtype=ms.float32).asnumpy()[0] == \
            np.float32(2 ** 70)


def test_numpy_arrays_cast_as_numpy_does():
    # Explicit numpy data keeps numpy's casting rules (astype semantics).
    t = Tensor(np.array([2 ** 40], np.int64), dtype=ms.int32)
    assert t.asnumpy().tolist() == [np.int64(2 ** 40).astype(np.int32)]


def test_scalar_operands_out_of_bounds_raise():
    x = Tensor([1, 2], dtype=ms.int32)
    for fn in (lambda: x * 2 ** 40, lambda: 2 ** 40 + x,
               lambda: x - (-2 ** 31 - 1), lambda: ops.add(x, 2 ** 31)):
        with pytest.raises(OverflowError, match="out of bounds for Int32"):
            fn()
    y = Tensor([1, 2])  # int64
    with pytest.raises(OverflowError, match="out of bounds for Int64"):
        y + 2 ** 63


def test_fill_values_out_of_bounds_raise():
    with pytest.raises(OverflowError, match="out of bounds for Int32"):
        Tensor(shape=(2, 2), dtype=ms.int32, init=2 ** 40)
    t = Tensor(shape=(2,), dtype=ms.int32, init=2 ** 31 - 1)
    assert t.asnumpy().tolist() == [2 ** 31 - 1] * 2
    with pytest.raises(OverflowError, match="out of bounds for Int32"):
        initializer(2 ** 40, (2, 2), ms.int32)
    with pytest.raises(OverflowError, match="out of bounds for Int64"):
        Parameter([2 ** 63])
    p = Parameter(Tensor([1, 2], dtype=ms.int32))
    with pytest.raises(OverflowError, match="out of bounds for Int32"):
        p.set_data([1, 2 ** 40])


def test_int_attributes_out_of_bounds_raise():
    # Attributes are i64: a bigger kernel size is an OverflowError, not an
    # attribute the MLIR parser rejects.
    x = Tensor(np.ones((1, 1, 4, 4), np.float32))
    with pytest.raises(OverflowError, match="out of bounds for Int64"):
        nn.MaxPool2d(kernel_size=2 ** 64, stride=1)(x)
    w = Tensor(np.ones((1, 1, 1, 1), np.float32))
    with pytest.raises(OverflowError, match="out of bounds for Int64"):
        ops.conv2d(x, w, stride=(1, 2 ** 63))


# -- GRAPH_MODE and changed Parameters ----------------------------------------

class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 3)

    def construct(self, x):
        return self.dense(x)


def _x():
    return Tensor(np.ones((2, 4), np.float32))


@pytest.mark.parametrize("mode", MODES)
def test_replaced_parameter_of_another_shape_is_used(mode):
    ms.set_context(mode=mode)
    net = Outer()
    x = _x()
    assert net(x).shape == (2, 3)
    net.dense.weight = Parameter(Tensor(np.ones((5, 4), np.float32)),
                                 name="weight")
    net.dense.bias = Parameter(Tensor(np.full((5,), 0.5, np.float32)),
                               name="bias")
    out = net(x)
    assert out.shape == (2, 5)
    np.testing.assert_array_equal(out.asnumpy(), np.full((2, 5), 4.5))


@pytest.mark.parametrize("mode", MODES)
def test_replaced_parameter_that_does_not_fit_raises_as_in_pynative(mode):
    ms.set_context(mode=mode)
    net = Outer()
    x = _x()
    net(x)
    net.dense.weight = Parameter(Tensor(np.ones((3, 7), np.float32)),
                                 name="weight")
    with pytest.raises(RuntimeError, match=r"dense \(Dense\).*weight in-dim "
                       r"7"):
        net(x)


@pytest.mark.parametrize("mode", MODES)
def test_deleted_parameter_raises_naming_the_cell(mode):
    ms.set_context(mode=mode)
    net = Outer()
    x = _x()
    net(x)
    del net.dense.weight
    with pytest.raises(AttributeError,
                       match=r"dense \(Dense\).*has no attribute 'weight'"):
        net(x)
    # Put back (another value): the graph is usable again.
    net.dense.weight = Parameter(Tensor(np.zeros((3, 4), np.float32)),
                                 name="weight")
    np.testing.assert_array_equal(net(x).asnumpy(),
                                  np.broadcast_to(net.dense.bias.asnumpy(),
                                                  (2, 3)))


def test_parameter_set_to_none_matches_pynative_in_graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = Outer()
    net(_x())
    net.dense.bias = None
    # Dense reads self.bias only when has_bias: ops.dense gets None and
    # runs without it, as in PyNative.
    ms.set_context(mode=ms.PYNATIVE_MODE)
    expected = net(_x()).asnumpy()
    ms.set_context(mode=ms.GRAPH_MODE)
    np.testing.assert_array_equal(net(_x()).asnumpy(), expected)


def test_replaced_sub_cell_is_used_in_graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = Outer()
    x = _x()
    net(x)
    net.dense = nn.Dense(4, 6)
    assert net(x).shape == (2, 6)


def test_set_data_of_another_shape_recompiles():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = Outer()
    x = _x()
    net(x)
    count = net.compile_count
    net.dense.weight.set_data(Tensor(np.ones((2, 4), np.float32)))
    net.dense.bias.set_data(Tensor(np.zeros((2,), np.float32)))
    out = net(x)
    assert out.shape == (2, 2)
    np.testing.assert_array_equal(out.asnumpy(), np.full((2, 2), 4.0))
    assert net.compile_count == count + 1


def test_set_data_of_the_same_shape_needs_no_recompile():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = Outer()
    x = _x()
    net(x)
    count = net.compile_count
    net.dense.weight.set_data(Tensor(np.full((3, 4), 2.0, np.float32)))
    net.dense.bias.set_data(np.zeros((3,), np.float32))
    np.testing.assert_array_equal(net(x).asnumpy(), np.full((2, 3), 8.0))
    assert net.compile_count == count


def test_replacing_with_the_same_shape_reuses_the_compiled_graph():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = Outer()
    x = _x()
    net(x)
    count = net.compile_count
    net.dense.weight = Parameter(Tensor(np.full((3, 4), 3.0, np.float32)),
                                 name="weight")
    net.dense.bias = Parameter(Tensor(np.zeros((3,), np.float32)),
                               name="bias")
    np.testing.assert_array_equal(net(x).asnumpy(), np.full((2, 3), 12.0))
    assert net.compile_count == count


def test_load_param_into_net_is_picked_up_without_recompiling():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = Outer()
    x = _x()
    net(x)
    count = net.compile_count
    ms.load_param_into_net(net, {
        "dense.weight": Parameter(Tensor(np.ones((3, 4), np.float32))),
        "dense.bias": Parameter(Tensor(np.full((3,), -1.0, np.float32)))})
    np.testing.assert_array_equal(net(x).asnumpy(), np.full((2, 3), 3.0))
    assert net.compile_count == count


def test_jitted_function_sees_a_replaced_parameter():
    net = Outer()

    @ms.jit
    def f(x):
        return net(x)

    x = _x()
    assert f(x).shape == (2, 3)
    net.dense.weight = Parameter(Tensor(np.ones((5, 4), np.float32)),
                                 name="weight")
    net.dense.bias = Parameter(Tensor(np.zeros((5,), np.float32)),
                               name="bias")
    np.testing.assert_array_equal(f(x).asnumpy(), np.full((2, 5), 4.0))


# -- the graph cache bound ----------------------------------------------------

def _double(x):
    return x + x


def test_graph_cache_evicts_the_least_recently_used():
    ms.set_context(graph_cache_size=3)
    f = ms.jit(_double)
    xs = [Tensor(np.ones((n,), np.float32)) for n in range(1, 6)]
    for x in xs[:3]:
        f(x)
    assert f.compile_count == 3
    f(xs[0])  # shape 1 is now the most recently used
    f(xs[3])  # evicts shape 2
    assert f.cache_size == 3
    assert _jit.cached_graph_count() <= 3
    f(xs[0])
    f(xs[2])
    assert f.compile_count == 4
    f(xs[1])  # compiled again
    assert f.compile_count == 5
    np.testing.assert_array_equal(f(xs[4]).asnumpy(), np.full((5,), 2.0))
    assert f.cache_size == 3


def test_graph_cache_bound_is_process_wide():
    ms.set_context(graph_cache_size=2)
    f = ms.jit(_double)
    g = ms.jit(lambda x: x * x)
    x = Tensor(np.ones((3,), np.float32))
    y = Tensor(np.ones((4,), np.float32))
    f(x)
    g(x)
    g(y)
    assert f.cache_size + g.cache_size == 2
    assert _jit.cached_graph_count() == 2


def test_lowering_the_graph_cache_size_evicts_at_once():
    f = ms.jit(_double)
    for n in range(1, 5):
        f(Tensor(np.ones((n,), np.float32)))
    assert f.cache_size == 4
    ms.set_context(graph_cache_size=1)
    assert f.cache_size == 1
    assert ms.get_context("graph_cache_size") == 1
    # The fast path still works, and evicted shapes compile again.
    x = Tensor(np.ones((1,), np.float32))
    np.testing.assert_array_equal(f(x).asnumpy(), [2.0])


def test_graph_mode_cells_share_the_bound():
    ms.set_context(mode=ms.GRAPH_MODE, graph_cache_size=2)
    net = nn.ReLU()
    for n in range(1, 6):
        out = net(Tensor(np.full((n,), -1.0, np.float32)))
        np.testing.assert_array_equal(out.asnumpy(), np.zeros((n,)))
    assert net._graph_runner.cache_size <= 2


# -- the kernel cache bound ---------------------------------------------------

def test_kernel_cache_evicts_beyond_its_size():
    ms.set_context(kernel_cache_size=2)
    assert ms.get_context("kernel_cache_size") == 2
    before = ms.pynative_stats()
    for n in range(1, 6):
        out = ops.relu(Tensor(np.full((n, 7, 3), -1.0, np.float32)))
        assert out.shape == (n, 7, 3)
    stats = ms.pynative_stats()
    assert stats["kernel_cache_size"] == 2
    assert stats["kernels"] <= 2
    assert stats["evictions"] - before["evictions"] >= 3
    ms.set_context(kernel_cache_size=1024)
    assert ms.pynative_stats()["kernel_cache_size"] == 1024


@pytest.mark.parametrize("name", ["graph_cache_size", "kernel_cache_size"])
@pytest.mark.parametrize("value", [0, -1, True, 1.5, "8", None, 2 ** 31,
                                   2 ** 63])
def test_cache_sizes_are_validated(name, value):
    before = ms.get_context(name)
    with pytest.raises(ValueError, match=f"{name} must be an int from 1 to "):
        ms.set_context(**{name: value})
    assert ms.get_context(name) == before
    # The refused value is not left behind for later calls to trip over.
    f = ms.jit(lambda x: x * 2)
    assert f(Tensor(np.ones(2, np.float32))).asnumpy().tolist() == [2, 2]
    assert (Tensor([1.0]) + 1).item() == 2.0


def test_cache_size_defaults():
    assert ms.get_context("graph_cache_size") == 64
    assert ms.get_context("kernel_cache_size") == 1024


# -- Sizes that cannot work ----------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("pool", [nn.MaxPool2d, nn.AvgPool2d])
def test_pool_with_a_huge_same_kernel_raises(mode, pool):
    # Its "same" padding would be a 37 GiB copy of a 4x4 image: this killed
    # the interpreter (the compiled code wrote through a NULL buffer).
    ms.set_context(mode=mode)
    net = pool(kernel_size=100000, stride=2, pad_mode="same")
    with pytest.raises(ms.MSError, match="intermediate of .* GiB, more than"):
        net(Tensor(np.ones((1, 1, 4, 4), np.float32)))


@pytest.mark.parametrize("mode", MODES)
def test_pool_with_a_large_kernel_runs(mode):
    # Past the vectorizers' unroll bound: loops, not straight-line code.
    ms.set_context(mode=mode)
    x = np.arange(2 * 3 * 10 * 10, dtype=np.float32).reshape(2, 3, 10, 10)
    out = nn.MaxPool2d(kernel_size=9, stride=1)(Tensor(x)).asnumpy()
    expected = np.stack([x[:, :, i:i + 9, j:j + 9].max(axis=(2, 3))
                         for i in range(2) for j in range(2)], -1)
    np.testing.assert_array_equal(out, expected.reshape(2, 3, 2, 2))


# -- One value returned twice (issue 55, item 1) -------------------------------

class _TwoBiases(nn.Cell):
    def __init__(self):
        super().__init__()
        self.b1 = ms.Parameter(Tensor(np.ones(3, np.float32)), "b1")
        self.b2 = ms.Parameter(Tensor(np.full(3, 2, np.float32)), "b2")

    def construct(self):
        return (self.b1 + self.b2).sum()


class _AssignsThenReads(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(Tensor(np.ones(3, np.float32)), "w")

    def construct(self, x):
        ops.assign(self.w, x)
        return self.w * 1


@pytest.mark.parametrize("level", ["O0", "O1", "O2"])
def test_one_value_returned_twice_gives_two_equal_results(level):
    ms.set_context(mode=ms.GRAPH_MODE, jit_config={"jit_level": level})
    try:
        x = Tensor(np.arange(3, dtype=np.float32))
        a, b = ms.jit(lambda x: (x * 2, x * 2))(x)
        y = ms.jit(lambda x: (lambda y: (y, y))(x * 2))(x)
        z = ms.jit(lambda x: (lambda y: (y * 1, y))(x * 2))(x)
        for pair in ((a, b), y, z):
            assert [t.asnumpy().tolist() for t in pair] == [[0, 2, 4]] * 2
        net = _AssignsThenReads()
        out = net(Tensor(np.full(3, 4, np.float32)))
        assert out.asnumpy().tolist() == [4, 4, 4]
        assert net.w.asnumpy().tolist() == [4, 4, 4]
        grads = []
        for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
            ms.set_context(mode=mode)
            biases = _TwoBiases()
            loss, g = ms.value_and_grad(biases, None,
                                        biases.trainable_params())()
            assert loss.item() == 9.0
            grads.append([t.asnumpy().tobytes() for t in g])
        assert grads[0] == grads[1]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE, jit_config={"jit_level": ""})


# -- Gradients of an empty batch (issue 55, item 5) ----------------------------

def test_conv2d_gradients_of_an_empty_batch_match_torch():
    import torch
    w = np.random.default_rng(0).standard_normal((4, 3, 3, 3)).astype(
        np.float32)
    x = np.zeros((0, 3, 8, 8), np.float32)
    xt = torch.tensor(x, requires_grad=True)
    wt = torch.tensor(w, requires_grad=True)
    torch.nn.functional.conv2d(xt, wt).sum().backward()

    def loss(x, w):
        return ops.conv2d(x, w).sum()

    grads = []
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        try:
            dx, dw = ms.grad(loss, (0, 1))(Tensor(x), Tensor(w))
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)
        assert dx.shape == (0, 3, 8, 8)
        assert np.array_equal(dw.asnumpy(), wt.grad.numpy())
        grads.append(dw.asnumpy().tobytes())
    assert grads[0] == grads[1]


# -- Transform sizes past memory (issue 55, item 4) ----------------------------

@pytest.mark.parametrize("make, data, phrase", [
    (lambda: vision.Resize((2 ** 31 - 1, 2 ** 31 - 1)), "image",
     "has more than 8 EiB"),
    (lambda: vision.Resize(10 ** 9), "image", "more than this machine's memory"),
    (lambda: vision.RandomCrop(2 ** 31, pad_if_needed=True), "image",
     "has more than 8 EiB"),
    (lambda: transforms.OneHot(2 ** 40), "label",
     "more than this machine's memory"),
])
def test_a_transform_too_large_for_memory_is_one_error(make, data, phrase):
    value = (np.zeros((4, 4, 3), np.uint8) if data == "image" else
             np.array([1], np.int32))
    with pytest.raises(ms.MSError, match=phrase):
        make()(value)
