"""Learning rates: the dynamic_lr lists (MindSpore's documented examples
and formulas), the LearningRateSchedule Cells over 100 steps against
torch's closed forms or numpy (1e-6 relative) and PyNative against GRAPH
bit for bit, and every way an optimizer takes a rate (float, list,
Tensor, schedule; weight decay as a Cell; parameter groups), computed
inside the compiled step."""

import numpy as np
import pytest

import msmlir as ms
from msmlir import Tensor, Parameter, nn

from conftest import assert_bitwise, assert_close

torch = pytest.importorskip("torch")

STEPS = 100
RTOL = 1e-6

# -- the lists -----------------------------------------------------------------

def test_documented_examples():
    assert nn.piecewise_constant_lr([2, 5, 10], [0.1, 0.05, 0.01]) == \
        [0.1, 0.1, 0.05, 0.05, 0.05, 0.01, 0.01, 0.01, 0.01, 0.01]
    assert nn.exponential_decay_lr(0.1, 0.9, 6, 2, 1) == \
        [0.1, 0.1, 0.09000000000000001, 0.09000000000000001,
         0.08100000000000002, 0.08100000000000002]
    assert nn.warmup_lr(0.1, 6, 2, 2) == [0.0, 0.0, 0.05, 0.05, 0.1, 0.1]
    assert nn.cosine_decay_lr(0.01, 0.1, 6, 2, 2) == pytest.approx(
        [0.1, 0.1, 0.055, 0.055, 0.01, 0.01])

def _epochs(total, per_epoch):
    return np.floor(np.arange(total) / per_epoch)

LISTS = {
    "exponential": (lambda: nn.exponential_decay_lr(0.1, 0.9, 100, 3, 4),
                    lambda e: 0.1 * 0.9 ** (e / 4)),
    "exponential_stair": (
        lambda: nn.exponential_decay_lr(0.1, 0.9, 100, 3, 4, True),
        lambda e: 0.1 * 0.9 ** np.floor(e / 4)),
    "natural_exp": (lambda: nn.natural_exp_decay_lr(0.1, 0.2, 100, 3, 4),
                    lambda e: 0.1 * np.exp(-0.2 * e)),
    "natural_exp_stair": (
        lambda: nn.natural_exp_decay_lr(0.1, 0.2, 100, 3, 4, True),
        lambda e: 0.1 * np.exp(-0.2 * np.floor(e / 4) * 4)),
    "inverse": (lambda: nn.inverse_decay_lr(0.1, 0.5, 100, 3, 4),
                lambda e: 0.1 / (1 + 0.5 * e / 4)),
    "inverse_stair": (lambda: nn.inverse_decay_lr(0.1, 0.5, 100, 3, 4, True),
                      lambda e: 0.1 / (1 + 0.5 * np.floor(e / 4))),
    "cosine": (lambda: nn.cosine_decay_lr(0.01, 0.1, 100, 3, 20),
               lambda e: 0.01 + 0.045 * (1 + np.cos(np.pi *
                                                    np.minimum(e, 20) / 20))),
    "polynomial": (lambda: nn.polynomial_decay_lr(0.1, 0.01, 100, 3, 20, 2.0),
                   lambda e: 0.09 * (1 - np.minimum(e, 20) / 20) ** 2
                   + 0.01),
    "polynomial_update": (
        lambda: nn.polynomial_decay_lr(0.1, 0.01, 100, 3, 10, 0.5, True),
        lambda e: 0.09 * (1 - e / (10 * np.maximum(np.ceil(e / 10), 1)))
        ** 0.5 + 0.01),
    "warmup": (lambda: nn.warmup_lr(0.1, 100, 3, 10),
               lambda e: 0.1 * np.minimum(e, 10) / 10),
}

@pytest.mark.parametrize("case", sorted(LISTS))
def test_lists_against_their_formula(case):
    make, formula = LISTS[case]
    got = make()
    assert isinstance(got, list) and len(got) == 100
    np.testing.assert_allclose(got, formula(_epochs(100, 3)), rtol=1e-12)

@pytest.mark.parametrize("call, error, message", [
    (lambda: nn.piecewise_constant_lr([2, 5], [0.1]), ValueError,
     "For 'piecewise_constant_lr', the size of 'milestone' must be same "
     "with the size of 'learning_rates', but got 'milestone' size: 2, "
     "'learning_rates' size: 1."),
    (lambda: nn.piecewise_constant_lr([5, 2], [0.1, 0.2]), ValueError,
     r"For 'piecewise_constant_lr', the value of milestone\[1\] must be "
     r"greater than milestone\[0\]"),
    (lambda: nn.exponential_decay_lr(1, 0.9, 6, 2, 1), TypeError,
     "The 'learning_rate' must be float, but got 'int'"),
    (lambda: nn.exponential_decay_lr(0.1, 0.9, 0, 2, 1), ValueError,
     "The 'total_step' must be int and must > 0, but got '0' with type "
     "'int'."),
    (lambda: nn.exponential_decay_lr(0.1, 0.9, 6, 2, 1, 1), TypeError,
     "The 'is_stair' must be bool"),
    (lambda: nn.cosine_decay_lr(0, 0.1, 6, 2, 1), TypeError,
     "For 'cosine_decay_lr', the argument 'min_lr' must be type of float"),
    (lambda: nn.cosine_decay_lr(0.2, 0.1, 6, 2, 1), ValueError,
     "For 'cosine_decay_lr', the 'max_lr' should be greater than the "
     "'min_lr', but got 'max_lr' value: 0.1, 'min_lr' value: 0.2."),
    (lambda: nn.warmup_lr(1, 6, 2, 1), TypeError,
     "For 'warmup_lr', the argument 'learning_rate' must be type of float"),
    (lambda: nn.polynomial_decay_lr(0.1, 0.01, 6, 2, 1, 0.0), ValueError,
     "The 'power' must be float and must > 0"),
])
def test_list_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()

# -- the schedule Cells --------------------------------------------------------

def _steps():
    return np.arange(STEPS, dtype=np.float64)

def _torch_closed_form(make):
    """torch's closed-form rate at steps 0..STEPS-1 for base lr 1."""
    opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
    sched = make(opt)
    out = []
    for t in range(STEPS):
        sched.last_epoch = t
        out.append(sched._get_closed_form_lr()[0])
    return np.array(out)

SCHEDULES = {
    "exponential": (lambda: nn.ExponentialDecayLR(0.1, 0.9, 1),
                    lambda: 0.1 * _torch_closed_form(
                        lambda o: torch.optim.lr_scheduler.ExponentialLR(
                            o, 0.9))),
    "exponential_steps": (lambda: nn.ExponentialDecayLR(0.1, 0.9, 7),
                          lambda: 0.1 * 0.9 ** (_steps() / 7)),
    "exponential_stair": (lambda: nn.ExponentialDecayLR(0.1, 0.9, 7, True),
                          lambda: 0.1 * 0.9 ** np.floor(_steps() / 7)),
    "natural_exp": (lambda: nn.NaturalExpDecayLR(0.1, 0.5, 7),
                    lambda: 0.1 * np.exp(-0.5 * _steps() / 7)),
    "natural_exp_stair": (lambda: nn.NaturalExpDecayLR(0.1, 0.5, 7, True),
                          lambda: 0.1 * np.exp(-0.5 *
                                               np.floor(_steps() / 7))),
    "inverse": (lambda: nn.InverseDecayLR(0.1, 0.5, 7),
                lambda: 0.1 / (1 + 0.5 * _steps() / 7)),
    "inverse_stair": (lambda: nn.InverseDecayLR(0.1, 0.5, 7, True),
                      lambda: 0.1 / (1 + 0.5 * np.floor(_steps() / 7))),
    "cosine": (lambda: nn.CosineDecayLR(0.0, 0.1, 60),
               lambda: 0.1 * _torch_closed_form(
                   lambda o: torch.optim.lr_scheduler.CosineAnnealingLR(
                       o, 60))[np.minimum(np.arange(STEPS), 60)]),
    "cosine_min": (lambda: nn.CosineDecayLR(0.01, 0.1, 60),
                   lambda: 0.01 + 0.045 * (1 + np.cos(
                       np.pi * np.minimum(_steps(), 60) / 60))),
    "polynomial": (lambda: nn.PolynomialDecayLR(0.1, 0.0, 60, 2.0),
                   lambda: 0.1 * _torch_closed_form(
                       lambda o: torch.optim.lr_scheduler.PolynomialLR(
                           o, 60, 2.0))),
    "polynomial_end": (lambda: nn.PolynomialDecayLR(0.1, 0.01, 60, 0.5),
                       lambda: 0.09 * (1 - np.minimum(_steps(), 60) / 60)
                       ** 0.5 + 0.01),
    "polynomial_update": (
        lambda: nn.PolynomialDecayLR(0.1, 0.01, 30, 2.0, True),
        lambda: 0.09 * (1 - _steps() / (30 * np.maximum(
            np.ceil(_steps() / 30), 1))) ** 2 + 0.01),
    "warmup": (lambda: nn.WarmUpLR(0.1, 40),
               lambda: 0.1 * np.minimum(_steps(), 40) / 40),
}

def _schedule_values(schedule):
    return np.array([schedule(Tensor(np.array([t], np.int32))).asnumpy()[0]
                     for t in range(STEPS)])

@pytest.mark.parametrize("case", sorted(SCHEDULES))
def test_schedule_against_reference(case):
    make, reference = SCHEDULES[case]
    got = _schedule_values(make())
    assert got.dtype == np.float32
    assert_close(got, reference(), RTOL)

@pytest.mark.parametrize("case", sorted(SCHEDULES))
def test_schedule_graph_equals_pynative(case):
    make = SCHEDULES[case][0]
    pynative = _schedule_values(make())
    ms.set_context(mode=ms.GRAPH_MODE)
    schedule = make()
    assert_bitwise(pynative, _schedule_values(schedule))
    assert schedule.compile_count == 1

def test_schedule_keeps_the_step_shape():
    out = nn.WarmUpLR(0.1, 4)(Tensor(np.array([2], np.int32)))
    assert out.shape == (1,) and out.dtype == ms.float32

@pytest.mark.parametrize("call, error, message", [
    (lambda: nn.ExponentialDecayLR(0.1, 0.9, 0), ValueError,
     "For 'ExponentialDecayLR', the 'decay_steps' must be int and must > 0"),
    (lambda: nn.ExponentialDecayLR(1, 0.9, 4), TypeError,
     "For 'ExponentialDecayLR', the 'learning_rate' must be float, but got "
     "'int'"),
    (lambda: nn.NaturalExpDecayLR(0.1, -0.9, 4), ValueError,
     "For 'NaturalExpDecayLR', the 'decay_rate' must be float and must > 0"),
    (lambda: nn.InverseDecayLR(0.1, 0.9, 4, is_stair=1), TypeError,
     "For 'InverseDecayLR', the 'is_stair' must be bool"),
    (lambda: nn.CosineDecayLR(0, 0.1, 4), TypeError,
     "For 'CosineDecayLR', the argument 'min_lr' must be type of float"),
    (lambda: nn.CosineDecayLR(0.2, 0.1, 4), ValueError,
     "For 'CosineDecayLR', the 'max_lr' should be greater than the "
     "'min_lr'"),
    (lambda: nn.PolynomialDecayLR(0.1, 0, 4, 1.0), TypeError,
     "For 'PolynomialDecayLR', the argument 'end_learning_rate' must be "
     "type of float"),
    (lambda: nn.WarmUpLR(0.1, 0), ValueError,
     "For 'WarmUpLR', the 'warmup_steps' must be int and must > 0"),
])
def test_schedule_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()

# -- optimizers with dynamic rates ------------------------------------------------

SHAPES = {"w": (4, 3), "b": (4,), "gamma": (3,)}

def _params():
    rng = np.random.default_rng(5)
    return {k: rng.uniform(-1, 1, s).astype(np.float32)
            for k, s in SHAPES.items()}

def _grads(steps):
    rng = np.random.default_rng(6)
    return [{k: rng.uniform(-1, 1, s).astype(np.float32)
             for k, s in SHAPES.items()} for _ in range(steps)]

def _run(make, steps=STEPS, mode=ms.PYNATIVE_MODE):
    ms.set_context(mode=mode)
    params = [Parameter(Tensor(v), name=k) for k, v in _params().items()]
    opt = make(params)
    for g in _grads(steps):
        # In the optimizer's order (order_params may change it), as
        # GradOperation(get_by_list=True)(net, opt.parameters) gives them.
        opt(tuple(Tensor(g[p.name]) for p in opt.parameters))
    return {p.name: p.asnumpy().copy() for p in params}, opt

def _torch_sgd(rates, momentum=0.0, groups=None):
    """torch SGD with the rate of step t set to rates[t] (per group)."""
    params = {k: torch.tensor(v, requires_grad=True)
              for k, v in _params().items()}
    spec = groups(params) if groups else [{"params": list(params.values())}]
    opt = torch.optim.SGD(spec, lr=1.0, momentum=momentum)
    for t, g in enumerate(_grads(len(rates))):
        for group, lr in zip(opt.param_groups, np.atleast_1d(rates[t])):
            group["lr"] = float(lr)
        for k, p in params.items():
            p.grad = torch.from_numpy(g[k])
        opt.step()
    return {k: p.detach().numpy() for k, p in params.items()}

def _f32(rates):
    return np.asarray(rates, np.float32).astype(np.float64)

@pytest.mark.parametrize("form", ["list", "tuple", "ndarray", "tensor"])
def test_sgd_takes_a_list_of_rates(form):
    """The bug: nn.SGD refused a list ("learning_rate must be a float")."""
    rates = nn.cosine_decay_lr(0.001, 0.1, STEPS, 1, STEPS)
    given = {"list": rates, "tuple": tuple(rates),
             "ndarray": np.array(rates, np.float32),
             "tensor": Tensor(np.array(rates, np.float32))}[form]
    got, opt = _run(lambda ps: nn.SGD(ps, given, momentum=0.9))
    want = _torch_sgd(_f32(rates), 0.9)
    for k in SHAPES:
        assert_close(got[k], want[k], RTOL)
    assert opt.global_step.asnumpy().tolist() == [STEPS]
    assert opt.dynamic_lr and opt.learning_rate.learning_rate.shape == \
        (STEPS,)

def test_adam_takes_a_list_of_rates():
    """Against MindSpore's Adam in float32 numpy (beta powers as float32
    products, eps on sqrt(v)), with the list's rate at each step."""
    rates = nn.warmup_lr(0.01, STEPS, 1, 10)
    got, _ = _run(lambda ps: nn.Adam(ps, rates))
    b1, b2, eps = np.float32(0.9), np.float32(0.999), np.float32(1e-8)
    # 1 - beta in double, then rounded, as the optimizer's constants are.
    c1, c2 = np.float32(1 - 0.9), np.float32(1 - 0.999)
    params = _params()
    m = {k: np.zeros(s, np.float32) for k, s in SHAPES.items()}
    v = {k: np.zeros(s, np.float32) for k, s in SHAPES.items()}
    b1p = b2p = np.float32(1.0)
    for t, g in enumerate(_grads(STEPS)):
        b1p, b2p = b1p * b1, b2p * b2
        lr_t = np.float32(rates[t]) * np.sqrt(1 - b2p) / (1 - b1p)
        for k in params:
            m[k] = m[k] * b1 + g[k] * c1
            v[k] = v[k] * b2 + g[k] * g[k] * c2
            params[k] = params[k] - lr_t * m[k] / (np.sqrt(v[k]) + eps)
    for k in SHAPES:
        assert_close(got[k], params[k], RTOL)


def test_a_list_ends_with_zero_rates():
    """Past the end of the list the rate is 0 (the gather of an index out
    of range, as MindSpore's CPU Gather)."""
    got, opt = _run(lambda ps: nn.SGD(ps, [0.1, 0.2]), steps=5)
    want = _torch_sgd([0.1, 0.2, 0.0, 0.0, 0.0])
    for k in SHAPES:
        assert_close(got[k], want[k], RTOL)

def test_momentum_with_a_schedule_matches_torch():
    schedule = nn.CosineDecayLR(0.0, 0.1, 80)
    got, opt = _run(lambda ps: nn.Momentum(ps, schedule, 0.9))
    rates = 0.05 * (1 + np.cos(np.pi * np.minimum(np.arange(STEPS), 80) /
                               80))
    want = _torch_sgd(rates, 0.9)
    for k in SHAPES:
        assert_close(got[k], want[k], RTOL)
    assert opt.learning_rate is schedule

@pytest.mark.parametrize("make", [
    lambda ps: nn.Momentum(ps, nn.ExponentialDecayLR(0.1, 0.9, 10), 0.9),
    lambda ps: nn.SGD(ps, nn.piecewise_constant_lr([30, 60, 100],
                                                   [0.1, 0.05, 0.01])),
    lambda ps: nn.Adam(ps, nn.WarmUpLR(0.01, 20),
                       weight_decay=nn.WarmUpLR(0.01, 50)),
], ids=["schedule", "list", "weight_decay_cell"])
def test_dynamic_rates_in_one_compiled_train_step(make):
    """Inside a GRAPH_MODE TrainOneStepCell the rate comes from global_step
    in the graph: one compile for every step, and PyNative's bits."""
    def train(mode):
        ms.set_context(mode=mode)
        ms.set_seed(3)
        net = nn.Dense(3, 2)
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                   make(net.trainable_params()))
        x = Tensor(np.random.default_rng(1).uniform(-1, 1, (8, 3))
                   .astype(np.float32))
        y = Tensor(np.zeros((8, 2), np.float32))
        for _ in range(40):
            step(x, y)
        return net.weight.asnumpy().copy(), step
    pynative, _ = train(ms.PYNATIVE_MODE)
    graph, step = train(ms.GRAPH_MODE)
    assert_bitwise(pynative, graph)
    assert step.compile_count == 1
    assert step.optimizer.global_step.asnumpy().tolist() == [40]

def test_weight_decay_cell():
    """The bug: a Cell as weight_decay raised TypeError. Its value at
    global_step decays every parameter but 'gamma'."""
    decay = nn.WarmUpLR(0.1, 50)
    got, _ = _run(lambda ps: nn.SGD(ps, 0.05, weight_decay=decay))
    params = {k: v.astype(np.float32) for k, v in _params().items()}
    for t, g in enumerate(_grads(STEPS)):
        wd = np.float32(0.1 * min(t, 50) / 50)
        for k in params:
            grad = g[k] + (0 if k == "gamma" else wd * params[k])
            params[k] = params[k] - np.float32(0.05) * grad
    for k in SHAPES:
        assert_close(got[k], params[k], RTOL)

def _groups(params):
    return [{"params": [params["w"]], "lr": 0.05},
            {"params": [params["b"], params["gamma"]]}]

def test_parameter_groups_match_torch():
    def make(ps):
        w, b, gamma = ps
        return nn.SGD([{"params": [w], "lr": 0.05, "weight_decay": 0.01},
                       {"params": [b, gamma], "lr": [0.1] * STEPS},
                       {"order_params": [b, w, gamma]}], 0.2, momentum=0.9)
    got, opt = _run(make)
    torch_params = {k: torch.tensor(v, requires_grad=True)
                    for k, v in _params().items()}
    topt = torch.optim.SGD(
        [{"params": [torch_params["w"]], "lr": 0.05, "weight_decay": 0.01},
         {"params": [torch_params["b"], torch_params["gamma"]],
          "lr": float(np.float32(0.1))}], lr=0.2, momentum=0.9)
    for g in _grads(STEPS):
        for k, p in torch_params.items():
            p.grad = torch.from_numpy(g[k])
        topt.step()
    for k in SHAPES:
        assert_close(got[k], torch_params[k].detach().numpy(), RTOL)
    assert [p.name for p in opt.parameters] == ["b", "w", "gamma"]
    assert opt.is_group and {"learning_rate_group_0",
                             "learning_rate_group_1"} <= \
        set(opt.parameters_dict())
    assert opt.get_lr_parameter(opt.parameters[1]).name == \
        "learning_rate_group_0"
    assert opt.decay_flags == (False, True, False)

def test_gradient_centralization():
    """A group with grad_centralization takes each row's mean out of the
    gradients of tensors whose dim 1 is a multiple of 16."""
    w0 = np.random.default_rng(2).uniform(-1, 1, (3, 16)).astype(np.float32)
    b0 = np.ones(3, np.float32)
    w = Parameter(Tensor(w0), name="w")
    b = Parameter(Tensor(b0), name="b")
    opt = nn.SGD([{"params": [w, b], "grad_centralization": True}], 0.5)
    g = np.random.default_rng(3).uniform(-1, 1, (3, 16)).astype(np.float32)
    opt((Tensor(g), Tensor(np.ones(3, np.float32))))
    centred = g - g.mean(axis=1, keepdims=True)
    assert_close(w.asnumpy(), w0 - 0.5 * centred, RTOL)
    assert_close(b.asnumpy(), b0 - 0.5, RTOL)

def _p(name="p"):
    return Parameter(Tensor(np.ones(3, np.float32)), name=name)

@pytest.mark.parametrize("call, error, message", [
    (lambda: nn.SGD(None), ValueError,
     "For 'Optimizer', the argument parameters can not be None."),
    (lambda: nn.SGD([]), ValueError,
     "For 'Optimizer', the argument parameters must not be empty."),
    (lambda: nn.SGD(3), TypeError,
     "For 'Optimizer', the argument 'parameters' must be Iterable type"),
    (lambda: nn.SGD([_p()], "0.1"), TypeError,
     "For 'Optimizer', the argument 'learning_rate' must be int, float, "
     "Tensor, Iterable or LearningRateSchedule, but got <class 'str'>."),
    (lambda: nn.SGD([_p()], Tensor(np.ones((2, 2), np.float32))),
     ValueError, "For 'Optimizer', if 'learning_rate' is Tensor type, then "
     "the dimension of it should be 0 or 1, but got 2."),
    (lambda: nn.SGD([_p()], 0.1, weight_decay="x"), TypeError,
     "For 'Optimizer', the argument 'Weight_decay' must be int, float or "
     "Cell.but got <class 'str'>"),
    (lambda: nn.SGD([_p()], 0.1, weight_decay=-1.0), ValueError,
     "For 'SGD', the 'weight_decay' must be float and must >= 0, but got "
     "'-1.0'"),
    (lambda: nn.SGD([{"params": [_p()], "momentum": 0.9}]), KeyError,
     "For 'Optimizer', the key in group params must be one of in"),
    (lambda: nn.SGD([{"params": [q := _p()]}, {"params": [q]}]),
     RuntimeError, "For 'Optimizer', the p parameter already exists, it "
     "does not support repeated setting."),
    (lambda: nn.SGD([{"params": [_p()]}, {"order_params": [_p("q")]}]),
     ValueError, "For 'Optimizer', the parameters in 'order_params' should "
     "be the same as the parameters of all groups"),
    (lambda: nn.SGD([_p()], 0.1, loss_scale=0.0), ValueError,
     "For 'SGD', the 'loss_scale' must be float and must > 0"),
    (lambda: nn.SGD([_p()], momentum=-1.0), ValueError,
     "For 'SGD', the argument 'momentum' must be at least 0.0, but got "
     "-1.0."),
    (lambda: nn.SGD([_p()], momentum=0.0, nesterov=True), ValueError,
     "For 'SGD', if 'nesterov' is true, 'momentum' must be > 0.0 and "
     "'dampening' must equal to 0.0"),
    (lambda: nn.Momentum([_p()], 0.1, 1), TypeError,
     "For 'Momentum', the type of 'momentum' should be 'float', but got "
     "type 'int'."),
])
def test_optimizer_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()

def test_group_rates_are_named_and_saved(tmp_path):
    _, opt = _run(lambda ps: nn.Momentum(
        [{"params": ps[:1]}, {"params": ps[1:], "lr": 0.2}], 0.1, 0.9),
        steps=1)
    path = str(tmp_path / "opt.safetensors")
    ms.save_checkpoint(opt, path)
    loaded = ms.load_checkpoint(path)
    assert float(loaded["learning_rate_group_1"].asnumpy()) == \
        pytest.approx(0.2)
    assert "global_step" in loaded

