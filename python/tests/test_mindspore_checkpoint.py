"""MindSpore's protobuf .ckpt (issue 57, item 1): save_checkpoint writes it
by default and safetensors with format="safetensors"; load_checkpoint and
ms-run --params read both, by content. The independent side is protobuf's
own Python implementation of the same schema (protoc --python_out on
lib/Runtime/Formats/proto/checkpoint.proto): files ms writes parse there,
and files made there load in ms, including MindSpore 1.x's spellings and
the inputs ms must refuse."""

import os
import subprocess
import sys

import numpy as np
import pytest

import msmlir as ms
from msmlir import nn

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
BUILD = os.environ.get("MS_BUILD_DIR", os.path.join(ROOT, "build"))
PROTO = os.path.join(ROOT, "lib", "Runtime", "Formats", "proto")

# dtype -> (MindSpore's name, numpy dtype)
TYPES = {
    ms.float32: ("Float32", np.float32), ms.float16: ("Float16", np.float16),
    ms.float64: ("Float64", np.float64), ms.int8: ("Int8", np.int8),
    ms.int16: ("Int16", np.int16), ms.int32: ("Int32", np.int32),
    ms.int64: ("Int64", np.int64), ms.uint8: ("UInt8", np.uint8),
    ms.bool_: ("Bool", np.bool_),
}


@pytest.fixture(scope="module")
def pb(tmp_path_factory):
    out = tmp_path_factory.mktemp("pb")
    subprocess.run(["protoc", f"--python_out={out}", f"-I{PROTO}",
                    os.path.join(PROTO, "checkpoint.proto")], check=True)
    sys.path.insert(0, str(out))
    try:
        import checkpoint_pb2
    finally:
        sys.path.remove(str(out))
    return checkpoint_pb2


def _values(dtype, shape, seed):
    rng = np.random.default_rng(seed)
    np_type = TYPES[dtype][1]
    if np_type is np.bool_:
        return rng.random(shape) < 0.5
    if np.issubdtype(np_type, np.integer):
        info = np.iinfo(np_type)
        return rng.integers(info.min, info.max, shape, dtype=np_type,
                            endpoint=True)
    return rng.standard_normal(shape).astype(np_type)


def _write(pb, path, entries):
    """entries: [(tag, dims, tensor_type, content bytes)]."""
    c = pb.Checkpoint()
    for tag, dims, type_name, content in entries:
        v = c.value.add()
        v.tag = tag
        v.tensor.dims.extend(dims)
        v.tensor.tensor_type = type_name
        v.tensor.tensor_content = content
    with open(path, "wb") as f:
        f.write(c.SerializeToString())


def test_every_dtype_round_trips_and_parses_in_protobuf(tmp_path, pb):
    arrays = {f"p{i}.{TYPES[dt][0]}": _values(dt, (2, 3, 1)[:i % 3 + 1], i)
              for i, dt in enumerate(TYPES)}
    path = str(tmp_path / "all.ckpt")
    ms.save_checkpoint({k: ms.Tensor(v) for k, v in arrays.items()}, path)
    c = pb.Checkpoint()
    c.ParseFromString(open(path, "rb").read())
    assert [v.tag for v in c.value] == list(arrays)
    for v in c.value:
        a = arrays[v.tag]
        assert v.tensor.tensor_type == v.tag.split(".")[1]
        assert list(v.tensor.dims) == list(a.shape)
        assert v.tensor.tensor_content == a.tobytes()
    loaded = ms.load_checkpoint(path)
    for k, a in arrays.items():
        np.testing.assert_array_equal(loaded[k].asnumpy(), a)
        assert loaded[k].asnumpy().dtype == a.dtype


def test_save_load_save_gives_identical_bytes(tmp_path):
    """A .ckpt loads in file order (as MindSpore's), so saving what was
    loaded writes the same bytes."""
    ms.set_seed(5)
    net = nn.SequentialCell([nn.Dense(6, 4), nn.ReLU(), nn.Dense(4, 2)])
    first, second = str(tmp_path / "1.ckpt"), str(tmp_path / "2.ckpt")
    ms.save_checkpoint(net, first)
    loaded = ms.load_checkpoint(first)
    assert list(loaded) == [n for n, _ in net.parameters_and_names()]
    ms.save_checkpoint(loaded, second)
    assert open(first, "rb").read() == open(second, "rb").read()


def test_a_file_protobuf_wrote_loads_with_either_spelling(tmp_path, pb):
    w = np.arange(6, dtype=np.float32).reshape(2, 3)
    u = np.array([0, 7, 255], np.uint8)
    path = str(tmp_path / "foreign.ckpt")
    _write(pb, path, [("fc.weight", [2, 3], "Float32", w.tobytes()),
                      ("old", [3], "Uint8", u.tobytes()),   # MindSpore 1.x
                      ("new", [3], "UInt8", u.tobytes()),
                      ("scalar", [], "Int64", np.int64(-5).tobytes())])
    p = ms.load_checkpoint(path)
    np.testing.assert_array_equal(p["fc.weight"].asnumpy(), w)
    np.testing.assert_array_equal(p["old"].asnumpy(), u)
    np.testing.assert_array_equal(p["new"].asnumpy(), u)
    assert p["scalar"].asnumpy().tolist() == -5


@pytest.mark.parametrize("entries, message", [
    ([("t", [2], "Float32", b"\0" * 4)],
     "tensor 't': [2] Float32 is 8 bytes, tensor_content has 4"),
    ([("t", [2], "Complex64", b"\0" * 16)],
     "tensor 't': tensor_type 'Complex64' is not one ms has buffers of"),
    ([("t", [-1], "Float32", b"")], "tensor 't': dims [-1] are negative"),
    ([("t", [2], "Bool", b"\x01\x02")],
     "tensor 't': bool element 1 is the byte 0x02; a bool is 0 or 1"),
    ([("t", [1], "Int8", b"\0"), ("t", [1], "Int8", b"\0")],
     "tensor 't' appears twice"),
])
def test_bad_entries_are_one_error_naming_the_file(tmp_path, pb, entries,
                                                    message):
    path = str(tmp_path / "bad.ckpt")
    _write(pb, path, entries)
    with pytest.raises(ms.MSError, match=r"^" + path + ": .*"):
        ms.load_checkpoint(path)
    with pytest.raises(ms.MSError) as info:
        ms.load_checkpoint(path)
    assert message in str(info.value)


def test_a_map_tensor_is_refused_by_name(tmp_path, pb):
    c = pb.Checkpoint()
    v = c.value.add()
    v.tag = "emb"
    t = v.maptensor.tensor.add()
    t.tensor_type = "Float32"
    t.tensor_content = b""
    path = str(tmp_path / "map.ckpt")
    open(path, "wb").write(c.SerializeToString())
    with pytest.raises(ms.MSError, match="entry 'emb' is a map tensor"):
        ms.load_checkpoint(path)


def test_garbage_is_not_a_checkpoint(tmp_path):
    path = str(tmp_path / "garbage.ckpt")
    open(path, "wb").write(b"\xff\xfe not protobuf at all")
    with pytest.raises(ms.MSError, match="not a MindSpore checkpoint"):
        ms.load_checkpoint(path)


def test_the_content_decides_not_the_name(tmp_path):
    net = nn.Dense(4, 3)
    st = str(tmp_path / "really_safetensors.ckpt")
    ck = str(tmp_path / "really_ckpt.safetensors")
    ms.save_checkpoint(net, st, format="safetensors")
    ms.save_checkpoint(net, ck)
    assert open(st, "rb").read()[8:9] == b"{"
    assert open(ck, "rb").read()[:1] == b"\x0a"  # field 1, length-delimited
    for path in (st, ck):
        p = ms.load_checkpoint(path)
        np.testing.assert_array_equal(p["weight"].asnumpy(),
                                      net.weight.asnumpy())


def test_unsupported_options_are_refused(tmp_path):
    net = nn.Dense(2, 2)
    path = str(tmp_path / "x.ckpt")
    with pytest.raises(ValueError, match="format must be 'ckpt' or "
                       "'safetensors', got 'onnx'"):
        ms.save_checkpoint(net, path, format="onnx")
    with pytest.raises(ValueError, match="enc_key is not supported"):
        ms.save_checkpoint(net, path, enc_key=b"0" * 16)
    ms.save_checkpoint(net, path)
    with pytest.raises(ValueError, match="dec_key is not supported"):
        ms.load_checkpoint(path, dec_key=b"0" * 16)


def test_ms_run_reads_a_ckpt(tmp_path):
    """The seed MLP's parameters as a .ckpt drive ms-run exactly as the
    same values in safetensors do."""
    ms.set_seed(11)
    params = {
        "dense_relu_sequential.0.weight": (512, 784),
        "dense_relu_sequential.0.bias": (512,),
        "dense_relu_sequential.2.weight": (512, 512),
        "dense_relu_sequential.2.bias": (512,),
        "dense_relu_sequential.4.weight": (10, 512),
        "dense_relu_sequential.4.bias": (10,),
    }
    rng = np.random.default_rng(3)
    tensors = {k: ms.Tensor(rng.uniform(-0.05, 0.05, s).astype(np.float32))
               for k, s in params.items()}
    outs = []
    for fmt, name in (("ckpt", "p.ckpt"), ("safetensors", "p.st")):
        path = str(tmp_path / name)
        ms.save_checkpoint(tensors, path, format=fmt)
        proc = subprocess.run(
            [os.path.join(BUILD, "bin", "ms-run"),
             os.path.join(ROOT, "examples", "mlp.mlir"), f"--params={path}",
             "--print"], capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
        outs.append(proc.stdout)
    assert outs[0] == outs[1] and "[" in outs[0]
