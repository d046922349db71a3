"""The layers of issue 16 built from existing ops (LeakyReLU, SiLU, ELU,
Softplus, Identity, Conv1d, AdaptiveAvgPool2d, GroupNorm, CellDict): values
against PyTorch (a test-only reference) on the same weights, and GRAPH
bit-identical to PyNative."""

import numpy as np
import pytest

import msmlir as ms
from msmlir import Tensor, nn, ops

from conftest import assert_bitwise, assert_close, rand

torch = pytest.importorskip("torch")
torch.set_num_threads(1)


def _torch(module, *xs):
    with torch.no_grad():
        return module(*(torch.from_numpy(x) for x in xs)).numpy()


def _parity(cell, x):
    """PyNative result; GRAPH must give the same bits."""
    eager = cell(Tensor(x)).asnumpy()
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        graph = cell(Tensor(x)).asnumpy()
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert_bitwise(graph, eager)
    return eager


ACTIVATIONS = {
    "LeakyReLU": (lambda: nn.LeakyReLU(), torch.nn.LeakyReLU(0.2)),
    "LeakyReLU_1.5": (lambda: nn.LeakyReLU(1.5), torch.nn.LeakyReLU(1.5)),
    "SiLU": (lambda: nn.SiLU(), torch.nn.SiLU()),
    "ELU": (lambda: nn.ELU(), torch.nn.ELU()),
    "ELU_0.5": (lambda: nn.ELU(0.5), torch.nn.ELU(0.5)),
    "Softplus": (lambda: nn.Softplus(), torch.nn.Softplus()),
    "Softplus_beta2": (lambda: nn.Softplus(beta=2), torch.nn.Softplus(2)),
    "Identity": (lambda: nn.Identity(), torch.nn.Identity()),
}


@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
def test_activation(name):
    make, ref = ACTIVATIONS[name]
    x = rand(4, 33, low=-6, high=6)
    x[0, :4] = [0.0, -0.0, 25.0, -25.0]
    assert_close(_parity(make(), x), _torch(ref, x))


def test_activation_functions_and_errors():
    x = rand(3, 5, low=-3, high=3)
    assert_close(ops.silu(Tensor(x)).asnumpy(), _torch(torch.nn.SiLU(), x))
    with pytest.raises(ValueError, match="nn.ELU: alpha must be > 0"):
        nn.ELU(0)
    with pytest.raises(TypeError, match="ops.leaky_relu: alpha must be a "
                       "number"):
        ops.leaky_relu(Tensor(x), "0.1")


def _conv1d_pair(pad_mode, padding, stride, dilation, group, bias):
    cell = nn.Conv1d(4, 6, 3, stride=stride, pad_mode=pad_mode,
                     padding=padding, dilation=dilation, group=group,
                     has_bias=bias)
    torch_padding = {"valid": 0, "pad": padding}.get(pad_mode, "same")
    ref = torch.nn.Conv1d(4, 6, 3, stride=stride, padding=torch_padding,
                          dilation=dilation, groups=group, bias=bias)
    with torch.no_grad():
        ref.weight.copy_(torch.from_numpy(cell.weight.asnumpy()))
        if bias:
            ref.bias.copy_(torch.from_numpy(cell.bias.asnumpy()))
    return cell, ref


@pytest.mark.parametrize("pad_mode,padding,stride,dilation,group,bias", [
    ("valid", 0, 1, 1, 1, False), ("pad", 2, 2, 1, 1, True),
    ("same", 0, 1, 2, 2, True)])
def test_conv1d(pad_mode, padding, stride, dilation, group, bias):
    cell, ref = _conv1d_pair(pad_mode, padding, stride, dilation, group, bias)
    assert cell.weight.shape == (6, 4 // group, 3)
    x = rand(2, 4, 17)
    assert_close(_parity(cell, x), _torch(ref, x))


def test_conv1d_errors_name_conv1d():
    with pytest.raises(ValueError, match="nn.Conv1d: padding must be 0"):
        nn.Conv1d(4, 6, 3, pad_mode="same", padding=1)
    with pytest.raises(ValueError, match="nn.Conv1d: in_channels=3 is not "
                       "divisible by group=2"):
        nn.Conv1d(3, 6, 3, group=2)
    with pytest.raises(ValueError, match="Conv1d expects"):
        nn.Conv1d(4, 6, 3)(Tensor(rand(2, 5, 9)))


@pytest.mark.parametrize("size,out", [((8, 8), 1), ((8, 8), (4, 2)),
                                      ((7, 9), (3, 4)), ((6, 5), (None, 2))])
def test_adaptive_avg_pool2d(size, out):
    x = rand(2, 3, *size)
    got = _parity(nn.AdaptiveAvgPool2d(out), x)
    torch_out = out if not isinstance(out, tuple) else tuple(
        s if s is not None else size[i] for i, s in enumerate(out))
    assert_close(got, _torch(torch.nn.AdaptiveAvgPool2d(torch_out), x))


@pytest.mark.parametrize("groups,affine", [(1, True), (2, True), (6, False)])
def test_group_norm(groups, affine):
    cell = nn.GroupNorm(groups, 6, affine=affine)
    ref = torch.nn.GroupNorm(groups, 6, affine=affine)
    if affine:
        gamma = rand(6, low=0.5, high=1.5, seed=3)
        beta = rand(6, seed=4)
        cell.gamma.set_data(Tensor(gamma))
        cell.beta.set_data(Tensor(beta))
        with torch.no_grad():
            ref.weight.copy_(torch.from_numpy(gamma))
            ref.bias.copy_(torch.from_numpy(beta))
    x = rand(3, 6, 5, 4, low=-2, high=3)
    assert_close(_parity(cell, x), _torch(ref, x))
    assert [p.name for p in cell.get_parameters()] == ["gamma", "beta"]


def test_group_norm_errors():
    with pytest.raises(ValueError, match="num_channels=6 is not divisible "
                       "by num_groups=4"):
        nn.GroupNorm(4, 6)


def test_cell_dict():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.layers = nn.CellDict({"fc": nn.Dense(4, 3),
                                       "act": nn.ReLU()})
            self.layers["out"] = nn.Dense(3, 2)

        def construct(self, x):
            for key in ("fc", "act", "out"):
                x = self.layers[key](x)
            return x

    net = Net()
    assert list(net.layers) == ["fc", "act", "out"]
    assert "act" in net.layers and len(net.layers) == 3
    names = [name for name, _ in net.parameters_and_names()]
    assert names == ["layers.fc.weight", "layers.fc.bias",
                     "layers.out.weight", "layers.out.bias"]
    x = rand(5, 4)
    _parity(net, x)
    popped = net.layers.pop("act")
    assert isinstance(popped, nn.ReLU) and len(net.layers) == 2
    with pytest.raises(TypeError, match="keys must be str"):
        net.layers[1] = nn.ReLU()
    with pytest.raises(TypeError, match="must be a Cell"):
        net.layers["x"] = 3
    with pytest.raises(TypeError, match="not callable"):
        net.layers(Tensor(x))
