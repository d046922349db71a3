"""Tensor: creation, dtypes, numpy interop, printing, operators."""

import numpy as np
import pytest

import msmlir as ms
from msmlir import Tensor

from conftest import assert_close, rand


def test_from_numpy_list_and_scalars():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    t = Tensor(a)
    assert t.shape == (2, 3)
    assert t.dtype == ms.float32
    np.testing.assert_array_equal(t.asnumpy(), a)
    # The tensor owns a copy: changing the source array does not change it.
    a[0, 0] = 100
    assert t.asnumpy()[0, 0] == 0

    assert Tensor([1.0, 2.0]).dtype == ms.float32
    assert Tensor([1, 2]).dtype == ms.int64
    assert Tensor(3.5).shape == ()
    assert Tensor(3.5).dtype == ms.float32
    assert Tensor(3).dtype == ms.int64
    assert Tensor(True).dtype == ms.bool_
    assert Tensor(np.float64(2.0)).dtype == ms.float32
    assert Tensor(np.ones(3)).dtype == ms.float64  # numpy dtypes stay


@pytest.mark.parametrize("dtype,np_dtype", [
    (ms.float32, np.float32), (ms.float16, np.float16),
    (ms.int32, np.int32), (ms.int64, np.int64)])
def test_dtypes_round_trip(dtype, np_dtype):
    t = Tensor([[1, 2], [3, 4]], dtype=dtype)
    assert t.dtype == dtype
    assert t.asnumpy().dtype == np_dtype
    np.testing.assert_array_equal(t.asnumpy(), [[1, 2], [3, 4]])
    assert t.astype(ms.float32).dtype == ms.float32


def test_dtype_names_like_mindspore():
    assert repr(ms.float32) == "Float32"
    assert str(ms.int64) == "Int64"
    assert ms.float16 is ms.dtype.float16


def test_unsupported_numpy_dtype():
    with pytest.raises(TypeError, match="cannot hold"):
        Tensor(np.ones(3, dtype=np.complex64))


def test_asnumpy_shares_the_buffer():
    t = Tensor(np.zeros((2, 2), np.float32))
    view = t.asnumpy()
    view[1, 1] = 5
    assert t.asnumpy()[1, 1] == 5
    assert np.asarray(t)[1, 1] == 5


def test_str_is_numpy_formatting():
    a = rand(64, 10)
    t = Tensor(a)
    assert str(t) == str(a)
    assert len(str(t).splitlines()) == 128  # 64 rows, each wrapped once


# repr is MindSpore's layout (its C++ TensorStringifier: scientific floats
# in 15 columns, ", " between values, integers aligned to the widest, a dim
# over 6 long summarized around "...", a 1-D line broken every 12 floats).
# The first row is the MindSpore example; the others follow that
# code's rules, worked out by hand.
_E = "1.00000000e+00"
REPRS = [
    (np.ones(2), f"Tensor(shape=[2], dtype=Float64, value= [ {_E},  {_E}])"),
    (np.float32(2.0), "Tensor(shape=[], dtype=Float32, value= 2)"),
    (np.float32(0.5), "Tensor(shape=[], dtype=Float32, value= 0.5)"),
    (np.array(True), "Tensor(shape=[], dtype=Bool, value= True)"),
    (np.array([[1, 2], [3, 4]], np.int32),
     "Tensor(shape=[2, 2], dtype=Int32, value=\n[[1, 2],\n [3, 4]])"),
    (np.array([1, -20, 300], np.int32),
     "Tensor(shape=[3], dtype=Int32, value= [  1, -20, 300])"),
    (np.array([True, False]),
     "Tensor(shape=[2], dtype=Bool, value= [ True, False])"),
    (np.ones(13, np.float32),
     "Tensor(shape=[13], dtype=Float32, value= [" +
     ", ".join([" " + _E] * 12) + ", \n  " + _E + "])"),
    (np.ones((1, 2), np.float16),
     "Tensor(shape=[1, 2], dtype=Float16, value=\n"
     "[[ 1.0000e+00,  1.0000e+00]])"),
    (np.array([np.nan, -np.inf], np.float32),
     "Tensor(shape=[2], dtype=Float32, value= [" + " " * 12 + "nan, " +
     " " * 11 + "-inf])"),
    (np.arange(64, dtype=np.int32).reshape(8, 8),
     "Tensor(shape=[8, 8], dtype=Int32, value=\n"
     "[[ 0,  1,  2 ...  5,  6,  7],\n"
     " [ 8,  9, 10 ... 13, 14, 15],\n"
     " [16, 17, 18 ... 21, 22, 23],\n"
     " ...\n"
     " [40, 41, 42 ... 45, 46, 47],\n"
     " [48, 49, 50 ... 53, 54, 55],\n"
     " [56, 57, 58 ... 61, 62, 63]])"),
    (np.zeros((2, 0), np.float32),
     "Tensor(shape=[2, 0], dtype=Float32, value=\n)"),
]


@pytest.mark.parametrize("values, text", REPRS)
def test_repr_is_mindspores_layout(values, text):
    assert repr(Tensor(values)) == text


def test_repr_summarizes_a_long_1d_tensor_beyond_1000_values():
    text = repr(Tensor(np.arange(1001, dtype=np.int32)))
    assert text == ("Tensor(shape=[1001], dtype=Int32, value= "
                    "[   0,    1,    2 ...  998,  999, 1000])")
    assert "..." not in repr(Tensor(np.arange(1000, dtype=np.int32)))


def test_item_float_int_bool_len():
    assert Tensor(2.5).item() == 2.5
    assert float(Tensor([1.5])) == 1.5
    assert int(Tensor(7)) == 7
    assert bool(Tensor(1.0)) and not bool(Tensor(0.0))
    assert len(Tensor(np.zeros((4, 2), np.float32))) == 4
    with pytest.raises(ValueError):
        bool(Tensor([1.0, 2.0]))


@pytest.mark.parametrize("op", ["+", "-", "*", "/"])
@pytest.mark.parametrize("lhs_shape,rhs_shape", [
    ((4, 3), (4, 3)), ((4, 3), (3,)), ((4, 1), (1, 3)), ((2, 4, 3), (4, 1)),
    ((3,), ())])
def test_arithmetic_broadcasts_like_numpy(op, lhs_shape, rhs_shape):
    a = rand(*lhs_shape, seed=1)
    b = rand(*rhs_shape, low=0.5, high=2.0, seed=2)
    fn = {"+": lambda x, y: x + y, "-": lambda x, y: x - y,
          "*": lambda x, y: x * y, "/": lambda x, y: x / y}[op]
    got = fn(Tensor(a), Tensor(b))
    assert got.shape == np.broadcast_shapes(lhs_shape, rhs_shape)
    assert_close(got.asnumpy(), fn(a.astype(np.float64), b))


def test_scalars_on_both_sides():
    a = rand(3, 4)
    t = Tensor(a)
    assert_close((t + 1).asnumpy(), a + 1)
    assert_close((2.0 * t).asnumpy(), 2 * a)
    assert_close((1 - t).asnumpy(), 1 - a)
    assert_close((t / 4).asnumpy(), a / 4)
    assert_close((3.0 / (t + 2)).asnumpy(), 3 / (a + 2.0))
    assert_close((-t).asnumpy(), -a)
    assert_close(abs(t).asnumpy(), np.abs(a))
    # numpy arrays on the left defer to the Tensor
    out = np.ones((3, 4), np.float32) + t
    assert isinstance(out, Tensor)
    assert_close(out.asnumpy(), 1 + a)


def test_matmul_operator():
    a, b = rand(5, 3, seed=1), rand(3, 4, seed=2)
    assert_close((Tensor(a) @ Tensor(b)).asnumpy(), a.astype(np.float64) @ b)
    v = rand(3, seed=3)
    assert_close((Tensor(a) @ Tensor(v)).asnumpy(), a.astype(np.float64) @ v)


def test_comparisons_are_host_side_bool_tensors():
    t = Tensor(np.array([[-1.0, 2.0]], np.float32))
    m = t > 0
    assert m.dtype == ms.bool_
    np.testing.assert_array_equal(m.asnumpy(), [[False, True]])
    assert bool((t > -5).asnumpy().all())
    assert (Tensor(1.0) == 1.0)


def test_methods():
    a = rand(2, 3, 4)
    t = Tensor(a)
    assert t.reshape(6, 4).shape == (6, 4)
    assert t.reshape((-1, 2)).shape == (12, 2)
    assert t.transpose().shape == (4, 3, 2)
    assert t.transpose(0, 2, 1).shape == (2, 4, 3)
    assert t.flatten().shape == (24,)
    assert t.expand_dims(0).shape == (1, 2, 3, 4)
    assert Tensor(np.ones((1, 3, 1), np.float32)).squeeze().shape == (3,)
    assert_close(t.sum().asnumpy(), a.astype(np.float64).sum())
    assert_close(t.sum(axis=1, keepdims=True).asnumpy(),
                 a.astype(np.float64).sum(axis=1, keepdims=True))
    assert_close(t.mean(axis=(0, 2)).asnumpy(), a.mean(axis=(0, 2)))
    assert_close(t.max(axis=-1).asnumpy(), a.max(axis=-1))
    assert t.ndim == 3 and t.size == 24 and t.nbytes == 96
    np.testing.assert_array_equal(t[1].asnumpy(), a[1])
    assert t.tolist() == a.tolist()


def test_integer_tensor_in_a_float_only_op_is_a_type_error():
    x = Tensor(np.ones((1, 1, 3, 3)), dtype=ms.int32)
    with pytest.raises(TypeError, match=r"[Cc]onv2d: .*Int32"):
        ms.ops.conv2d(x, x)


def test_integer_tensors_add_as_integers():
    s = Tensor([1, 2], dtype=ms.int32) + Tensor([1, 2], dtype=ms.int32)
    assert s.dtype == ms.int32 and s.asnumpy().tolist() == [2, 4]


def test_parameter():
    p = ms.Parameter(Tensor(np.ones((2, 2), np.float32)), name="w")
    assert p.name == "w" and p.requires_grad
    assert isinstance(p + 1, Tensor)
    p.set_data(Tensor(np.zeros((2, 2), np.float32)))
    assert p.asnumpy().sum() == 0
    p.set_data(np.full((2, 2), 3.0))
    assert p.asnumpy()[0, 0] == 3.0
    assert "name=w" in repr(p)
