"""Checkpoints: safetensors round trips through save_checkpoint,
load_checkpoint and load_param_into_net."""

import json
import struct

import numpy as np
import pytest

import msmlir as ms
from msmlir import Tensor, nn

from conftest import assert_bitwise, rand


def _net():
    return nn.SequentialCell(nn.Flatten(), nn.Dense(12, 8), nn.ReLU(),
                             nn.Dense(8, 3))


def test_round_trip(tmp_path):
    net = _net()
    path = str(tmp_path / "net.safetensors")
    ms.save_checkpoint(net, path)
    loaded = ms.load_checkpoint(path)
    assert sorted(loaded) == sorted(n for n, _ in net.parameters_and_names())
    for name, param in net.parameters_and_names():
        assert isinstance(loaded[name], ms.Parameter)
        assert loaded[name].name == name
        assert_bitwise(loaded[name].asnumpy(), param.asnumpy())

    other = _net()
    x = Tensor(rand(5, 3, 4))
    assert not np.array_equal(other(x).asnumpy(), net(x).asnumpy())
    not_loaded, unused = ms.load_param_into_net(other, loaded)
    assert not_loaded == [] and unused == []
    assert_bitwise(other(x).asnumpy(), net(x).asnumpy())
    # The net got its own copy of the data.
    loaded["1.weight"].asnumpy()[:] = 0
    assert other[1].weight.asnumpy().any()


def test_format_safetensors_is_standard_safetensors(tmp_path):
    path = tmp_path / "d.safetensors"
    ms.save_checkpoint({"a": Tensor(np.arange(6, dtype=np.float32)
                                    .reshape(2, 3)),
                        "b": Tensor([1, 2, 3], dtype=ms.int64)}, str(path),
                       format="safetensors")
    raw = path.read_bytes()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n])
    assert header["a"]["dtype"] == "F32" and header["a"]["shape"] == [2, 3]
    assert header["b"]["dtype"] == "I64"
    begin, end = header["a"]["data_offsets"]
    data = np.frombuffer(raw[8 + n + begin:8 + n + end], np.float32)
    np.testing.assert_array_equal(data, np.arange(6))


def test_list_form_and_load_into_net_argument(tmp_path):
    net = _net()
    path = str(tmp_path / "l.safetensors")
    ms.save_checkpoint([{"name": n, "data": p}
                        for n, p in net.parameters_and_names()], path)
    other = _net()
    ms.load_checkpoint(path, net=other)
    for (_, p), (_, q) in zip(net.parameters_and_names(),
                              other.parameters_and_names()):
        assert_bitwise(p.asnumpy(), q.asnumpy())
    only = ms.load_checkpoint(path, specify_prefix="1.")
    assert sorted(only) == ["1.bias", "1.weight"]
    rest = ms.load_checkpoint(path, filter_prefix="1.")
    assert sorted(rest) == ["3.bias", "3.weight"]


def test_partial_and_strict_loading(tmp_path):
    net = _net()
    params = {"1.weight": Tensor(np.zeros((8, 12), np.float32)),
              "extra": Tensor(np.zeros(2, np.float32))}
    not_loaded, unused = ms.load_param_into_net(net, params)
    assert not_loaded == ["1.bias", "3.weight", "3.bias"]
    assert unused == ["extra"]
    assert not net[1].weight.asnumpy().any()
    with pytest.raises(ValueError, match="strict"):
        ms.load_param_into_net(net, params, strict_load=True)


def test_mismatched_shape_or_dtype_is_an_error():
    net = _net()
    with pytest.raises(ValueError, match="'1.weight'.*\\[8, 12\\].*\\[3, 3\\]"):
        ms.load_param_into_net(net, {"1.weight": Tensor(np.zeros(
            (3, 3), np.float32))})
    with pytest.raises(TypeError, match="'1.bias'.*Int32"):
        ms.load_param_into_net(net, {"1.bias": Tensor(np.zeros(
            8, np.int32))})


@pytest.mark.parametrize("bad, error", [
    ({"3.weight": Tensor(np.zeros((3, 3), np.float32))}, ValueError),
    ({"3.bias": Tensor(np.zeros(3, np.int32))}, TypeError),
])
def test_a_bad_entry_changes_no_parameter(bad, error):
    """The earlier, fitting entries are not loaded either: the net is left
    as it was (they are checked before any parameter changes)."""
    net = _net()
    before = {n: p.asnumpy().copy() for n, p in net.parameters_and_names()}
    params = {n: Tensor(np.full(p.shape, 7, np.float32))
              for n, p in net.parameters_and_names()}
    params.update(bad)
    with pytest.raises(error):
        ms.load_param_into_net(net, params)
    for n, p in net.parameters_and_names():
        assert_bitwise(p.asnumpy(), before[n])


def test_strict_load_refusal_changes_no_parameter():
    net = _net()
    before = net[1].weight.asnumpy().copy()
    params = {"1.weight": Tensor(np.zeros((8, 12), np.float32)),
              "extra": Tensor(np.zeros(2, np.float32))}
    with pytest.raises(ValueError, match="strict"):
        ms.load_param_into_net(net, params, strict_load=True)
    assert_bitwise(net[1].weight.asnumpy(), before)


def test_bad_files(tmp_path):
    with pytest.raises(ValueError, match="no such file"):
        ms.load_checkpoint(str(tmp_path / "missing.safetensors"))
    bad = tmp_path / "bad.safetensors"
    bad.write_bytes(b"\x10\x00\x00\x00\x00\x00\x00\x00{not json}     ")
    with pytest.raises(ms.MSError, match="bad.safetensors"):
        ms.load_checkpoint(str(bad))
    short = tmp_path / "short.safetensors"
    short.write_bytes(b"\x01\x02")
    with pytest.raises(ms.MSError):
        ms.load_checkpoint(str(short))
    with pytest.raises(TypeError):
        ms.save_checkpoint(42, str(tmp_path / "x.safetensors"))
