"""docs/python.md's API coverage table is what scripts/api_coverage.py
computes from the package now, and the names of issue 56's model-zoo
census are all present."""

import os
import subprocess
import sys

import msmlir

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
SCRIPT = os.path.join(ROOT, "scripts", "api_coverage.py")
sys.path.insert(0, os.path.join(ROOT, "scripts"))

import api_coverage  # noqa: E402


def test_the_table_is_current():
    env = dict(os.environ, PYTHONPATH=os.path.dirname(
        os.path.dirname(msmlir.__file__)))
    result = subprocess.run([sys.executable, SCRIPT, "--check"], env=env,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_resolve():
    assert api_coverage.resolve("mindspore.nn.Dense") is msmlir.nn.Dense
    assert api_coverage.resolve("mindspore.common.dtype") is not None
    assert api_coverage.resolve("mindspore.nn.NoSuchCell") is None
    assert api_coverage.resolve("mindspore.no_such_module.x") is None


def test_census_names_are_present():
    for name, _ in api_coverage.TOP_NAMES:
        assert api_coverage.resolve(name) is not None, name


def test_the_list_has_no_duplicates():
    names = api_coverage.read_names()
    assert len(names) == len(set(names)) > 1000
