"""The optimizers beyond SGD/Momentum/Adam over 100 steps: against
torch.optim where MindSpore's formula is torch's (Adadelta, Adagrad,
Rprop, ASGD), against a float32 numpy transcription of MindSpore's
documented formula otherwise (RMSProp, AdaMax, Lamb, LARS, FTRL,
ProximalAdagrad), to 1e-6 relative; the op-by-op PyNative update equal to
the compiled GRAPH one bit for bit; state under MindSpore's names; every
argument error's message."""

import numpy as np
import pytest

import msmlir as ms
from msmlir import Tensor, Parameter, nn

from conftest import assert_bitwise, assert_close

torch = pytest.importorskip("torch")

SHAPES = {"w": (6, 5), "b": (6,), "gamma": (5,)}
STEPS = 100
RTOL = 1e-6


def _params():
    rng = np.random.default_rng(21)
    return {k: rng.uniform(-1, 1, s).astype(np.float32)
            for k, s in SHAPES.items()}


def _grads(steps=STEPS):
    rng = np.random.default_rng(22)
    return [{k: rng.uniform(-1, 1, s).astype(np.float32)
             for k, s in SHAPES.items()} for _ in range(steps)]


def _ms_run(make, mode=ms.PYNATIVE_MODE, level="", eager=False,
            steps=STEPS):
    ms.set_context(mode=mode, jit_level=level)
    params = [Parameter(Tensor(v), name=k) for k, v in _params().items()]
    opt = make(params)
    call = (lambda g: type(opt).construct.__wrapped__(opt, g)) if eager \
        else opt
    for step in _grads(steps):
        call(tuple(Tensor(step[p.name]) for p in params))
    return {p.name: p.asnumpy().copy() for p in params}, opt


def _torch_run(make):
    params = {k: torch.tensor(v, requires_grad=True)
              for k, v in _params().items()}
    opt = make(list(params.values()))
    for step in _grads():
        for k, p in params.items():
            p.grad = torch.from_numpy(step[k])
        opt.step()
    return {k: p.detach().numpy() for k, p in params.items()}


def _numpy_run(update, state):
    """Runs update(name, p, g, t, state) -> p for every step, in float32
    as MindSpore computes (a float64 run drifts from any float32 one by
    more than 1e-6 over 100 steps)."""
    params = _params()
    for t, step in enumerate(_grads(), 1):
        for k in params:
            params[k] = np.float32(update(k, params[k], step[k], t, state))
    return params


def _slot(state, name, k, init):
    return state.setdefault((name, k), np.full(SHAPES[k], init, np.float32))


def _rmsprop(lr, decay, momentum, eps, centered):
    def update(k, p, g, t, s):
        ms_ = _slot(s, "ms", k, 1.0)
        ms_[...] = decay * ms_ + (1 - decay) * g * g
        denom = ms_
        if centered:
            mg = _slot(s, "mg", k, 0.0)
            mg[...] = decay * mg + (1 - decay) * g
            denom = ms_ - mg * mg
        mom = _slot(s, "mom", k, 0.0)
        mom[...] = momentum * mom + lr * g / np.sqrt(denom + eps)
        return p - mom
    return update


def _adamax(lr, b1, b2, eps):
    def update(k, p, g, t, s):
        m, v = _slot(s, "m", k, 0.0), _slot(s, "v", k, 0.0)
        m[...] = b1 * m + (1 - b1) * g
        v[...] = np.maximum(b2 * v, np.abs(g))
        return p - lr / (1 - b1 ** t) * m / (v + eps)
    return update


def _lamb(lr, b1, b2, eps, wd):
    def update(k, p, g, t, s):
        m, v = _slot(s, "m", k, 0.0), _slot(s, "v", k, 0.0)
        m[...] = b1 * m + (1 - b1) * g
        v[...] = b2 * v + (1 - b2) * g * g
        # beta^t of the float32 betas, as MindSpore computes it.
        c1 = 1 - np.float32(b1) ** np.float32(t)
        c2 = 1 - np.float32(b2) ** np.float32(t)
        u = (m / c1) / (np.sqrt(v / c2) + eps)
        if wd and "gamma" not in k:
            u = u + wd * p
        wn, un = np.linalg.norm(p), np.linalg.norm(u)
        ratio = wn / un if wn > 0 and un > 0 else 1.0
        return p - lr * ratio * u
    return update


def _ftrl(lr, init, lr_power, l1, l2, wd):
    def update(k, p, g, t, s):
        g = g + wd * p
        a, lin = _slot(s, "a", k, init), _slot(s, "lin", k, 0.0)
        a_new = a + g * g
        lin[...] = lin + g - (a_new ** -lr_power - a ** -lr_power) / lr * p
        a[...] = a_new
        quad = a_new ** -lr_power / lr + 2 * l2
        new = (np.sign(lin) * l1 - lin) / quad
        return np.where(np.abs(lin) > l1, new, 0.0)
    return update


def _proximal_adagrad(lr, init, l1, l2):
    def update(k, p, g, t, s):
        a = _slot(s, "a", k, init)
        a[...] = a + g * g
        lr_t = lr / np.sqrt(a)
        prox = p - lr_t * g
        if l1 > 0:
            prox = np.sign(prox) * np.maximum(np.abs(prox) - lr_t * l1, 0)
        return prox / (1 + lr_t * l2)
    return update


def _lars_momentum(lr, momentum, wd, eps, coefficient):
    def update(k, p, g, t, s):
        # The wrapped optimizer's decay filter leaves out 'gamma'; the
        # lars_filter, 'b'.
        if k == "b":
            v = _slot(s, "v", k, 0.0)
            v[...] = momentum * v + g
            return p - lr * v
        decay = 0.0 if k == "gamma" else wd
        wn, gn = np.linalg.norm(p), np.linalg.norm(g)
        trust = coefficient * wn / (gn + decay * wn + eps) \
            if wn > 0 and gn > 0 else 1.0
        g = (g + decay * p) * trust
        v = _slot(s, "v", k, 0.0)
        v[...] = momentum * v + g
        return p - lr * v
    return update


def _no_decay_groups(params, wd):
    """torch groups matching MindSpore's decay filter: no weight decay for
    names holding 'gamma' or 'beta'."""
    names = list(SHAPES)
    return [{"params": [p for n, p in zip(names, params) if n != "gamma"],
             "weight_decay": wd},
            {"params": [p for n, p in zip(names, params) if n == "gamma"],
             "weight_decay": 0.0}]


TORCH_CASES = {
    "adadelta": (lambda ps: nn.Adadelta(ps),
                 lambda ps: torch.optim.Adadelta(ps)),
    "adadelta_args": (
        lambda ps: nn.Adadelta(ps, 0.5, rho=0.8, epsilon=1e-4),
        lambda ps: torch.optim.Adadelta(ps, 0.5, rho=0.8, eps=1e-4)),
    "adagrad": (lambda ps: nn.Adagrad(ps, accum=0.1, learning_rate=0.01),
                lambda ps: torch.optim.Adagrad(
                    ps, 0.01, initial_accumulator_value=0.1, eps=0.0)),
    "rprop": (lambda ps: nn.Rprop(ps),  # torch's default lr is 0.01
              lambda ps: torch.optim.Rprop(ps, 0.1)),
    "rprop_args": (
        lambda ps: nn.Rprop(ps, 0.01, etas=(0.3, 1.5),
                            step_sizes=(1e-4, 0.05)),
        lambda ps: torch.optim.Rprop(ps, 0.01, etas=(0.3, 1.5),
                                     step_sizes=(1e-4, 0.05))),
    "asgd": (lambda ps: nn.ASGD(ps, 0.01),
             lambda ps: torch.optim.ASGD(ps, 0.01)),
    "asgd_averaging": (
        lambda ps: nn.ASGD(ps, 0.05, lambd=1e-3, alpha=0.6, t0=10.0,
                           weight_decay=0.01),
        lambda ps: torch.optim.ASGD(_no_decay_groups(ps, 0.01), 0.05,
                                    lambd=1e-3, alpha=0.6, t0=10.0)),
}

NUMPY_CASES = {
    "rmsprop": (lambda ps: nn.RMSProp(ps, 0.01, momentum=0.9),
                _rmsprop(0.01, 0.9, 0.9, 1e-10, False)),
    "rmsprop_centered": (
        lambda ps: nn.RMSProp(ps, 0.01, decay=0.8, momentum=0.5,
                              epsilon=1e-6, centered=True),
        _rmsprop(0.01, 0.8, 0.5, 1e-6, True)),
    "adamax": (lambda ps: nn.AdaMax(ps, 0.01),
               _adamax(0.01, 0.9, 0.999, 1e-8)),
    "lamb": (lambda ps: nn.Lamb(ps, 0.01, weight_decay=0.1),
             _lamb(0.01, 0.9, 0.999, 1e-6, 0.1)),
    "ftrl": (lambda ps: nn.FTRL(ps, learning_rate=0.1, l1=0.01, l2=0.02,
                                weight_decay=0.01),
             _ftrl(0.1, 0.1, -0.5, 0.01, 0.02, 0.01)),
    "ftrl_lr_power": (lambda ps: nn.FTRL(ps, 0.5, 0.05, lr_power=-0.3),
                      _ftrl(0.05, 0.5, -0.3, 0.0, 0.0, 0.0)),
    "proximal_adagrad": (
        lambda ps: nn.ProximalAdagrad(ps, learning_rate=0.05, l1=0.01,
                                      l2=0.1),
        _proximal_adagrad(0.05, 0.1, 0.01, 0.1)),
    "lars": (lambda ps: nn.LARS(nn.Momentum(ps, 0.1, 0.9,
                                            weight_decay=0.01),
                                lars_filter=lambda p: p.name != "b"),
             _lars_momentum(0.1, 0.9, 0.01, 1e-5, 0.001)),
}


@pytest.mark.parametrize("case", sorted(TORCH_CASES))
def test_against_torch(case):
    make, make_torch = TORCH_CASES[case]
    got, _ = _ms_run(make)
    want = _torch_run(make_torch)
    for k in SHAPES:
        assert_close(got[k], want[k], RTOL)


@pytest.mark.parametrize("case", sorted(NUMPY_CASES))
def test_against_mindspore_formula(case):
    make, update = NUMPY_CASES[case]
    got, _ = _ms_run(make)
    want = _numpy_run(update, {})
    for k in SHAPES:
        assert_close(got[k], want[k], RTOL)


ALL = dict(TORCH_CASES, **NUMPY_CASES)


@pytest.mark.parametrize("case", sorted(ALL))
def test_graph_equals_op_by_op_pynative(case):
    """The update run op by op on PyNative kernels (construct without its
    @jit) gives the compiled GRAPH update's bits, at O0 and O2."""
    make = ALL[case][0]
    eager, _ = _ms_run(make, eager=True, steps=20)
    for level in ("O0", "O2"):
        graph, opt = _ms_run(make, ms.GRAPH_MODE, level, steps=20)
        for k in SHAPES:
            assert_bitwise(eager[k], graph[k])
    assert opt.compile_count == 1


STATE_NAMES = {
    "rmsprop": ["mean_square.w", "moment.w"],
    "rmsprop_centered": ["mean_grad.w"],
    "adagrad": ["accum.w"],
    "adadelta": ["accum.w", "accum_update.w"],
    "adamax": ["moment1.w", "moment2.w", "beta1_power"],
    "lamb": ["lamb_m.w", "lamb_v.w", "global_step"],
    "ftrl": ["moments.w", "linear.w"],
    "proximal_adagrad": ["accum.w"],
    "rprop": ["prev.w", "step_size.w"],
    "asgd": ["mu_w", "eta_w", "ax_.w"],
    "lars": ["moments.w", "learning_rate"],
}


@pytest.mark.parametrize("case", sorted(STATE_NAMES))
def test_state_names_are_mindspore_s(case, tmp_path):
    _, opt = _ms_run(ALL[case][0], steps=2)
    names = set(opt.parameters_dict())
    assert set(STATE_NAMES[case]) <= names, sorted(names)
    path = str(tmp_path / "opt.safetensors")
    ms.save_checkpoint(opt, path)
    assert set(STATE_NAMES[case]) <= set(ms.load_checkpoint(path))


def test_initial_state_values():
    p = [Parameter(Tensor(np.ones(3, np.float32)), name="p")]
    assert np.all(nn.RMSProp(p).mean_square[0].asnumpy() == 1.0)
    assert np.all(nn.Adagrad(p, accum=0.25).accum[0].asnumpy() == 0.25)
    assert np.all(nn.FTRL(p, initial_accum=0.5).moments[0].asnumpy() == 0.5)


def test_lamb_and_rprop_count_steps_with_a_fixed_rate():
    _, opt = _ms_run(lambda ps: nn.Lamb(ps, 0.01), steps=3)
    assert opt.global_step.asnumpy().tolist() == [3]
    _, opt = _ms_run(lambda ps: nn.Momentum(ps, 0.01, 0.9), steps=3)
    assert opt.global_step.asnumpy().tolist() == [0]


def _p():
    return [Parameter(Tensor(np.ones(3, np.float32)), name="p")]


@pytest.mark.parametrize("make, error, message", [
    (lambda: nn.RMSProp(_p(), decay=-0.1), ValueError,
     "For 'RMSProp', the 'decay' must be float and must >= 0, but got "
     "'-0.1'"),
    (lambda: nn.RMSProp(_p(), epsilon=0.0), ValueError,
     "For 'RMSProp', the 'epsilon' must be float and must > 0"),
    (lambda: nn.RMSProp(_p(), momentum=1), TypeError,
     "For 'RMSProp', the 'momentum' must be float, but got 'int'"),
    (lambda: nn.Adagrad(_p(), accum=-1.0), ValueError,
     "For 'Adagrad', the 'accum' must be float and must >= 0"),
    (lambda: nn.Adagrad(_p(), update_slots=1), TypeError,
     "For 'Adagrad', the 'update_slots' must be bool"),
    (lambda: nn.Adadelta(_p(), rho=1.5), ValueError,
     r"For 'Adadelta', the 'rho' should be in range of \[0.0, 1.0\]"),
    (lambda: nn.AdaMax(_p(), beta2=1.0), ValueError,
     r"For 'AdaMax', the 'beta2' should be in range of \(0.0, 1.0\)"),
    (lambda: nn.Lamb(_p(), 0.1, eps=0.0), ValueError,
     "For 'Lamb', the 'eps' must be float and must > 0"),
    (lambda: nn.FTRL(_p(), learning_rate=[0.1, 0.2]), ValueError,
     "For 'FTRL', dynamic learning rate and group learning rate are "
     "currently not supported"),
    (lambda: nn.FTRL(_p(), lr_power=0.5), ValueError,
     "For 'FTRL', the argument 'lr_power' must be a float <= 0"),
    (lambda: nn.FTRL(_p(), l1=-1.0), ValueError,
     "For 'FTRL', the 'l1' must be float and must >= 0"),
    (lambda: nn.ProximalAdagrad(_p(), l2=-1.0), ValueError,
     "For 'ProximalAdagrad', the 'l2' must be float and must >= 0"),
    (lambda: nn.Rprop(_p(), etas=(1.5, 1.2)), ValueError,
     r"For Rprop, etaminus must be in range of \(0.0, 1.0\), but got "
     "etaminus 1.5"),
    (lambda: nn.Rprop(_p(), etas=(0.5, 1.0)), ValueError,
     "For Rprop, etaplus must be greater than 1.0, but got etaplus 1.0"),
    (lambda: nn.Rprop(_p(), step_sizes=(1.0, 0.1)), ValueError,
     "For Rprop, maximal step size should not be less than minimal"),
    (lambda: nn.Rprop(_p(), etas=[0.5, 1.2]), TypeError,
     "For 'Rprop', the argument 'etas' must be a tuple of two floats"),
    (lambda: nn.ASGD(_p(), lambd=1), TypeError,
     "For 'ASGD', the 'lambd' must be float, but got 'int'"),
    (lambda: nn.LARS(_p()), TypeError,
     "For 'LARS', the argument 'optimizer' must be an Optimizer"),
    (lambda: nn.LARS(nn.SGD(_p()), use_clip=True), NotImplementedError,
     "LARSUpdate: use_clip=True is not supported"),
])
def test_errors(make, error, message):
    with pytest.raises(error, match=message):
        make()
