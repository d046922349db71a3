"""Issue 16: every dtype in the Python API, and MindSpore's type promotion.

Construction, the dtype table against the native one, promotion tables
(against torch.promote_types, an independent implementation of the same
rule), asnumpy round trips, the result dtypes MindSpore gives (comparisons,
sums of bools, argmax, true division, means), and checkpoints of every
dtype. The per-op numerics of every dtype are in test_opinfo.py."""

import itertools

import numpy as np
import pytest
import torch

import msmlir as ms
from msmlir import Tensor, dtype as mstype, ops
from msmlir._runtime import HostTensor

from conftest import assert_bitwise

ALL = [ms.bool_, ms.int8, ms.int16, ms.int32, ms.int64, ms.uint8,
       ms.float16, ms.bfloat16, ms.float32, ms.float64]
NUMPY = [t for t in ALL if t is not ms.bfloat16]
TORCH = {ms.bool_: torch.bool, ms.int8: torch.int8, ms.int16: torch.int16,
         ms.int32: torch.int32, ms.int64: torch.int64, ms.uint8: torch.uint8,
         ms.float16: torch.float16, ms.bfloat16: torch.bfloat16,
         ms.float32: torch.float32, ms.float64: torch.float64}
FROM_TORCH = {v: k for k, v in TORCH.items()}


def _values(t):
    """numpy values of any tensor (bfloat16 through torch)."""
    if t.dtype is ms.bfloat16:
        bits = np.asarray(t._t).view(np.int16).copy()
        return torch.from_numpy(bits).view(torch.bfloat16).float().numpy()
    return t.asnumpy()


def _sample(dt, shape=(2, 3)):
    """Values with negatives, zero and (for ints) the extremes."""
    if dt is ms.bool_:
        return np.array([True, False, True, True, False, False]).reshape(shape)
    if dt.is_float:
        v = np.array([0.0, -1.5, 2.25, -0.0, 1e3, -7.0], np.float32)
        return v.reshape(shape) if dt is ms.bfloat16 else \
            v.astype(dt.np).reshape(shape)
    info = np.iinfo(dt.np)
    return np.array([0, 1, info.min, info.max, 7, info.max - 3],
                    np.int64).astype(dt.np).reshape(shape)


# -- the dtype table -----------------------------------------------------------

def test_names_and_codes_match_the_native_table():
    """Each Type's code is the C++ DType enum value: a native tensor made
    with the code reports the same MLIR element type."""
    for t in mstype.all_types:
        h = HostTensor(t.code, [2])
        assert h.dtype == t.code
        assert h.type_string().endswith(t.mlir + ">"), (t, h.type_string())
    names = {t.name for t in mstype.all_types}
    assert {"Float16", "Float32", "Float64", "BFloat16", "Int8", "Int16",
            "Int32", "Int64", "UInt8", "Bool"} <= names


def test_mindspore_aliases():
    assert ms.half is ms.float16 and ms.single is ms.float32
    assert ms.double is ms.float64 and ms.float_ is ms.float32
    assert ms.byte is ms.int8 and ms.short is ms.int16
    assert ms.intc is ms.int32 and ms.intp is ms.int64 and ms.int_ is ms.int64
    assert ms.ubyte is ms.uint8
    assert mstype.pytype_to_dtype(float) is ms.float32
    assert mstype.pytype_to_dtype(int) is ms.int64
    assert mstype.pytype_to_dtype(bool) is ms.bool_
    assert mstype.dtype_to_nptype(ms.uint8) is np.uint8
    assert mstype.dtype_to_pytype(ms.int8) is int
    with pytest.raises(TypeError, match="bfloat16"):
        mstype.dtype_to_nptype(ms.bfloat16)


# -- construction --------------------------------------------------------------

@pytest.mark.parametrize("dt", NUMPY, ids=str)
def test_numpy_arrays_keep_their_dtype(dt):
    a = _sample(dt)
    t = Tensor(a)
    assert t.dtype is dt
    got = t.asnumpy()
    assert got.dtype == a.dtype
    np.testing.assert_array_equal(got, a)


def test_python_values_as_mindspore_infers_them():
    assert Tensor([1, 2, 3]).dtype is ms.int64
    assert Tensor([1.0]).dtype is ms.float32
    assert Tensor([True]).dtype is ms.bool_
    assert Tensor([1, 2.5]).dtype is ms.float32
    assert Tensor(3).dtype is ms.int64
    assert Tensor(np.ones(3)).dtype is ms.float64
    assert Tensor(np.ones(3, np.uint8)).dtype is ms.uint8


@pytest.mark.parametrize("dt", ALL, ids=str)
def test_explicit_dtype(dt):
    t = Tensor([[1, 0, 2]], dtype=dt)
    assert t.dtype is dt and t.shape == (1, 3)
    np.testing.assert_array_equal(_values(t), np.array([[1, 0, 2]]).astype(
        np.bool_ if dt is ms.bool_ else np.float64))


@pytest.mark.parametrize("dt", [ms.int8, ms.int16, ms.uint8, ms.int32],
                         ids=str)
def test_python_int_out_of_range_is_an_overflow_error(dt):
    info = np.iinfo(dt.np)
    with pytest.raises(OverflowError, match=str(dt)):
        Tensor([info.max + 1], dtype=dt)
    with pytest.raises(OverflowError):
        Tensor([1], dtype=dt) + (info.min - 1)


def test_bfloat16_rounds_to_nearest_even_like_torch():
    rng = np.random.default_rng(0)
    v = np.concatenate([rng.standard_normal(200).astype(np.float32) * 100,
                        np.array([1 + 2 ** -8, 1 + 3 * 2 ** -8, 65504.0,
                                  3e38, -0.0, np.inf, -np.inf],
                                 np.float32)])
    t = Tensor(v, dtype=ms.bfloat16)
    want = torch.from_numpy(v).to(torch.bfloat16).view(torch.int16).numpy()
    np.testing.assert_array_equal(np.asarray(t._t).view(np.int16), want)
    assert np.isnan(_values(Tensor([np.nan], dtype=ms.bfloat16))).all()


FLOATS = [ms.float64, ms.float32, ms.float16, ms.bfloat16]


@pytest.mark.parametrize("src,dst", [(a, b) for a in FLOATS for b in FLOATS
                                     if a is not b])
def test_astype_between_float_types_rounds_like_torch(src, dst):
    """Every float-to-float cast compiles and rounds to nearest even,
    PyNative and jit. f64 -> f16 is a libgcc call (__truncdfhf2), which the
    JIT once could not find from Python."""
    v = np.array([1.5, -2.25, 1 + 2 ** -11, 1 + 3 * 2 ** -11, 1 + 2 ** -9,
                  65504.0, 7e-8, -0.0, np.inf, 3.0e5], np.float64)
    x = Tensor(torch.from_numpy(v).to(TORCH[src]).to(torch.float64).numpy(),
               dtype=src)
    want = torch.from_numpy(v).to(TORCH[src]).to(TORCH[dst])
    bits = torch.int16 if want.element_size() == 2 else (
        torch.int32 if want.element_size() == 4 else torch.int64)
    want_bits = want.view(bits).numpy()
    for got in (x.astype(dst), ms.jit(lambda t: t.astype(dst))(x)):
        assert got.dtype == dst
        np.testing.assert_array_equal(
            np.asarray(got._t).view(want_bits.dtype), want_bits)


def test_bfloat16_scalars_keep_their_shape_and_value():
    """Python scalars and 0-d arrays become 0-d bfloat16 tensors with the
    scalar's value (not its integer part: bfloat16 is held as uint16 bits,
    so writing a value in its storage dtype would truncate it)."""
    for v in (2.5, np.float32(-0.375), np.array(1.75, np.float32)):
        t = Tensor(v, dtype=ms.bfloat16)
        assert t.shape == ()
        assert _values(t) == float(v)
    x = Tensor(np.ones((4, 6), np.float32), dtype=ms.bfloat16)
    assert ops.std(x).shape == () and ops.var(x).shape == ()
    assert (x / 4.0).shape == (4, 6)
    y = Tensor(np.zeros((2, 2), np.float32), dtype=ms.bfloat16)
    y[Tensor(np.array([[True, False], [False, True]]))] = 2.5
    np.testing.assert_array_equal(_values(y), [[2.5, 0], [0, 2.5]])
    np.testing.assert_array_equal(
        _values(ops.full((2,), 0.625, dtype=ms.bfloat16)), [0.625, 0.625])


def test_bfloat16_initializers_and_assign_hold_their_values():
    ms.set_seed(3)
    dense = ms.nn.Dense(8, 4, dtype=ms.bfloat16)
    ms.set_seed(3)
    ref = ms.nn.Dense(8, 4)
    want = torch.from_numpy(ref.weight.asnumpy()).to(torch.bfloat16)
    np.testing.assert_array_equal(_values(dense.weight), want.float().numpy())
    p = ms.Parameter(Tensor(np.zeros(3, np.float32), dtype=ms.bfloat16),
                     name="p")
    ops.assign(p, 0.5)
    np.testing.assert_array_equal(_values(p), [0.5] * 3)


# -- asnumpy -------------------------------------------------------------------

@pytest.mark.parametrize("dt", NUMPY, ids=str)
def test_asnumpy_round_trip_shares_the_buffer(dt):
    a = _sample(dt)
    t = Tensor(a)
    view = t.asnumpy()
    assert view.dtype == dt.np
    np.testing.assert_array_equal(Tensor(view).asnumpy(), a)
    assert np.shares_memory(view, t.asnumpy())


def test_bfloat16_asnumpy_is_a_type_error_as_in_mindspore():
    t = Tensor([1.5, -2.0], dtype=ms.bfloat16)
    with pytest.raises(TypeError, match="bfloat16.*float"):
        t.asnumpy()
    # The values are still reachable: printing, item(), tolist(), and a cast.
    assert "1.5" in str(t) and "BFloat16" in repr(t)
    assert t.tolist() == [1.5, -2.0]
    np.testing.assert_array_equal(t.float().asnumpy(), [1.5, -2.0])
    assert Tensor(2.5, dtype=ms.bfloat16).item() == 2.5


@pytest.mark.parametrize("dt", ALL, ids=str)
def test_checkpoint_round_trip(dt, tmp_path):
    a = _sample(dt)
    t = Tensor(a, dtype=dt)
    path = str(tmp_path / "every.safetensors")
    ms.save_checkpoint({"x": t}, path)
    back = ms.load_checkpoint(path)["x"]
    assert back.dtype is dt
    assert_bitwise(np.asarray(back._t), np.asarray(t._t))


@pytest.mark.parametrize("dt", ALL, ids=str)
def test_copy_and_pickle_keep_dtype_and_bits(dt):
    import copy
    import pickle
    t = Tensor(_sample(dt), dtype=dt)
    for c in (copy.deepcopy(t), t.copy(), pickle.loads(pickle.dumps(t))):
        assert c.dtype is dt
        assert_bitwise(np.asarray(c._t), np.asarray(t._t))


# -- promotion -----------------------------------------------------------------

@pytest.mark.parametrize("a,b", list(itertools.combinations_with_replacement(
    ALL, 2)), ids=str)
def test_tensor_promotion_table_matches_torch(a, b):
    want = FROM_TORCH[torch.promote_types(TORCH[a], TORCH[b])]
    assert mstype.promote(a, b) is want
    assert mstype.promote(b, a) is want
    assert mstype.result_type(a, b) is want


def test_mindspore_rules_spelled_out():
    assert mstype.promote(ms.uint8, ms.int8) is ms.int16
    assert mstype.promote(ms.int64, ms.float16) is ms.float16
    assert mstype.promote(ms.float16, ms.bfloat16) is ms.float32
    assert mstype.promote(ms.bool_, ms.uint8) is ms.uint8


@pytest.mark.parametrize("dt", ALL, ids=str)
def test_python_scalar_promotion(dt):
    """A Python number keeps the tensor's dtype in its own category or
    below; above it, floats give float32 and ints int32 (MindSpore's
    implicit conversion rules)."""
    r = mstype.result_type
    assert r(dt, True) is dt
    assert r(dt, 2) is (ms.int32 if dt is ms.bool_ else dt)
    assert r(dt, 2.5) is (dt if dt.is_float else ms.float32)
    assert r(2) is ms.int64 and r(2.5) is ms.float32 and r(True) is ms.bool_
    assert r(2, 2.5) is ms.float32


# -- the ops apply it ----------------------------------------------------------

def _both_modes(fn, *args):
    """fn's result in PyNative and in a graph at O0, O1 and O2: the same
    dtype and bits."""
    eager = fn(*args)
    for level in ("O0", "O1", "O2"):
        graph = ms.jit(fn, jit_config=ms.JitConfig(jit_level=level))(*args)
        assert graph.dtype is eager.dtype, level
        assert_bitwise(np.asarray(graph._t), np.asarray(eager._t))
    return eager


def test_int_tensor_times_python_int():
    r = _both_modes(lambda x: x * 2, Tensor([1, 2, 3]))
    assert r.dtype is ms.int64
    np.testing.assert_array_equal(r.asnumpy(), [2, 4, 6])


def test_uint8_is_preserved_and_wraps():
    x = Tensor(np.array([250, 3, 0], np.uint8))
    assert x.dtype is ms.uint8
    r = _both_modes(lambda x: x + 10, x)
    assert r.dtype is ms.uint8
    np.testing.assert_array_equal(r.asnumpy(), np.array([4, 13, 10],
                                                        np.uint8))


@pytest.mark.parametrize("a,b", [(ms.uint8, ms.int8), (ms.int32, ms.int64),
                                 (ms.int64, ms.float16),
                                 (ms.float16, ms.bfloat16),
                                 (ms.bool_, ms.int16),
                                 (ms.float32, ms.float64)], ids=str)
def test_binary_ops_promote_their_operands(a, b):
    x, y = Tensor(_sample(a), dtype=a), Tensor(_sample(b)[::-1], dtype=b)
    want = mstype.promote(a, b)
    for fn in (lambda x, y: x + y, lambda x, y: x * y, ops.maximum,
               ops.minimum, lambda x, y: x == y):
        r = _both_modes(fn, x, y)
        assert r.dtype is (ms.bool_ if r.dtype is ms.bool_ else want)
    r = _both_modes(lambda x, y: ops.where(x == x, x, y), x, y)
    assert r.dtype is want


def test_int_tensor_with_python_float_is_float32():
    r = _both_modes(lambda x: x * 0.5, Tensor(np.array([3, -4], np.int8)))
    assert r.dtype is ms.float32
    np.testing.assert_array_equal(r.asnumpy(), [1.5, -2.0])


def test_python_scalar_does_not_widen_a_float16_tensor():
    r = _both_modes(lambda x: x + 1.0, Tensor(np.array([1.5], np.float16)))
    assert r.dtype is ms.float16


def test_true_division_of_ints_is_float32():
    r = _both_modes(lambda x, y: x / y, Tensor([7, -7]), Tensor([2, 2]))
    assert r.dtype is ms.float32
    np.testing.assert_array_equal(r.asnumpy(), [3.5, -3.5])


def test_comparisons_give_bool_and_a_sum_of_bools_is_int64():
    x = Tensor(np.array([1, 5, 3], np.int16))
    c = _both_modes(lambda x: x > 2, x)
    assert c.dtype is ms.bool_
    s = _both_modes(lambda x: (x > 2).sum(), x)
    assert s.dtype is ms.int64 and s.item() == 2


def test_argmax_is_int64_and_argmin_int32():
    x = Tensor(np.array([[1, 9, 3], [7, 2, 7]], np.uint8))
    assert _both_modes(lambda x: x.argmax(1), x).dtype is ms.int64
    assert _both_modes(lambda x: ops.argmin(x, 1), x).dtype is ms.int32


def test_mean_and_transcendentals_of_ints_are_float32():
    x = Tensor(np.array([1, 2, 4], np.int32))
    m = _both_modes(lambda x: x.mean(), x)
    assert m.dtype is ms.float32
    assert m.item() == pytest.approx(7 / 3, rel=1e-6)
    e = _both_modes(ops.exp, x)
    assert e.dtype is ms.float32
    np.testing.assert_allclose(e.asnumpy(), np.exp([1.0, 2.0, 4.0]),
                               rtol=1e-6)


def test_float_only_ops_reject_ints():
    x = Tensor(np.ones((2, 3), np.int32))
    with pytest.raises(TypeError, match="ops.softmax: .*Int32"):
        ops.softmax(x)
    with pytest.raises(TypeError, match="ops.log_softmax: .*Int32"):
        ops.log_softmax(x)
    with pytest.raises(TypeError, match=r"[Cc]onv2d: .*Int8"):
        ops.conv2d(Tensor(np.ones((1, 1, 3, 3), np.int8)),
                   Tensor(np.ones((1, 1, 3, 3), np.int8)))


def test_bool_arithmetic_is_logic():
    a = Tensor([True, True, False, False])
    b = Tensor([True, False, True, False])
    np.testing.assert_array_equal((a + b).asnumpy(), [True, True, True, False])
    np.testing.assert_array_equal((a * b).asnumpy(),
                                  [True, False, False, False])
    assert (a + b).dtype is ms.bool_
    with pytest.raises(TypeError, match="ops.sub: two bool"):
        a - b
    r = a + 1
    assert r.dtype is ms.int32
    np.testing.assert_array_equal(r.asnumpy(), [2, 2, 1, 1])
