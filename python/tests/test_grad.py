"""ms.grad / ms.value_and_grad: gradients against torch.autograd (1e-5
relative), PyNative (tape) and GRAPH (captured) gradients bit for bit equal
at every jit_level, MindSpore's return structures, stop_gradient, and the
errors."""

import numpy as np
import pytest

import msmlir as ms
from msmlir import Tensor, Parameter, nn, ops

from conftest import LeNet5, Network, assert_bitwise, assert_close, rand

torch = pytest.importorskip("torch")

MODES = [ms.PYNATIVE_MODE, ms.GRAPH_MODE]
LEVELS = ["O0", "O1", "O2"]


def _np(x):
    if isinstance(x, (tuple, list)):
        return [_np(v) for v in x]
    return x.asnumpy()


# name: (ms function, torch function, input shapes)
FUNCTIONS = {
    "dense": (lambda x, w, b: ops.reduce_sum(ops.dense(x, w, b)),
              lambda x, w, b: torch.nn.functional.linear(x, w, b).sum(),
              [(4, 6), (3, 6), (3,)]),
    "matmul": (lambda a, b: ops.reduce_sum(ops.matmul(a, b) * ops.matmul(
        a, b)), lambda a, b: ((a @ b) * (a @ b)).sum(), [(3, 5), (5, 4)]),
    "add_broadcast": (lambda a, b: ops.reduce_sum((a + b) * (a + b)),
                      lambda a, b: ((a + b) * (a + b)).sum(),
                      [(4, 5), (5,)]),
    "mul_sub_div": (lambda a, b: ops.reduce_mean((a * b - a) / (b * b + 1.5)),
                    lambda a, b: ((a * b - a) / (b * b + 1.5)).mean(),
                    [(3, 4), (3, 4)]),
    "relu": (lambda x: ops.reduce_sum(ops.relu(x) * x),
             lambda x: (torch.relu(x) * x).sum(), [(5, 7)]),
    "reductions": (lambda x: ops.reduce_sum(ops.reduce_mean(x, 1, True) *
                                            ops.reduce_sum(x, 0, True)),
                   lambda x: (x.mean(1, keepdim=True) * x.sum(0, keepdim=True)).sum(),
                   [(4, 6)]),
    "reshape_flatten": (
        lambda x: ops.reduce_sum(ops.flatten(x) * ops.reshape(x, (2, 12))),
        lambda x: (x.flatten(1) * x.reshape(2, 12)).sum(), [(2, 3, 4)]),
    "softmax": (lambda x: ops.reduce_sum(ops.softmax(x, -1) *
                                         Tensor(np.arange(5, dtype=np.float32))),
                lambda x: (torch.softmax(x, -1) * torch.arange(5.0)).sum(),
                [(3, 5)]),
    "log_softmax": (lambda x: ops.reduce_sum(ops.log_softmax(x, 1) *
                                             ops.log_softmax(x, 1)),
                    lambda x: (torch.log_softmax(x, 1) ** 2).sum(), [(4, 6)]),
}


def _inputs(shapes):
    return [rand(*s, seed=i) for i, s in enumerate(shapes)]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_against_torch(mode, name):
    fn, tfn, shapes = FUNCTIONS[name]
    ms.set_context(mode=mode)
    xs = _inputs(shapes)
    positions = tuple(range(len(xs)))
    value, grads = ms.value_and_grad(fn, positions)(*[Tensor(x) for x in xs])
    ts = [torch.from_numpy(x).requires_grad_() for x in xs]
    out = tfn(*ts)
    out.backward()
    assert_close(value.asnumpy(), out.detach().numpy())
    for g, t in zip(grads, ts):
        assert_close(g.asnumpy(), t.grad.numpy())


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_graph_equals_pynative(name, level):
    fn, _, shapes = FUNCTIONS[name]
    xs = [Tensor(x) for x in _inputs(shapes)]
    positions = tuple(range(len(xs)))
    ms.set_context(mode=ms.PYNATIVE_MODE)
    pn = ms.grad(fn, positions)(*xs)
    ms.set_context(mode=ms.GRAPH_MODE, jit_level=level)
    gr = ms.grad(fn, positions)(*xs)
    for a, b in zip(pn, gr):
        assert_bitwise(a.asnumpy(), b.asnumpy())


def _torch_mlp(net):
    t = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(784, 512),
                            torch.nn.ReLU(), torch.nn.Linear(512, 512),
                            torch.nn.ReLU(), torch.nn.Linear(512, 10))
    with torch.no_grad():
        for layer, (_, p) in zip([t[1], t[1], t[3], t[3], t[5], t[5]],
                                 net.parameters_and_names()):
            target = layer.weight if p.name.endswith("weight") else layer.bias
            target.copy_(torch.from_numpy(p.asnumpy()))
    return t


def _net_loss(net, loss_fn):
    def forward(x, y):
        return loss_fn(net(x), y)
    return forward


@pytest.mark.parametrize("mode", MODES)
def test_mlp_weights_against_torch(mode):
    ms.set_context(mode=mode)
    net = Network()
    x = rand(16, 1, 28, 28, low=0, high=1)
    y = np.eye(10, dtype=np.float32)[np.arange(16) % 10]
    fn = ms.value_and_grad(_net_loss(net, nn.CrossEntropyLoss()), None,
                           net.trainable_params())
    loss, grads = fn(Tensor(x), Tensor(y))
    # The reference in float64: float32 torch is itself ~1e-5 off.
    t = _torch_mlp(net).double()
    tl = torch.nn.functional.cross_entropy(
        t(torch.from_numpy(x).double()), torch.from_numpy(y).double())
    tl.backward()
    assert_close(loss.asnumpy(), tl.detach().numpy())
    tparams = [t[1].weight, t[1].bias, t[3].weight, t[3].bias, t[5].weight,
               t[5].bias]
    assert len(grads) == 6
    for g, tp in zip(grads, tparams):
        assert_close(g.asnumpy(), tp.grad.numpy())


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("name", ["mlp", "lenet"])
def test_network_graph_equals_pynative(name, level):
    """The loss and every gradient (input and weights) of the seed MLP and
    LeNet-5 through the Python API: GRAPH at each jit_level gives PyNative's
    bits."""
    net = Network() if name == "mlp" else LeNet5()
    size = 28 if name == "mlp" else 32
    x = Tensor(rand(8, 1, size, size, low=0, high=1))
    y = Tensor(np.eye(10, dtype=np.float32)[np.arange(8) % 10])
    fn = ms.value_and_grad(_net_loss(net, nn.CrossEntropyLoss()), 0,
                           net.trainable_params())
    ms.set_context(mode=ms.PYNATIVE_MODE)
    pl, (pgx, pgw) = fn(x, y)
    ms.set_context(mode=ms.GRAPH_MODE, jit_level=level)
    gl, (ggx, ggw) = fn(x, y)
    assert_bitwise(pl.asnumpy(), gl.asnumpy())
    assert_bitwise(pgx.asnumpy(), ggx.asnumpy())
    for a, b in zip(pgw, ggw):
        assert_bitwise(a.asnumpy(), b.asnumpy())


#===---------------------------------------------------------------------===#
# Return structures (MindSpore's)
#===---------------------------------------------------------------------===#

def _fn(x, y):
    return ops.reduce_sum(x * y * 2.0)


@pytest.mark.parametrize("mode", MODES)
def test_structures(mode):
    ms.set_context(mode=mode)
    x, y = Tensor(rand(3)), Tensor(rand(3, seed=1))
    w = Parameter(Tensor(rand(3, seed=2)), name="w")

    def fw(x, y):
        return ops.reduce_sum(x * y * w)

    g0 = ms.grad(_fn)(x, y)
    assert isinstance(g0, Tensor)
    assert_close(g0.asnumpy(), 2 * y.asnumpy())
    g01 = ms.grad(_fn, (0, 1))(x, y)
    assert isinstance(g01, tuple) and len(g01) == 2
    assert_close(g01[1].asnumpy(), 2 * x.asnumpy())
    gw = ms.grad(fw, None, [w])(x, y)
    assert isinstance(gw, tuple) and len(gw) == 1
    assert_close(gw[0].asnumpy(), x.asnumpy() * y.asnumpy())
    gw1 = ms.grad(fw, None, w)(x, y)
    assert isinstance(gw1, Tensor)
    both = ms.grad(fw, 1, ms.ParameterTuple([w]))(x, y)
    assert isinstance(both, tuple) and len(both) == 2
    assert isinstance(both[0], Tensor) and isinstance(both[1], tuple)
    assert_close(both[0].asnumpy(), x.asnumpy() * w.asnumpy())
    value, g = ms.value_and_grad(_fn)(x, y)
    assert_close(value.asnumpy(), np.sum(x.asnumpy() * y.asnumpy() * 2))
    assert_close(g.asnumpy(), 2 * y.asnumpy())


@pytest.mark.parametrize("mode", MODES)
def test_has_aux(mode):
    ms.set_context(mode=mode)
    x = Tensor(rand(4))

    def fn(x):
        s = ops.reduce_sum(x * x)
        return s, x * 3.0

    g, aux = ms.grad(fn, has_aux=True)(x)
    assert_close(g.asnumpy(), 2 * x.asnumpy())
    assert isinstance(aux, tuple) and len(aux) == 1
    assert_close(aux[0].asnumpy(), 3 * x.asnumpy())
    (value, aux2), g2 = ms.value_and_grad(fn, has_aux=True)(x)
    assert_close(value.asnumpy(), np.sum(x.asnumpy() ** 2))
    assert_close(g2.asnumpy(), 2 * x.asnumpy())


@pytest.mark.parametrize("mode", MODES)
def test_multiple_outputs_sum(mode):
    """Without has_aux every output is differentiated (sens = ones)."""
    ms.set_context(mode=mode)
    x = Tensor(rand(4))
    g = ms.grad(lambda x: (ops.reduce_sum(x * x), x * 3.0))(x)
    assert_close(g.asnumpy(), 2 * x.asnumpy() + 3)


@pytest.mark.parametrize("mode", MODES)
def test_stop_gradient(mode):
    ms.set_context(mode=mode)
    x = Tensor(rand(5))
    g = ms.grad(lambda x: ops.reduce_sum(x * ops.stop_gradient(x)))(x)
    assert_close(g.asnumpy(), x.asnumpy())


@pytest.mark.parametrize("mode", MODES)
def test_unused_input_gets_zeros(mode):
    ms.set_context(mode=mode)
    x, y = Tensor(rand(3)), Tensor(rand(2, seed=1))
    gx, gy = ms.grad(lambda x, y: ops.reduce_sum(x * x), (0, 1))(x, y)
    assert_close(gx.asnumpy(), 2 * x.asnumpy())
    assert np.array_equal(gy.asnumpy(), np.zeros(2, np.float32))


@pytest.mark.parametrize("mode", MODES)
def test_identity(mode):
    """The output is the input itself: its gradient is the sens (ones)."""
    ms.set_context(mode=mode)
    x = Tensor(rand(2, 3))
    g = ms.grad(lambda x: x)(x)
    assert np.array_equal(g.asnumpy(), np.ones((2, 3), np.float32))


def test_jit_of_grad_compiles_once():
    x = Tensor(rand(6))
    step = ms.jit(ms.grad(lambda x: ops.reduce_sum(ops.relu(x) * x)))
    before = ms.compile_count()
    for _ in range(3):
        g = step(x)
    assert ms.compile_count() == before + 1
    assert_close(g.asnumpy(), 2 * np.maximum(x.asnumpy(), 0))


def test_pynative_tape_is_cached():
    """A PyNative training loop differentiates its tape once."""
    net = nn.Dense(4, 3)
    fn = ms.value_and_grad(lambda x: ops.reduce_sum(net(x)), None,
                           net.trainable_params())
    x = Tensor(rand(2, 4))
    fn(x)
    compiled = fn._kernels.copy()
    fn(x)
    assert list(fn._kernels) == list(compiled)


def _kernel_runs():
    stats = ms.pynative_stats()
    return stats["hits"] + stats["misses"]


def _launches(fn, *args):
    """PyNative kernels `fn(*args)` runs, after a warm-up call."""
    fn(*args)
    before = _kernel_runs()
    fn(*args)
    return _kernel_runs() - before


@pytest.mark.parametrize("with_value", [False, True])
def test_pynative_backward_reuses_forward_values(with_value):
    """The gradient function reads the values the tape's ops computed: a
    longer forward chain costs its own kernels once, and the backward
    runs no more kernels for it. Here `c` (a chain of exps of y, not
    differentiated) is read by the backward of x * c; recomputing the
    forward would run the chain a second time."""
    ms.set_context(mode=ms.PYNATIVE_MODE)
    x, y = Tensor(rand(4, 5)), Tensor(rand(4, 5))

    def chain(n):
        def f(x, y):
            c = y
            for _ in range(n):
                c = ops.exp(c * 0.5)
            return ops.reduce_sum(x * c)
        return f

    make = ms.value_and_grad if with_value else ms.grad
    short, long = chain(2), chain(6)
    forward_extra = _launches(long, x, y) - _launches(short, x, y)
    assert forward_extra == 8  # 4 more (mul, exp) pairs
    grad_extra = (_launches(make(long), x, y) -
                  _launches(make(short), x, y))
    assert grad_extra == forward_extra
    # And the gradient itself is right: d/dx sum(x * c) = c.
    c = y.asnumpy()
    for _ in range(6):
        c = np.exp(c * np.float32(0.5))
    g = make(long)(x, y)
    g = g[1] if with_value else g
    assert_close(g.asnumpy(), c)


def test_saved_forward_gradient_runs_no_forward_op():
    """ms-autodiff's saved-forward form (what PyNative runs) takes every
    forward value it reads as an argument: no forward op is left in it."""
    from msmlir import _autograd
    source = """
func.func @construct(%x: tensor<4xf32>, %w: tensor<4xf32>) -> tensor<f32> {
  %0 = "ms.mul"(%x, %w) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "ms.exp"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = "ms.reduce_sum"(%1) {axes = array<i64: 0>} : (tensor<4xf32>) -> tensor<f32>
  func.return %2 : tensor<f32>
}
"""
    text, saved = _autograd.differentiate(source, [1], saved_forward=True)
    grad = text[text.index("@construct_grad"):]
    assert "ms.exp" not in grad and "ms.reduce_sum" not in grad
    # exp's result (op 1) for exp's rule; the loss (op 2) is returned.
    assert saved == [(1, 0), (2, 0)]
    assert grad.count("ms.saved") == 2


#===---------------------------------------------------------------------===#
# Errors
#===---------------------------------------------------------------------===#

@pytest.mark.parametrize("mode", MODES)
def test_errors(mode):
    ms.set_context(mode=mode)
    x = Tensor(rand(3))
    with pytest.raises(TypeError, match="not a Tensor"):
        ms.grad(lambda x: 3.0)(x)
    with pytest.raises(ValueError, match="grad_position 2 is out of range"):
        ms.grad(_fn, (0, 2))(x, x)
    with pytest.raises(TypeError, match="not a Tensor"):
        ms.grad(_fn, 1)(x, 2.0)
    with pytest.raises(ValueError, match="both be None"):
        ms.grad(_fn, None)
    with pytest.raises(TypeError, match="weights must be"):
        ms.grad(_fn, 0, [x])
    with pytest.raises(TypeError, match="grad_position must be"):
        ms.grad(_fn, "0")
    with pytest.raises(TypeError, match="only float tensors"):
        ms.grad(_fn)(Tensor(np.arange(3, dtype=np.int32)), x)


def test_nested_grad_is_rejected():
    x = Tensor(rand(3))
    inner = ms.grad(lambda x: ops.reduce_sum(x * x))
    with pytest.raises(ms.MSError, match="higher-order"):
        ms.grad(lambda x: ops.reduce_sum(inner(x)))(x)
