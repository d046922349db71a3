"""Errors are Python exceptions that name the Cell and the problem, in both
modes, and never crash the process."""

import numpy as np
import pytest

import msmlir as ms
from msmlir import Tensor, nn, ops

from conftest import Network, rand

MODES = [ms.PYNATIVE_MODE, ms.GRAPH_MODE]


@pytest.mark.parametrize("mode", MODES)
def test_wrong_input_shape_for_a_dense_names_the_cell(mode):
    ms.set_context(mode=mode)
    net = Network()
    with pytest.raises(ValueError) as info:
        net(Tensor(np.ones([64, 1, 20, 20], np.float32)))
    message = str(info.value)
    assert message.startswith("dense_relu_sequential.0 (Dense): ")
    assert "[64, 400]" in message and "in_channels=784" in message


@pytest.mark.parametrize("mode", MODES)
def test_wrong_dtype_names_the_cell_and_the_dtype(mode):
    ms.set_context(mode=mode)
    net = Network()
    with pytest.raises(TypeError) as info:
        net(Tensor(np.ones([2, 1, 28, 28], np.int32)))
    message = str(info.value)
    # Flatten moves int32 (issue 16); the Dense's float32 weight rejects it.
    assert message.startswith("dense_relu_sequential.0 (Dense): ")
    assert "Int32" in message and "Float32" in message
    d = nn.Dense(4, 2)
    with pytest.raises(TypeError, match=r"^Dense: .*ops.dense.*Float16"):
        d(Tensor(np.ones((1, 4), np.float16)))


def test_graph_mode_op_error_has_file_and_line():
    class Bad(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(3, 4)

        def construct(self, x):
            return self.dense(x) + x  # [2, 4] + [2, 3] does not broadcast

    ms.set_context(mode=ms.GRAPH_MODE)
    with pytest.raises(ms.MSError) as info:
        Bad()(Tensor(rand(2, 3)))
    message = str(info.value)
    assert message.startswith("Bad: ")
    assert f"{__file__}:" in message and "broadcast" in message


def test_unknown_jit_level_names_the_cell():
    net = Network()
    with pytest.raises(ValueError, match=r"^Network: set_jit_config: "
                                         r"unknown jit_level 'O7'"):
        net.set_jit_config({"jit_level": "O7"})
    with pytest.raises(ValueError, match=r"^dense_relu_sequential.0 \(Dense\)"
                                         r": set_jit_config: unknown "
                                         r"jit_level"):
        net.dense_relu_sequential[0].set_jit_config({"jit_level": "fast"})
    with pytest.raises(ValueError, match="unknown jit_level 'O3'"):
        ms.JitConfig(jit_level="O3")
    with pytest.raises(ValueError, match="unknown jit_level"):
        ms.set_context(jit_level="O9")


def test_the_innermost_cell_is_named_once():
    net = Network()
    with pytest.raises(ValueError) as info:
        net(Tensor(np.ones([1, 5], np.float32)))
    assert str(info.value).count("(Dense)") == 1


def test_symbolic_tensor_escaping_a_graph():
    leaked = []

    @ms.jit
    def f(x):
        y = x * 2.0
        leaked.append(y)
        return y

    f(Tensor(rand(2, 2)))
    with pytest.raises(ms.MSError, match="outlive"):
        ops.relu(leaked[0])


def test_bad_context_options():
    with pytest.raises(ValueError, match="For 'context.set_context', the "
                       "keyword argument no_such_option is not recognized!"):
        ms.set_context(no_such_option=1)
    with pytest.warns(UserWarning, match="when set the argument "
                      "'max_device_memory', the argument 'device_target' "
                      "only supports devices in"):
        ms.set_context(max_device_memory="3GB")
    ms.set_context(enable_graph_kernel=True)  # accepted: changes nothing
    with pytest.raises(ValueError, match="device_target"):
        ms.set_context(device_target="Ascend")
    assert ms.get_context("device_target") == "CPU"
    with pytest.raises(ValueError):
        ms.set_seed(-1)
