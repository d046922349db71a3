"""ms.mutable and ms.jit_class: variable scalar inputs that do not
recompile, and plain-class instances in graph capture. Every graph result is
checked against the same function run in PyNative, bit for bit."""

import numpy as np
import pytest

import msmlir as ms
from msmlir import nn, ops, Tensor


def _x():
    return Tensor(np.linspace(-3, 3, 12, dtype=np.float32).reshape(3, 4))


# ---------------------------------------------------------------------------
# mutable
# ---------------------------------------------------------------------------

def test_mutable_scalar_does_not_recompile():
    @ms.jit
    def f(x, scale):
        return x * scale + scale

    x = _x()
    before = ms.compile_count()
    outs = [f(x, ms.mutable(s)).asnumpy() for s in (2.0, 3.5, -1.25)]
    assert ms.compile_count() == before + 1
    for s, out in zip((2.0, 3.5, -1.25), outs):
        expected = (x * Tensor(s, ms.float32) + Tensor(s, ms.float32))
        assert out.tobytes() == expected.asnumpy().tobytes()
        np.testing.assert_allclose(out, x.asnumpy() * s + s, rtol=1e-6)


def test_plain_scalar_is_a_constant_and_recompiles():
    @ms.jit
    def f(x, scale):
        return x * scale

    x = _x()
    before = ms.compile_count()
    for s in (2.0, 3.0):
        np.testing.assert_allclose(f(x, s).asnumpy(), x.asnumpy() * s)
    assert ms.compile_count() == before + 2


def test_mutable_int_and_bool_dtypes():
    @ms.jit
    def f(x, n, flag):
        return x + n, ops.cast(flag, ms.float32) * x

    x = Tensor(np.arange(6, dtype=np.int64).reshape(2, 3))
    before = ms.compile_count()
    for n, flag in ((1, True), (7, False)):
        added, masked = f(x, ms.mutable(n), ms.mutable(flag))
        assert added.dtype == ms.int64
        np.testing.assert_array_equal(added.asnumpy(), x.asnumpy() + n)
        np.testing.assert_array_equal(masked.asnumpy(),
                                      x.asnumpy() * float(flag))
    assert ms.compile_count() == before + 1


def test_mutable_tuple_list_and_dict():
    def body(x, pair, weights, opts):
        a, b = pair
        return x * a + b + weights[0] * weights[1] + opts["shift"]

    f = ms.jit(body)
    x = _x()
    before = ms.compile_count()
    for k in (1.0, 2.0, 3.0):
        out = f(x, ms.mutable((k, 2 * k)), ms.mutable([k, 0.5]),
                ms.mutable({"shift": -k})).asnumpy()
        ref = body(x, (k, 2 * k), [k, 0.5], {"shift": -k})
        assert out.tobytes() == ref.asnumpy().tobytes()
    assert ms.compile_count() == before + 1


def test_mutable_in_a_cell_construct_under_graph_mode():
    class Scale(nn.Cell):
        def construct(self, x, s):
            return ops.relu(x * s)

    net = Scale()
    x = _x()
    ms.set_context(mode=ms.GRAPH_MODE)
    before = ms.compile_count()
    graph = [net(x, ms.mutable(s)).asnumpy() for s in (0.5, -2.0)]
    assert ms.compile_count() == before + 1
    ms.set_context(mode=ms.PYNATIVE_MODE)
    for s, out in zip((0.5, -2.0), graph):
        eager = net(x, Tensor(s, ms.float32)).asnumpy()
        assert out.tobytes() == eager.tobytes()


def test_mutable_is_the_plain_value_in_pynative():
    n = ms.mutable(3)
    assert n == 3 and n + 1 == 4 and isinstance(n, int)
    f = ms.mutable(2.5)
    assert f * 2 == 5.0 and isinstance(f, float)
    b = ms.mutable(True)
    assert b and repr(b) == "True" and not ms.mutable(False)
    t = ms.mutable((1, [2.0, False]))
    assert t == (1, [2.0, False]) and isinstance(t, tuple)
    x = _x()
    assert ms.mutable(x) is x
    # A Tensor inside a mutable container stays that Tensor.
    assert ms.mutable([x])[0] is x


def test_mutable_errors():
    with pytest.raises(TypeError, match="mutable: input_data must be"):
        ms.mutable("text")
    with pytest.raises(TypeError, match="got str"):
        ms.mutable([1, "a"])
    with pytest.raises(TypeError, match="got object"):
        ms.mutable({"k": object()})
    with pytest.raises(TypeError, match="dynamic_len must be a bool"):
        ms.mutable([1, 2], dynamic_len="yes")
    with pytest.raises(TypeError, match="dynamic_len=True needs a tuple"):
        ms.mutable(1, dynamic_len=True)
    with pytest.raises(ValueError, match="same type and shape"):
        ms.mutable([Tensor(np.ones(2, np.float32)),
                    Tensor(np.ones(3, np.float32))], dynamic_len=True)
    with pytest.raises(ValueError, match="same type and shape"):
        ms.mutable([1, 2.0], dynamic_len=True)
    same = ms.mutable([1.0, 2.0], dynamic_len=True)
    assert same == [1.0, 2.0]


# ---------------------------------------------------------------------------
# jit_class
# ---------------------------------------------------------------------------

@ms.jit_class
class Affine:
    def __init__(self, weight, bias, scale=1.0):
        self.weight = weight
        self.bias = bias
        self.scale = scale

    def apply(self, x):
        return ops.matmul(x, self.weight) * self.scale + self.bias


@ms.jit_class
class Stack:
    def __init__(self, layers):
        self.layers = layers

    def __call__(self, x):
        for layer in self.layers:
            x = ops.relu(layer.apply(x))
        return x


def _affine(seed, scale=1.0):
    rng = np.random.default_rng(seed)
    return Affine(Tensor(rng.standard_normal((4, 4)).astype(np.float32)),
                  Tensor(rng.standard_normal(4).astype(np.float32)), scale)


def test_jit_class_instance_as_argument():
    @ms.jit
    def f(x, layer):
        return layer.apply(x)

    x = _x()
    before = ms.compile_count()
    for seed in (1, 2):
        layer = _affine(seed)
        out = f(x, layer).asnumpy()
        assert out.tobytes() == layer.apply(x).asnumpy().tobytes()
    # New tensors of the same types are new inputs, not a new graph.
    assert ms.compile_count() == before + 1
    # A non-Tensor attribute is a constant: a new value, a new graph.
    out = f(x, _affine(1, scale=2.0)).asnumpy()
    assert out.tobytes() == _affine(1, 2.0).apply(x).asnumpy().tobytes()
    assert ms.compile_count() == before + 2


def test_jit_class_nested_and_called():
    @ms.jit
    def f(x, stack):
        return stack(x)

    x = _x()
    stack = Stack([_affine(3), _affine(4)])
    out = f(x, stack).asnumpy()
    assert out.tobytes() == stack(x).asnumpy().tobytes()
    # The graph reads the tensors of the instance it is given.
    stack.layers[0].bias = Tensor(np.full(4, 10, np.float32))
    before = ms.compile_count()
    out = f(x, stack).asnumpy()
    assert ms.compile_count() == before
    assert out.tobytes() == stack(x).asnumpy().tobytes()


def test_jit_class_instance_as_cell_attribute_in_graph_mode():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.layer = _affine(5, scale=0.5)

        def construct(self, x):
            return self.layer.apply(x)

    net = Net()
    x = _x()
    eager = net(x).asnumpy()
    ms.set_context(mode=ms.GRAPH_MODE)
    assert net(x).asnumpy().tobytes() == eager.tobytes()


def test_jit_class_leaves_the_instance_alone():
    @ms.jit
    def f(x, layer):
        return layer.apply(x)

    layer = _affine(6)
    weight = layer.weight
    f(_x(), layer)
    # Capture worked on a copy: the instance still holds its own Tensor.
    assert layer.weight is weight


def test_jit_class_errors():
    with pytest.raises(TypeError, match="jit_class: expected a class"):
        ms.jit_class(lambda x: x)
    with pytest.raises(TypeError, match="expected a class"):
        ms.jit_class(_affine(1))

    class MyCell(nn.Cell):
        pass

    with pytest.raises(TypeError, match="is an nn.Cell"):
        ms.jit_class(MyCell)

    class Slotted:
        __slots__ = ("a",)

    with pytest.raises(TypeError, match="__slots__"):
        ms.jit_class(Slotted)


def test_dict_arguments_bind_each_key_to_its_own_tensor():
    # Keys in non-sorted insertion order, tensors of one type: each key
    # must still get its own value in the graph.
    @ms.jit
    def f(d):
        return d["b"] - d["a"]

    a = Tensor(np.full(3, 1.0, np.float32))
    b = Tensor(np.full(3, 5.0, np.float32))
    np.testing.assert_array_equal(f({"b": b, "a": a}).asnumpy(),
                                  np.full(3, 4.0, np.float32))
    np.testing.assert_array_equal(f({"a": a, "b": b}).asnumpy(),
                                  np.full(3, 4.0, np.float32))
