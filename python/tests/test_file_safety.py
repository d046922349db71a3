"""Issue 55, files: devices, FIFOs and directories are refused by their
kind before a byte is read (no out-of-memory abort, no hang); bool bytes
other than 0 and 1 are an error; a checkpoint save is atomic, so a save
stopped at any size leaves the previous file loadable and a load racing
saves never crashes (the native half: FileAccessTest.cpp)."""

import os
import signal
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import msmlir as ms
from msmlir import nn
from msmlir.dataset import read_idx

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.environ.get("MS_BUILD_DIR", os.path.join(HERE, "..", "..",
                                                    "build"))


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return str(path)


def _readers():
    return {
        "load_checkpoint": ms.load_checkpoint,
        "read_idx": read_idx,
    }


@pytest.mark.parametrize("reader", sorted(_readers()))
def test_devices_are_refused_by_kind(reader):
    with pytest.raises((ValueError, ms.MSError),
                       match=r"/dev/zero: not a regular file \(a character "
                             r"device\)"):
        _readers()[reader]("/dev/zero")


@pytest.mark.parametrize("reader", sorted(_readers()))
def test_a_fifo_is_refused_without_waiting_for_a_writer(reader, fifo):
    with pytest.raises((ValueError, ms.MSError),
                       match=r"not a regular file \(a FIFO\)"):
        _readers()[reader](fifo)


def test_ms_run_refuses_a_device_as_params(tmp_path):
    ms_run = os.path.join(BUILD, "bin", "ms-run")
    net = os.path.join(HERE, "..", "..", "examples", "mlp.mlir")
    proc = subprocess.run([ms_run, net, "--params=/dev/zero"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stderr
    assert "/dev/zero: not a regular file (a character device)" in \
        proc.stderr
    assert proc.stderr.count("\n") == 1, proc.stderr


def _write_bool_checkpoint(path, byte):
    header = (b'{"m":{"dtype":"BOOL","shape":[3],"data_offsets":[0,3]}}')
    with open(path, "wb") as f:
        f.write(len(header).to_bytes(8, "little") + header +
                bytes([1, 0, byte]))


def test_bool_bytes_other_than_zero_and_one_are_an_error(tmp_path):
    path = str(tmp_path / "b.ckpt")
    _write_bool_checkpoint(path, 1)
    assert ms.load_checkpoint(path)["m"].asnumpy().tolist() == \
        [True, False, True]
    _write_bool_checkpoint(path, 2)
    with pytest.raises(ms.MSError, match="tensor 'm': bool element 2 is "
                       "the byte 0x02; a bool is 0 or 1"):
        ms.load_checkpoint(path)


def _net():
    ms.set_seed(3)
    return nn.Dense(64, 32)


_SAVE_UNDER_LIMIT = textwrap.dedent("""
    import resource, signal, sys
    import msmlir as ms
    from msmlir import nn
    path, limit, ignore = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
    fmt = sys.argv[4]
    # CPython ignores SIGXFSZ (the write then fails with EFBIG); SIG_DFL
    # is a C program's default: killed at the limit.
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN if ignore else
                  signal.SIG_DFL)
    ms.set_seed(4)
    net = nn.Dense(64, 32)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    try:
        ms.save_checkpoint(net, path, format=fmt)
    except ms.MSError as e:
        print(e)
        sys.exit(3)
""")


@pytest.mark.parametrize("fmt", ["ckpt", "safetensors"])
@pytest.mark.parametrize("ignore_signal", [False, True])
def test_a_save_stopped_at_any_size_keeps_the_previous_checkpoint(
        tmp_path, ignore_signal, fmt):
    path = str(tmp_path / "net.ckpt")
    net = _net()
    ms.save_checkpoint(net, path, format=fmt)
    size = os.path.getsize(path)
    before = {k: v.asnumpy() for k, v in ms.load_checkpoint(path).items()}
    env = dict(os.environ)
    for limit in (0, 1, 8, 100, 4096, size // 2, size - 1):
        proc = subprocess.run(
            [sys.executable, "-c", _SAVE_UNDER_LIMIT, path, str(limit),
             "1" if ignore_signal else "0", fmt],
            capture_output=True, text=True, env=env, timeout=120)
        if ignore_signal:
            assert proc.returncode == 3, proc.stderr
            assert "write failed" in proc.stdout, proc.stdout
        else:
            assert proc.returncode == -signal.SIGXFSZ, proc.stderr
        after = ms.load_checkpoint(path)
        assert sorted(after) == sorted(before)
        for k in before:
            np.testing.assert_array_equal(after[k].asnumpy(), before[k])


_SAVE_LOOP = textwrap.dedent("""
    import sys
    import msmlir as ms
    from msmlir import nn
    path, count, fmt = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    for i in range(count):
        ms.set_seed(i)
        ms.save_checkpoint(nn.Dense(256, 128 + (i % 3) * 64), path,
                           format=fmt)
""")


@pytest.mark.parametrize("fmt", ["ckpt", "safetensors"])
def test_a_load_racing_100_saves_never_crashes(tmp_path, fmt):
    path = str(tmp_path / "race.ckpt")
    ms.save_checkpoint(nn.Dense(256, 128), path, format=fmt)
    saver = subprocess.Popen([sys.executable, "-c", _SAVE_LOOP, path, "100",
                              fmt],
                             stderr=subprocess.PIPE, text=True)
    loads = 0
    while saver.poll() is None or loads < 5:
        params = ms.load_checkpoint(path)
        # Each load sees one whole file: a weight and its bias agree.
        assert params["weight"].shape[0] == params["bias"].shape[0]
        loads += 1
    assert saver.wait() == 0, saver.stderr.read()
    assert loads >= 5
    leftovers = [n for n in os.listdir(tmp_path) if n != "race.ckpt"]
    assert leftovers == []
