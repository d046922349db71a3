"""Training-mode dropout (Philox4x32-10 masks keyed by the global seed) and
batch norm (batch statistics, moving statistics updated as MindSpore does),
against independent references: a numpy Philox and torch."""

import numpy as np
import pytest

import msmlir as ms
from msmlir import Tensor, nn, ops

LEVELS = ["O0", "O1", "O2"]
M32 = np.uint64(0xFFFFFFFF)


def philox_first_word(counter, key):
    """Philox4x32-10 (Salmon et al. 2011) in numpy uint64 arithmetic; the
    first output word for counters of shape [4, n] and a key pair."""
    c = [np.asarray(w, np.uint64) & M32 for w in counter]
    k0, k1 = np.uint64(key[0]), np.uint64(key[1])
    for _ in range(10):
        p0 = np.uint64(0xD2511F53) * c[0]
        p1 = np.uint64(0xCD9E8D57) * c[2]
        c = [((p1 >> np.uint64(32)) ^ c[1] ^ k0) & M32, p1 & M32,
             ((p0 >> np.uint64(32)) ^ c[3] ^ k1) & M32, p0 & M32]
        k0 = (k0 + np.uint64(0x9E3779B9)) & M32
        k1 = (k1 + np.uint64(0xBB67AE85)) & M32
    return c[0]


def reference_dropout(x, p, seed, offset):
    p = float(np.float32(p))  # the op's p attribute is an f32
    i = np.arange(x.size, dtype=np.uint64)
    word = philox_first_word(
        [i & M32, i >> np.uint64(32), np.full_like(i, offset & 0xFFFFFFFF),
         np.full_like(i, offset >> 32)],
        (seed & 0xFFFFFFFF, seed >> 32))
    keep = (word >= np.uint64(min(int(p * 2 ** 32), 2 ** 32 - 1))).reshape(
        x.shape)
    scale = np.float32(1.0 / (1.0 - p))
    return np.where(keep, x * scale, np.float32(0)), keep


def test_dropout_masks_are_philox_of_seed_offset_and_index():
    x = np.random.default_rng(0).standard_normal((8, 33)).astype(np.float32)
    ms.set_seed(2024)
    for offset in range(3):  # the offset advances by one per call
        y = ops.dropout(Tensor(x), p=0.3).asnumpy()
        expected, _ = reference_dropout(x, 0.3, 2024, offset)
        np.testing.assert_array_equal(y, expected)
    # ops.dropout(seed=...) keys this call with its own seed.
    y = ops.dropout(Tensor(x), p=0.3, seed=7).asnumpy()
    np.testing.assert_array_equal(y, reference_dropout(x, 0.3, 7, 3)[0])


def test_dropout_is_reproducible_and_differs_across_calls():
    x = Tensor(np.ones((64, 128), np.float32))
    ms.set_seed(5)
    first = [ops.dropout(x, 0.5).asnumpy() for _ in range(3)]
    ms.set_seed(5)
    again = [ops.dropout(x, 0.5).asnumpy() for _ in range(3)]
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)
    assert not np.array_equal(first[0], first[1])
    assert not np.array_equal(first[1], first[2])
    ms.set_seed(6)
    assert not np.array_equal(ops.dropout(x, 0.5).asnumpy(), first[0])


@pytest.mark.parametrize("p", [0.1, 0.5, 0.9])
def test_dropout_keeps_about_one_minus_p(p):
    ms.set_seed(11)
    n = 200_000
    y = ops.dropout(Tensor(np.ones(n, np.float32)), p).asnumpy()
    kept = np.count_nonzero(y)
    # Six standard deviations of a binomial(n, 1 - p): with a fixed seed
    # the count is fixed, and a biased generator would miss the bound.
    sigma = np.sqrt(n * p * (1 - p))
    assert abs(kept - n * (1 - p)) < 6 * sigma
    p32 = float(np.float32(p))  # the op's p attribute is an f32
    np.testing.assert_array_equal(np.unique(y[y != 0]),
                                  [np.float32(1.0 / (1.0 - p32))])


@pytest.mark.parametrize("level", LEVELS)
def test_dropout_graph_equals_pynative_bitwise(level):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(16, 32)
            self.drop1 = nn.Dropout(p=0.25)
            self.drop2 = nn.Dropout(p=0.5)

        def construct(self, x):
            return self.drop2(self.drop1(self.fc(x)).relu())

    net = Net()
    net.set_train()
    x = Tensor(np.random.default_rng(1).standard_normal(
        (4, 16)).astype(np.float32))
    ms.set_seed(99)
    eager = [net(x).asnumpy() for _ in range(3)]
    ms.set_context(mode=ms.GRAPH_MODE, jit_level=level)
    ms.set_seed(99)
    graph = [net(x).asnumpy() for _ in range(3)]
    for e, g in zip(eager, graph):
        assert e.tobytes() == g.tobytes()
    assert not np.array_equal(graph[0], graph[1])
    # The identity again at inference.
    net.set_train(False)
    np.testing.assert_array_equal(net(x).asnumpy(),
                                  np.maximum(net.fc(x).asnumpy(), 0))


def test_dropout_mask_does_not_depend_on_threads():
    x = Tensor(np.ones((256, 256), np.float32))
    masks = []
    for threads in (1, 2):
        ms.set_context(runtime_num_threads=threads)
        ms.set_seed(3)
        masks.append(ops.dropout(x, 0.4).asnumpy())
    assert masks[0].tobytes() == masks[1].tobytes()


def _torch_batch_norm(x, steps, momentum, eps, gamma, beta):
    torch = pytest.importorskip("torch")
    bn = (torch.nn.BatchNorm2d if x.ndim == 4 else torch.nn.BatchNorm1d)(
        x.shape[1], eps=eps, momentum=1.0 - momentum).double()
    with torch.no_grad():
        bn.weight.copy_(torch.from_numpy(gamma.astype(np.float64)))
        bn.bias.copy_(torch.from_numpy(beta.astype(np.float64)))
    bn.train()
    t = torch.from_numpy(x.astype(np.float64))
    for _ in range(steps):
        y = bn(t)
    return (y.detach().numpy(), bn.running_mean.numpy(),
            bn.running_var.numpy())


@pytest.mark.parametrize("shape", [(8, 3, 5, 5), (16, 6), (4, 5, 7)])
def test_batch_norm_training_matches_torch(shape):
    rng = np.random.default_rng(7)
    x = (rng.standard_normal(shape) * 3 + 1).astype(np.float32)
    c = shape[1]
    cell = nn.BatchNorm2d(c) if len(shape) == 4 else nn.BatchNorm1d(c)
    gamma = rng.standard_normal(c).astype(np.float32)
    beta = rng.standard_normal(c).astype(np.float32)
    cell.gamma.set_data(Tensor(gamma))
    cell.beta.set_data(Tensor(beta))
    cell.set_train()
    for _ in range(3):
        y = cell(Tensor(x)).asnumpy()
    ref_y, ref_mean, ref_var = _torch_batch_norm(x, 3, 0.9, 1e-5, gamma,
                                                 beta)
    np.testing.assert_allclose(y, ref_y, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(cell.moving_mean.asnumpy(), ref_mean,
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(cell.moving_variance.asnumpy(), ref_var,
                               rtol=1e-5)
    # At inference the updated moving statistics normalize.
    cell.set_train(False)
    expected = ((x - ref_mean.reshape((1, c) + (1,) * (len(shape) - 2))) /
                np.sqrt(ref_var.reshape((1, c) + (1,) * (len(shape) - 2)) +
                        1e-5))
    expected = expected * gamma.reshape((1, c) + (1,) * (len(shape) - 2)) + \
        beta.reshape((1, c) + (1,) * (len(shape) - 2))
    np.testing.assert_allclose(cell(Tensor(x)).asnumpy(), expected,
                               rtol=1e-4, atol=1e-5)


def test_ops_batch_norm_training_updates_running_stats():
    rng = np.random.default_rng(8)
    x = rng.standard_normal((10, 4)).astype(np.float32)
    mean = ms.Parameter(Tensor(np.zeros(4, np.float32)), name="m")
    var = ms.Parameter(Tensor(np.ones(4, np.float32)), name="v")
    w = Tensor(np.ones(4, np.float32))
    b = Tensor(np.zeros(4, np.float32))
    y = ops.batch_norm(Tensor(x), mean, var, w, b, training=True,
                       momentum=0.1).asnumpy()
    np.testing.assert_allclose(
        y, (x - x.mean(0)) / np.sqrt(x.var(0) + 1e-5), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(mean.asnumpy(), 0.1 * x.mean(0), rtol=1e-5,
                               atol=1e-7)
    np.testing.assert_allclose(var.asnumpy(), 0.9 + 0.1 * x.var(0, ddof=1),
                               rtol=1e-5)


def test_batch_norm_training_pynative_and_graph_agree_bitwise():
    x = Tensor(np.random.default_rng(9).standard_normal(
        (6, 3, 4, 4)).astype(np.float32))
    results = []
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        cell = nn.BatchNorm2d(3)
        cell.set_train()
        try:
            y = cell(x).asnumpy()
        except ms.MSError as e:
            # Without ops.assign (the training branch) a graph cannot write
            # the moving statistics back; the error says so.
            assert "needs ops.assign" in str(e)
            return
        results.append((y, cell.moving_mean.asnumpy(),
                        cell.moving_variance.asnumpy()))
    for a, b in zip(*results):
        assert a.tobytes() == b.tobytes()


def test_batch_norm_training_needs_two_values_per_channel():
    cell = nn.BatchNorm1d(3)
    cell.set_train()
    with pytest.raises(ValueError, match="more than one value per channel"):
        cell(Tensor(np.ones((1, 3), np.float32)))


#===---------------------------------------------------------------------===#
# Gradient rules (ms-autodiff) of select, training dropout and cast
#===---------------------------------------------------------------------===#

_GRAD_SOURCE = """
func.func @construct(%x: tensor<4x3xf32>, %y: tensor<3xf32>, %s: tensor<2xi64>) -> tensor<4x3xf32> {
  %m = ms.greater %x, %y : tensor<4x3xf32>, tensor<3xf32>
  %0 = ms.select %m, %x, %y : tensor<4x3xi1>, tensor<4x3xf32>, tensor<3xf32>
  %1 = ms.dropout %0, %s {p = 2.500000e-01 : f32, training} : tensor<4x3xf32>, tensor<2xi64>
  %2 = ms.cast %1 to f16 : tensor<4x3xf32>
  %3 = ms.cast %2 to f32 : tensor<4x3xf16>
  return %3 : tensor<4x3xf32>
}
"""


@pytest.mark.parametrize("level", LEVELS)
def test_select_dropout_cast_gradients(level):
    """The cotangent of a training dropout is the same dropout of dy (same
    rng_state, same mask); select routes dy to the chosen operand; a
    float-to-float cast casts dy back. Checked against torch with the mask
    from the numpy Philox reference; the f16 round trip is torch's too, so
    both sides cast dy to f16 and back."""
    torch = pytest.importorskip("torch")
    from msmlir import _msmlir as native
    rng = np.random.default_rng(12)
    x = rng.standard_normal((4, 3)).astype(np.float32)
    y = rng.standard_normal(3).astype(np.float32)
    state = np.array([77, 5], np.int64)
    sens = rng.standard_normal((4, 3)).astype(np.float32)
    text = native.autodiff(_GRAD_SOURCE, "construct", [0, 1])
    executor = native.Executor(native.CompileOptions(jit_level=level))
    graph = native.Compiler().compile(
        text,
        native.CompileOptions(jit_level=level, exc_mode="sink"),
        "construct_grad", "<grad test>", executor=executor)
    outs = [np.array(o) for o in graph.run(
        [native.HostTensor.from_buffer(a) for a in (x, y, state, sens)])]
    _, keep = reference_dropout(np.zeros((4, 3), np.float32), 0.25, 77, 5)
    scale = float(np.float32(1.0 / (1.0 - float(np.float32(0.25)))))
    tx = torch.tensor(x, dtype=torch.float64, requires_grad=True)
    ty = torch.tensor(y, dtype=torch.float64, requires_grad=True)
    out = (torch.where(tx > ty, tx, ty) * torch.tensor(keep) * scale).to(
        torch.float16).to(torch.float64)
    out.backward(torch.tensor(sens, dtype=torch.float64))
    np.testing.assert_allclose(outs[1], tx.grad.numpy(), rtol=1e-5)
    np.testing.assert_allclose(outs[2], ty.grad.numpy(), rtol=1e-5)
    assert not np.all(keep)  # the mask matters here
