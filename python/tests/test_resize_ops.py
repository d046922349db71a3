"""ops.interpolate and nn.Upsample against torch.nn.functional.interpolate
(the seeds and shapes of issue 16: NCHW, nearest and bilinear with both
align_corners), graph mode, dtypes, and the errors."""

import numpy as np
import pytest
import torch
import torch.nn.functional as F

import msmlir as ms
from msmlir import Tensor, nn, ops
from msmlir import _msmlir as native

from conftest import assert_bitwise, assert_close

CASES = [
    dict(size=(9, 4), mode="nearest"),
    dict(size=(10, 14), mode="nearest"),
    dict(scale_factor=2, mode="nearest"),
    dict(scale_factor=(1.7, 0.5), mode="nearest"),
    dict(size=(9, 13), mode="bilinear", align_corners=False),
    dict(size=(9, 13), mode="bilinear", align_corners=True),
    dict(size=(3, 2), mode="bilinear", align_corners=False),
    dict(size=(1, 1), mode="bilinear", align_corners=True),
    dict(scale_factor=(0.6, 2.3), mode="bilinear"),
    dict(scale_factor=3, mode="bilinear", align_corners=True),
    dict(scale_factor=1.5, mode="bilinear", recompute_scale_factor=True),
]


@pytest.mark.parametrize("kw", CASES, ids=lambda kw: str(sorted(kw.items())))
def test_matches_torch(kw):
    x = np.random.default_rng(0).standard_normal((2, 3, 5, 7)).astype(
        np.float32)
    got = ops.interpolate(Tensor(x), **kw).asnumpy()
    want = F.interpolate(torch.tensor(x, dtype=torch.float64), **kw).numpy()
    assert got.shape == want.shape
    assert_close(got, want, 1e-5)
    graph = ms.jit(lambda t: ops.interpolate(t, **kw))(Tensor(x)).asnumpy()
    assert_bitwise(graph, got)


def test_upsample_cell_in_both_modes():
    x = np.random.default_rng(1).standard_normal((1, 2, 4, 4)).astype(
        np.float32)
    net = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False)
    got = net(Tensor(x)).asnumpy()
    want = torch.nn.Upsample(scale_factor=2, mode="bilinear",
                             align_corners=False)(torch.tensor(x)).numpy()
    assert_close(got, want, 1e-5)
    ms.set_context(mode=ms.GRAPH_MODE)
    assert_bitwise(net(Tensor(x)).asnumpy(), got)


def test_float64_and_float16():
    x = np.random.default_rng(2).standard_normal((1, 1, 3, 5))
    src = ("func.func @construct(%a: tensor<1x1x3x5xf64>) -> "
           "tensor<1x1x7x4xf64> {\n"
           '  %r = ms.interpolate %a size [7, 4] mode "bilinear" : '
           "tensor<1x1x3x5xf64>\n  return %r : tensor<1x1x7x4xf64>\n}\n")
    graph = native.Compiler().compile(
        src,
        native.CompileOptions(jit_level="O0", exc_mode="sink"),
        "construct", "<f64 test>")
    got = np.array(graph.run([native.HostTensor.from_buffer(x)])[0])
    want = F.interpolate(torch.tensor(x), size=(7, 4), mode="bilinear").numpy()
    np.testing.assert_allclose(got, want, rtol=1e-12)
    h = Tensor(x.astype(np.float16))
    got16 = ops.interpolate(h, size=(7, 4), mode="bilinear").asnumpy()
    assert got16.dtype == np.float16
    np.testing.assert_allclose(got16, want.astype(np.float16), rtol=2e-3,
                               atol=2e-3)


def test_errors():
    x = Tensor(np.zeros((1, 1, 4, 4), np.float32))
    with pytest.raises(ValueError, match="mode must be one of"):
        ops.interpolate(x, size=(2, 2), mode="bicubic")
    with pytest.raises(ValueError, match="align_corners can only be set"):
        ops.interpolate(x, size=(2, 2), mode="nearest", align_corners=True)
    with pytest.raises(ValueError, match="exactly one of size and"):
        ops.interpolate(x)
    with pytest.raises(ValueError, match="must be 4-D NCHW"):
        ops.interpolate(Tensor(np.zeros((4, 4), np.float32)), size=(2, 2))
    with pytest.raises(ValueError, match="size must be positive"):
        ops.interpolate(x, size=(0, 2))
    with pytest.raises(ValueError, match="makes an empty output"):
        ops.interpolate(x, scale_factor=0.1)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_a_huge_size_is_an_error_not_an_abort(mode):
    """Issue 55: the lowering built index tables of the output's size
    before anything checked it, and Python aborted."""
    ms.set_context(mode=mode)
    try:
        x = Tensor(np.zeros((1, 1, 4, 4), np.float32))
        fn = ops.interpolate if mode == ms.PYNATIVE_MODE else ms.jit(
            lambda t, **kw: ops.interpolate(t, **kw))
        with pytest.raises(ms.MSError, match=r"needs a tensor<1x1x2147483648"
                           r"x2147483648xf32> intermediate of more than 8 EiB, more "
                           r"than the .* of memory on this machine"):
            fn(x, size=(2 ** 31, 2 ** 31))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)



GRAD_CASES = [
    dict(size=(9, 13), mode="bilinear", align_corners=False),
    dict(size=(3, 4), mode="bilinear", align_corners=True),
    dict(size=(11, 4), mode="bilinear", align_corners=True),
    dict(scale_factor=2, mode="bilinear"),
    dict(scale_factor=(0.6, 2.3), mode="bilinear"),
    dict(size=(7, 3), mode="nearest"),
    dict(scale_factor=2, mode="nearest"),
    dict(scale_factor=(1.7, 0.5), mode="nearest"),
]


@pytest.mark.parametrize("kw", GRAD_CASES,
                         ids=lambda kw: str(sorted(kw.items())))
def test_gradient_matches_torch_and_graph_bits(kw):
    """ms.grad of interpolate (PyNative) against torch.autograd in float64,
    and the jitted gradient bit for bit equal to it at every jit_level."""
    x = np.random.default_rng(3).standard_normal((2, 2, 5, 6)).astype(
        np.float32)
    tx = torch.tensor(x, dtype=torch.float64, requires_grad=True)
    ty = F.interpolate(tx, **kw)
    w = np.random.default_rng(4).standard_normal(tuple(ty.shape)).astype(
        np.float32)
    (ty * torch.tensor(w, dtype=torch.float64)).sum().backward()

    def loss(a):
        return ops.reduce_sum(ops.interpolate(a, **kw) * Tensor(w))

    got = ms.grad(loss)(Tensor(x)).asnumpy()
    assert got.shape == x.shape
    assert_close(got, tx.grad.numpy(), 1e-5)
    for level in ("O0", "O1", "O2"):
        graph = ms.jit(ms.grad(loss),
                       jit_config=ms.JitConfig(jit_level=level))
        assert_bitwise(graph(Tensor(x)).asnumpy(), got)


def test_float16_gradient():
    """f16 cotangents go through f32, as the forward computes."""
    x = np.random.default_rng(5).standard_normal((1, 2, 4, 3))
    tx = torch.tensor(x, requires_grad=True)
    ty = F.interpolate(tx, size=(6, 7), mode="bilinear")
    w = np.random.default_rng(6).standard_normal(tuple(ty.shape))
    (ty * torch.tensor(w)).sum().backward()

    def loss(a):
        return ops.reduce_sum(ops.interpolate(a, size=(6, 7),
                                              mode="bilinear") *
                              Tensor(w.astype(np.float16)))

    got = ms.grad(loss)(Tensor(x.astype(np.float16))).asnumpy()
    assert got.dtype == np.float16
    np.testing.assert_allclose(got, tx.grad.numpy(), rtol=1e-2, atol=1e-2)


class _ConvUpsample(nn.Cell):
    def __init__(self, mode, align_corners):
        super().__init__()
        self.conv = nn.Conv2d(2, 3, 3, pad_mode="valid", has_bias=True)
        self.up = nn.Upsample(scale_factor=2, mode=mode,
                              align_corners=align_corners)

    def construct(self, x):
        return self.up(self.conv(x))


@pytest.mark.parametrize("mode,align", [("nearest", None),
                                        ("bilinear", False),
                                        ("bilinear", True)])
def test_upsample_trains(mode, align):
    """Conv2d -> nn.Upsample: the weight gradients (which pass through the
    upsample's rule) match torch's, and SGD steps run the same in PyNative
    and in GRAPH_MODE's TrainOneStepCell."""
    rng = np.random.default_rng(7)
    x = rng.standard_normal((2, 2, 6, 5)).astype(np.float32)
    target = rng.standard_normal((2, 3, 8, 6)).astype(np.float32)

    def fresh():
        ms.set_seed(1)
        return _ConvUpsample(mode, align)

    net = fresh()
    tw = torch.tensor(net.conv.weight.asnumpy(), dtype=torch.float64,
                      requires_grad=True)
    tb = torch.tensor(net.conv.bias.asnumpy(), dtype=torch.float64,
                      requires_grad=True)
    ty = F.interpolate(F.conv2d(torch.tensor(x, dtype=torch.float64), tw, tb),
                       scale_factor=2, mode=mode, align_corners=align)
    ((ty - torch.tensor(target, dtype=torch.float64)) ** 2).mean().backward()
    loss_fn = nn.MSELoss()

    def loss(inp):
        return loss_fn(net(inp), Tensor(target))

    dws = ms.grad(loss, grad_position=None,
                  weights=net.trainable_params())(Tensor(x))
    assert_close(dws[0].asnumpy(), tw.grad.numpy(), 1e-5)
    assert_close(dws[1].asnumpy(), tb.grad.numpy(), 1e-5)

    def train(graph):
        ms.set_context(mode=ms.PYNATIVE_MODE)
        model = fresh()
        opt = nn.SGD(model.trainable_params(), learning_rate=0.1)
        if graph:
            ms.set_context(mode=ms.GRAPH_MODE)
        step = nn.TrainOneStepCell(nn.WithLossCell(model, nn.MSELoss()), opt)
        losses = [float(step(Tensor(x), Tensor(target)).asnumpy())
                  for _ in range(4)]
        return losses, [p.asnumpy().copy() for p in model.trainable_params()]

    losses, weights = train(False)
    assert losses[-1] < losses[0]
    graph_losses, graph_weights = train(True)
    assert_bitwise(np.array(graph_losses), np.array(losses))
    for a, b in zip(graph_weights, weights):
        assert_bitwise(a, b)
