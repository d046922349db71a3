"""jit_syntax_level at a graph's boundary (docs/python.md, "Syntax levels"):
STRICT takes Tensors, scalars, strings, None and tuples; COMPATIBLE adds
lists and dicts; LAX adds any Python object (and JIT Fallback,
test_jit_fallback.py)."""

import inspect
import os

import numpy as np
import pytest

import msmlir as ms
from msmlir import Tensor

from conftest import assert_bitwise, rand


def _jit(fn, level):
    return ms.jit(fn, jit_config=ms.JitConfig(jit_syntax_level=level))


def _def_line(fn):
    return f"{os.path.abspath(__file__)}:{inspect.getsourcelines(fn)[1]}"


def total(xs):
    out = xs[0]
    for x in xs[1:]:
        out = out + x
    return out


def as_dict(x):
    return {"double": x * 2.0, "half": x * 0.5}


class Scale:
    def __init__(self, factor):
        self.factor = factor


def scale(x, s):
    return x * s.factor


def test_tuples_and_scalars_at_every_level():
    xs = (Tensor(rand(3)), Tensor(rand(3, seed=1)))
    expected = total(xs).asnumpy()
    for level in ("STRICT", "COMPATIBLE", "LAX"):
        assert_bitwise(_jit(total, level)(xs).asnumpy(), expected)


def test_a_list_argument_needs_compatible():
    xs = [Tensor(rand(3)), Tensor(rand(3, seed=1))]
    with pytest.raises(ms.GraphSyntaxError) as info:
        _jit(total, "STRICT")(xs)
    message = str(info.value)
    assert _def_line(total) in message
    assert "argument 0 of total is a list" in message
    assert "tuple" in message and "COMPATIBLE" in message
    expected = total(xs).asnumpy()
    for level in ("COMPATIBLE", "LAX"):
        assert_bitwise(_jit(total, level)(xs).asnumpy(), expected)


def test_a_dict_result_needs_compatible():
    x = Tensor(rand(4))
    with pytest.raises(ms.GraphSyntaxError, match="the result of as_dict "
                       "is a dict"):
        _jit(as_dict, "STRICT")(x)
    for level in ("COMPATIBLE", "LAX"):
        out = _jit(as_dict, level)(x)
        assert sorted(out) == ["double", "half"]
        np.testing.assert_array_equal(out["double"].asnumpy(),
                                      x.asnumpy() * 2)


@pytest.mark.parametrize("level", ["STRICT", "COMPATIBLE"])
def test_a_plain_object_needs_lax(level):
    x = Tensor(rand(3))
    with pytest.raises(ms.GraphSyntaxError) as info:
        _jit(scale, level)(x, Scale(2.0))
    message = str(info.value)
    assert _def_line(scale) in message
    assert "argument 1 of scale is a Scale object" in message
    assert "jit_class" in message


def test_a_nested_offence_is_named_by_its_path():
    with pytest.raises(ms.GraphSyntaxError, match=r"argument 0\[1\] of "
                       "total is a list"):
        _jit(total, "STRICT")((Tensor(rand(3)), [Tensor(rand(3))]))


def test_lax_takes_plain_objects():
    x = Tensor(rand(3))
    out = _jit(scale, "LAX")(x, Scale(2.0))
    np.testing.assert_array_equal(out.asnumpy(), x.asnumpy() * 2)
