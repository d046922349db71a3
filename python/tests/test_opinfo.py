"""Every OpInfo entry (op_db.py) against its numpy reference, and
PyNative-versus-GRAPH bit parity at every jit_level, for every dtype the
entry declares."""

import numpy as np
import pytest

import msmlir as ms
from msmlir import dtype as mstype

from conftest import assert_bitwise, relative_error
from op_db import OP_DB

LEVELS = ["O0", "O1", "O2"]


def _param(info, name, sample, dt):
    marks = ()
    if dt in info.xfail:
        marks = (pytest.mark.xfail(reason=info.xfail[dt], strict=False),)
    return pytest.param(info, sample, id=f"{info.name}-{name}", marks=marks)


CASES = [_param(info, name, sample, mstype.float32)
         for info in OP_DB for name, sample in info.sample_list()]
DTYPE_CASES = [_param(info, name, sample, dt)
               for info in OP_DB for name, sample, dt in info.dtype_samples()]


def _run(info, sample):
    return info.op(*sample.tensors(), **sample.attrs)


def _values(t):
    """A result's values as numpy: bfloat16 through torch (an independent
    conversion from msmlir's), the rest as they are."""
    if t.dtype is mstype.bfloat16:
        import torch
        bits = np.asarray(t._t).view(np.int16)
        return torch.from_numpy(bits.copy()).view(torch.bfloat16).to(
            torch.float32).numpy()
    return t.asnumpy()


def _round_to(expected, dt):
    """A float64 reference rounded to the result's dtype, as a kernel that
    computes in float32 and rounds would give (to within float32)."""
    if dt is mstype.bfloat16:
        from op_db import _bf16_values
        return _bf16_values(expected.astype(np.float32))
    if dt is mstype.float16:
        return expected.astype(np.float32).astype(np.float16)
    return expected.astype(dt.np)


# One ulp at 1: the least a float16 or bfloat16 result can differ by when
# the float32 computation lands near a rounding boundary.
_DTYPE_RTOL = {mstype.float16: 2.0 ** -10, mstype.bfloat16: 2.0 ** -7}


def _assert_close_special(got, expected, rtol):
    """Relative error (conftest's rule) on the finite elements; NaN and
    infinities must sit at the same places with the same signs."""
    got = np.asarray(got, np.float64)
    expected = np.asarray(expected, np.float64)
    assert got.shape == expected.shape
    np.testing.assert_array_equal(np.isnan(got), np.isnan(expected),
                                  "NaNs differ")
    inf = np.isinf(expected)
    np.testing.assert_array_equal(got[inf], expected[inf], "infinities "
                                  "differ")
    finite = ~np.isnan(expected) & ~inf
    assert not np.isinf(got[finite]).any(), "an unexpected infinity"
    err = relative_error(got[finite], expected[finite])
    assert err <= rtol, f"relative error {err:.3g} > {rtol:g}"


def check_reference(info, sample):
    result = _run(info, sample)
    got = _values(result)
    dt = result.dtype
    # Integer and bool results are checked exactly against the reference
    # computed in the inputs' own dtypes (numpy wraps as ms does); float
    # results against a float64 reference rounded to the result dtype.
    as_f64 = dt.is_float
    inputs = [a.astype(np.float64) if as_f64 and i not in
              _index_inputs(info) else a
              for i, a in enumerate(sample.inputs)]
    with np.errstate(all="ignore"):
        expected = np.asarray(info.ref(*inputs, **sample.attrs))
        assert got.shape == expected.shape
        if not dt.is_float:
            np.testing.assert_array_equal(got, expected.astype(got.dtype))
            return
        expected = _round_to(expected, dt)
    if info.exact:
        np.testing.assert_array_equal(got, expected.astype(got.dtype))
    else:
        _assert_close_special(got, expected,
                              max(info.rtol, _DTYPE_RTOL.get(dt, 0.0)))


def _index_inputs(info):
    """Inputs that are indices (gather, one_hot): never converted."""
    return (1,) if info.name == "gather" else ()


def check_parity(info, sample, level):
    eager = _run(info, sample)
    graph = ms.jit(lambda *xs: info.op(*xs, **sample.attrs),
                   jit_config=ms.JitConfig(jit_level=level))
    got = graph(*sample.tensors())
    assert got.dtype is eager.dtype
    assert_bitwise(np.asarray(got._t), np.asarray(eager._t))


@pytest.mark.parametrize("info,sample", CASES)
def test_reference(info, sample):
    check_reference(info, sample)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("info,sample", CASES)
def test_graph_matches_pynative_bitwise(info, sample, level):
    check_parity(info, sample, level)


@pytest.mark.parametrize("info,sample", DTYPE_CASES)
def test_dtype_reference(info, sample):
    check_reference(info, sample)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("info,sample", DTYPE_CASES)
def test_dtype_graph_matches_pynative_bitwise(info, sample, level):
    check_parity(info, sample, level)


def test_every_ms_op_has_an_entry():
    """The table covers the dialect: each ms op's name (ms.<name>) appears
    as an entry (aliases such as gelu_tanh may add more)."""
    import re
    import os
    td = os.path.join(os.path.dirname(__file__), "..", "..", "include", "ms",
                      "Dialect", "MS", "IR")
    mnemonics = set()
    for name in os.listdir(td):
        # The backward kernels of MSGradOps.td are checked through the
        # gradients they compute (test_autodiff.py).
        if name.endswith(".td") and name != "MSGradOps.td":
            text = open(os.path.join(td, name)).read()
            mnemonics |= set(re.findall(
                r'def MS_\w+Op\s*:\s*MS_\w*Op<"(\w+)"', text))
    covered = {info.name for info in OP_DB}
    # dropout at inference is the identity; its training form is tested
    # where the RNG is (test_train_ops.py). all_reduce needs an MPI world:
    # tests/multirank checks it against numpy, eager and compiled.
    missing = sorted(mnemonics - covered - {"dropout", "all_reduce"})
    assert not missing, f"ops without an OpInfo entry: {missing}"


def test_every_entry_declares_its_dtypes():
    """Issue 16: every entry runs in more dtypes than float32, except the
    bool-only logical ops and one_hot (index input)."""
    single = sorted(info.name for info in OP_DB if len(info.dtypes) < 2)
    assert single == ["logical_and", "logical_not", "logical_or",
                      "one_hot"], single
