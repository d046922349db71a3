"""Every OpInfo entry (op_db.py) against its numpy reference, and
PyNative-versus-GRAPH bit parity at every jit_level."""

import numpy as np
import pytest

import msmlir as ms
from msmlir import Tensor

from conftest import assert_bitwise, assert_close
from op_db import OP_DB

CASES = [pytest.param(info, sample, id=f"{info.name}-{name}")
         for info in OP_DB for name, sample in info.sample_list()]
LEVELS = ["O0", "O1", "O2"]


def _run(info, sample):
    return info.op(*(Tensor(a) for a in sample.inputs), **sample.attrs)


@pytest.mark.parametrize("info,sample", CASES)
def test_reference(info, sample):
    got = _run(info, sample).asnumpy()
    with np.errstate(over="ignore", under="ignore"):
        expected = np.asarray(info.ref(
            *(a.astype(np.float64) for a in sample.inputs), **sample.attrs))
    assert got.shape == expected.shape
    if info.exact:
        np.testing.assert_array_equal(got, expected.astype(got.dtype))
    else:
        assert_close(got, expected, info.rtol)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("info,sample", CASES)
def test_graph_matches_pynative_bitwise(info, sample, level):
    eager = _run(info, sample).asnumpy()
    graph = ms.jit(lambda *xs: info.op(*xs, **sample.attrs),
                   jit_config=ms.JitConfig(jit_level=level))
    got = graph(*(Tensor(a) for a in sample.inputs)).asnumpy()
    assert_bitwise(got, eager)


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
    # where the RNG is (test_train_ops.py).
    missing = sorted(mnemonics - covered - {"dropout"})
    assert not missing, f"ops without an OpInfo entry: {missing}"
