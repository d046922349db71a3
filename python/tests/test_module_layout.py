"""MindSpore's module layout (mindspore.context, mindspore.common,
ops.functional/operations/composite as F/P/C), the Primitives custom
optimizers use (ApplyMomentum and the others against their formulas, in
both modes), GradOperation against ms.grad and torch, HyperMap /
MultitypeFuncGraph, and Cell.parameters_and_names' attribute paths."""

import importlib

import numpy as np
import pytest

import msmlir as ms
from msmlir import Tensor, Parameter, nn, ops
from msmlir.ops import composite as C
from msmlir.ops import functional as F
from msmlir.ops import operations as P

from conftest import assert_bitwise, assert_close

torch = pytest.importorskip("torch")


@pytest.mark.parametrize("module, names", [
    ("msmlir.context", ["set_context", "get_context", "GRAPH_MODE",
                        "PYNATIVE_MODE", "ParallelMode",
                        "set_auto_parallel_context"]),
    ("msmlir.common", ["dtype", "Tensor", "Parameter", "ParameterTuple",
                       "initializer", "set_seed", "float32"]),
    ("msmlir.common.dtype", ["float32", "int32", "float16", "bool_"]),
    ("msmlir.common.initializer", ["initializer", "Normal",
                                   "TruncatedNormal", "XavierUniform",
                                   "HeUniform", "Constant"]),
    ("msmlir.common.parameter", ["Parameter", "ParameterTuple"]),
    ("msmlir.common.tensor", ["Tensor"]),
    ("msmlir.ops.composite", ["GradOperation", "HyperMap", "Map",
                              "MultitypeFuncGraph"]),
    ("msmlir.ops.primitive", ["Primitive"]),
    ("msmlir.ops.operations", ["ApplyMomentum", "Shape", "DType", "Assign",
                               "AssignAdd", "Depend"]),
    ("msmlir.ops.functional", ["depend", "partial", "shape", "assign_add"]),
])
def test_module_paths(module, names):
    mod = importlib.import_module(module)
    for name in names:
        assert hasattr(mod, name), f"{module}.{name}"


def test_same_objects_under_every_path():
    import msmlir.common.dtype as mstype
    from msmlir.common import initializer as init_module
    assert mstype.float32 is ms.float32
    assert ms.context.set_context is ms.set_context
    assert ms.common.Parameter is ms.Parameter
    assert init_module.initializer is ms.common.initializer.initializer
    assert P.ApplyMomentum is ops.ApplyMomentum
    assert F.depend is ops.depend
    ms.context.set_context(mode=ms.context.GRAPH_MODE)
    assert ms.get_context("mode") == ms.GRAPH_MODE


def _param(values, name):
    return Parameter(Tensor(np.asarray(values, np.float32)), name=name)


def test_apply_momentum_matches_its_formula_in_both_modes():
    rng = np.random.default_rng(0)
    w0, a0, g = (rng.uniform(-1, 1, 5).astype(np.float32) for _ in range(3))
    for nesterov in (False, True):
        results = []
        for jitted in (False, True):
            w, a = _param(w0, "w"), _param(a0, "a")
            op = ops.ApplyMomentum(use_nesterov=nesterov)

            def run(w=w, a=a, op=op):
                op(w, a, 0.1, Tensor(g), 0.9)
                return (w, a)
            out = ms.jit(run)() if jitted else run()
            results.append([t.asnumpy().copy() for t in out])
        accum = a0 * np.float32(0.9) + g
        want = w0 - (g * 0.1 + accum * 0.9 * 0.1) if nesterov else \
            w0 - 0.1 * accum
        assert_close(results[0][0], want, 1e-6)
        assert_close(results[0][1], accum, 1e-6)
        assert_bitwise(results[0][0], results[1][0])


def test_assign_primitives():
    p = _param([1.0, 2.0], "p")
    P.AssignAdd()(p, Tensor(np.float32(1.0)))
    assert p.asnumpy().tolist() == [2.0, 3.0]
    P.AssignSub()(p, Tensor(np.ones(2, np.float32)))
    assert p.asnumpy().tolist() == [1.0, 2.0]
    P.Assign()(p, Tensor(np.array([5, 6], np.int32)))
    assert p.asnumpy().tolist() == [5.0, 6.0] and p.dtype == ms.float32
    step = Parameter(Tensor(np.zeros([1], np.int32)), name="step")
    ops.assign_add(step, 1)
    assert step.asnumpy().tolist() == [1]


@pytest.mark.parametrize("make, formula", [
    (lambda: (P.ApplyGradientDescent(), ["v"], (0.5, "g")),
     lambda s, g: {"v": s["v"] - 0.5 * g}),
    (lambda: (P.ApplyAdagrad(), ["v", "a"], (0.1, "g")),
     lambda s, g: {"a": s["a"] + g * g,
                   "v": s["v"] - 0.1 * g / np.sqrt(s["a"] + g * g)}),
    (lambda: (P.ApplyAdagradV2(1e-3), ["v", "a"], (0.1, "g")),
     lambda s, g: {"v": s["v"] - 0.1 * g / (np.sqrt(s["a"] + g * g) +
                                            1e-3)}),
    (lambda: (P.ApplyRMSProp(), ["v", "a", "m"],
              (0.1, "g", 0.9, 0.5, 1e-6)),
     lambda s, g: {"v": s["v"] - (0.5 * s["m"] + 0.1 * g / np.sqrt(
         0.9 * s["a"] + 0.1 * g * g + 1e-6))}),
    (lambda: (P.ApplyProximalAdagrad(), ["v", "a"], (0.1, 0.0, 0.2, "g")),
     lambda s, g: {"v": (s["v"] - 0.1 / np.sqrt(s["a"] + g * g) * g) /
                   (1 + 0.1 / np.sqrt(s["a"] + g * g) * 0.2)}),
])
def test_optimizer_primitives(make, formula):
    rng = np.random.default_rng(1)
    start = {k: rng.uniform(0.1, 1, 4).astype(np.float32)
             for k in ("v", "a", "m")}
    g = rng.uniform(-1, 1, 4).astype(np.float32)
    op, slots, rest = make()
    params = [_param(start[k], k) for k in slots]
    args = [Tensor(g) if a == "g" else a for a in rest]
    op(*params, *args)
    want = formula(start, g)
    for p in params:
        if p.name in want:
            assert_close(p.asnumpy(), want[p.name], 1e-6)


def test_shape_dtype_rank_size_depend_partial():
    x = Tensor(np.ones((2, 3), np.float32))
    assert P.Shape()(x) == (2, 3) and P.DType()(x) == ms.float32
    assert P.Rank()(x) == 2 and P.Size()(x) == 6
    assert F.shape(x) == (2, 3) and F.depend(x, 1) is x

    @ms.jit
    def f(x):
        return ops.reshape(x, P.Shape()(x)[::-1])
    assert f(x).shape == (3, 2)
    add_two = F.partial(ops.add, 2.0)
    assert add_two(x).asnumpy().tolist() == [[3.0] * 3] * 2


def test_hyper_map_and_multitype_func_graph():
    scale = C.MultitypeFuncGraph("scale")

    @scale.register("Number", "Tensor")
    def _(s, t):
        return t * s

    @scale.register("Tensor", "Tensor")
    def _(s, t):
        return t * s.sum()

    xs = (Tensor(np.ones(2, np.float32)), (Tensor(np.ones(3, np.float32)),))
    out = C.HyperMap()(F.partial(scale, 2.0), xs)
    assert out[0].asnumpy().tolist() == [2.0, 2.0]
    assert out[1][0].asnumpy().tolist() == [2.0] * 3
    out = C.HyperMap(scale)((Tensor(np.ones(2, np.float32)), 3.0),
                            (xs[0], xs[0]))
    assert out[0].asnumpy().tolist() == [2.0, 2.0]
    assert out[1].asnumpy().tolist() == [3.0, 3.0]
    assert C.Map()(lambda a, b: a + b, (1, 2), (3, 4)) == (4, 6)
    with pytest.raises(ValueError, match="For 'MultitypeFuncGraph', cannot "
                       "find fn match given args"):
        scale("a", "b")
    with pytest.raises(ValueError, match="the sequences must have the same "
                       "length"):
        C.HyperMap()(lambda a, b: a, (1, 2), (1,))


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([[1.0, 2.0], [3.0, 4.0]],
                                           np.float32)), name="w")

    def construct(self, x, y):
        return ops.matmul(x, self.w) * y


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_grad_operation(mode):
    ms.set_context(mode=mode)
    net = _Net()
    x = np.array([[1.0, -2.0]], np.float32)
    y = np.array([[0.5, 3.0]], np.float32)
    sens = np.array([[2.0, -1.0]], np.float32)
    tx = torch.tensor(x, requires_grad=True)
    ty = torch.tensor(y, requires_grad=True)
    tw = torch.tensor(net.w.asnumpy(), requires_grad=True)
    (tx @ tw * ty).backward(torch.tensor(sens))
    weights = ms.ParameterTuple(net.trainable_params())
    first = C.GradOperation()(net)(Tensor(x), Tensor(y))
    assert_close(first.asnumpy(), ms.grad(net)(Tensor(x),
                                               Tensor(y)).asnumpy())
    both = C.GradOperation(get_all=True, get_by_list=True,
                           sens_param=True)(net, weights)
    (gx, gy), (gw,) = both(Tensor(x), Tensor(y), Tensor(sens))
    for got, want in ((gx, tx), (gy, ty), (gw, tw)):
        assert_close(got.asnumpy(), want.grad.numpy(), 1e-6)
    by_list = C.GradOperation(get_by_list=True)(net, weights)
    assert len(by_list(Tensor(x), Tensor(y))) == 1


def test_grad_operation_errors():
    with pytest.raises(TypeError, match="For 'GradOperation', the 'get_all' "
                       "should be bool, but got <class 'int'>"):
        C.GradOperation(get_all=1)
    with pytest.raises(TypeError, match="'weights' must be given"):
        C.GradOperation(get_by_list=True)(_Net())


class _Wrapper(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(2, 2)
        self.shared = Parameter(Tensor(np.ones(1, np.float32)), name="named")


def test_parameters_and_names_yields_attribute_paths():
    """The bug: parameters_and_names yielded Parameter.name; MindSpore
    yields the path the parameter is reached by."""
    net = _Wrapper()
    with_loss = nn.WithLossCell(net, nn.MSELoss())
    paths = [n for n, _ in with_loss.parameters_and_names()]
    # A Cell's own parameters first, then its sub-Cells', as MindSpore.
    assert paths == ["_backbone.shared", "_backbone.fc.weight",
                     "_backbone.fc.bias"]
    names = [p.name for _, p in with_loss.parameters_and_names()]
    assert names == ["named", "fc.weight", "fc.bias"]
    assert list(with_loss.parameters_dict()) == names
    assert [n for n, _ in net.parameters_and_names("top")][1] == \
        "top.fc.weight"
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    step = nn.TrainOneStepCell(with_loss, opt)
    assert "optimizer.moments.fc.weight" in \
        [n for n, _ in step.parameters_and_names()]


_momentum_opt = C.MultitypeFuncGraph("momentum_opt")


@_momentum_opt.register("Function", "Tensor", "Tensor", "Tensor", "Tensor",
                        "Tensor")
def _tensor_run_opt(opt, momentum, learning_rate, gradient, weight, moment):
    return F.depend(True, opt(weight, moment, learning_rate, gradient,
                              momentum))


class _MyMomentum(nn.Optimizer):
    """A custom optimizer as model-zoo scripts write them: Parameter
    state from parameters.clone, P.ApplyMomentum mapped with C.HyperMap
    and F.partial, the base class's decay_weight / scale_grad / get_lr."""

    def __init__(self, params, learning_rate, momentum, weight_decay=0.0,
                 loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.momentum = Parameter(Tensor(np.float32(momentum)),
                                  name="momentum")
        self.moments = self.parameters.clone(prefix="moments", init="zeros")
        self.hyper_map = C.HyperMap()
        self.opt = P.ApplyMomentum()

    def construct(self, gradients):
        gradients = self.flatten_gradients(gradients)
        gradients = self.decay_weight(gradients)
        gradients = self.gradients_centralization(gradients)
        gradients = self.scale_grad(gradients)
        lr = self.get_lr()
        return self.hyper_map(F.partial(_momentum_opt, self.opt,
                                        self.momentum, lr),
                              gradients, self.parameters, self.moments)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_custom_optimizer_written_as_in_mindspore(mode):
    def train(make_opt):
        ms.set_context(mode=mode)
        ms.set_seed(4)
        net = nn.Dense(3, 2)
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                   make_opt(net.trainable_params()))
        x = Tensor(np.random.default_rng(0).uniform(-1, 1, (5, 3))
                   .astype(np.float32))
        y = Tensor(np.ones((5, 2), np.float32))
        for _ in range(5):
            step(x, y)
        return net.weight.asnumpy().copy(), step
    mine, step = train(lambda ps: _MyMomentum(ps, 0.1, 0.9, 0.01, 2.0))
    want, _ = train(lambda ps: nn.Momentum(ps, 0.1, 0.9, 0.01, 2.0))
    assert_bitwise(mine, want)
    names = set(step.optimizer.parameters_dict())
    assert {"moments.weight", "moments.bias", "momentum"} <= names
