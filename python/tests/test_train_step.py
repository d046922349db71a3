"""Train steps: forward + backward + optimizer update. Under @ms.jit, and
nn.TrainOneStepCell in GRAPH_MODE, the step is captured once into one graph
that updates the Parameters (no PyNative kernel runs, nothing recompiles
across steps); losses and updated weights are bit for bit equal to
PyNative's at every jit_level, and within 1e-5 of torch."""

import gc
import numpy as np
import pytest

import msmlir as ms
from msmlir import Tensor, Parameter, nn, ops

from conftest import Network, assert_bitwise, assert_close, rand

torch = pytest.importorskip("torch")

LEVELS = ["O0", "O1", "O2"]
STEPS = 3


def _batches(n=STEPS, batch=8):
    rng = np.random.default_rng(3)
    return [(rng.uniform(0, 1, (batch, 1, 28, 28)).astype(np.float32),
             np.eye(10, dtype=np.float32)[rng.integers(0, 10, batch)])
            for _ in range(n)]


def _fresh_net():
    ms.set_seed(7)
    return Network()


def _jit_step(net, optimizer, use_jit):
    loss_fn = nn.CrossEntropyLoss()

    def forward(x, y):
        return loss_fn(net(x), y)

    grad_fn = ms.value_and_grad(forward, None, optimizer.parameters)

    def step(x, y):
        loss, grads = grad_fn(x, y)
        optimizer(grads)
        return loss

    return ms.jit(step) if use_jit else step


def _make_step(kind, net, opt):
    """The train step of `kind`: "jit" (value_and_grad under ms.jit),
    "pynative" (value_and_grad), "cell" (TrainOneStepCell in GRAPH_MODE) or
    "cell_pynative"."""
    if kind in ("cell", "cell_pynative"):
        if kind == "cell":
            ms.set_context(mode=ms.GRAPH_MODE)
        return nn.TrainOneStepCell(nn.WithLossCell(net,
                                                   nn.CrossEntropyLoss()),
                                   opt)
    return _jit_step(net, opt, kind == "jit")


def _train(kind, level="", make_opt=None):
    """Losses and final weights of STEPS steps."""
    make_opt = make_opt or (lambda ps: nn.Momentum(ps, 0.1, 0.9))
    ms.set_context(mode=ms.PYNATIVE_MODE, jit_level=level)
    net = _fresh_net()
    opt = make_opt(net.trainable_params())
    step = _make_step(kind, net, opt)
    params = net.trainable_params()
    losses = [step(Tensor(x), Tensor(y)).asnumpy().copy()
              for x, y in _batches()]
    # Updated in place: the same Parameter objects hold the new values.
    assert all(a is b for a, b in zip(params, net.trainable_params()))
    return losses, [p.asnumpy().copy() for p in params], step


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("kind", ["jit", "cell"])
def test_graph_equals_pynative(kind, level):
    pl, pw, _ = _train("pynative")
    gl, gw, _ = _train(kind, level)
    for a, b in zip(pl, gl):
        assert_bitwise(a, b)
    for a, b in zip(pw, gw):
        assert_bitwise(a, b)


def test_train_one_step_cell_pynative():
    pl, pw, _ = _train("pynative")
    cl, cw, _ = _train("cell_pynative")
    for a, b in zip(pl + pw, cl + cw):
        assert_bitwise(a, b)


def test_against_torch():
    losses, weights, _ = _train("jit", make_opt=lambda ps: nn.SGD(ps, 0.1))
    net = _fresh_net()
    t = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(784, 512),
                            torch.nn.ReLU(), torch.nn.Linear(512, 512),
                            torch.nn.ReLU(), torch.nn.Linear(512, 10))
    tparams = [t[1].weight, t[1].bias, t[3].weight, t[3].bias, t[5].weight,
               t[5].bias]
    with torch.no_grad():
        for tp, p in zip(tparams, net.trainable_params()):
            tp.copy_(torch.from_numpy(p.asnumpy()))
    opt = torch.optim.SGD(t.parameters(), 0.1)
    for (x, y), loss in zip(_batches(), losses):
        opt.zero_grad()
        tl = torch.nn.functional.cross_entropy(t(torch.from_numpy(x)),
                                               torch.from_numpy(y))
        tl.backward()
        opt.step()
        assert_close(loss, tl.detach().numpy())
    for w, tp in zip(weights, tparams):
        assert_close(w, tp.detach().numpy(), rtol=1e-4)


@pytest.mark.parametrize("kind", ["jit", "cell"])
def test_one_graph_across_steps(kind):
    """The first step compiles one graph; later steps reuse it and run no
    PyNative kernel (forward, backward and update are one function)."""
    ms.set_context(mode=ms.PYNATIVE_MODE)
    net = _fresh_net()
    opt = nn.SGD(net.trainable_params(), 0.01)
    step = _make_step(kind, net, opt)
    batches = [(Tensor(x), Tensor(y)) for x, y in _batches(4)]
    before = ms.compile_count()
    step(*batches[0])
    assert ms.compile_count() == before + 1
    stats = ms.pynative_stats()
    for x, y in batches[1:]:
        step(x, y)
    after = ms.pynative_stats()
    assert ms.compile_count() == before + 1
    assert (after["hits"], after["misses"]) == (stats["hits"],
                                                stats["misses"])
    if kind == "cell":
        assert step.compile_count == 1


@pytest.mark.parametrize("kind", ["jit", "cell", "pynative"])
def test_steady_state_step_allocates_nothing_new(kind):
    """After two warm-up steps a train step's buffers all come back from the
    caching allocator (issue 15's memory target): no new large block, and
    what compiled code holds between steps does not grow."""
    ms.set_context(mode=ms.PYNATIVE_MODE)
    net = _fresh_net()
    opt = nn.Momentum(net.trainable_params(), 0.01, 0.9)
    step = _make_step(kind, net, opt)
    batches = [(Tensor(x), Tensor(y)) for x, y in _batches(6)]
    for x, y in batches[:2]:
        step(x, y)
    warm = ms.runtime.memory_stats()
    for x, y in batches[2:]:
        step(x, y)
    after = ms.runtime.memory_stats()
    assert after["cache_hits"] > warm["cache_hits"]
    assert after["cache_misses"] == warm["cache_misses"]
    assert after["total_allocated_memory"] == warm["total_allocated_memory"]


@pytest.mark.parametrize("kind", ["jit", "cell", "pynative"])
def test_step_leaves_nothing_for_the_cycle_collector(kind):
    """A train step frees what it made as soon as it returns. The PyNative
    tape's graph once formed a cycle with its symbolic values and kept the
    forward's buffers until Python's collector ran, which raised peak RSS
    by tens of MiB."""
    ms.set_context(mode=ms.PYNATIVE_MODE)
    net = _fresh_net()
    step = _make_step(kind, net, nn.SGD(net.trainable_params(), 0.01))
    x, y = (Tensor(a) for a in _batches(1)[0])
    step(x, y)
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        step(x, y)
        gc.collect()
        cyclic = [type(o).__name__ for o in gc.garbage]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert cyclic == []


def _address(param):
    view = np.asarray(param._t)
    return view.ctypes.data


def test_update_in_place_unless_the_buffer_is_shared():
    """A weight's update is written over the weight
    (ms-update-parameters-in-place) when nothing else holds its buffer:
    the Parameter keeps one buffer across steps. A numpy view taken
    before a step keeps the values it had (the step updates a copy), as a
    Tensor sharing the buffer would."""
    ms.set_context(mode=ms.GRAPH_MODE)
    net = _fresh_net()
    step = _make_step("cell", net, nn.Adam(net.trainable_params(), 1e-3))
    # The first layer's bias: its update is an op of its own (the
    # weights' run in their gradients' matmul tiles).
    bias = net.trainable_params()[1]
    batches = [(Tensor(x), Tensor(y)) for x, y in _batches(5)]
    for x, y in batches[:2]:
        step(x, y)
    addresses = set()
    for x, y in batches[2:4]:
        step(x, y)
        addresses.add(_address(bias))
    assert len(addresses) == 1
    view = bias.asnumpy()
    before = view.copy()
    step(*batches[4])
    assert_bitwise(view, before)
    assert not np.array_equal(bias.asnumpy(), before)
    assert _address(bias) != view.ctypes.data


def test_memory_stats_api():
    stats = ms.runtime.memory_stats()
    for key in ("total_reserved_memory", "total_allocated_memory",
                "total_idle_memory", "max_reserved_memory",
                "max_allocated_memory", "cache_hits", "cache_misses"):
        assert isinstance(stats[key], int) and stats[key] >= 0, key
    assert stats["total_reserved_memory"] == (
        stats["total_allocated_memory"] + stats["total_idle_memory"])
    ms.runtime.reset_peak_stats()
    assert ms.runtime.max_memory_allocated() == ms.runtime.memory_allocated()
    # A train step's activations ([8, 512] float32 and more) raise the peak
    # and are then kept for reuse.
    net = _fresh_net()
    step = _jit_step(net, nn.SGD(net.trainable_params(), 0.01), True)
    step(*[Tensor(a) for a in _batches(1)[0]])
    assert ms.runtime.max_memory_allocated() >= 8 * 512 * 4
    assert ms.runtime.memory_stats()["total_idle_memory"] >= 8 * 512 * 4
    assert ms.runtime.memory_reserved() >= ms.runtime.memory_allocated()
    ms.runtime.empty_cache()
    assert ms.runtime.memory_stats()["total_idle_memory"] == 0


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_results_come_from_the_caching_allocator(mode):
    """Every op's result is a caching-allocator block while Python holds it,
    and the next result of its size reuses it. From calloc, a fresh
    process page-faulted each PyNative result in again (glibc returns large
    blocks to the kernel): LeNet-5's train step took 13-19 ms, not 3."""
    ms.set_context(mode=mode)
    a = Tensor(rand(64, 1024))
    add = ms.jit(ops.add) if mode == ms.GRAPH_MODE else ops.add
    add(a, a)  # compiles; its result is freed at once
    before = ms.runtime.memory_stats()
    held = add(a, a)
    during = ms.runtime.memory_stats()
    assert during["total_allocated_memory"] - \
        before["total_allocated_memory"] >= 64 * 1024 * 4
    assert during["cache_hits"] > before["cache_hits"]
    assert during["cache_misses"] == before["cache_misses"]
    del held
    assert ms.runtime.memory_allocated() == before["total_allocated_memory"]


def test_assign_in_jit():
    """ops.assign inside a jitted function: the Parameter holds the value
    after the call, the graph reads the new value after the assign, and
    the function compiles once."""
    p = Parameter(Tensor(np.ones(3, np.float32)), name="p")

    @ms.jit
    def bump(x):
        ops.assign(p, p + x)
        return p * 2.0

    x = Tensor(np.arange(3, dtype=np.float32))
    out = bump(x)
    assert_close(p.asnumpy(), [1, 2, 3])
    assert_close(out.asnumpy(), [2, 4, 6])
    before = ms.compile_count()
    bump(x)
    assert_close(p.asnumpy(), [1, 3, 5])
    assert ms.compile_count() == before


def test_assign_errors():
    p = Parameter(Tensor(np.ones(3, np.float32)), name="p")
    with pytest.raises(TypeError, match="must be a Parameter"):
        ops.assign(Tensor(np.ones(3, np.float32)), p)
    with pytest.raises(ValueError, match="Parameter p is"):
        ops.assign(p, Tensor(np.ones(4, np.float32)))


def test_checkpoint_holds_optimizer_state(tmp_path):
    _, _, step = _train("cell")
    path = str(tmp_path / "train.ckpt")
    ms.save_checkpoint(step, path)
    names = set(ms.load_checkpoint(path))
    assert "dense_relu_sequential.0.weight" in names
    assert "moments.dense_relu_sequential.0.weight" in names
    assert "learning_rate" in names


class _ConvBN(nn.Cell):
    """conv, BatchNorm2d (training: batch statistics, moving statistics
    updated through ops.assign inside the differentiated function), relu,
    dense."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3)
        self.bn = nn.BatchNorm2d(4)
        self.relu = nn.ReLU()
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(4 * 6 * 6, 3)

    def construct(self, x):
        return self.fc(self.flatten(self.relu(self.bn(self.conv(x)))))


def _train_bn(graph, level=""):
    ms.set_context(mode=ms.PYNATIVE_MODE, jit_level=level)
    ms.set_seed(3)
    net = _ConvBN()
    net.set_train()
    opt = nn.Momentum(net.trainable_params(), 0.01, 0.9)
    if graph:
        ms.set_context(mode=ms.GRAPH_MODE)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()),
                               opt)
    rng = np.random.default_rng(0)
    losses = []
    for _ in range(STEPS):
        x = Tensor(rng.random((4, 1, 6, 6), dtype=np.float32))
        y = Tensor(rng.integers(0, 3, 4).astype(np.int32))
        losses.append(step(x, y).asnumpy().copy())
    return losses, {n: p.asnumpy().copy()
                    for n, p in net.parameters_and_names()}


@pytest.mark.parametrize("level", LEVELS)
def test_batch_norm_training_graph_equals_pynative(level):
    pl, pw = _train_bn(False)
    gl, gw = _train_bn(True, level)
    assert "bn.moving_mean" in pw
    # The moving statistics moved (momentum 0.9 towards the batch's).
    assert not np.array_equal(pw["bn.moving_mean"], np.zeros(4, np.float32))
    for a, b in zip(pl, gl):
        assert_bitwise(a, b)
    for name in pw:
        assert_bitwise(pw[name], gw[name])
