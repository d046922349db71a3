"""nn.Conv2d, nn.MaxPool2d, nn.AvgPool2d, nn.BatchNorm2d, nn.LayerNorm and
ops.conv2d / ops.batch_norm / ops.layer_norm: against PyTorch (a test-only
reference) or numpy to 1e-5 relative on odd shapes, PyNative and GRAPH
bit for bit at O0, O1 and O2, and the errors of bad arguments and inputs."""

import math

import numpy as np
import pytest

import msmlir as ms
from msmlir import Tensor, nn, ops

from conftest import assert_bitwise, assert_close, rand

torch = pytest.importorskip("torch")
F = torch.nn.functional
torch.set_num_threads(1)

LEVELS = ["O0", "O1", "O2"]
MODES = [ms.PYNATIVE_MODE, ms.GRAPH_MODE]


def _t(a):
    return None if a is None else torch.from_numpy(np.asarray(a))


def _np(cell_or_tensor):
    return np.asarray(cell_or_tensor.asnumpy())


def _tf_same_pads(size, kernel, stride, dilation=1):
    """(before, after): MindSpore's / TensorFlow's 'same' padding of one
    spatial dimension, the odd one after."""
    out = -(-size // stride)
    total = max((out - 1) * stride + (kernel - 1) * dilation + 1 - size, 0)
    return total // 2, total - total // 2


def _pads(x_shape, kernel, stride, dilation, pad_mode, padding):
    """(top, bottom, left, right) for the references."""
    if pad_mode == "valid":
        return (0, 0, 0, 0)
    if pad_mode == "pad":
        if isinstance(padding, int):
            return (padding,) * 4
        if len(padding) == 2:
            return (padding[0], padding[0], padding[1], padding[1])
        return tuple(padding)
    top, bottom = _tf_same_pads(x_shape[2], kernel[0], stride[0],
                                dilation[0])
    left, right = _tf_same_pads(x_shape[3], kernel[1], stride[1],
                                dilation[1])
    return (top, bottom, left, right)


def _pair(v):
    return (v, v) if isinstance(v, int) else tuple(v)


def check_parity(cell, *inputs):
    """The cell's PyNative (O0) result equals GRAPH at O0, O1 and O2 and the
    PyNative kernels of each level, bit for bit. Returns the result. STRICT
    syntax: a graph that fell back to PyNative would prove nothing."""
    args = [Tensor(a) for a in inputs]
    ms.set_context(mode=ms.PYNATIVE_MODE, jit_level="",
                   jit_syntax_level=ms.STRICT)
    eager = _np(cell(*args)).copy()
    for level in LEVELS:
        ms.set_context(mode=ms.GRAPH_MODE, jit_level=level)
        compiled = cell.compile_count
        assert_bitwise(_np(cell(*args)), eager)
        assert cell.compile_count == compiled + 1
        f = ms.jit(lambda *a: cell(*a), jit_config=ms.JitConfig(
            jit_level=level))
        assert_bitwise(_np(f(*args)), eager)
        ms.set_context(mode=ms.PYNATIVE_MODE, jit_level=level)
        assert_bitwise(_np(cell(*args)), eager)
    ms.set_context(mode=ms.PYNATIVE_MODE, jit_level="", jit_syntax_level="")
    return eager


#===---------------------------------------------------------------------===#
# Conv2d
#===---------------------------------------------------------------------===#

# (name, N, C, H, W, out, kernel, stride, pad_mode, padding, dilation, group)
CONV_CASES = [
    ("valid_3to5", 2, 3, 11, 9, 5, 3, 1, "valid", 0, 1, 1),
    ("valid_stride2", 2, 5, 13, 10, 7, (3, 5), 2, "valid", 0, 1, 1),
    ("same_stride2", 3, 3, 13, 9, 7, 3, 2, "same", 0, 1, 1),
    ("same_even_kernel", 1, 5, 10, 11, 3, (4, 2), (2, 3), "same", 0, 1, 1),
    ("same_dilation2", 2, 7, 12, 11, 5, 3, 1, "same", 0, 2, 1),
    ("pad_4tuple", 2, 3, 9, 11, 5, 3, 2, "pad", (1, 2, 0, 3), 1, 1),
    ("pad_2tuple_dil2", 1, 5, 14, 9, 7, (3, 2), 1, "pad", (2, 1), (2, 3), 1),
    ("pad_int_group2", 2, 6, 9, 9, 4, 3, 1, "pad", 1, 1, 2),
    ("valid_group2_stride2", 2, 4, 11, 13, 6, (3, 3), 2, "valid", 0, 2, 2),
    ("same_depthwise", 1, 5, 7, 9, 5, 3, 2, "same", 0, 1, 5),
]


def _conv_reference(x, w, b, stride, pad_mode, padding, dilation, group):
    kernel = w.shape[2:]
    top, bottom, left, right = _pads(x.shape, kernel, _pair(stride),
                                     _pair(dilation), pad_mode, padding)
    with torch.inference_mode():
        xt = F.pad(_t(x), (left, right, top, bottom))
        return F.conv2d(xt, _t(w), _t(b), stride=_pair(stride),
                        dilation=_pair(dilation), groups=group).numpy()


@pytest.mark.parametrize("has_bias", [False, True])
@pytest.mark.parametrize("case", CONV_CASES, ids=[c[0] for c in CONV_CASES])
def test_conv2d_matches_torch_and_modes_agree(case, has_bias):
    _, n, c, h, w, out, kernel, stride, pad_mode, padding, dilation, \
        group = case
    conv = nn.Conv2d(c, out, kernel, stride=stride, pad_mode=pad_mode,
                     padding=padding, dilation=dilation, group=group,
                     has_bias=has_bias)
    x = rand(n, c, h, w, seed=3)
    weight = conv.weight.asnumpy()
    bias = conv.bias.asnumpy() if has_bias else None
    assert weight.shape == (out, c // group) + _pair(kernel)
    result = check_parity(conv, x)
    expected = _conv_reference(x, weight, bias, stride, pad_mode, padding,
                               dilation, group)
    assert result.shape == expected.shape
    assert_close(result, expected)
    # The functional form gives the same bits.
    functional = ops.conv2d(Tensor(x), conv.weight, conv.bias, stride,
                            pad_mode, padding, dilation, group)
    assert_bitwise(_np(functional), result)


def test_conv2d_same_keeps_ceil_of_size_over_stride():
    for size, stride in ((7, 1), (7, 2), (8, 3), (5, 5)):
        conv = nn.Conv2d(2, 3, 3, stride=stride)  # pad_mode='same' default
        y = conv(Tensor(rand(1, 2, size, size + 1)))
        assert y.shape == (1, 3, math.ceil(size / stride),
                           math.ceil((size + 1) / stride))


def test_conv2d_defaults_names_and_init():
    ms.set_seed(0)
    conv = nn.Conv2d(6, 16, 5)
    assert conv.pad_mode == "same" and conv.has_bias is False
    assert conv.bias is None and conv.group == 1
    assert [name for name, _ in conv.parameters_and_names()] == ["weight"]
    w = conv.weight.asnumpy()
    assert w.shape == (16, 6, 5, 5)
    bound = 1 / math.sqrt(6 * 5 * 5)  # HeUniform(sqrt 5): 1/sqrt(fan_in)
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.95 * bound
    conv = nn.Conv2d(4, 8, (3, 2), group=2, has_bias=True)
    b = conv.bias.asnumpy()
    bound = 1 / math.sqrt(2 * 3 * 2)
    assert b.shape == (8,) and np.abs(b).max() <= bound
    conv = nn.Conv2d(1, 2, 1, has_bias=True, weight_init="ones",
                     bias_init=0.5)
    np.testing.assert_array_equal(conv.weight.asnumpy(), np.ones((2, 1, 1, 1)))
    np.testing.assert_array_equal(conv.bias.asnumpy(), [0.5, 0.5])

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid", has_bias=True)

    assert [n for n, _ in Net().parameters_and_names()] == [
        "conv1.weight", "conv1.bias"]


def test_conv2d_repr():
    text = repr(nn.Conv2d(3, 8, 3, stride=2, pad_mode="pad", padding=1))
    assert text.startswith("Conv2d<input_channels=3, output_channels=8, "
                           "kernel_size=(3, 3), stride=(2, 2), pad_mode=pad, "
                           "padding=1, dilation=(1, 1), group=1, "
                           "has_bias=False")
    assert "format=NCHW" in text


@pytest.mark.parametrize("kwargs,match", [
    (dict(in_channels=3, out_channels=4, kernel_size=3, group=2),
     "in_channels=3 is not divisible by group=2"),
    (dict(in_channels=4, out_channels=3, kernel_size=3, group=2),
     "out_channels=3 is not divisible by group=2"),
    (dict(in_channels=0, out_channels=3, kernel_size=3),
     "in_channels must be a positive int"),
    (dict(in_channels=3, out_channels=3, kernel_size=0),
     "kernel_size must be positive"),
    (dict(in_channels=3, out_channels=3, kernel_size=(3, 3, 3)),
     "kernel_size must be an int or a tuple of 2"),
    (dict(in_channels=3, out_channels=3, kernel_size=3, stride=0),
     "stride must be positive"),
    (dict(in_channels=3, out_channels=3, kernel_size=3, pad_mode="full"),
     "pad_mode must be one of 'same', 'valid', 'pad'"),
    (dict(in_channels=3, out_channels=3, kernel_size=3, padding=1),
     "padding must be 0 when pad_mode is 'same'"),
    (dict(in_channels=3, out_channels=3, kernel_size=3, pad_mode="valid",
          padding=(1, 1, 1, 1)), "padding must be 0 when pad_mode is 'valid'"),
    (dict(in_channels=3, out_channels=3, kernel_size=3, pad_mode="pad",
          padding=(1, 1, 1)), "padding must be an int or a tuple of 2 or 4"),
    (dict(in_channels=3, out_channels=3, kernel_size=3, pad_mode="pad",
          padding=-1), "padding must not be negative"),
    (dict(in_channels=3, out_channels=3, kernel_size=3, data_format="NHWC"),
     "data_format must be 'NCHW'"),
])
def test_conv2d_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=r"^nn\.Conv2d: " + match):
        nn.Conv2d(**kwargs)


class SmallCNN(nn.Cell):
    def __init__(self):
        super().__init__()
        self.features = nn.SequentialCell(
            nn.Conv2d(3, 4, 3, pad_mode="valid"), nn.ReLU(),
            nn.MaxPool2d(2, 2))
        self.norm = nn.BatchNorm2d(4)

    def construct(self, x):
        return self.norm(self.features(x))


@pytest.mark.parametrize("mode", MODES)
def test_conv2d_wrong_channels_names_the_cell(mode):
    ms.set_context(mode=mode)
    net = SmallCNN()
    with pytest.raises(ValueError) as info:
        net(Tensor(rand(2, 5, 9, 9)))
    message = str(info.value)
    assert message.startswith("features.0 (Conv2d): input of shape "
                              "[2, 5, 9, 9] does not match in_channels=3")
    assert "[4, 3, 3, 3]" in message
    with pytest.raises(ValueError, match=r"^features.0 \(Conv2d\): .*"
                                         r"\[2, 3, 9\]"):
        net(Tensor(rand(2, 3, 9)))


@pytest.mark.parametrize("mode", MODES)
def test_conv2d_input_smaller_than_kernel_names_the_cell(mode):
    ms.set_context(mode=mode)
    net = SmallCNN()
    with pytest.raises(ms.MSError, match=r"^features.0 \(Conv2d\): "
                                         r".*nn.Conv2d.*smaller than"):
        net(Tensor(rand(1, 3, 2, 9)))


def test_ops_conv2d_arguments():
    x = Tensor(rand(1, 4, 7, 7))
    w = Tensor(rand(6, 2, 3, 3))
    # MindSpore's ops.conv2d default is pad_mode='valid'.
    assert ops.conv2d(x, w, groups=2).shape == (1, 6, 5, 5)
    assert ops.conv2d(x, w, None, 2, "pad", (1, 0), 1, 2).shape == \
        (1, 6, 4, 3)
    with pytest.raises(ValueError, match="^ops.conv2d: padding must be 0"):
        ops.conv2d(x, w, padding=1, groups=2)
    with pytest.raises(ValueError, match="^ops.conv2d: groups must be"):
        ops.conv2d(x, w, groups=0)
    with pytest.raises(ms.MSError, match="input channels per group"):
        ops.conv2d(x, w)  # groups=1: the weight has 2 channels, x has 4
    with pytest.raises(ms.MSError, match="bias"):
        ops.conv2d(x, w, Tensor(rand(5)), groups=2)


#===---------------------------------------------------------------------===#
# Pooling
#===---------------------------------------------------------------------===#

# (name, N, C, H, W, kernel, stride, pad_mode)
POOL_CASES = [
    ("valid_2x2", 2, 3, 12, 10, 2, 2, "valid"),
    ("valid_odd", 1, 5, 11, 13, 3, 2, "valid"),
    ("valid_rect_overlap", 2, 3, 9, 11, (3, 2), (1, 2), "valid"),
    ("same_2x2_odd_input", 2, 3, 11, 9, 2, 2, "same"),
    ("same_3x3_stride2", 1, 5, 13, 10, 3, 2, "same"),
    ("same_rect", 2, 3, 7, 12, (5, 3), (2, 3), "same"),
    ("same_stride1", 1, 3, 6, 5, 4, 1, "same"),
]


def _pool_reference(kind, x, kernel, stride, pad_mode):
    kernel, stride = _pair(kernel), _pair(stride)
    top, bottom, left, right = _pads(x.shape, kernel, stride, (1, 1),
                                     pad_mode, 0)
    pads = (left, right, top, bottom)
    with torch.inference_mode():
        xt = _t(x)
        if kind == "max":
            return F.max_pool2d(F.pad(xt, pads, value=-math.inf), kernel,
                                stride).numpy()
        # Padding never counts: the window sum over the number of real
        # elements in the window.
        sums = F.avg_pool2d(F.pad(xt, pads), kernel, stride,
                            divisor_override=1)
        counts = F.avg_pool2d(F.pad(torch.ones_like(xt), pads), kernel,
                              stride, divisor_override=1)
        return (sums / counts).numpy()


@pytest.mark.parametrize("kind", ["max", "avg"])
@pytest.mark.parametrize("case", POOL_CASES, ids=[c[0] for c in POOL_CASES])
def test_pool_matches_torch_and_modes_agree(case, kind):
    _, n, c, h, w, kernel, stride, pad_mode = case
    cls = nn.MaxPool2d if kind == "max" else nn.AvgPool2d
    pool = cls(kernel_size=kernel, stride=stride, pad_mode=pad_mode)
    x = rand(n, c, h, w, low=-3, high=3, seed=5)
    result = check_parity(pool, x)
    expected = _pool_reference(kind, x, kernel, stride, pad_mode)
    assert result.shape == expected.shape
    if pad_mode == "same":
        sh, sw = _pair(stride)
        assert result.shape[2:] == (math.ceil(h / sh), math.ceil(w / sw))
    assert_close(result, expected)


def test_pool_defaults_and_3d_input():
    for cls in (nn.MaxPool2d, nn.AvgPool2d):
        pool = cls()
        assert pool.kernel_size == (1, 1) and pool.stride == (1, 1)
        assert pool.pad_mode == "valid"
        x = rand(2, 3, 5, 4)
        assert_bitwise(_np(pool(Tensor(x))), x)
        # [C, H, W] input pools like a batch of one.
        pool = cls(2, 2)
        y3 = _np(pool(Tensor(x[0])))
        y4 = _np(pool(Tensor(x[:1])))
        assert y3.shape == (3, 2, 2)
        assert_bitwise(y3, y4[0])
    assert repr(nn.MaxPool2d(2, 2)) == \
        "MaxPool2d<kernel_size=(2, 2), stride=(2, 2), pad_mode=valid>"
    assert repr(nn.AvgPool2d(3, (1, 2), "same")) == \
        "AvgPool2d<kernel_size=(3, 3), stride=(1, 2), pad_mode=same>"


@pytest.mark.parametrize("cls,name", [(nn.MaxPool2d, "nn.MaxPool2d"),
                                      (nn.AvgPool2d, "nn.AvgPool2d")])
def test_pool_bad_arguments(cls, name):
    prefix = "^" + name.replace(".", r"\.") + ": "
    with pytest.raises(ValueError, match=prefix + "pad_mode 'pad' is not "
                                                  "supported"):
        cls(2, 2, "pad")
    with pytest.raises(ValueError, match=prefix + "pad_mode must be one of "
                                                  "'valid', 'same'"):
        cls(2, 2, "full")
    with pytest.raises(ValueError, match=prefix + "data_format must be "
                                                  "'NCHW', got 'NHWC'"):
        cls(2, 2, data_format="NHWC")
    with pytest.raises(ValueError, match=prefix + "kernel_size must be "
                                                  "positive"):
        cls(0)
    with pytest.raises(ValueError, match=prefix + "stride must be an int "
                                                  "or a tuple of 2"):
        cls(2, (1, 2, 3))
    with pytest.raises(ValueError, match=prefix + "padding=1 is not "
                                                  "supported"):
        cls(2, 2, padding=1)
    with pytest.raises(ValueError, match=prefix + "ceil_mode=True is not "
                                                  "supported"):
        cls(2, 2, ceil_mode=True)
    cls(2, 2, padding=(0, 0))  # zero padding in any form is the default


@pytest.mark.parametrize("mode", MODES)
def test_pool_bad_inputs_name_the_cell(mode):
    ms.set_context(mode=mode)
    net = nn.SequentialCell(nn.ReLU(), nn.MaxPool2d(5, 1))
    with pytest.raises(ValueError, match=r"^1 \(MaxPool2d\): input of shape "
                                         r"\[4, 4\] is not \[N, C, H, W\]"):
        net(Tensor(rand(4, 4)))
    with pytest.raises(ms.MSError, match=r"^1 \(MaxPool2d\): .*smaller"):
        net(Tensor(rand(1, 2, 4, 9)))


#===---------------------------------------------------------------------===#
# BatchNorm2d
#===---------------------------------------------------------------------===#

def _random_batch_norm(channels, eps=1e-5, seed=0):
    rng = np.random.default_rng(seed)
    return nn.BatchNorm2d(
        channels, eps=eps,
        gamma_init=Tensor(rng.uniform(0.5, 2, channels).astype(np.float32)),
        beta_init=Tensor(rng.uniform(-1, 1, channels).astype(np.float32)),
        moving_mean_init=Tensor(rng.uniform(-1, 1, channels).astype(
            np.float32)),
        moving_var_init=Tensor(rng.uniform(0.1, 3, channels).astype(
            np.float32)))


@pytest.mark.parametrize("shape,eps", [((2, 3, 5, 7), 1e-5),
                                       ((3, 7, 9, 4), 1e-3),
                                       ((1, 5, 1, 1), 0.1)])
def test_batch_norm_matches_torch_and_modes_agree(shape, eps):
    bn = _random_batch_norm(shape[1], eps)
    x = rand(*shape, low=-3, high=3, seed=7)
    result = check_parity(bn, x)
    with torch.inference_mode():
        expected = F.batch_norm(_t(x), _t(bn.moving_mean.asnumpy()),
                                _t(bn.moving_variance.asnumpy()),
                                _t(bn.gamma.asnumpy()), _t(bn.beta.asnumpy()),
                                training=False, eps=eps).numpy()
    assert_close(result, expected)
    functional = ops.batch_norm(Tensor(x), bn.moving_mean, bn.moving_variance,
                                bn.gamma, bn.beta, eps=eps)
    assert_bitwise(_np(functional), result)


def test_batch_norm_defaults_and_parameters():
    bn = nn.BatchNorm2d(3)
    assert (bn.eps, bn.momentum, bn.affine) == (1e-5, 0.9, True)
    params = dict(bn.parameters_and_names())
    assert list(params) == ["gamma", "beta", "moving_mean", "moving_variance"]
    for name, value in (("gamma", 1), ("beta", 0), ("moving_mean", 0),
                        ("moving_variance", 1)):
        np.testing.assert_array_equal(params[name].asnumpy(),
                                      np.full(3, value, np.float32))
    assert [p.name for p in bn.trainable_params()] == ["gamma", "beta"]
    assert not nn.BatchNorm2d(3, affine=False).trainable_params()
    # Default statistics: y = x / sqrt(1 + eps).
    x = rand(2, 3, 4, 5)
    expected = x / np.sqrt(np.float32(1) + np.float32(1e-5))
    assert_close(_np(bn(Tensor(x))), expected)
    text = repr(bn)
    assert text.startswith("BatchNorm2d<num_features=3, eps=1e-05, "
                           "momentum=0.9, gamma=Parameter (name=gamma")
    assert "moving_variance=Parameter (name=moving_variance" in text


@pytest.mark.parametrize("mode", MODES)
def test_batch_norm_moving_statistics_in_either_mode(mode):
    ms.set_context(mode=mode)
    net = SmallCNN()
    x = Tensor(rand(2, 3, 9, 9))
    net.set_train(False)
    y = net(x)
    assert y.shape == (2, 4, 3, 3)
    # use_batch_statistics=False always uses the moving statistics, as in
    # MindSpore, so it runs in training mode too.
    moving = nn.BatchNorm2d(3, use_batch_statistics=False)
    moving.set_train(True)
    assert_close(_np(moving(x)), x.asnumpy() / np.sqrt(np.float32(1.00001)))


@pytest.mark.parametrize("mode", MODES)
def test_batch_norm_wrong_channels_names_the_cell(mode):
    ms.set_context(mode=mode)
    net = nn.SequentialCell(nn.ReLU(), nn.BatchNorm2d(4))
    with pytest.raises(ValueError, match=r"^1 \(BatchNorm2d\): input of shape"
                                         r" \[2, 3, 5, 5\] does not match "
                                         r"num_features=4"):
        net(Tensor(rand(2, 3, 5, 5)))


@pytest.mark.parametrize("kwargs,match", [
    (dict(num_features=0), "num_features must be a positive int"),
    (dict(num_features=3, eps=0), "eps must be a number > 0"),
    (dict(num_features=3, momentum=1.5), r"momentum must be a number in "
                                         r"\[0.0, 1.0\]"),
    (dict(num_features=3, data_format="NHWC"), "data_format must be 'NCHW'"),
    (dict(num_features=3, use_batch_statistics="yes"),
     "use_batch_statistics must be None, True or False"),
])
def test_batch_norm_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=r"^nn\.BatchNorm2d: " + match):
        nn.BatchNorm2d(**kwargs)


#===---------------------------------------------------------------------===#
# LayerNorm
#===---------------------------------------------------------------------===#

def _layer_norm_reference(x, gamma, beta, begin_norm_axis, eps):
    x = x.astype(np.float64)
    axes = tuple(range(begin_norm_axis % x.ndim, x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def _random_layer_norm(normalized_shape, begin_norm_axis, begin_params_axis,
                       epsilon=1e-7, seed=0):
    rng = np.random.default_rng(seed)
    return nn.LayerNorm(
        normalized_shape, begin_norm_axis, begin_params_axis,
        gamma_init=Tensor(rng.uniform(0.5, 2, normalized_shape).astype(
            np.float32)),
        beta_init=Tensor(rng.uniform(-1, 1, normalized_shape).astype(
            np.float32)),
        epsilon=epsilon)


# (x shape, begin_norm_axis, begin_params_axis, epsilon)
LAYER_NORM_SAME_AXES = [
    ((5, 7), -1, -1, 1e-7),
    ((3, 5, 9), 1, 1, 1e-5),
    ((2, 3, 5, 7), -3, -3, 1e-7),
    ((4, 6, 11), 2, -1, 1e-3),
]

LAYER_NORM_OTHER_AXES = [
    ((3, 5, 9), 1, -1, 1e-7),     # normalize [5, 9], gamma [9]
    ((2, 3, 4, 5), 1, 2, 1e-5),   # normalize [3, 4, 5], gamma [4, 5]
    ((4, 6, 7), -1, 1, 1e-6),     # normalize [7], gamma [6, 7]
]


def _layer_norm_available():
    try:
        ops.layer_norm(Tensor(rand(2, 3)), (3,))
    except ms.MSError as e:
        if "is not an ms op" in str(e):
            return False
        raise
    return True


needs_layer_norm = pytest.mark.skipif(
    not _layer_norm_available(),
    reason="the native library has no ms.layer_norm yet")


@needs_layer_norm
@pytest.mark.parametrize("shape,norm_axis,params_axis,eps",
                         LAYER_NORM_SAME_AXES)
def test_layer_norm_matches_torch_and_modes_agree(shape, norm_axis,
                                                  params_axis, eps):
    normalized = shape[norm_axis % len(shape):]
    ln = _random_layer_norm(normalized, norm_axis, params_axis, eps)
    x = rand(*shape, low=-3, high=3, seed=11)
    result = check_parity(ln, x)
    with torch.inference_mode():
        expected = F.layer_norm(_t(x), normalized, _t(ln.gamma.asnumpy()),
                                _t(ln.beta.asnumpy()), eps).numpy()
    assert_close(result, expected)
    functional = ops.layer_norm(Tensor(x), normalized, ln.gamma, ln.beta,
                                eps)
    assert_bitwise(_np(functional), result)


@needs_layer_norm
@pytest.mark.parametrize("shape,norm_axis,params_axis,eps",
                         LAYER_NORM_OTHER_AXES)
def test_layer_norm_with_params_axis_other_than_norm_axis(
        shape, norm_axis, params_axis, eps):
    ln = _random_layer_norm(shape[params_axis % len(shape):], norm_axis,
                            params_axis, eps)
    x = rand(*shape, low=-3, high=3, seed=13)
    result = check_parity(ln, x)
    expected = _layer_norm_reference(x, ln.gamma.asnumpy().astype(np.float64),
                                     ln.beta.asnumpy().astype(np.float64),
                                     norm_axis, eps)
    assert_close(result, expected)


@needs_layer_norm
def test_layer_norm_defaults():
    ln = nn.LayerNorm((6,))
    assert (ln.begin_norm_axis, ln.begin_params_axis, ln.epsilon) == \
        (-1, -1, 1e-7)
    assert [n for n, _ in ln.parameters_and_names()] == ["gamma", "beta"]
    x = rand(3, 6)
    assert_close(_np(ln(Tensor(x))),
                 _layer_norm_reference(x, 1.0, 0.0, -1, 1e-7))
    assert_close(_np(ops.layer_norm(Tensor(x), 6)),
                 _layer_norm_reference(x, 1.0, 0.0, -1, 1e-5))


def test_layer_norm_arguments_and_repr():
    ln = nn.LayerNorm([4, 5], begin_norm_axis=1, begin_params_axis=1)
    assert ln.gamma.shape == (4, 5) and ln.beta.shape == (4, 5)
    assert repr(ln).startswith("LayerNorm<normalized_shape=(4, 5), "
                               "begin_norm_axis=1, begin_params_axis=1, "
                               "gamma=Parameter (name=gamma")
    with pytest.raises(TypeError, match=r"^nn\.LayerNorm: normalized_shape "
                                        r"must be a tuple or a list"):
        nn.LayerNorm(5)
    with pytest.raises(ValueError, match=r"^nn\.LayerNorm: normalized_shape "
                                         r"must be positive ints"):
        nn.LayerNorm((5, 0))
    with pytest.raises(ValueError, match=r"^nn\.LayerNorm: epsilon must be"):
        nn.LayerNorm((5,), epsilon=-1.0)
    with pytest.raises(TypeError, match=r"^nn\.LayerNorm: begin_norm_axis "
                                        r"must be an int"):
        nn.LayerNorm((5,), begin_norm_axis=1.5)


@pytest.mark.parametrize("mode", MODES)
def test_layer_norm_bad_inputs_name_the_cell(mode):
    # Checked in Python before the op runs, so no ms.layer_norm is needed.
    ms.set_context(mode=mode)
    net = nn.SequentialCell(nn.ReLU(), nn.LayerNorm((4, 5), 1, 1))
    with pytest.raises(ValueError, match=r"^1 \(LayerNorm\): input of shape "
                                         r"\[2, 4, 6\] does not match "
                                         r"normalized_shape=\[4, 5\]"):
        net(Tensor(rand(2, 4, 6)))
    with pytest.raises(ValueError, match=r"^1 \(LayerNorm\): "
                                         r"begin_norm_axis=1 is out of range"
                                         r" for input of shape \[5\]"):
        net(Tensor(rand(5)))
    with pytest.raises(ValueError, match="^ops.layer_norm: normalized_shape"):
        ops.layer_norm(Tensor(rand(2, 3)), (2,))
