"""Optimizers: each update against torch.optim (where MindSpore's formula is
torch's) or a numpy transcription of MindSpore's formula (Adam,
AdamWeightDecay); PyNative and GRAPH updates bit for bit equal at every
jit_level; Parameters updated in place; state saved in checkpoints."""

import numpy as np
import pytest

import msmlir as ms
from msmlir import Tensor, Parameter, nn

from conftest import assert_bitwise, assert_close

torch = pytest.importorskip("torch")

SHAPES = {"w": (6, 5), "b": (6,), "gamma": (5,)}
STEPS = 3


def _params():
    rng = np.random.default_rng(11)
    return {k: rng.uniform(-1, 1, s).astype(np.float32)
            for k, s in SHAPES.items()}


def _grads():
    rng = np.random.default_rng(12)
    return [{k: rng.uniform(-1, 1, s).astype(np.float32)
             for k, s in SHAPES.items()} for _ in range(STEPS)]


def _ms_run(make, mode, level=""):
    ms.set_context(mode=mode, jit_level=level)
    params = [Parameter(Tensor(v), name=k) for k, v in _params().items()]
    opt = make(params)
    for step in _grads():
        opt(tuple(Tensor(step[p.name]) for p in params))
    return {p.name: p.asnumpy().copy() for p in params}, opt, params


def _torch_run(make):
    params = {k: torch.tensor(v, requires_grad=True)
              for k, v in _params().items()}
    opt = make(list(params.values()))
    for step in _grads():
        for k, p in params.items():
            p.grad = torch.from_numpy(step[k])
        opt.step()
    return {k: p.detach().numpy() for k, p in params.items()}


def _numpy_adam(lr, b1, b2, eps, wd, decoupled):
    """MindSpore's Adam (decoupled=False, L2 weight decay, bias correction
    through lr) or AdamWeightDecay (decoupled=True, no bias correction),
    in float64."""
    params = {k: v.astype(np.float64) for k, v in _params().items()}
    m = {k: np.zeros_like(v) for k, v in params.items()}
    v2 = {k: np.zeros_like(v) for k, v in params.items()}
    for t, step in enumerate(_grads(), 1):
        for k, p in params.items():
            decay = wd > 0 and "gamma" not in k and "beta" not in k
            g = step[k].astype(np.float64)
            if decay and not decoupled:
                g = g + wd * p
            m[k] = b1 * m[k] + (1 - b1) * g
            v2[k] = b2 * v2[k] + (1 - b2) * g * g
            if decoupled:
                update = m[k] / (np.sqrt(v2[k]) + eps)
                if decay:
                    update = update + wd * p
                params[k] = p - lr * update
            else:
                lr_t = lr * np.sqrt(1 - b2 ** t) / (1 - b1 ** t)
                params[k] = p - lr_t * m[k] / (np.sqrt(v2[k]) + eps)
    return params


def _no_decay_groups(params, wd):
    """torch parameter groups matching MindSpore's decay filter (no decay
    for names holding 'gamma' or 'beta')."""
    names = list(SHAPES)
    return [{"params": [p for n, p in zip(names, params) if n != "gamma"],
             "weight_decay": wd},
            {"params": [p for n, p in zip(names, params) if n == "gamma"],
             "weight_decay": 0.0}]


CASES = {
    "sgd": (lambda ps: nn.SGD(ps, 0.1),
            lambda ps: torch.optim.SGD(ps, 0.1)),
    "sgd_momentum": (lambda ps: nn.SGD(ps, 0.05, momentum=0.9),
                     lambda ps: torch.optim.SGD(ps, 0.05, momentum=0.9)),
    "sgd_dampening": (
        lambda ps: nn.SGD(ps, 0.05, momentum=0.8, dampening=0.3),
        lambda ps: torch.optim.SGD(ps, 0.05, momentum=0.8, dampening=0.3)),
    "sgd_nesterov_wd": (
        lambda ps: nn.SGD(ps, 0.05, momentum=0.9, nesterov=True,
                          weight_decay=0.01),
        lambda ps: torch.optim.SGD(_no_decay_groups(ps, 0.01), 0.05,
                                   momentum=0.9, nesterov=True)),
    "momentum": (lambda ps: nn.Momentum(ps, 0.05, 0.9),
                 lambda ps: torch.optim.SGD(ps, 0.05, momentum=0.9)),
    "momentum_nesterov": (
        lambda ps: nn.Momentum(ps, 0.05, 0.9, use_nesterov=True),
        lambda ps: torch.optim.SGD(ps, 0.05, momentum=0.9, nesterov=True)),
    "momentum_wd_loss_scale": (
        lambda ps: nn.Momentum(ps, 0.05, 0.9, weight_decay=0.02,
                               loss_scale=4.0),
        None),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_against_torch(case):
    make, make_torch = CASES[case]
    got, _, _ = _ms_run(make, ms.PYNATIVE_MODE)
    if make_torch is None:
        # loss_scale divides the gradients: the same as torch with the
        # gradients scaled by 1/4 (and decay on all but gamma).
        def make_torch(ps):
            return torch.optim.SGD(_no_decay_groups(ps, 0.02), 0.05,
                                   momentum=0.9)
        scaled = [{k: v / 4.0 for k, v in g.items()} for g in _grads()]
        params = {k: torch.tensor(v, requires_grad=True)
                  for k, v in _params().items()}
        opt = make_torch(list(params.values()))
        for step in scaled:
            for k, p in params.items():
                p.grad = torch.from_numpy(step[k])
            opt.step()
        want = {k: p.detach().numpy() for k, p in params.items()}
    else:
        want = _torch_run(make_torch)
    for k in SHAPES:
        assert_close(got[k], want[k])


ADAM_CASES = {
    "adam": (lambda ps: nn.Adam(ps, 0.01),
             dict(lr=0.01, b1=0.9, b2=0.999, eps=1e-8, wd=0.0,
                  decoupled=False)),
    "adam_wd": (lambda ps: nn.Adam(ps, 0.01, beta1=0.8, beta2=0.99,
                                   eps=1e-6, weight_decay=0.1),
                dict(lr=0.01, b1=0.8, b2=0.99, eps=1e-6, wd=0.1,
                     decoupled=False)),
    "adamw": (lambda ps: nn.AdamWeightDecay(ps, 0.01, weight_decay=0.1),
              dict(lr=0.01, b1=0.9, b2=0.999, eps=1e-6, wd=0.1,
                   decoupled=True)),
    "adamw_no_decay": (lambda ps: nn.AdamWeightDecay(ps),
                       dict(lr=1e-3, b1=0.9, b2=0.999, eps=1e-6, wd=0.0,
                            decoupled=True)),
}


@pytest.mark.parametrize("case", sorted(ADAM_CASES))
def test_adam_against_numpy(case):
    make, kw = ADAM_CASES[case]
    got, _, _ = _ms_run(make, ms.PYNATIVE_MODE)
    want = _numpy_adam(**kw)
    for k in SHAPES:
        assert_close(got[k], want[k])


def test_adam_matches_torch_without_eps():
    """With a negligible eps MindSpore's Adam is torch's Adam."""
    got, _, _ = _ms_run(lambda ps: nn.Adam(ps, 0.01, eps=1e-30),
                        ms.PYNATIVE_MODE)
    want = _torch_run(lambda ps: torch.optim.Adam(ps, 0.01, eps=1e-30))
    for k in SHAPES:
        assert_close(got[k], want[k])


ALL = dict(CASES, **ADAM_CASES)


@pytest.mark.parametrize("level", ["O0", "O1", "O2"])
@pytest.mark.parametrize("case", sorted(ALL))
def test_graph_equals_pynative(case, level):
    make = ALL[case][0]
    pn, _, _ = _ms_run(make, ms.PYNATIVE_MODE)
    gr, opt, _ = _ms_run(make, ms.GRAPH_MODE, level)
    for k in SHAPES:
        assert_bitwise(pn[k], gr[k])
    # One graph for every step.
    assert opt.compile_count == 1


def _kernel_runs():
    stats = ms.pynative_stats()
    return stats["hits"] + stats["misses"]


@pytest.mark.parametrize("case", sorted(ALL))
def test_pynative_update_is_one_graph(case):
    """In PyNative mode construct is @jit, as in MindSpore: after the first
    step an update runs no PyNative kernel and compiles nothing, and its
    results are bit for bit the op-by-op update's (construct run eagerly)."""
    make = ALL[case][0]
    jitted, opt, _ = _ms_run(make, ms.PYNATIVE_MODE)
    assert opt.compile_count == 1
    eager_construct = nn.Optimizer.construct.__wrapped__
    ms.set_context(mode=ms.PYNATIVE_MODE, jit_level="")
    params = [Parameter(Tensor(v), name=k) for k, v in _params().items()]
    eager = make(params)
    for step in _grads():
        before = _kernel_runs()
        eager_construct(eager, tuple(Tensor(step[p.name]) for p in params))
        assert _kernel_runs() > before
    for p in params:
        assert_bitwise(jitted[p.name], p.asnumpy())
    runs, compiles = _kernel_runs(), ms.compile_count()
    opt(tuple(Tensor(g) for g in _grads()[0].values()))
    assert (_kernel_runs(), ms.compile_count()) == (runs, compiles)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_updates_in_place(mode):
    _, opt, params = _ms_run(lambda ps: nn.Momentum(ps, 0.1, 0.9), mode)
    assert list(opt.parameters) == params
    assert all(a is b for a, b in zip(opt.parameters, params))
    assert not np.array_equal(params[0].asnumpy(), _params()["w"])


def test_state_names_and_checkpoint(tmp_path):
    _, opt, _ = _ms_run(lambda ps: nn.Adam(ps, 0.01), ms.PYNATIVE_MODE)
    names = {n for n, _ in opt.parameters_and_names()}
    for k in SHAPES:
        assert f"moment1.{k}" in names and f"moment2.{k}" in names
    assert {"beta1_power", "beta2_power", "learning_rate"} <= names
    path = str(tmp_path / "opt.ckpt")
    ms.save_checkpoint(opt, path)
    loaded = ms.load_checkpoint(path)
    assert_close(loaded["beta1_power"].asnumpy(), np.float32(0.9 ** STEPS))
    assert np.any(loaded["moment1.w"].asnumpy() != 0)
    _, mom, _ = _ms_run(lambda ps: nn.Momentum(ps, 0.1, 0.9),
                        ms.PYNATIVE_MODE)
    assert "moments.w" in {n for n, _ in mom.parameters_and_names()}


def test_learning_rate_is_a_parameter():
    """Changing the learning rate needs no recompile in GRAPH_MODE."""
    ms.set_context(mode=ms.GRAPH_MODE)
    p = Parameter(Tensor(np.ones(4, np.float32)), name="p")
    opt = nn.SGD([p], 0.5)
    opt((Tensor(np.ones(4, np.float32)),))
    assert_close(p.asnumpy(), np.full(4, 0.5, np.float32))
    opt.learning_rate.set_data(Tensor(np.float32(0.25)))
    opt((Tensor(np.ones(4, np.float32)),))
    assert_close(p.asnumpy(), np.full(4, 0.25, np.float32))
    assert opt.compile_count == 1


def test_errors():
    p = Parameter(Tensor(np.ones(3, np.float32)), name="p")
    with pytest.raises(ValueError, match="empty"):
        nn.SGD([], 0.1)
    with pytest.raises(TypeError, match="Parameters"):
        nn.SGD([Tensor(np.ones(3, np.float32))], 0.1)
    with pytest.raises(ValueError, match="For 'Momentum', the 'learning "
                       "rate' must be float and must >= 0, but got '-1.0'"):
        nn.Momentum([p], -1.0, 0.9)
    with pytest.raises(ValueError, match="For 'Momentum', the argument "
                       "'momentum' should be at least 0.0, but got -0.5"):
        nn.Momentum([p], 0.1, -0.5)
    with pytest.raises(ValueError, match=r"For 'Adam', the 'beta1' should "
                       r"be in range of \(0.0, 1.0\)"):
        nn.Adam([p], beta1=1.0)
    opt = nn.SGD([p], 0.1)
    with pytest.raises(ValueError, match="1 parameters"):
        opt((Tensor(np.ones(3, np.float32)),) * 2)
    with pytest.raises(ValueError, match="gradient of p has shape"):
        opt((Tensor(np.ones(4, np.float32)),))
