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
    graph = native.GraphCompiler().compile(
        src, "construct", "O0", "<f64 test>", "", 0, "sink",
        native.Executor("O0", 0))
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
