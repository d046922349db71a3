"""mindspore.common.initializer: each Initializer's distribution (bounds,
moments, structure) against its formula and torch.nn.init's equivalent,
seeding, the string aliases, and the errors; Parameter.clone(init) and
ParameterTuple.clone (the bug: init='zeros' copied the values)."""

import math

import numpy as np
import pytest

import msmlir as ms
from msmlir import Tensor, Parameter, ParameterTuple, nn
from msmlir.common import initializer as init
from msmlir.common.initializer import (initializer, Normal, TruncatedNormal,
                                       Uniform, XavierUniform, XavierNormal,
                                       HeUniform, HeNormal, Zero, One,
                                       Constant, Orthogonal, Identity, Dirac,
                                       Sparse, VarianceScaling)

torch = pytest.importorskip("torch")

SHAPE = (256, 128, 3, 3)          # fan_in 1152, fan_out 2304
FAN_IN, FAN_OUT = 128 * 9, 256 * 9


def _values(initializer_object, shape=SHAPE):
    return initializer(initializer_object, shape, ms.float32).asnumpy()


def _torch_fan(mode):
    fan_in, fan_out = torch.nn.init._calculate_fan_in_and_fan_out(
        torch.empty(SHAPE))
    return fan_in if mode == "fan_in" else fan_out


def _kaiming_bound(a, mode, nonlinearity):
    gain = torch.nn.init.calculate_gain(nonlinearity, a)
    return math.sqrt(3.0) * gain / math.sqrt(_torch_fan(mode))


@pytest.mark.parametrize("make, torch_fill, bound", [
    (lambda: HeUniform(), lambda t: torch.nn.init.kaiming_uniform_(t, a=0),
     _kaiming_bound(0, "fan_in", "leaky_relu")),
    (lambda: HeUniform(math.sqrt(5)),
     lambda t: torch.nn.init.kaiming_uniform_(t, a=math.sqrt(5)),
     _kaiming_bound(math.sqrt(5), "fan_in", "leaky_relu")),
    (lambda: HeUniform(mode="fan_out", nonlinearity="relu"),
     lambda t: torch.nn.init.kaiming_uniform_(t, mode="fan_out",
                                              nonlinearity="relu"),
     _kaiming_bound(0, "fan_out", "relu")),
    (lambda: XavierUniform(2.0),
     lambda t: torch.nn.init.xavier_uniform_(t, 2.0),
     2.0 * math.sqrt(6.0 / (_torch_fan("fan_in") + _torch_fan("fan_out")))),
    (lambda: Uniform(0.3), lambda t: torch.nn.init.uniform_(t, -0.3, 0.3),
     0.3),
])
def test_uniform_family_bounds_match_torch(make, torch_fill, bound):
    v = _values(make())
    t = torch.empty(SHAPE)
    torch_fill(t)
    assert v.dtype == np.float32 and v.shape == SHAPE
    assert np.abs(v).max() <= np.float32(bound)
    assert np.abs(v).max() > 0.999 * bound
    assert float(t.abs().max()) <= np.float32(bound)
    assert abs(v.std() - float(t.std())) < 0.01 * float(t.std())


@pytest.mark.parametrize("make, std", [
    (lambda: Normal(0.2, 1.5), 0.2),
    (lambda: HeNormal(), math.sqrt(2.0 / FAN_IN)),
    (lambda: HeNormal(mode="fan_out"), math.sqrt(2.0 / FAN_OUT)),
    (lambda: XavierNormal(0.5), 0.5 * math.sqrt(2.0 / (FAN_IN + FAN_OUT))),
])
def test_normal_family_moments(make, std):
    v = _values(make()).astype(np.float64)
    mean = 1.5 if isinstance(make(), Normal) else 0.0
    assert abs(v.mean() - mean) < 0.01 * max(std, 0.1)
    assert abs(v.std() - std) < 0.01 * std


def test_truncated_normal_stays_in_its_bounds():
    v = _values(TruncatedNormal(sigma=1.0, mean=0.5, a=-0.5, b=1.0))
    assert v.min() >= -0.5 and v.max() <= 1.0
    # Against torch's trunc_normal_ with the same absolute bounds.
    t = torch.empty(SHAPE)
    torch.nn.init.trunc_normal_(t, 0.5, 1.0, -0.5, 1.0)
    assert abs(v.mean() - float(t.mean())) < 0.01
    assert abs(v.std() - float(t.std())) < 0.01


def test_structured_initializers():
    q = _values(Orthogonal(2.0), (6, 10))
    np.testing.assert_allclose(q @ q.T, 4.0 * np.eye(6), atol=1e-5)
    q = _values(Orthogonal(), (10, 4))
    np.testing.assert_allclose(q.T @ q, np.eye(4), atol=1e-5)
    np.testing.assert_array_equal(_values(Identity(), (3, 4)), np.eye(3, 4))
    d = _values(Dirac(), (4, 2, 3, 3))
    assert d.sum() == 2 and d[0, 0, 1, 1] == 1 and d[1, 1, 1, 1] == 1
    s = _values(Sparse(0.5), (10, 6))
    assert ((s == 0).sum(axis=0) == 5).all()
    np.testing.assert_array_equal(_values(Zero(), (2, 2)), np.zeros((2, 2)))
    np.testing.assert_array_equal(_values(One(), (2, 2)), np.ones((2, 2)))
    np.testing.assert_array_equal(_values(Constant(3), (2,)), [3, 3])


def test_variance_scaling():
    v = _values(VarianceScaling(2.0, "fan_avg", "uniform"))
    bound = math.sqrt(3 * 2.0 / ((FAN_IN + FAN_OUT) / 2))
    assert np.abs(v).max() <= bound and np.abs(v).max() > 0.999 * bound
    v = _values(VarianceScaling(2.0, "fan_in", "untruncated_normal"))
    assert abs(v.std() - math.sqrt(2.0 / FAN_IN)) < 0.01 * v.std()
    v = _values(VarianceScaling(2.0, "fan_in", "truncated_normal"))
    assert abs(v.std() - math.sqrt(2.0 / FAN_IN)) < 0.02 * v.std()


@pytest.mark.parametrize("name, cls", [
    ("zeros", Zero), ("Zero", Zero), ("ones", One), ("normal", Normal),
    ("truncatedNormal", TruncatedNormal), ("uniform", Uniform),
    ("xavier_uniform", XavierUniform), ("XavierNormal", XavierNormal),
    ("he_uniform", HeUniform), ("HeNormal", HeNormal),
    ("orthogonal", Orthogonal),
])
def test_string_aliases(name, cls):
    ms.set_seed(7)
    by_name = initializer(name, (8, 6))
    ms.set_seed(7)
    by_class = initializer(cls(), (8, 6))
    np.testing.assert_array_equal(by_name.asnumpy(), by_class.asnumpy())


def test_numbers_tensors_dtypes_and_seeds():
    t = initializer(2, [2, 3], ms.int32)
    assert t.dtype == ms.int32 and t.asnumpy().tolist() == [[2] * 3] * 2
    given = Tensor(np.ones((2, 2), np.float32))
    assert initializer(given, (2, 2)) is given
    assert initializer("ones", 4).shape == (4,)
    assert initializer(Normal(), (3, 3)).init_data().shape == (3, 3)
    ms.set_seed(11)
    a = initializer(HeUniform(), (5, 5)).asnumpy()
    ms.set_seed(11)
    np.testing.assert_array_equal(a, initializer(HeUniform(),
                                                 (5, 5)).asnumpy())


def test_layers_use_mindspore_s_defaults():
    """Dense's default weight is HeUniform(sqrt(5)), not the 'he_uniform'
    name (HeUniform(0), a wider bound)."""
    ms.set_seed(1)
    d = nn.Dense(400, 300)
    ms.set_seed(1)
    want = initializer(HeUniform(math.sqrt(5)), (300, 400)).asnumpy()
    np.testing.assert_array_equal(d.weight.asnumpy(), want)
    wide = nn.Dense(400, 300, weight_init="he_uniform").weight.asnumpy()
    assert np.abs(wide).max() > 1.5 / math.sqrt(400)


@pytest.mark.parametrize("call, error, message", [
    (lambda: initializer("nope", (2,)), ValueError,
     "For 'initializer', the class corresponding to 'nope' was not found."),
    (lambda: initializer("constant", (2,)), ValueError,
     "the class corresponding to 'constant' was not found"),
    (lambda: initializer(object(), (2,)), TypeError,
     "For 'initializer', the type of the 'init' argument should be "
     "'Tensor', 'number', 'string' or 'initializer'"),
    (lambda: initializer("ones", (2, 0)), ValueError,
     "For 'initializer', the argument 'shape' is invalid, the value of "
     "'shape' must be positive integer, but got"),
    (lambda: initializer(Tensor(np.ones(3, np.float32)), (2,)), ValueError,
     "For 'initializer', the shape of the 'init' argument should be same "
     "as the argument 'shape'"),
    (lambda: initializer(HeUniform(), (5,)), ValueError,
     "'fan_in' and 'fan_out' can not be computed for tensor with fewer "
     "than 2 dimensions, but got dimensions 1."),
    (lambda: initializer(HeUniform(mode="fan"), (5, 5)), ValueError,
     r"'mode' fan not supported, please use one of \['fan_in', "
     r"'fan_out'\]"),
    (lambda: initializer(HeNormal(nonlinearity="cube"), (5, 5)), ValueError,
     "For 'HeNormal', the argument 'nonlinearity' is not supported"),
    (lambda: Normal(-1.0), ValueError, "sigma < 0"),
    (lambda: initializer(Orthogonal(), (5,)), ValueError,
     "For Orthogonal initializer, the dimension of the initialized tensor "
     "should be no less than 2"),
    (lambda: init.Dirac(3)._values((4, 2, 3)), ValueError,
     "must be divisible by groups"),
])
def test_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_parameter_clone_with_init():
    """The bug: clone(init='zeros') copied the values."""
    p = Parameter(Tensor(np.full((2, 3), 5.0, np.float32)), name="w")
    z = p.clone(init="zeros")
    np.testing.assert_array_equal(z.asnumpy(), np.zeros((2, 3)))
    assert z.name == "w" and z.dtype == p.dtype and z is not p
    np.testing.assert_array_equal(p.clone().asnumpy(), p.asnumpy())
    np.testing.assert_array_equal(p.clone(1.5).asnumpy(),
                                  np.full((2, 3), 1.5))
    assert p.clone(Normal(1.0)).asnumpy().std() > 0.1


def test_parameter_tuple_clone_zeros():
    ps = ParameterTuple([Parameter(Tensor(np.ones(3, np.float32)),
                                   name="fc.weight"),
                         Parameter(Tensor(np.ones(2, np.float32)),
                                   name="fc.bias")])
    moments = ps.clone("moments", init="zeros")
    assert [m.name for m in moments] == ["moments.fc.weight",
                                         "moments.fc.bias"]
    for m in moments:
        np.testing.assert_array_equal(m.asnumpy(), np.zeros(m.shape))
    np.testing.assert_array_equal(ps[0].asnumpy(), np.ones(3))


def test_parameter_prints_its_shape_as_a_tuple():
    p = Parameter(Tensor(np.ones((120, 400), np.float32)), name="fc1.weight")
    assert repr(p) == ("Parameter (name=fc1.weight, shape=(120, 400), "
                       "dtype=Float32, requires_grad=True)")
    assert str(p) == repr(p)
