"""The functions, Primitives and Cells composed of the dialect's ops
(ops/math_composed.py, activation_func.py, array_composed.py,
linalg_composed.py, nn_composed.py, loss_composed.py,
composed_primitives.py; nn/activation_more.py, loss_more.py, padding.py,
layers_more.py): each against torch or numpy, and a jitted call equal to
PyNative's bit for bit."""

import math

import numpy as np
import pytest

import msmlir as ms
from msmlir import Tensor, nn, ops

from conftest import assert_bitwise, assert_close

torch = pytest.importorskip("torch")
F = torch.nn.functional

RNG = np.random.default_rng(7)
X = RNG.uniform(-3, 3, (4, 6)).astype(np.float32)
Y = RNG.uniform(-3, 3, (4, 6)).astype(np.float32)
POS = RNG.uniform(0.05, 0.95, (4, 6)).astype(np.float32)
T = torch.from_numpy


def _np(t):
    return t.asnumpy() if isinstance(t, Tensor) else np.asarray(t)


UNARY = {
    "floor": (ops.floor, np.floor), "ceil": (ops.ceil, np.ceil),
    "trunc": (ops.trunc, np.trunc), "sign": (ops.sign, np.sign),
    "frac": (ops.frac, lambda x: x - np.trunc(x)),
    "reciprocal": (ops.reciprocal, lambda x: 1 / x),
    "exp2": (ops.exp2, np.exp2), "log2": (lambda x: ops.log2(ops.abs(x)),
                                          lambda x: np.log2(np.abs(x))),
    "log10": (lambda x: ops.log10(ops.abs(x)),
              lambda x: np.log10(np.abs(x))),
    "log1p": (lambda x: ops.log1p(ops.abs(x)),
              lambda x: np.log1p(np.abs(x))),
    "expm1": (ops.expm1, np.expm1),
    "deg2rad": (ops.deg2rad, np.deg2rad), "rad2deg": (ops.rad2deg,
                                                      np.rad2deg),
    "relu6": (ops.relu6, lambda x: F.relu6(T(x)).numpy()),
    "hardtanh": (ops.hardtanh, lambda x: F.hardtanh(T(x)).numpy()),
    "hardshrink": (ops.hardshrink, lambda x: F.hardshrink(T(x)).numpy()),
    "softshrink": (ops.soft_shrink, lambda x: F.softshrink(T(x)).numpy()),
    "hardswish": (ops.hardswish, lambda x: F.hardswish(T(x)).numpy()),
    "hardsigmoid": (ops.hardsigmoid, lambda x: F.hardsigmoid(T(x)).numpy()),
    "mish": (ops.mish, lambda x: F.mish(T(x)).numpy()),
    "selu": (ops.selu, lambda x: F.selu(T(x)).numpy()),
    "celu": (lambda x: ops.celu(x, 0.7),
             lambda x: F.celu(T(x), 0.7).numpy()),
    "logsigmoid": (ops.logsigmoid, lambda x: F.logsigmoid(T(x)).numpy()),
    "softsign": (ops.softsign, lambda x: F.softsign(T(x)).numpy()),
    "tanhshrink": (ops.tanhshrink, lambda x: F.tanhshrink(T(x)).numpy()),
    "threshold": (lambda x: ops.threshold(x, 0.5, -2.0),
                  lambda x: F.threshold(T(x), 0.5, -2.0).numpy()),
    "glu": (ops.glu, lambda x: F.glu(T(x), -1).numpy()),
    "softmin": (ops.softmin, lambda x: F.softmin(T(x), -1).numpy()),
    "fast_gelu": (ops.fast_gelu,
                  lambda x: x / (1 + np.exp(-1.702 * np.abs(x))) *
                  np.exp(0.851 * (x - np.abs(x)))),
    "ravel": (ops.ravel, np.ravel), "t": (ops.t, np.transpose),
    "fliplr": (ops.fliplr, np.fliplr), "flipud": (ops.flipud, np.flipud),
    "rot90": (ops.rot90, np.rot90), "tril": (ops.tril, np.tril),
    "triu": (lambda x: ops.triu(x, 1), lambda x: np.triu(x, 1)),
    "diagonal": (lambda x: ops.diagonal(x, 1), lambda x: np.diagonal(x, 1)),
    "amin": (lambda x: ops.amin(x, 1), lambda x: np.amin(x, 1)),
    "logsumexp": (lambda x: ops.logsumexp(x, 1),
                  lambda x: torch.logsumexp(T(x), 1).numpy()),
    "norm": (ops.norm, np.linalg.norm),
    "norm_1": (lambda x: ops.norm(x, 1, 1),
               lambda x: np.linalg.norm(x, 1, 1)),
    "norm_inf": (lambda x: ops.norm(x, math.inf, 0),
                 lambda x: np.linalg.norm(x, np.inf, 0)),
    "roll": (lambda x: ops.roll(x, (2, -1), (1, 0)),
             lambda x: np.roll(x, (2, -1), (1, 0))),
    "roll_flat": (lambda x: ops.roll(x, 5), lambda x: np.roll(x, 5)),
    "narrow": (lambda x: ops.narrow(x, 1, 2, 3), lambda x: x[:, 2:5]),
    "flip": (lambda x: ops.flip(x, (0, 1)), lambda x: x[::-1, ::-1]),
    "swapaxes": (lambda x: ops.swapaxes(x, 0, 1), np.transpose),
    "repeat_interleave": (lambda x: ops.repeat_interleave(x, 2, 1),
                          lambda x: np.repeat(x, 2, 1)),
    "diff": (lambda x: ops.diff(x, 2), lambda x: np.diff(x, 2)),
    "trapz": (ops.trapz, lambda x: np.trapz(x)),
    "msort": (ops.msort, lambda x: np.sort(x, 0)),
    "count_nonzero": (lambda x: ops.count_nonzero(ops.floor(x)),
                      lambda x: np.count_nonzero(np.floor(x))),
    "matrix_diag_part": (ops.matrix_diag_part, np.diagonal),
    "band": (lambda x: ops.matrix_band_part(x, 1, 2),
             lambda x: np.triu(np.tril(x, 2), -1)),
    "pdist": (ops.pdist, lambda x: F.pdist(T(x)).numpy()),
    "l2_normalize": (lambda x: ops.l2_normalize(x, 1),
                     lambda x: x / np.sqrt(np.maximum(
                         (x * x).sum(1, keepdims=True), 1e-4))),
}


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_against_reference(name):
    fn, reference = UNARY[name]
    assert_close(_np(fn(Tensor(X))), reference(X.astype(np.float64)), 1e-5)


BINARY = {
    "logaddexp": (ops.logaddexp, np.logaddexp),
    "logaddexp2": (ops.logaddexp2, np.logaddexp2),
    "hypot": (ops.hypot, np.hypot),
    "xlogy": (lambda a, b: ops.xlogy(ops.floor(a), ops.abs(b)),
              lambda a, b: torch.xlogy(T(np.floor(a)),
                                       T(np.abs(b))).numpy()),
    "xdivy": (lambda a, b: ops.xdivy(ops.floor(a), b),
              lambda a, b: np.where(np.floor(a) == 0, 0, np.floor(a) / b)),
    "lerp": (lambda a, b: ops.lerp(a, b, 0.3),
             lambda a, b: torch.lerp(T(a), T(b), 0.3).numpy()),
    "addcmul": (lambda a, b: ops.addcmul(a, a, b, 0.5),
                lambda a, b: a + 0.5 * a * b),
    "addcdiv": (lambda a, b: ops.addcdiv(a, a, b, 0.5),
                lambda a, b: a + 0.5 * a / b),
    "truncate_div": (ops.truncate_div, lambda a, b: np.trunc(a / b)),
    "truncate_mod": (ops.truncate_mod, np.fmod),
    "copysign": (ops.copysign, np.copysign),
    "mm": (lambda a, b: ops.mm(a, ops.t(b)), lambda a, b: a @ b.T),
    "inner": (ops.inner, np.inner), "outer": (
        lambda a, b: ops.outer(ops.ravel(a), ops.ravel(b)),
        lambda a, b: np.outer(a, b)),
    "kron": (ops.kron, np.kron),
    "cdist": (ops.cdist, lambda a, b: torch.cdist(T(a), T(b)).numpy()),
    "dist": (lambda a, b: ops.dist(a, b, 3),
             lambda a, b: torch.dist(T(a), T(b), 3).numpy()),
    "cosine_similarity": (
        ops.cosine_similarity,
        lambda a, b: F.cosine_similarity(T(a), T(b), 1).numpy()),
    "tensor_dot": (lambda a, b: ops.tensor_dot(a, b, ((1,), (1,))),
                   lambda a, b: np.tensordot(a, b, ((1,), (1,)))),
    "addmm": (lambda a, b: ops.addmm(ops.zeros((4, 4)) + 1.0, a, ops.t(b),
                                     beta=0.5, alpha=2.0),
              lambda a, b: 0.5 + 2.0 * (a @ b.T)),
    "square_difference": (ops.square_difference, lambda a, b: (a - b) ** 2),
    "heaviside": (lambda a, b: ops.heaviside(ops.floor(a), b),
                  lambda a, b: np.heaviside(np.floor(a), b)),
}


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_against_reference(name):
    fn, reference = BINARY[name]
    assert_close(_np(fn(Tensor(X), Tensor(Y))),
                 reference(X.astype(np.float64), Y.astype(np.float64)), 1e-5)


def test_log1p_expm1_keep_tiny_arguments_accurate():
    tiny = np.array([1e-10, -3e-8, 2e-5, 0.0], np.float32)
    np.testing.assert_allclose(_np(ops.log1p(Tensor(tiny))),
                               np.log1p(tiny.astype(np.float64)), rtol=1e-6)
    np.testing.assert_allclose(_np(ops.expm1(Tensor(tiny))),
                               np.expm1(tiny.astype(np.float64)), rtol=1e-6)


def test_predicates_and_special_values():
    v = np.array([1.0, np.nan, np.inf, -np.inf, -0.0, 0.0], np.float32)
    x = Tensor(v)
    for fn, ref in ((ops.isnan, np.isnan), (ops.isinf, np.isinf),
                    (ops.isfinite, np.isfinite),
                    (ops.isposinf, np.isposinf),
                    (ops.isneginf, np.isneginf),
                    (ops.signbit, np.signbit)):
        np.testing.assert_array_equal(_np(fn(x)), ref(v))
    np.testing.assert_array_equal(_np(ops.nan_to_num(x, 0.5)),
                                  np.nan_to_num(v, nan=0.5))
    assert ops.is_floating_point(x) and not ops.is_complex(x)
    assert ops.is_tensor(x) and not ops.is_tensor(v)
    np.testing.assert_array_equal(
        _np(ops.logical_xor(Tensor([True, False, True]),
                            Tensor([True, True, False]))),
        [False, True, True])
    assert_close(_np(ops.float_power(Tensor(POS), 2.5)),
                 POS.astype(np.float64) ** 2.5)
    assert ops.float_power(Tensor(POS), 2).dtype == ms.float64
    assert_close(_np(ops.logit(Tensor(POS))),
                 np.log(POS / (1 - POS.astype(np.float64))))


def test_integer_truncation():
    a = Tensor(np.array([7, -7, 7, -7], np.int32))
    b = Tensor(np.array([2, 2, -2, -2], np.int32))
    np.testing.assert_array_equal(_np(ops.truncate_div(a, b)),
                                  [3, -3, -3, 3])
    np.testing.assert_array_equal(_np(ops.truncate_mod(a, b)),
                                  [1, -1, 1, -1])


def test_array_builders():
    np.testing.assert_array_equal(_np(ops.eye(3, 4, ms.int32)),
                                  np.eye(3, 4))
    np.testing.assert_allclose(_np(ops.linspace(0, 1, 5)),
                               np.linspace(0, 1, 5))
    np.testing.assert_array_equal(_np(ops.range(1, 9, 3)), [1, 4, 7])
    a, b = Tensor(np.arange(3.0)), Tensor(np.arange(4.0))
    for indexing in ("xy", "ij"):
        got = ops.meshgrid(a, b, indexing=indexing)
        want = np.meshgrid(np.arange(3.0), np.arange(4.0), indexing=indexing)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(_np(g), w)
    np.testing.assert_array_equal(
        _np(ops.cartesian_prod(Tensor(np.array([1, 2])),
                               Tensor(np.array([3, 4, 5])))),
        [[1, 3], [1, 4], [1, 5], [2, 3], [2, 4], [2, 5]])
    m = np.arange(4.0).reshape(2, 2)
    np.testing.assert_array_equal(
        _np(ops.block_diag(Tensor(m), Tensor(np.ones((1, 3))))),
        torch.block_diag(T(m), torch.ones(1, 3, dtype=torch.float64)))
    np.testing.assert_array_equal(_np(ops.diag(Tensor(np.arange(3.0)))),
                                  np.diag(np.arange(3.0)))
    np.testing.assert_array_equal(
        _np(ops.diagflat(Tensor(np.arange(3.0)), -1)),
        np.diagflat(np.arange(3.0), -1))
    np.testing.assert_array_equal(_np(ops.full_like(Tensor(X), 2)),
                                  np.full_like(X, 2))
    np.testing.assert_array_equal(
        _np(ops.sequence_mask(Tensor(np.array([1, 3])), 4)),
        [[True, False, False, False], [True, True, True, False]])


def test_splits():
    x = np.arange(24.0).reshape(2, 3, 4)
    for got, want in ((ops.tensor_split(Tensor(x), 3, 2),
                       np.array_split(x, 3, 2)),
                      (ops.tensor_split(Tensor(x), [1, 3], 2),
                       np.array_split(x, [1, 3], 2)),
                      (ops.hsplit(Tensor(x), 3), np.hsplit(x, 3)),
                      (ops.vsplit(Tensor(x), 2), np.vsplit(x, 2)),
                      (ops.dsplit(Tensor(x), [2]), np.dsplit(x, [2])),
                      (ops.unbind(Tensor(x), 1), list(np.moveaxis(x, 1, 0)))):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(_np(g), w)


def test_batched_products():
    a = RNG.uniform(-1, 1, (3, 2, 4)).astype(np.float32)
    b = RNG.uniform(-1, 1, (3, 4, 5)).astype(np.float32)
    c = RNG.uniform(-1, 1, (2, 5)).astype(np.float32)
    assert_close(_np(ops.bmm(Tensor(a), Tensor(b))), a @ b)
    assert_close(_np(ops.baddbmm(Tensor(c), Tensor(a), Tensor(b), 0.5, 2)),
                 0.5 * c + 2 * (a @ b))
    assert_close(_np(ops.addbmm(Tensor(c), Tensor(a), Tensor(b))),
                 c + (a @ b).sum(0))
    v = RNG.uniform(-1, 1, 4).astype(np.float32)
    assert_close(_np(ops.addmv(Tensor(v[:2]), Tensor(a[0]), Tensor(v))),
                 v[:2] + a[0] @ v)
    assert_close(_np(ops.addr(Tensor(a[0]), Tensor(v[:2]), Tensor(v))),
                 a[0] + np.outer(v[:2], v))
    assert_close(_np(ops.mv(Tensor(a[0]), Tensor(v))), a[0] @ v)
    assert_close(_np(ops.dot(Tensor(v), Tensor(v))), v @ v)


def test_pooling_shuffles_and_channel_dropout():
    x = RNG.uniform(-1, 1, (2, 8, 6, 6)).astype(np.float32)
    assert_close(_np(ops.avg_pool2d(Tensor(x), 2, 2)),
                 F.avg_pool2d(T(x), 2, 2).numpy())
    assert_close(_np(ops.max_pool2d(Tensor(x), 3, 1)),
                 F.max_pool2d(T(x), 3, 1).numpy())
    line = x.reshape(2, 8, 36)
    assert_close(_np(ops.avg_pool1d(Tensor(line), 4, 2)),
                 F.avg_pool1d(T(line), 4, 2).numpy())
    assert_close(_np(ops.max_pool1d(Tensor(line), 4)),
                 F.max_pool1d(T(line), 4).numpy())
    np.testing.assert_array_equal(_np(ops.pixel_shuffle(Tensor(x), 2)),
                                  F.pixel_shuffle(T(x), 2).numpy())
    np.testing.assert_array_equal(_np(ops.pixel_unshuffle(Tensor(x), 2)),
                                  F.pixel_unshuffle(T(x), 2).numpy())
    ms.set_seed(3)
    y = _np(ops.dropout2d(Tensor(np.ones((8, 16, 3, 3), np.float32)), 0.5))
    per_channel = y.reshape(8, 16, 9)
    assert np.all(per_channel.min(-1) == per_channel.max(-1))
    assert set(np.unique(y)) == {0.0, 2.0}
    assert_bitwise(_np(ops.dropout2d(Tensor(x), 0.5, False)), x)


def test_isclose_and_intopk():
    a = Tensor(np.array([1.0, 1.0, np.nan], np.float32))
    b = Tensor(np.array([1.0 + 1e-6, 1.1, np.nan], np.float32))
    np.testing.assert_array_equal(_np(ops.isclose(a, b)),
                                  [True, False, False])
    np.testing.assert_array_equal(_np(ops.isclose(a, b, equal_nan=True)),
                                  [True, False, True])
    x = Tensor(np.array([[1.0, 5.0, 3.0], [4.0, 2.0, 0.0]], np.float32))
    np.testing.assert_array_equal(
        _np(ops.intopk(x, Tensor(np.array([2, 2], np.int32)), 2)),
        [True, False])


LOSSES = {
    "smooth_l1_loss": (lambda a, b: ops.smooth_l1_loss(a, b, 0.5, "mean"),
                       lambda a, b: F.smooth_l1_loss(a, b, beta=0.5)),
    "huber_loss": (lambda a, b: ops.huber_loss(a, b, "sum", 0.7),
                   lambda a, b: F.huber_loss(a, b, reduction="sum",
                                             delta=0.7)),
    "kl_div": (lambda a, b: ops.kl_div(a, ops.softmax(b, 1), "batchmean"),
               lambda a, b: F.kl_div(a, torch.softmax(b, 1),
                                     reduction="batchmean")),
    "binary_cross_entropy": (
        lambda a, b: ops.binary_cross_entropy(ops.sigmoid(a),
                                              ops.sigmoid(b)),
        lambda a, b: F.binary_cross_entropy(torch.sigmoid(a),
                                            torch.sigmoid(b))),
    "margin_ranking": (
        lambda a, b: ops.margin_ranking_loss(a, b, ops.sign(a), 0.3),
        lambda a, b: F.margin_ranking_loss(a, b, torch.sign(a), 0.3)),
    "hinge_embedding": (
        lambda a, b: ops.hinge_embedding_loss(a, ops.sign(b), 1.5),
        lambda a, b: F.hinge_embedding_loss(a, torch.sign(b), 1.5)),
    "cosine_embedding": (
        lambda a, b: ops.cosine_embedding_loss(
            a, b, Tensor(np.array([1, -1, 1, -1], np.float32)), 0.2),
        lambda a, b: F.cosine_embedding_loss(
            a, b, torch.tensor([1, -1, 1, -1]), 0.2)),
    "gaussian_nll": (
        lambda a, b: ops.gaussian_nll_loss(a, b, ops.abs(b), True),
        lambda a, b: F.gaussian_nll_loss(a, b, torch.abs(b), True)),
    "triplet_margin": (
        lambda a, b: ops.triplet_margin_loss(a, b, a * 0.5, swap=True),
        lambda a, b: F.triplet_margin_loss(a, b, a * 0.5, swap=True)),
    "multilabel_soft_margin": (
        lambda a, b: ops.multilabel_soft_margin_loss(a, ops.floor(
            ops.sigmoid(b) * 2)),
        lambda a, b: F.multilabel_soft_margin_loss(a, torch.floor(
            torch.sigmoid(b) * 2))),
    "soft_margin": (lambda a, b: ops.soft_margin_loss(a, ops.sign(b)),
                    lambda a, b: F.soft_margin_loss(a, torch.sign(b))),
}


@pytest.mark.parametrize("name", sorted(LOSSES))
def test_losses_against_torch(name):
    fn, reference = LOSSES[name]
    want = reference(T(X.astype(np.float64)), T(Y.astype(np.float64)))
    assert_close(_np(fn(Tensor(X), Tensor(Y))), want.numpy(), 1e-5)


PRIMITIVES = [
    (ops.Softplus(), ops.softplus), (ops.ReLU6(), ops.relu6),
    (ops.HSwish(), ops.hardswish), (ops.HSigmoid(), ops.hardsigmoid),
    (ops.Mish(), ops.mish), (ops.SeLU(), ops.selu),
    (ops.Elu(0.5), lambda x: ops.elu(x, 0.5)),
    (ops.CeLU(2.0), lambda x: ops.celu(x, 2.0)),
    (ops.FastGeLU(), ops.fast_gelu), (ops.Softsign(), ops.softsign),
    (ops.HShrink(0.3), lambda x: ops.hardshrink(x, 0.3)),
    (ops.SoftShrink(0.3), lambda x: ops.soft_shrink(x, 0.3)),
    (ops.Ceil(), ops.ceil), (ops.Floor(), ops.floor), (ops.Sign(), ops.sign),
    (ops.Reciprocal(), ops.reciprocal), (ops.Inv(), ops.inv),
    (ops.Expm1(), ops.expm1), (ops.Trunc(), ops.trunc),
    (ops.IsNan(), ops.isnan), (ops.IsInf(), ops.isinf),
    (ops.IsFinite(), ops.isfinite), (ops.Identity(), lambda x: x),
    (ops.Real(), ops.real), (ops.Conj(), ops.conj),
    (ops.StopGradient(), ops.stop_gradient),
    (ops.ReverseV2([1]), lambda x: ops.reverse(x, 1)),
    (ops.Tril(1), lambda x: ops.tril(x, 1)),
    (ops.Triu(-1), lambda x: ops.triu(x, -1)),
    (ops.Roll(1, 1), lambda x: ops.roll(x, 1, 1)),
    (ops.L2Normalize(1), lambda x: ops.l2_normalize(x, 1)),
    (ops.LpNorm(1, 3), lambda x: ops.norm(x, 3, 1)),
    (lambda x: ops.EuclideanNorm()(x, (0, 1)), lambda x: ops.norm(x)),
    (ops.DiagPart(), ops.diagonal), (ops.Trace(),
                                     lambda x: ops.diagonal(x).sum()),
    (ops.AvgPool(1, 1), lambda x: x), (ops.ReduceMin(True),
                                       lambda x: ops.amin(x, None, True)),
    (ops.Erf(), lambda x: Tensor(torch.erf(T(x.asnumpy())).numpy())),
    (ops.Erfc(), lambda x: Tensor(torch.erfc(T(x.asnumpy())).numpy())),
    (ops.Logit(0.1), lambda x: ops.logit(x, 0.1)),
    (ops.L2Loss(), lambda x: (x * x).sum() / 2),
]


@pytest.mark.parametrize("index", range(len(PRIMITIVES)))
def test_primitive_equals_its_function(index):
    prim, fn = PRIMITIVES[index]
    x = Tensor(X if not isinstance(prim, (ops.AvgPool,)) else
               X.reshape(1, 1, 4, 6))
    if isinstance(prim, ops.Logit):
        x = Tensor(POS)
    # Erf: Abramowitz and Stegun 7.1.26, absolute error below 1e-6.
    assert_close(_np(prim(x)), _np(fn(x)), 1e-5 if isinstance(
        prim, (ops.Erf, ops.Erfc)) else 1e-6)


def test_primitives_with_several_inputs():
    a, b = Tensor(X), Tensor(Y)
    assert_close(_np(ops.AddN()([a, b, a])), 2 * X + Y)
    assert_close(_np(ops.AccumulateNV2()((a, b))), X + Y)
    assert_close(_np(ops.SquaredDifference()(a, b)), (X - Y) ** 2)
    zero_y = np.where(Y > 0, Y, 0).astype(np.float32)
    np.testing.assert_array_equal(
        _np(ops.DivNoNan()(a, Tensor(zero_y))),
        np.where(zero_y == 0, 0, X / np.where(zero_y == 0, 1, zero_y)))
    np.testing.assert_array_equal(_np(ops.MulNoNan()(a, Tensor(zero_y))),
                                  X * zero_y)
    assert_close(_np(ops.Addcdiv()(a, a, b, Tensor(np.float32(0.5)))),
                 X + 0.5 * X / Y)
    assert_close(_np(ops.BatchMatMul(False, True)(a, b)), X @ Y.T)
    assert_close(_np(ops.Cdist()(a, b)), torch.cdist(T(X), T(Y)).numpy())
    np.testing.assert_array_equal(_np(ops.ApproximateEqual(0.5)(a, a + 0.4)),
                                  np.ones_like(X, bool))
    assert int(_np(ops.EqualCount()(a, a))[0]) == X.size
    assert _np(ops.ReduceAll()(Tensor(X > -4))).item()
    assert not _np(ops.ReduceAny(False)(Tensor(X > 10))).item()
    np.testing.assert_array_equal(_np(ops.Slice()(a, (1, 2), (2, -1))),
                                  X[1:3, 2:])
    np.testing.assert_array_equal(
        _np(ops.Unstack(1)(a)[2]), X[:, 2])
    assert ops.TensorShape()(a).asnumpy().tolist() == [4, 6]
    assert ops.Range()(0, 7, 3).asnumpy().tolist() == [0, 3, 6]
    assert ops.ScalarCast()(2.7, ms.int32) == 2
    assert ops.TupleToArray()((1, 2)).asnumpy().tolist() == [1, 2]
    loss, grad = ops.SoftmaxCrossEntropyWithLogits()(
        a, Tensor(np.eye(6, dtype=np.float32)[[0, 1, 2, 3]]))
    want = F.cross_entropy(T(X), torch.tensor([0, 1, 2, 3]),
                           reduction="none").numpy()
    assert_close(_np(loss), want)
    sparse = ops.SparseSoftmaxCrossEntropyWithLogits()(
        a, Tensor(np.array([0, 1, 2, 3], np.int32)))
    assert_close(_np(sparse), want.mean())
    weights = Tensor(np.arange(1.0, 7.0).astype(np.float32))
    nll, total = ops.NLLLoss()(ops.log_softmax(a, 1),
                               Tensor(np.array([0, 5, 2, 2], np.int32)),
                               weights)
    assert float(_np(total)) == 1 + 6 + 3 + 3
    assert_close(_np(nll), F.nll_loss(torch.log_softmax(T(X), 1),
                                      torch.tensor([0, 5, 2, 2]),
                                      T(np.arange(1.0, 7.0)).float()))


def test_prim_attr_register_and_base_classes():
    class Scale(ops.PrimitiveWithInfer):
        @ops.prim_attr_register
        def __init__(self, factor, offset=1.0):
            pass

        def __call__(self, x):
            return x * self.factor + self.offset
    s = Scale(2.0)
    assert (s.factor, s.offset) == (2.0, 1.0)
    assert _np(s(Tensor(np.ones(2, np.float32)))).tolist() == [3.0, 3.0]
    assert issubclass(ops.PrimitiveWithCheck, ops.Primitive)


CELLS = [
    (nn.ReLU6(), ops.relu6), (nn.HSwish(), ops.hardswish),
    (nn.HSigmoid(), ops.hardsigmoid), (nn.Hardtanh(-0.5, 2.0),
                                       lambda x: ops.clamp(x, -0.5, 2.0)),
    (nn.HShrink(), ops.hardshrink), (nn.SoftShrink(), ops.soft_shrink),
    (nn.Tanhshrink(), ops.tanhshrink), (nn.Threshold(0.1, 20.0),
                                        lambda x: ops.threshold(x, 0.1, 20.)),
    (nn.LogSigmoid(), ops.logsigmoid), (nn.Mish(), ops.mish),
    (nn.Softsign(), ops.softsign), (nn.SeLU(), ops.selu),
    (nn.CELU(0.5), lambda x: ops.celu(x, 0.5)), (nn.FastGelu(),
                                                 ops.fast_gelu),
    (nn.Softmin(0), lambda x: ops.softmin(x, 0)),
]


@pytest.mark.parametrize("index", range(len(CELLS)))
def test_activation_cells(index):
    cell, fn = CELLS[index]
    assert_bitwise(_np(cell(Tensor(X))), _np(fn(Tensor(X))))


def test_prelu_against_torch():
    x = RNG.uniform(-1, 1, (2, 3, 4)).astype(np.float32)
    cell = nn.PReLU(3, 0.1)
    cell.w.set_data(Tensor(np.array([0.1, 0.2, 0.3], np.float32)))
    want = F.prelu(T(x), torch.tensor([0.1, 0.2, 0.3]))
    assert_close(_np(cell(Tensor(x))), want.numpy())
    assert [n for n, _ in cell.parameters_and_names()] == ["w"]


def test_loss_cells_against_torch():
    a, b = Tensor(X), Tensor(Y)
    ta, tb = T(X), T(Y)
    pairs = [
        (nn.BCELoss()(ops.sigmoid(a), ops.sigmoid(b)),
         F.binary_cross_entropy(torch.sigmoid(ta), torch.sigmoid(tb))),
        (nn.HuberLoss(delta=0.5)(a, b), F.huber_loss(ta, tb, delta=0.5)),
        (nn.SmoothL1Loss(reduction="sum")(a, b),
         F.smooth_l1_loss(ta, tb, reduction="sum")),
        (nn.SoftMarginLoss()(a, ops.sign(b)),
         F.soft_margin_loss(ta, torch.sign(tb))),
        (nn.KLDivLoss("batchmean")(a, ops.softmax(b, 1)),
         F.kl_div(ta, torch.softmax(tb, 1), reduction="batchmean")),
        (nn.RMSELoss()(a, b), torch.sqrt(F.mse_loss(ta, tb))),
        (nn.MarginRankingLoss(0.1)(a, b, ops.sign(a)),
         F.margin_ranking_loss(ta, tb, torch.sign(ta), 0.1)),
        (nn.HingeEmbeddingLoss(2.0)(a, ops.sign(b)),
         F.hinge_embedding_loss(ta, torch.sign(tb), 2.0)),
        (nn.GaussianNLLLoss()(a, b, ops.abs(b)),
         F.gaussian_nll_loss(ta, tb, torch.abs(tb))),
        (nn.TripletMarginLoss()(a, b, a * 0.3),
         F.triplet_margin_loss(ta, tb, ta * 0.3)),
        (nn.MultiLabelSoftMarginLoss()(a, ops.floor(ops.sigmoid(b) * 2)),
         F.multilabel_soft_margin_loss(ta, torch.floor(torch.sigmoid(tb) *
                                                       2))),
        (nn.CosineEmbeddingLoss()(a, b, ops.sign(a[:, 0])),
         F.cosine_embedding_loss(ta, tb, torch.sign(ta[:, 0]))),
    ]
    for got, want in pairs:
        assert_close(_np(got), want.numpy(), 1e-5)


def test_padding_and_pool_cells():
    x = RNG.uniform(-1, 1, (2, 3, 4, 5)).astype(np.float32)
    for cell, want in (
            (nn.ZeroPad2d((1, 2, 0, 3)), F.pad(T(x), (1, 2, 0, 3))),
            (nn.ConstantPad1d(2, 1.5), F.pad(T(x), (2, 2), value=1.5)),
            (nn.ConstantPad3d((1, 0, 0, 1, 1, 1), -1.0),
             F.pad(T(x), (1, 0, 0, 1, 1, 1), value=-1.0)),
            (nn.Pad(((0, 0), (1, 0), (2, 1), (0, 3))),
             F.pad(T(x), (0, 3, 2, 1, 1, 0))),
            (nn.ReflectionPad1d((2, 3)),
             F.pad(T(x.reshape(6, 4, 5)), (2, 3), mode="reflect").reshape(
                 2, 3, 4, 10)),
            (nn.ReflectionPad2d((1, 2, 3, 1)),
             F.pad(T(x), (1, 2, 3, 1), mode="reflect"))):
        np.testing.assert_array_equal(_np(cell(Tensor(x))), want.numpy())
    line = x.reshape(2, 3, 20)
    assert_close(_np(nn.AvgPool1d(4, 2)(Tensor(line))),
                 F.avg_pool1d(T(line), 4, 2).numpy())
    assert_close(_np(nn.MaxPool1d(5, 5)(Tensor(line))),
                 F.max_pool1d(T(line), 5, 5).numpy())
    assert_close(_np(nn.AdaptiveAvgPool1d(4)(Tensor(line))),
                 F.adaptive_avg_pool1d(T(line), 4).numpy())


def test_batch_norm3d_and_resize_and_bidense():
    x = RNG.uniform(-1, 1, (2, 3, 2, 4, 5)).astype(np.float32)
    bn = nn.BatchNorm3d(3).set_train()
    tbn = torch.nn.BatchNorm3d(3, momentum=0.1).train()
    assert_close(_np(bn(Tensor(x))), tbn(T(x)).detach().numpy(), 1e-5)
    assert_close(_np(bn.bn2d.moving_mean), tbn.running_mean.numpy(), 1e-5)
    img = RNG.uniform(-1, 1, (1, 2, 4, 4)).astype(np.float32)
    assert_close(_np(nn.ResizeBilinear()(Tensor(img), (8, 6))),
                 F.interpolate(T(img), (8, 6), mode="bilinear",
                               align_corners=False).numpy())
    bi = nn.BiDense(4, 5, 3)
    tbi = torch.nn.Bilinear(4, 5, 3)
    tbi.weight.data = T(bi.weight.asnumpy().copy())
    tbi.bias.data = T(bi.bias.asnumpy().copy())
    u = RNG.uniform(-1, 1, (2, 4)).astype(np.float32)
    v = RNG.uniform(-1, 1, (2, 5)).astype(np.float32)
    assert_close(_np(bi(Tensor(u), Tensor(v))),
                 tbi(T(u), T(v)).detach().numpy())
    td = nn.TimeDistributed(nn.Dense(5, 2), 1)
    seq = RNG.uniform(-1, 1, (3, 4, 5)).astype(np.float32)
    want = np.stack([_np(td.layer(Tensor(seq[:, i]))) for i in range(4)], 1)
    assert_close(_np(td(Tensor(seq))), want)


def test_gradient_cells_match_ms_grad():
    net = nn.Dense(4, 2)
    x = Tensor(X[:, :4])
    y = Tensor(Y[:, :2])
    loss_net = nn.WithLossCell(net, nn.MSELoss())
    want = ms.grad(loss_net, None, net.trainable_params())(x, y)
    got = nn.WithGradCell(net, nn.MSELoss())(x, y)
    for g, w in zip(got, want):
        assert_bitwise(_np(g), _np(w))
    value, grads = nn.ForwardValueAndGrad(loss_net, net.trainable_params(),
                                          get_by_list=True)(x, y)
    assert_bitwise(_np(value), _np(loss_net(x, y)))
    for g, w in zip(grads, want):
        assert_bitwise(_np(g), _np(w))


GRAPH_CASES = ["log1p", "expm1", "selu", "mish", "logsumexp", "roll",
               "tril", "pdist", "diagonal", "flip", "repeat_interleave"]


@pytest.mark.parametrize("name", GRAPH_CASES)
def test_jitted_equals_pynative(name):
    fn = UNARY[name][0]
    assert_bitwise(_np(ms.jit(lambda x: fn(x))(Tensor(X))),
                   _np(fn(Tensor(X))))


def test_top_level_functions(capsys):
    out, vjp_fn = ms.vjp(lambda a, b: a * b + a, Tensor(X), Tensor(Y))
    ta, tb = T(X).requires_grad_(), T(Y).requires_grad_()
    (ta * tb + ta).backward(torch.ones(4, 6) * 2)
    ga, gb = vjp_fn(Tensor(np.full((4, 6), 2.0, np.float32)))
    assert_close(_np(ga), ta.grad.numpy())
    assert_close(_np(gb), tb.grad.numpy())
    mapped = ms.vmap(lambda a, b: ops.matmul(a, b), (0, None))(
        Tensor(RNG.uniform(-1, 1, (3, 2, 4)).astype(np.float32)), Tensor(Y))
    assert mapped.shape == (3, 2, 6)
    assert ms.tensor([1, 2]).dtype == ms.int64
    assert ms.get_py_obj_dtype(Tensor(X)) == ms.float32
    assert ms.get_py_obj_dtype(True) == ms.bool_
    ms.manual_seed(5)
    assert ms.initial_seed() == 5
    drawn = ms.seed()
    assert ms.initial_seed() == drawn
    assert ms.dtype_to_nptype(ms.float16) == np.float16
    assert ms.ms_function is ms.jit and ms.ms_class is ms.jit_class
    assert ms.lazy_inline(len) is len and ms.no_inline()(len) is len
    assert ms.constexpr(len) is len
    ms.run_check()
    assert "installed on platform [CPU] successfully" in \
        capsys.readouterr().out


def test_check_checkpoint(tmp_path):
    good = str(tmp_path / "net.ckpt")
    ms.save_checkpoint(nn.Dense(2, 2), good)
    bad = tmp_path / "bad.ckpt"
    bad.write_bytes(b"not a checkpoint")
    assert ms.check_checkpoint(good)
    assert not ms.check_checkpoint(str(bad))
    assert not ms.check_checkpoint(str(tmp_path / "missing.ckpt"))


def test_dice_perplexity_auc():
    from msmlir.train import Dice, Perplexity, auc
    p = np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]])
    y = np.array([[0, 1], [1, 0], [0, 1]])
    want = 2 * (p * y).sum() / ((p * p).sum() + (y * y).sum() + 1e-5)
    assert Dice()(Tensor(p), Tensor(y)) == pytest.approx(want)
    probs = np.array([[0.6, 0.4], [0.2, 0.8]])
    labels = np.array([0, 1])
    assert Perplexity()(Tensor(probs), Tensor(labels)) == pytest.approx(
        math.exp(-(math.log(0.6) + math.log(0.8)) / 2))
    assert auc([0, 0.5, 1], [0, 0.8, 1]) == pytest.approx(
        np.trapz([0, 0.8, 1], [0, 0.5, 1]))
    with pytest.raises(ValueError, match="x array is not increasing"):
        auc([0, 1, 0.5], [0, 1, 1])


@pytest.mark.parametrize("call, error, message", [
    (lambda: ops.glu(Tensor(np.ones((2, 3), np.float32))), ValueError,
     "For 'glu', the size of 'x' along 'axis' must be even, but got 3."),
    (lambda: ops.prelu(Tensor(X), Tensor(np.ones((2, 2), np.float32))),
     ValueError, "For 'prelu', the dimension of 'weight' must be 1"),
    (lambda: ops.prelu(Tensor(X), Tensor(np.ones(4, np.float32))),
     ValueError, "For 'prelu', the size of 'weight' must be 1 or the number "
     "of channels 6, but got 4."),
    (lambda: ops.celu(Tensor(X), 0.0), ValueError,
     "For 'celu', the 'alpha' can not be equal to zero."),
    (lambda: nn.CELU(0), ValueError,
     "For 'CELU', the 'alpha' can not be equal to zero."),
    (lambda: ops.t(Tensor(np.ones((2, 2, 2)))), ValueError,
     "For 't', the dimension of 'input' must be at most 2, but got 3."),
    (lambda: ops.diag(Tensor(X)), ValueError,
     "For 'diag', msmlir supports 1-D input only, but got 2-D."),
    (lambda: ops.meshgrid(Tensor(X[0]), indexing="ji"), ValueError,
     "For 'meshgrid', the 'indexing' must be 'xy' or 'ij', but got ji."),
    (lambda: ops.pixel_shuffle(Tensor(np.ones((1, 3, 2, 2))), 2),
     ValueError, "For 'pixel_shuffle', the channels must be divisible by "
     "upscale_factor"),
    (lambda: ops.pixel_unshuffle(Tensor(np.ones((1, 1, 3, 2))), 2),
     ValueError, "For 'pixel_unshuffle', the height and width must be "
     "divisible by downscale_factor"),
    (lambda: ops.norm(Tensor(X), "nuc"), ValueError,
     "For 'norm', the 'ord' 'nuc' is not supported."),
    (lambda: ops.smooth_l1_loss(Tensor(X), Tensor(Y), 0.0), ValueError,
     "For 'smooth_l1_loss', the 'beta' must be greater than 0, but got 0.0."),
    (lambda: ops.huber_loss(Tensor(X), Tensor(Y), "mean", -1.0), ValueError,
     "For 'huber_loss', the 'delta' must be greater than 0"),
    (lambda: ops.kl_div(Tensor(X), Tensor(Y), "max"), ValueError,
     "ops.kl_div: reduction must be 'mean', 'sum', 'none' or 'batchmean'"),
    (lambda: ops.mse_loss(Tensor(X), Tensor(Y), "max"), ValueError,
     "reduction must be 'mean', 'sum' or 'none'"),
    (lambda: ops.avg_pool2d(Tensor(np.ones((1, 1, 4, 4))), 2, 2, 1),
     ValueError, "ops.avg_pool2d: padding, ceil_mode and divisor_override "
     "other than their defaults are not supported by msmlir"),
    (lambda: ops.max_pool2d(Tensor(np.ones((1, 1, 4, 4))), 2, dilation=2),
     ValueError, "ops.max_pool2d: padding, dilation, ceil_mode and "
     "return_indices other than their defaults are not supported"),
    (lambda: ops.AvgPool(2, 2, "same"), ValueError,
     "AvgPool: only pad_mode='valid' and data_format='NCHW' are supported"),
    (lambda: nn.Hardtanh(1.0, 0.0), ValueError,
     "For Hardtanh, min_val should be less than max_val"),
    (lambda: nn.ReflectionPad2d((1, 2, 3)), ValueError,
     "For 'ReflectionPad2d', the length of 'padding' must be 4, but got 3."),
    (lambda: nn.ReflectionPad1d(6)(Tensor(np.ones((1, 5)))), ValueError,
     "ReflectionPad1d: padding must be less than the size 5"),
    (lambda: nn.ConstantPad2d((1, 2, 3), 0.0), ValueError,
     "For 'ConstantPad2d', the length of 'padding' must be 4, but got 3."),
    (lambda: nn.Pad(((1, 1),), "REFLECT"), ValueError,
     "nn.Pad: only mode='CONSTANT' is supported by msmlir"),
    (lambda: nn.Dropout2d(1.0), ValueError,
     r"For 'Dropout2d', the 'p' must be in range \[0, 1\), but got 1.0."),
    (lambda: nn.AvgPool1d(2, 2, "same"), ValueError,
     "AvgPool1d: only pad_mode='valid' is supported by msmlir"),
    (lambda: nn.TimeDistributed(len, 1), TypeError,
     "For 'TimeDistributed', the 'layer' must be a Cell"),
    (lambda: ms.vmap(ops.add)(Tensor(X), Tensor(np.ones((3, 6)))),
     ValueError, r"For 'vmap', the mapped axes must have one size, but got "
     r"\[3, 4\]."),
    (lambda: ms.vmap(ops.add, (0,))(Tensor(X), Tensor(X)), ValueError,
     "For 'vmap', the length of 'in_axes' must equal the number of "
     "arguments 2, but got 1."),
    (lambda: ms.get_py_obj_dtype("x"), TypeError,
     "For 'get_py_obj_dtype', the type <class 'str'> has no MindSpore "
     "dtype."),
])
def test_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()
