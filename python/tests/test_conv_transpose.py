"""nn.Conv2dTranspose and ops.conv_transpose2d (one
ms.conv2d_backprop_input) against torch.nn.functional.conv_transpose2d (a
test-only reference): values, gradients, and GRAPH bit for bit equal to
PyNative at every jit_level."""

import numpy as np
import pytest

import msmlir as ms
from msmlir import Tensor, nn, ops

from conftest import assert_bitwise, assert_close, rand

torch = pytest.importorskip("torch")
LEVELS = ["O0", "O1", "O2"]

# (in, out, kernel, stride, pad_mode, padding, output_padding, dilation,
#  group, has_bias, input HxW)
CASES = [
    (3, 4, 3, 1, "same", 0, 0, 1, 1, False, (5, 6)),
    (4, 6, 3, 2, "same", 0, 0, 1, 2, True, (4, 5)),
    (2, 3, (2, 3), 3, "same", 0, 0, 1, 1, True, (3, 3)),
    (3, 2, 3, 2, "valid", 0, 0, 1, 1, True, (4, 3)),
    (2, 2, 2, 3, "valid", 0, 0, 1, 1, False, (3, 4)),
    (3, 4, 3, 2, "pad", 1, 1, 1, 1, True, (4, 4)),
    (4, 4, (3, 5), (2, 1), "pad", (1, 0, 2, 1), 0, (1, 2), 4, False, (5, 6)),
    (2, 6, 4, 2, "pad", (1, 2), (1, 0), 1, 2, True, (3, 5)),
]


def _pair(v):
    return (v, v) if isinstance(v, int) else tuple(v)


def _torch_reference(x, w, b, kernel, stride, pad_mode, padding, out_pad,
                     dilation, group):
    """MindSpore's output rule on top of torch's full transposed conv (no
    padding): crop `top` rows / `left` columns, then keep the output size,
    with zeros where the full result is shorter."""
    k, s, d = _pair(kernel), _pair(stride), _pair(dilation)
    full = torch.nn.functional.conv_transpose2d(
        x, w, b, stride=s, groups=group, dilation=d)
    h, wd = x.shape[2], x.shape[3]
    pads = _pair(padding) if len(_pair(padding)) == 2 else padding
    if len(pads) == 2:
        pads = (pads[0], pads[0], pads[1], pads[1])
    op = _pair(out_pad)
    starts, sizes = [], []
    for i, n in enumerate((h, wd)):
        span = d[i] * (k[i] - 1) + 1
        if pad_mode == "same":
            starts.append(max(span - s[i], 0) // 2)
            sizes.append(n * s[i])
        elif pad_mode == "valid":
            starts.append(0)
            sizes.append(n * s[i] + max(span - s[i], 0))
        else:
            starts.append(pads[2 * i])
            sizes.append((n - 1) * s[i] - pads[2 * i] - pads[2 * i + 1] +
                         span + op[i])
    # Zero rows past the full result; with output_padding they are real.
    need_h = starts[0] + sizes[0] - full.shape[2]
    need_w = starts[1] + sizes[1] - full.shape[3]
    if need_h > 0 or need_w > 0:
        if pad_mode == "pad":
            # torch computes output_padding rows from the kernel taps.
            full = torch.nn.functional.conv_transpose2d(
                x, w, b, stride=s, groups=group, dilation=d,
                output_padding=op)
        else:
            full = torch.nn.functional.pad(
                full, (0, max(need_w, 0), 0, max(need_h, 0)))
            if b is not None:
                extra = torch.zeros_like(full)
                if need_h > 0:
                    extra[:, :, -need_h:, :] = 1
                if need_w > 0:
                    extra[:, :, :, -need_w:] = 1
                full = full + extra * b.reshape(1, -1, 1, 1)
    return full[:, :, starts[0]:starts[0] + sizes[0],
                starts[1]:starts[1] + sizes[1]]


@pytest.mark.parametrize("case", CASES, ids=[str(i) for i in
                                              range(len(CASES))])
def test_conv2d_transpose_matches_torch_with_gradients(case):
    (cin, cout, kernel, stride, pad_mode, padding, out_pad, dilation, group,
     has_bias, hw) = case
    net = nn.Conv2dTranspose(cin, cout, kernel, stride, pad_mode, padding,
                             out_pad, dilation, group, has_bias)
    assert list(net.weight.shape) == [cin, cout // group] + list(
        _pair(kernel))
    x = rand(2, cin, *hw, seed=3)
    y = net(Tensor(x)).asnumpy()

    tx = torch.tensor(x, dtype=torch.float64, requires_grad=True)
    tw = torch.tensor(net.weight.asnumpy(), dtype=torch.float64,
                      requires_grad=True)
    tb = torch.tensor(net.bias.asnumpy(), dtype=torch.float64,
                      requires_grad=True) if has_bias else None
    ty = _torch_reference(tx, tw, tb, kernel, stride, pad_mode, padding,
                          out_pad, dilation, group)
    assert y.shape == tuple(ty.shape)
    assert_close(y, ty.detach().numpy())

    sens = rand(*y.shape, seed=4)
    (ty * torch.from_numpy(sens).double()).sum().backward()
    weights = net.trainable_params()

    def loss(inp):
        return ops.reduce_sum(net(inp) * Tensor(sens))

    grad_fn = ms.grad(loss, grad_position=0, weights=weights)
    dx, dws = grad_fn(Tensor(x))
    assert_close(dx.asnumpy(), tx.grad.numpy())
    assert_close(dws[0].asnumpy(), tw.grad.numpy())
    if has_bias:
        assert_close(dws[1].asnumpy(), tb.grad.numpy())

    for level in LEVELS:
        cfg = ms.JitConfig(jit_level=level)
        assert_bitwise(ms.jit(lambda t: net(t), jit_config=cfg)(
            Tensor(x)).asnumpy(), y)
        gdx, gdws = ms.jit(grad_fn, jit_config=cfg)(Tensor(x))
        assert_bitwise(gdx.asnumpy(), dx.asnumpy())
        for a, b in zip(gdws, dws):
            assert_bitwise(a.asnumpy(), b.asnumpy())


def test_functional_conv_transpose2d_matches_torch():
    x, w, b = rand(2, 4, 3, 5), rand(4, 3, 3, 2, seed=1), rand(6, seed=2)
    y = ops.conv_transpose2d(Tensor(x), Tensor(w), Tensor(b), stride=2,
                             padding=(1, 0), output_padding=1, groups=2,
                             dilation=(1, 2)).asnumpy()
    ref = torch.nn.functional.conv_transpose2d(
        torch.from_numpy(x).double(), torch.from_numpy(w).double(),
        torch.from_numpy(b).double(), stride=2, padding=(1, 0),
        output_padding=1, groups=2, dilation=(1, 2)).numpy()
    assert_close(y, ref)


def test_conv2d_transpose_errors():
    with pytest.raises(ValueError, match="output_padding must be 0 when "
                       "pad_mode is 'same'"):
        nn.Conv2dTranspose(2, 2, 3, stride=2, output_padding=1)
    with pytest.raises(ValueError, match="must be smaller than stride"):
        nn.Conv2dTranspose(2, 2, 3, stride=2, pad_mode="pad",
                           output_padding=2)
    with pytest.raises(ValueError, match="out_channels=3 is not divisible "
                       "by group=2"):
        nn.Conv2dTranspose(2, 3, 3, group=2)
    net = nn.Conv2dTranspose(2, 3, 3)
    with pytest.raises(ValueError, match=r"Conv2dTranspose expects \[N, 2, "
                       r"H, W\]"):
        net(Tensor(rand(1, 3, 4, 4)))
    assert not net.has_bias and net.pad_mode == "same"
