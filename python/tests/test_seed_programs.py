"""The seed tutorial's five programs, run as scripts: each exits 0 and
prints [64, 10] like numpy. Their sources differ from the tutorial only in
the imports (and English comments)."""

import os
import re

import pytest

from run_seed_program import check

EXAMPLES = os.path.join(os.environ.get(
    "MS_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", "..")),
    "examples", "python")
PROGRAMS = ["mlp_pynative", "mlp_graph_mode", "jit_function",
            "jit_transform", "jit_construct"]


@pytest.mark.parametrize("name", PROGRAMS)
def test_seed_program(name):
    error = check(os.path.join(EXAMPLES, name + ".py"))
    assert error is None, error


@pytest.mark.parametrize("name", PROGRAMS)
def test_only_the_imports_changed(name):
    with open(os.path.join(EXAMPLES, name + ".py")) as f:
        source = f.read()
    assert "import msmlir as ms\n" in source
    assert "from msmlir import nn, Tensor\n" in source
    assert "mindspore" not in re.sub(r"#.*", "", source)
