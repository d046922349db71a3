"""Losses (nn.*Loss and ops.*) against torch.nn.functional, in PyNative and
GRAPH mode (the values within 1e-5 relative, the two modes bit for bit),
their gradients against torch.autograd, and their errors."""

import numpy as np
import pytest

import msmlir as ms
from msmlir import Tensor, nn, ops

from conftest import assert_bitwise, assert_close, rand

torch = pytest.importorskip("torch")
F = torch.nn.functional

MODES = [ms.PYNATIVE_MODE, ms.GRAPH_MODE]


def _labels(n, c, seed=0):
    return np.random.default_rng(seed).integers(0, c, size=n).astype(
        np.int32)


def _probs(n, c, seed=0):
    p = np.random.default_rng(seed).uniform(0.0, 1.0, (n, c))
    return (p / p.sum(1, keepdims=True)).astype(np.float32)


def _run(mode, cell, *args):
    """cell(*args) in `mode` (GRAPH_MODE compiles the loss Cell)."""
    ms.set_context(mode=mode)
    return cell(*[Tensor(a) for a in args]).asnumpy()


def _both(cell, *args):
    """The loss in PyNative and GRAPH mode, checked bit-identical."""
    pn = _run(ms.PYNATIVE_MODE, cell, *args)
    gr = _run(ms.GRAPH_MODE, cell, *args)
    assert_bitwise(pn, gr)
    return pn


WEIGHT = np.linspace(0.5, 1.5, 10).astype(np.float32)

CE_CASES = {
    "mean": dict(),
    "sum": dict(reduction="sum"),
    "none": dict(reduction="none"),
    "smoothing": dict(label_smoothing=0.1),
    "weight": dict(weight=WEIGHT),
    "weight_smoothing": dict(weight=WEIGHT, label_smoothing=0.2),
    "weight_none": dict(weight=WEIGHT, reduction="none"),
    "ignore_index": dict(ignore_index=3),
}


def _torch_kwargs(kw):
    kw = dict(kw)
    if "weight" in kw:
        kw["weight"] = torch.from_numpy(kw["weight"])
    return kw


def _ms_kwargs(kw):
    kw = dict(kw)
    if "weight" in kw:
        kw["weight"] = Tensor(kw["weight"])
    return kw


@pytest.mark.parametrize("case", sorted(CE_CASES))
def test_cross_entropy_indices(case):
    kw = CE_CASES[case]
    x = rand(16, 10, low=-3, high=3)
    y = _labels(16, 10)
    y[::5] = 3  # some samples of the ignored class
    got = _both(nn.CrossEntropyLoss(**_ms_kwargs(kw)), x, y)
    want = F.cross_entropy(torch.from_numpy(x), torch.from_numpy(y).long(),
                           **_torch_kwargs(kw)).numpy()
    assert_close(got, want)


def test_cross_entropy_default_ignore_index():
    """Samples labelled -100 (the default ignore_index) drop out."""
    x = rand(8, 5, low=-2, high=2)
    y = _labels(8, 5)
    y[1] = y[6] = -100
    got = _both(nn.CrossEntropyLoss(), x, y)
    want = F.cross_entropy(torch.from_numpy(x), torch.from_numpy(y).long())
    assert_close(got, want.numpy())


@pytest.mark.parametrize("case", ["mean", "sum", "none", "smoothing",
                                  "weight", "weight_smoothing"])
def test_cross_entropy_probabilities(case):
    kw = CE_CASES[case]
    x = rand(12, 10, low=-3, high=3)
    p = _probs(12, 10)
    got = _both(nn.CrossEntropyLoss(**_ms_kwargs(kw)), x, p)
    want = F.cross_entropy(torch.from_numpy(x), torch.from_numpy(p),
                           **_torch_kwargs(kw)).numpy()
    assert_close(got, want)


def test_cross_entropy_spatial():
    """[N, C, H, W] logits with [N, H, W] labels."""
    x = rand(2, 4, 3, 5, low=-2, high=2)
    y = np.random.default_rng(1).integers(0, 4, (2, 3, 5)).astype(np.int32)
    for reduction in ("mean", "none"):
        got = _both(nn.CrossEntropyLoss(reduction=reduction), x, y)
        want = F.cross_entropy(torch.from_numpy(x),
                               torch.from_numpy(y).long(),
                               reduction=reduction).numpy()
        assert_close(got, want)


def test_ops_cross_entropy():
    x = rand(6, 7)
    y = _labels(6, 7)
    got = ops.cross_entropy(Tensor(x), Tensor(y)).asnumpy()
    want = F.cross_entropy(torch.from_numpy(x), torch.from_numpy(y).long())
    assert_close(got, want.numpy())


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_nll_loss(reduction):
    x = np.log(_probs(9, 6))
    y = _labels(9, 6)
    got = _both(nn.NLLLoss(reduction=reduction), x, y)
    want = F.nll_loss(torch.from_numpy(x), torch.from_numpy(y).long(),
                      reduction=reduction).numpy()
    assert_close(got, want)


def test_nll_loss_weight():
    x = np.log(_probs(9, 10))
    y = _labels(9, 10)
    got = _both(nn.NLLLoss(weight=Tensor(WEIGHT)), x, y)
    want = F.nll_loss(torch.from_numpy(x), torch.from_numpy(y).long(),
                      weight=torch.from_numpy(WEIGHT)).numpy()
    assert_close(got, want)


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_softmax_cross_entropy_with_logits(sparse, reduction):
    x = rand(8, 10, low=-3, high=3)
    y = _labels(8, 10)
    labels = y if sparse else np.eye(10, dtype=np.float32)[y]
    got = _both(nn.SoftmaxCrossEntropyWithLogits(sparse=sparse,
                                                 reduction=reduction),
                x, labels)
    want = F.cross_entropy(torch.from_numpy(x), torch.from_numpy(y).long(),
                           reduction=reduction).numpy()
    assert_close(got, want)


def test_softmax_cross_entropy_default_is_none():
    loss = nn.SoftmaxCrossEntropyWithLogits()
    assert loss.reduction == "none" and not loss.sparse


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_mse_and_l1(reduction):
    x, y = rand(5, 7), rand(5, 7, seed=3)
    tx, ty = torch.from_numpy(x), torch.from_numpy(y)
    assert_close(_both(nn.MSELoss(reduction), x, y),
                 F.mse_loss(tx, ty, reduction=reduction).numpy())
    assert_close(_both(nn.L1Loss(reduction), x, y),
                 F.l1_loss(tx, ty, reduction=reduction).numpy())
    assert_close(ops.mse_loss(Tensor(x), Tensor(y), reduction).asnumpy(),
                 F.mse_loss(tx, ty, reduction=reduction).numpy())


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weighted", [False, True])
def test_bce_with_logits(reduction, weighted):
    x = rand(6, 4, low=-4, high=4)
    y = (rand(6, 4, seed=5) > 0).astype(np.float32)
    w = np.linspace(0.5, 2, 4).astype(np.float32)
    pw = np.linspace(1, 3, 4).astype(np.float32)
    kw = dict(weight=Tensor(w), pos_weight=Tensor(pw)) if weighted else {}
    got = _both(nn.BCEWithLogitsLoss(reduction=reduction, **kw), x, y)
    tkw = dict(weight=torch.from_numpy(w),
               pos_weight=torch.from_numpy(pw)) if weighted else {}
    want = F.binary_cross_entropy_with_logits(
        torch.from_numpy(x), torch.from_numpy(y), reduction=reduction,
        **tkw).numpy()
    assert_close(got, want)
    got_ops = ops.binary_cross_entropy_with_logits(
        Tensor(x), Tensor(y), reduction=reduction, **kw).asnumpy()
    assert_close(got_ops, want)


def test_bad_reduction():
    with pytest.raises(ValueError, match="reduction must be"):
        nn.MSELoss("average")
    with pytest.raises(ValueError, match="reduction must be"):
        ops.cross_entropy(Tensor(rand(2, 3)), Tensor(_labels(2, 3)),
                          reduction="avg")


def test_bad_shapes():
    with pytest.raises(ValueError, match="probability targets"):
        ops.cross_entropy(Tensor(rand(4, 3)), Tensor(rand(4, 2)))
    with pytest.raises(ValueError, match="weight must have shape"):
        ops.cross_entropy(Tensor(rand(4, 3)), Tensor(_labels(4, 3)),
                          weight=Tensor(np.ones(5, np.float32)))
    with pytest.raises(ValueError, match="label_smoothing"):
        nn.CrossEntropyLoss(label_smoothing=1.5)


#===---------------------------------------------------------------------===#
# Gradients of the losses (need the ms-autodiff pass)
#===---------------------------------------------------------------------===#

GRAD_CASES = {
    "ce_indices": (lambda: nn.CrossEntropyLoss(),
                   lambda x, y: F.cross_entropy(x, y.long()), "index"),
    "ce_smoothing_weight": (
        lambda: nn.CrossEntropyLoss(weight=Tensor(WEIGHT),
                                    label_smoothing=0.1),
        lambda x, y: F.cross_entropy(x, y.long(),
                                     weight=torch.from_numpy(WEIGHT),
                                     label_smoothing=0.1), "index"),
    "ce_probs": (lambda: nn.CrossEntropyLoss(),
                 lambda x, y: F.cross_entropy(x, y), "probs"),
    "mse": (lambda: nn.MSELoss(), F.mse_loss, "float"),
    "l1": (lambda: nn.L1Loss(), F.l1_loss, "float"),
    "bce": (lambda: nn.BCEWithLogitsLoss(),
            F.binary_cross_entropy_with_logits, "binary"),
    "sce_sparse": (
        lambda: nn.SoftmaxCrossEntropyWithLogits(sparse=True,
                                                 reduction="mean"),
        lambda x, y: F.cross_entropy(x, y.long()), "index"),
}


def _target(kind):
    if kind == "index":
        return _labels(8, 10, seed=2)
    if kind == "probs":
        return _probs(8, 10, seed=2)
    if kind == "binary":
        return (rand(8, 10, seed=2) > 0).astype(np.float32)
    return rand(8, 10, seed=2)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", sorted(GRAD_CASES))
def test_loss_gradient(mode, case):
    make, ref, kind = GRAD_CASES[case]
    ms.set_context(mode=mode)
    x = rand(8, 10, low=-2, high=2, seed=7)
    y = _target(kind)
    loss = make()
    value, gx = ms.value_and_grad(lambda a, b: loss(a, b))(Tensor(x),
                                                           Tensor(y))
    tx = torch.from_numpy(x).requires_grad_()
    tl = ref(tx, torch.from_numpy(y))
    tl.backward()
    assert_close(value.asnumpy(), tl.detach().numpy())
    assert_close(gx.asnumpy(), tx.grad.numpy())
