"""Parity with PyTorch (a test-only reference): the same weights copied into
both, every layer and the seed MLP within 1e-5 relative, in PyNative and
GRAPH mode."""

import numpy as np
import pytest

import msmlir as ms
from msmlir import Tensor, nn

from conftest import Network, assert_close, rand

torch = pytest.importorskip("torch")
torch.set_num_threads(1)

MODES = [ms.PYNATIVE_MODE, ms.GRAPH_MODE]


def _torch(fn, x):
    with torch.inference_mode():
        return fn(torch.from_numpy(x)).numpy()


def _copy_dense(ms_dense, torch_linear):
    with torch.no_grad():
        torch_linear.weight.copy_(torch.from_numpy(ms_dense.weight.asnumpy()))
        if ms_dense.bias is not None:
            torch_linear.bias.copy_(torch.from_numpy(ms_dense.bias.asnumpy()))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("has_bias", [True, False])
def test_dense(mode, has_bias):
    ms.set_context(mode=mode)
    d = nn.Dense(37, 19, has_bias=has_bias)
    t = torch.nn.Linear(37, 19, bias=has_bias)
    _copy_dense(d, t)
    x = rand(8, 37)
    assert_close(d(Tensor(x)).asnumpy(), _torch(t, x))


LAYERS = {
    "ReLU": (lambda: nn.ReLU(), torch.nn.ReLU()),
    "Sigmoid": (lambda: nn.Sigmoid(), torch.nn.Sigmoid()),
    "Tanh": (lambda: nn.Tanh(), torch.nn.Tanh()),
    "GELU_tanh": (lambda: nn.GELU(), torch.nn.GELU(approximate="tanh")),
    "GELU_exact": (lambda: nn.GELU(approximate=False), torch.nn.GELU()),
    "Softmax": (lambda: nn.Softmax(), torch.nn.Softmax(dim=-1)),
    "Softmax_axis1": (lambda: nn.Softmax(axis=1), torch.nn.Softmax(dim=1)),
    "LogSoftmax": (lambda: nn.LogSoftmax(), torch.nn.LogSoftmax(dim=-1)),
    "Flatten": (lambda: nn.Flatten(), torch.nn.Flatten()),
    "Dropout": (lambda: nn.Dropout(p=0.5), torch.nn.Dropout(p=0.5).eval()),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(LAYERS))
def test_layer(mode, name):
    ms.set_context(mode=mode)
    make, ref = LAYERS[name]
    x = rand(6, 4, 9, low=-4, high=4)
    assert_close(make()(Tensor(x)).asnumpy(), _torch(ref, x))


def _torch_mlp(net):
    model = torch.nn.Sequential(
        torch.nn.Flatten(),
        torch.nn.Linear(784, 512), torch.nn.ReLU(),
        torch.nn.Linear(512, 512), torch.nn.ReLU(),
        torch.nn.Linear(512, 10))
    seq = net.dense_relu_sequential
    for i in (0, 2, 4):
        _copy_dense(seq[i], model[i + 1])
    return model


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("level", ["O0", "O1", "O2"])
def test_seed_mlp(mode, level):
    ms.set_context(mode=mode, jit_level=level)
    net = Network()
    model = _torch_mlp(net)
    for x in (np.ones([64, 1, 28, 28], np.float32),
              rand(64, 1, 28, 28, low=0, high=1)):
        assert_close(net(Tensor(x)).asnumpy(), _torch(model, x))


def test_seed_mlp_with_torch_weights_through_a_checkpoint(tmp_path):
    # Weights made by PyTorch, saved with numpy, loaded by name.
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Flatten(),
        torch.nn.Linear(784, 512), torch.nn.ReLU(),
        torch.nn.Linear(512, 512), torch.nn.ReLU(),
        torch.nn.Linear(512, 10))
    params = {}
    for i in (0, 2, 4):
        params[f"dense_relu_sequential.{i}.weight"] = Tensor(
            model[i + 1].weight.detach().numpy())
        params[f"dense_relu_sequential.{i}.bias"] = Tensor(
            model[i + 1].bias.detach().numpy())
    path = tmp_path / "torch_mlp.safetensors"
    ms.save_checkpoint(params, str(path))
    net = Network()
    ms.load_checkpoint(str(path), net)
    x = rand(64, 1, 28, 28, low=0, high=1)
    assert_close(net(Tensor(x)).asnumpy(), _torch(model, x))
