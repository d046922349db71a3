"""cumsum, sort, argsort, topk, gather_elements and max/min with indices
beyond the OpInfo table: torch's results and gradients (torch.autograd),
gradient bit parity across modes, the Tensor methods and primitives, the
errors, and float64 through the native API."""

import numpy as np
import pytest
import torch

import msmlir as ms
from msmlir import Tensor, ops
from msmlir import _msmlir as native

from conftest import assert_bitwise, assert_close

LEVELS = ["O0", "O1", "O2"]


def _data(seed=0, shape=(4, 6)):
    x = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    x[0, :3] = x[0, 3]  # ties
    return x


def test_sort_and_topk_match_torch():
    x = _data()
    x[1, 2] = np.nan
    for descending in (False, True):
        v, i = ops.sort(Tensor(x), axis=1, descending=descending)
        tv, ti = torch.sort(torch.tensor(x), dim=1, descending=descending,
                            stable=True)
        np.testing.assert_array_equal(v.asnumpy(), tv.numpy())
        np.testing.assert_array_equal(i.asnumpy(), ti.numpy())
        assert i.dtype == ms.int32
    y = np.nan_to_num(x)
    for largest in (True, False):
        v, i = ops.topk(Tensor(y), 3, dim=1, largest=largest)
        tv, ti = torch.topk(torch.tensor(y), 3, dim=1, largest=largest)
        np.testing.assert_array_equal(v.asnumpy(), tv.numpy())
        # torch's topk does not promise which of tied elements it picks;
        # the values at our indices must be its values.
        np.testing.assert_array_equal(
            np.take_along_axis(y, i.asnumpy().astype(np.int64), 1),
            tv.numpy())


def test_max_min_with_indices_match_torch():
    x = _data(1)
    for name in ("max", "min"):
        for keepdims in (False, True):
            v, i = getattr(ops, name)(Tensor(x), 1, keepdims)
            tv, ti = getattr(torch, name)(torch.tensor(x), 1, keepdims)
            np.testing.assert_array_equal(v.asnumpy(), tv.numpy())
            np.testing.assert_array_equal(i.asnumpy(), ti.numpy())
    v, i = ops.max(Tensor(x))
    assert v.shape == () and float(v.asnumpy()) == x.max()
    assert int(i.asnumpy()) == 0  # MindSpore: axis=None gives index 0
    values, index = Tensor(x).max(0, return_indices=True)
    np.testing.assert_array_equal(index.asnumpy(), x.argmax(0))
    np.testing.assert_array_equal(Tensor(x).min(1).asnumpy(), x.min(1))
    index, values = ops.ArgMaxWithValue(axis=1, keep_dims=True)(Tensor(x))
    np.testing.assert_array_equal(values.asnumpy(), x.max(1, keepdims=True))
    index, values = ops.ArgMinWithValue(axis=0)(Tensor(x))
    np.testing.assert_array_equal(index.asnumpy(), x.argmin(0))


def test_cumsum_matches_torch_and_methods():
    x = _data(2)
    assert_close(ops.cumsum(Tensor(x), 1).asnumpy(),
                 torch.cumsum(torch.tensor(x, dtype=torch.float64), 1).numpy())
    assert_close(Tensor(x).cumsum().asnumpy(),
                 np.cumsum(x.astype(np.float64)))
    got = ops.CumSum(exclusive=True, reverse=True)(Tensor(x), 0).asnumpy()
    want = np.flip(np.cumsum(np.flip(x.astype(np.float64), 0), 0), 0) - x
    assert_close(got, want)
    i = Tensor(np.array([[1, 2], [3, 4]], np.int32))
    assert ops.cumsum(i, 0).dtype == ms.int32
    np.testing.assert_array_equal(ops.cumsum(i, 0, dtype=ms.float32).asnumpy(),
                                  [[1.0, 2.0], [4.0, 6.0]])
    b = Tensor(np.array([True, False, True]))
    np.testing.assert_array_equal(ops.cumsum(b, 0).asnumpy(), [1, 1, 2])



def _stable_order(x, axis, descending):
    """numpy's stable argsort with NaN above every number (last ascending,
    first descending), as argsort promises."""
    x = np.moveaxis(x, axis, -1)
    nan = np.isnan(x)
    key = np.where(nan, 0, -x if descending else x)
    out = np.empty(x.shape, np.int64)
    for row in np.ndindex(x.shape[:-1]):
        order = np.argsort(key[row], kind="stable")
        # NaN first descending, last ascending; stable among themselves.
        rank = nan[row][order] if not descending else ~nan[row][order]
        out[row] = order[np.argsort(rank, kind="stable")]
    return np.moveaxis(out, -1, axis)


@pytest.mark.parametrize("shape,axis", [((2, 4096), 1), ((3000, 3), 0),
                                        ((1, 1, 1025), -1)],
                         ids=["rows4096", "axis0_3000", "rank3_1025"])
@pytest.mark.parametrize("descending", [False, True])
def test_long_rows_match_numpy_stable_argsort(shape, axis, descending):
    """Long rows (the merge sort's many passes, and runs cut short by a
    length that is no power of two), with many ties and some NaNs, in
    PyNative and GRAPH mode."""
    rng = np.random.default_rng(5)
    x = rng.integers(-40, 40, shape).astype(np.float32)
    x.reshape(-1)[rng.choice(x.size, x.size // 50, replace=False)] = np.nan
    want = _stable_order(x, axis, descending)
    got = ops.argsort(Tensor(x), axis, descending).asnumpy()
    np.testing.assert_array_equal(got, want)
    graph = ms.jit(lambda t: ops.argsort(t, axis, descending))(Tensor(x))
    np.testing.assert_array_equal(graph.asnumpy(), got)
    values, indices = ops.sort(Tensor(x), axis, descending)
    np.testing.assert_array_equal(indices.asnumpy(), want)
    np.testing.assert_array_equal(values.asnumpy(),
                                  np.take_along_axis(x, want, axis))


def test_long_integer_rows_match_numpy():
    x = np.random.default_rng(6).integers(-9, 9, (3, 2049)).astype(np.int32)
    for descending in (False, True):
        got = ops.argsort(Tensor(x), -1, descending).asnumpy()
        np.testing.assert_array_equal(got, _stable_order(x.astype(np.float64),
                                                          -1, descending))


def test_methods_and_primitives():
    x = _data(3)
    t = Tensor(x)
    np.testing.assert_array_equal(t.sort()[0].asnumpy(), np.sort(x, -1))
    np.testing.assert_array_equal(t.argsort(0).asnumpy(),
                                  np.argsort(x, 0, kind="stable"))
    np.testing.assert_array_equal(t.topk(2)[0].asnumpy(),
                                  -np.sort(-x, -1)[:, :2])
    np.testing.assert_array_equal(ops.Sort(0, True)(t)[0].asnumpy(),
                                  -np.sort(-x, 0))
    np.testing.assert_array_equal(ops.TopK()(t, 1)[0].asnumpy(),
                                  x.max(1, keepdims=True))
    idx = Tensor(np.array([[0, 5], [1, 1], [2, 0], [5, 4]], np.int64))
    want = np.take_along_axis(x, idx.asnumpy(), 1)
    np.testing.assert_array_equal(t.gather_elements(1, idx).asnumpy(), want)
    np.testing.assert_array_equal(ops.GatherD()(t, 1, idx).asnumpy(), want)


def test_gather_elements_out_of_range_reads_zero():
    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    idx = Tensor(np.array([[2, -1], [3, 0]], np.int32))
    np.testing.assert_array_equal(ops.gather_elements(x, 1, idx).asnumpy(),
                                  [[2.0, 0.0], [0.0, 3.0]])


def test_errors():
    x = Tensor(_data())
    with pytest.raises(ValueError, match=r"ops.topk: k 7 is out of range"):
        ops.topk(x, 7)
    with pytest.raises(ValueError, match=r"ops.sort: axis 2 is out of range"):
        ops.sort(x, 2)
    with pytest.raises(ValueError, match=r"ops.cumsum: axis -3"):
        ops.cumsum(x, -3)
    with pytest.raises(ValueError, match=r"rank 1 or more"):
        ops.argsort(Tensor(1.0))
    with pytest.raises(ms.MSError, match=r"differs from input shape"):
        ops.gather_elements(x, 1, Tensor(np.zeros((3, 2), np.int32)))
    with pytest.raises(NotImplementedError, match=r"ops.max: initial"):
        ops.max(x, 0, initial=1.0)


def _weights(shape, seed=9):
    return np.random.default_rng(seed).standard_normal(shape).astype(
        np.float32)


# (ms function, torch function) of one float32 input: each is weighted by a
# fixed tensor and summed, so every output element has its own cotangent.
GRAD_CASES = {
    "sort": (lambda x: ops.sort(x, 1)[0],
             lambda x: torch.sort(x, stable=True, dim=1)[0]),
    "sort_desc_axis0": (lambda x: ops.sort(x, 0, True)[0],
                        lambda x: torch.sort(x, stable=True, dim=0, descending=True)[0]),
    "topk": (lambda x: ops.topk(x, 3, 1)[0], lambda x: torch.topk(x, 3, 1)[0]),
    "max": (lambda x: ops.max(x, 1)[0], lambda x: torch.max(x, 1)[0]),
    "min_keepdims": (lambda x: ops.min(x, 0, True)[0],
                     lambda x: torch.min(x, 0, True)[0]),
    "cumsum": (lambda x: ops.cumsum(x, 0), lambda x: torch.cumsum(x, 0)),
    "gather_elements": (
        lambda x: ops.gather_elements(
            x, 1, Tensor(np.array([[0, 0, 5]] * 4, np.int32))),
        lambda x: torch.gather(x, 1, torch.tensor([[0, 0, 5]] * 4))),
}


def _ms_grad(fn, x, w, level=None):
    def loss(a):
        return (fn(a) * Tensor(w)).sum()
    g = ms.grad(loss)
    if level is not None:
        g = ms.jit(g, jit_config=ms.JitConfig(jit_level=level))
    return g(Tensor(x)).asnumpy()


@pytest.mark.parametrize("name", sorted(GRAD_CASES))
def test_gradients_match_torch_and_are_the_same_in_every_mode(name):
    fn, tfn = GRAD_CASES[name]
    x = np.random.default_rng(5).standard_normal((4, 6)).astype(np.float32)
    if name == "max":
        x[2, 1] = x[2, 4] = x[2].max() + 1  # a tie: the first index wins
    out_shape = tuple(tfn(torch.tensor(x)).shape)
    w = _weights(out_shape)
    got = _ms_grad(fn, x, w)
    tx = torch.tensor(x, dtype=torch.float64, requires_grad=True)
    (tfn(tx) * torch.tensor(w, dtype=torch.float64)).sum().backward()
    assert_close(got, tx.grad.numpy())
    for level in LEVELS:
        assert_bitwise(_ms_grad(fn, x, w, level), got)


F64_CASES = {
    "cumsum": ("ms.cumsum %a axis 1 : tensor<3x4xf64>", "tensor<3x4xf64>",
               lambda a: np.cumsum(a, 1)),
    "argsort": ("ms.argsort %a axis 1 descending output_type i64 : "
                "tensor<3x4xf64>", "tensor<3x4xi64>",
                lambda a: np.argsort(-a, 1, kind="stable")),
    "topk_indices": ("ms.argsort %a axis 0 k 2 output_type i32 : "
                     "tensor<3x4xf64>", "tensor<2x4xi32>",
                     lambda a: np.argsort(a, 0, kind="stable")[:2]),
}


@pytest.mark.parametrize("name", sorted(F64_CASES))
def test_float64_and_int64_kernels(name):
    text, result_type, ref = F64_CASES[name]
    a = np.random.default_rng(4).uniform(-5, 5, (3, 4))
    for dtype, mlir in ((np.float64, "f64"), (np.int64, "i64")):
        arr = np.ascontiguousarray(a.round().astype(dtype) if dtype == np.int64
                                   else a)
        src = (f"func.func @construct(%a: tensor<3x4x{mlir}>) -> "
               f"{result_type.replace('f64', mlir)} {{\n"
               f"  %r = {text.replace('f64', mlir)}\n"
               f"  return %r : {result_type.replace('f64', mlir)}\n}}\n")
        inputs = [native.HostTensor.from_buffer(arr)]
        results = []
        for level in LEVELS:
            graph = native.Compiler().compile(
                src,
                native.CompileOptions(jit_level=level, exc_mode="sink"),
                "construct", "<f64 test>")
            results.append(np.array(graph.run(inputs)[0]))
        np.testing.assert_array_equal(results[0], ref(arr))
        for r in results[1:]:
            assert_bitwise(r, results[0])
