"""The persistent compile cache from Python: set_context's switches, the
environment variables, and what a second process gets from the cache (the
same bytes, without compiling)."""

import json
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import msmlir as ms
from msmlir import nn, Tensor
from msmlir._runtime import STATE, compile_cache_dir

_PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(ms.__file__)))

# One graph-mode run of the seed MLP (or LeNet-like CNN); prints the cache
# stats as JSON and saves the output.
_SCRIPT = r"""
import json, sys
import numpy as np
import msmlir as ms
from msmlir import nn, Tensor

out_path, net_kind = sys.argv[1], sys.argv[2]
options = json.loads(sys.argv[3])
ms.set_seed(7)
ms.set_context(mode=ms.GRAPH_MODE, **options)
if net_kind == "mlp":
    net = nn.SequentialCell(nn.Flatten(), nn.Dense(784, 64), nn.ReLU(),
                            nn.Dense(64, 10))
    x = np.linspace(-1, 1, 4 * 784, dtype=np.float32).reshape(4, 1, 28, 28)
else:
    net = nn.SequentialCell(nn.Conv2d(1, 4, 5, pad_mode="valid"), nn.ReLU(),
                            nn.MaxPool2d(2, 2), nn.Flatten(),
                            nn.Dense(4 * 12 * 12, 10))
    x = np.linspace(-1, 1, 2 * 784, dtype=np.float32).reshape(2, 1, 28, 28)
y = net(Tensor(x)).asnumpy()
np.save(out_path, y)
print(json.dumps(ms.compile_cache_stats()))
"""


@pytest.fixture(autouse=True)
def _cache_off():
    STATE.enable_compile_cache = False
    STATE.compile_cache_path = None
    yield
    STATE.enable_compile_cache = False
    STATE.compile_cache_path = None


@pytest.fixture
def script(tmp_path):
    path = tmp_path / "run_net.py"
    path.write_text(_SCRIPT)
    return path


def _env(**extra):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("MS_COMPILER_CACHE")}
    env["PYTHONPATH"] = _PACKAGE_ROOT + os.pathsep + env.get("PYTHONPATH", "")
    env.update(extra)
    return env


def _start(script, out, net="mlp", options=None, cwd=None, env=None):
    return subprocess.Popen(
        [sys.executable, str(script), str(out), net, json.dumps(options or {})],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd,
        env=env or _env())


def _finish(proc):
    stdout, stderr = proc.communicate(timeout=600)
    assert proc.returncode == 0, stderr
    return json.loads(stdout.strip().splitlines()[-1]), stderr


def _run(script, out, **kwargs):
    return _finish(_start(script, out, **kwargs))


def _entries(directory):
    return sorted(p for p in os.listdir(directory) if p.endswith(".msc"))


def _same_bytes(a, b):
    return np.load(a).tobytes() == np.load(b).tobytes()


def test_set_context_switches_and_defaults():
    assert ms.get_context("enable_compile_cache") is False
    assert ms.get_context("compile_cache_path") == "."
    assert compile_cache_dir() == ""
    ms.set_context(enable_compile_cache=True, compile_cache_path="/tmp/x")
    assert ms.get_context("enable_compile_cache") is True
    assert ms.get_context("compile_cache_path") == "/tmp/x"
    # As in MindSpore, one directory per rank.
    assert compile_cache_dir() == os.path.join("/tmp/x", "rank_0")


def test_set_context_rejects_bad_values():
    with pytest.raises(TypeError, match="enable_compile_cache must be a bool"):
        ms.set_context(enable_compile_cache="yes")
    with pytest.raises(TypeError, match="compile_cache_path"):
        ms.set_context(compile_cache_path="")
    with pytest.raises(TypeError, match="compile_cache_path"):
        ms.set_context(compile_cache_path=3)
    assert ms.get_context("enable_compile_cache") is False


def test_environment_switches(monkeypatch, tmp_path):
    monkeypatch.setenv("MS_COMPILER_CACHE_PATH", str(tmp_path))
    assert compile_cache_dir() == os.path.join(str(tmp_path), "rank_0")
    assert ms.get_context("compile_cache_path") == str(tmp_path)
    monkeypatch.delenv("MS_COMPILER_CACHE_PATH")
    monkeypatch.setenv("MS_COMPILER_CACHE_ENABLE", "1")
    assert compile_cache_dir() == os.path.join(os.getcwd(), "rank_0")
    # set_context's path wins over the environment's.
    monkeypatch.setenv("MS_COMPILER_CACHE_PATH", str(tmp_path / "env"))
    ms.set_context(compile_cache_path=str(tmp_path / "ctx"))
    assert compile_cache_dir() == os.path.join(str(tmp_path / "ctx"),
                                               "rank_0")


def test_in_process_hit_is_bit_identical(tmp_path):
    ms.set_context(mode=ms.GRAPH_MODE, enable_compile_cache=True,
                   compile_cache_path=str(tmp_path))
    x = Tensor(np.linspace(-2, 2, 24, dtype=np.float32).reshape(4, 6))
    before = ms.compile_cache_stats()

    def make():
        ms.set_seed(3)
        return nn.SequentialCell(nn.Dense(6, 5), nn.ReLU(), nn.Dense(5, 3))

    # A new Cell of the same structure, called from the same line, captures
    # the same IR: the jit cache in memory misses, the one on disk hits.
    cold, warm = [make()(x).asnumpy() for _ in range(2)]
    after = ms.compile_cache_stats()
    assert after["miss"] == before["miss"] + 1
    assert after["hit"] == before["hit"] + 1
    assert cold.tobytes() == warm.tobytes()
    ms.set_context(mode=ms.PYNATIVE_MODE)
    assert make()(x).asnumpy().tobytes() == cold.tobytes()
    assert len(_entries(tmp_path / "rank_0")) == 1


@pytest.mark.parametrize("net", ["mlp", "cnn"])
def test_second_process_hits_and_gives_the_same_bytes(script, tmp_path, net):
    options = {"enable_compile_cache": True,
               "compile_cache_path": str(tmp_path / "cache")}
    cold, _ = _run(script, tmp_path / "cold.npy", net=net, options=options)
    assert (cold["miss"], cold["hit"]) == (1, 0)
    warm, _ = _run(script, tmp_path / "warm.npy", net=net, options=options)
    assert (warm["miss"], warm["hit"], warm["rebuilt"]) == (0, 1, 0)
    plain, _ = _run(script, tmp_path / "plain.npy", net=net)
    assert plain["hit"] + plain["miss"] == 0  # the cache is off by default
    assert _same_bytes(tmp_path / "cold.npy", tmp_path / "warm.npy")
    assert _same_bytes(tmp_path / "cold.npy", tmp_path / "plain.npy")


def test_environment_variable_enables_the_cache(script, tmp_path):
    env = _env(MS_COMPILER_CACHE_PATH=str(tmp_path / "cache"))
    first, _ = _run(script, tmp_path / "a.npy", env=env)
    second, _ = _run(script, tmp_path / "b.npy", env=env)
    assert (first["miss"], second["hit"]) == (1, 1)
    assert len(_entries(tmp_path / "cache" / "rank_0")) == 1


def test_cache_off_writes_nothing(script, tmp_path):
    _run(script, tmp_path / "a.npy", cwd=tmp_path)
    assert not (tmp_path / "rank_0").exists()


@pytest.mark.parametrize("damage,reason", [
    ("truncate", "truncated"),
    ("flip", "checksum mismatch"),
    ("foreign", "foreign entry"),
])
def test_damaged_entry_is_rebuilt(script, tmp_path, damage, reason):
    options = {"enable_compile_cache": True,
               "compile_cache_path": str(tmp_path / "cache")}
    _run(script, tmp_path / "cold.npy", options=options)
    directory = tmp_path / "cache" / "rank_0"
    (entry,) = _entries(directory)
    data = (directory / entry).read_bytes()
    if damage == "truncate":
        data = data[:len(data) // 3]
    elif damage == "flip":
        data = data[:-64] + bytes([data[-64] ^ 0xFF]) + data[-63:]
    else:
        # Another graph's whole entry, filed under this key.
        _run(script, tmp_path / "other.npy", net="cnn", options=options)
        other = [e for e in _entries(directory) if e != entry][0]
        data = (directory / other).read_bytes()
    (directory / entry).write_bytes(data)
    stats, stderr = _run(script, tmp_path / "again.npy", options=options)
    assert stats["rebuilt"] == 1 and stats["hit"] == 0
    assert f"compile cache: {reason}" in stderr
    assert _same_bytes(tmp_path / "cold.npy", tmp_path / "again.npy")
    # The entry was stored again: the next process hits.
    stats, _ = _run(script, tmp_path / "last.npy", options=options)
    assert stats["hit"] == 1


def test_two_processes_fill_one_entry_at_once(script, tmp_path):
    options = {"enable_compile_cache": True,
               "compile_cache_path": str(tmp_path / "cache")}
    procs = [_start(script, tmp_path / f"p{i}.npy", options=options)
             for i in range(2)]
    results = [_finish(p)[0] for p in procs]
    # Each either compiled or (if the other finished first) loaded.
    assert all(r["miss"] + r["hit"] == 1 and r["rebuilt"] == 0
               for r in results)
    directory = tmp_path / "cache" / "rank_0"
    assert os.listdir(directory) == _entries(directory)  # no temporaries
    assert len(_entries(directory)) == 1
    third, _ = _run(script, tmp_path / "p2.npy", options=options)
    assert third["hit"] == 1
    for i in (1, 2):
        assert _same_bytes(tmp_path / "p0.npy", tmp_path / f"p{i}.npy")


def test_unwritable_cache_warns_and_still_runs(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    ms.set_context(mode=ms.GRAPH_MODE, enable_compile_cache=True,
                   compile_cache_path=str(blocker))
    ms.set_seed(5)
    net = nn.Dense(3, 2)
    x = Tensor(np.ones((2, 3), np.float32))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        y = net(x).asnumpy()
    assert any("not stored" in str(w.message) for w in caught)
    ms.set_context(mode=ms.PYNATIVE_MODE)
    assert net(x).asnumpy().tobytes() == y.tobytes()
