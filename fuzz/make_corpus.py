#!/usr/bin/python3
"""Writes the seed corpora in fuzz/corpus/<target>/ from the repo's own inputs.

  /usr/bin/python3 fuzz/make_corpus.py [--ms-opt build/bin/ms-opt]

- parse-verify, canonicalize: every test/ and examples/ .mlir file, split at
  `// -----` as lit splits it (valid and invalid inputs alike);
- pipeline-o0, pipeline-o2: those pieces that verify and have an ms op
  (checked with ms-opt when given, else every piece with an ms op);
- npy: the small .npy files of test/Run/reference;
- safetensors: small files made here, valid and edge cases like the ones
  test/Run/errors/params.test writes;
- checkpoint: small MindSpore .ckpt files (protobuf's Python code) and a
  safetensors file;
- cache-entry: small compile-cache entries for the fuzzer's key and
  identity;
- idx: small IDX files made here (u8 images, labels, other types, and the
  header edge cases), plus the first items of Fashion-MNIST when installed.

Names are content hashes, so running it again adds nothing twice. Keep the
whole corpus small (< 2 MB): libFuzzer finds the rest.
"""
import argparse
import gzip
import hashlib
import json
import os
import struct
import subprocess
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "fuzz", "corpus")
MAX_MLIR = 12 * 1024
MAX_NPY = 4 * 1024


def put(target, data):
    if isinstance(data, str):
        data = data.encode()
    d = os.path.join(CORPUS, "ms-fuzz-" + target)
    os.makedirs(d, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def mlir_pieces():
    for top in ("test", "examples"):
        for dirpath, _, files in sorted(os.walk(os.path.join(ROOT, top))):
            for f in sorted(files):
                if not f.endswith(".mlir"):
                    continue
                text = open(os.path.join(dirpath, f)).read()
                for piece in text.split("// -----"):
                    # RUN/CHECK lines are noise to the parser.
                    lines = [l for l in piece.splitlines()
                             if not l.lstrip().startswith(("// RUN", "// CHECK",
                                                           "// LLVM", "// ERR"))]
                    piece = "\n".join(lines).strip() + "\n"
                    if "ms." in piece and len(piece) <= MAX_MLIR:
                        yield piece


def verifies(ms_opt, text):
    if not ms_opt:
        return True
    r = subprocess.run([ms_opt], input=text.encode(), capture_output=True)
    return r.returncode == 0


def mlir_corpora(ms_opt):
    for piece in mlir_pieces():
        put("parse-verify", piece)
        put("canonicalize", piece)
        if verifies(ms_opt, piece):
            put("pipeline-o0", piece)
            put("pipeline-o2", piece)


def npy_corpus():
    ref = os.path.join(ROOT, "test", "Run", "reference")
    seen = set()
    for dirpath, _, files in sorted(os.walk(ref)):
        for f in sorted(files):
            path = os.path.join(dirpath, f)
            if f.endswith(".npy") and os.path.getsize(path) <= MAX_NPY:
                data = open(path, "rb").read()
                # One file per dtype/rank header is plenty.
                key = data[:128]
                if key not in seen:
                    seen.add(key)
                    put("npy", data)
    import io
    for a in (np.zeros((0,), "<f4"), np.arange(6, dtype="<i8").reshape(2, 3),
              np.ones((2, 2), "<f2"), np.arange(4, dtype=">f4"),
              np.asfortranarray(np.ones((2, 3), "<f4"))):
        buf = io.BytesIO()
        np.save(buf, a)
        put("npy", buf.getvalue())


def safetensors(header, data=b""):
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text + data


def safetensors_corpus():
    w = np.arange(6, dtype="<f4").tobytes()
    b = np.ones(2, "<f4").tobytes()
    put("safetensors", safetensors(
        {"dense.weight": {"dtype": "F32", "shape": [2, 3],
                          "data_offsets": [0, 24]},
         "dense.bias": {"dtype": "F32", "shape": [2],
                        "data_offsets": [24, 32]},
         "__metadata__": {"format": "pt"}}, w + b))
    for dtype, size in (("F16", 2), ("I32", 4), ("I64", 8), ("BF16", 2),
                        ("F64", 8), ("U8", 1)):
        put("safetensors", safetensors(
            {"t": {"dtype": dtype, "shape": [2], "data_offsets": [0, 2 * size]}},
            bytes(2 * size)))
    put("safetensors", safetensors({}))
    put("safetensors", safetensors(
        {"s": {"dtype": "F32", "shape": [], "data_offsets": [0, 4]}}, b[:4]))
    put("safetensors", safetensors(
        {"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
         "b": {"dtype": "F32", "shape": [2], "data_offsets": [4, 12]}},
        bytes(12)))
    put("safetensors", safetensors(
        {"z": {"dtype": "F32", "shape": [0, 3], "data_offsets": [0, 0]}}))
    put("safetensors", struct.pack("<Q", 1 << 40) + b"{}")


def idx(type_code, dims, data):
    return (b"\0\0" + bytes([type_code, len(dims)]) +
            b"".join(struct.pack(">I", d) for d in dims) + data)


def idx_corpus():
    put("idx", idx(0x08, [3, 4, 5], bytes(range(60))))
    put("idx", idx(0x08, [4], bytes([0, 9, 3, 1])))
    put("idx", idx(0x0D, [2, 2], np.arange(4, dtype=">f4").tobytes()))
    put("idx", idx(0x0C, [3], np.arange(3, dtype=">i4").tobytes()))
    put("idx", idx(0x0B, [2, 2, 2], np.arange(8, dtype=">i2").tobytes()))
    put("idx", idx(0x09, [2, 3], bytes(6)))
    put("idx", idx(0x0E, [1, 2], np.arange(2, dtype=">f8").tobytes()))
    put("idx", idx(0x08, [2, 40, 40], bytes(3200)))
    put("idx", idx(0x08, [2, 3, 4], bytes(10)))  # truncated
    put("idx", idx(0x08, [], b""))
    mnist = "/usr/share/datasets/fashion-mnist/t10k-images-idx3-ubyte.gz"
    if os.path.exists(mnist):
        with gzip.open(mnist) as f:
            head = f.read(16)
            put("idx", idx(0x08, [2, 28, 28], f.read(2 * 28 * 28)))


def checkpoint_corpus():
    """MindSpore .ckpt files, written by protobuf's own Python code from
    lib/Runtime/Formats/proto/checkpoint.proto (protoc at corpus time)."""
    import tempfile
    proto = os.path.join(ROOT, "lib", "Runtime", "Formats", "proto")
    with tempfile.TemporaryDirectory() as out:
        subprocess.run(["protoc", f"--python_out={out}", f"-I{proto}",
                        os.path.join(proto, "checkpoint.proto")], check=True)
        sys.path.insert(0, out)
        import checkpoint_pb2 as pb
        sys.path.remove(out)
    entries = [
        [("fc.weight", [2, 3], "Float32", np.arange(6, dtype="<f4")),
         ("fc.bias", [2], "Float32", np.ones(2, "<f4"))],
        [("m", [3], "Bool", np.array([1, 0, 1], np.uint8)),
         ("u", [2], "UInt8", np.array([0, 255], np.uint8)),
         ("s", [], "Int64", np.array(-5, "<i8"))],
        [("h", [2, 1], "Float16", np.ones((2, 1), "<f2")),
         ("old", [2], "Uint8", np.array([1, 2], np.uint8))],
    ]
    for file_entries in entries:
        c = pb.Checkpoint()
        for tag, dims, type_name, array in file_entries:
            v = c.value.add()
            v.tag = tag
            v.tensor.dims.extend(dims)
            v.tensor.tensor_type = type_name
            v.tensor.tensor_content = array.tobytes()
        put("checkpoint", c.SerializeToString())
    c = pb.Checkpoint()
    v = c.value.add()
    v.tag = "map"
    v.maptensor.tensor.add(tensor_type="Float32", tensor_content=b"")
    put("checkpoint", c.SerializeToString())
    put("checkpoint", safetensors(
        {"t": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}},
        bytes(4)))


def cache_entry(header, obj=b""):
    """A compile-cache entry (CompileCache.cpp's layout) whose checksum is
    left 0: ms-fuzz-cache-entry decodes each input also with it repaired."""
    text = json.dumps(header, separators=(",", ":")).encode()
    return (b"MSCACHE\x01" + struct.pack("<QQQ", len(text), len(obj), 0) +
            text + obj)


def cache_entry_corpus():
    """Entries for CacheEntryFuzzer.cpp's key and identity."""
    ident = {"key": "fuzz", "ms": "0.1.0", "llvm": "22", "cpu": "fuzzcpu",
             "features": "+avx2", "build": "fuzz-build", "entry": "construct"}

    def spec(dtype, shape, param="", packed="", in_place_of=-1):
        return {"dtype": dtype, "shape": shape, "param": param,
                "packed": packed, "in_place_of": in_place_of}
    x, w = spec("F32", [2, 3]), spec("F32", [4, 3], "fc.weight")
    put("cache-entry", cache_entry(
        dict(ident, args=[x, w], results=[spec("F32", [2, 4])],
             packed_copies=[], comm_buffers=[]), b"\x90" * 16))
    put("cache-entry", cache_entry(
        dict(ident, args=[spec("F32", [-1, 3]), w],
             results=[spec("F32", [-1, 4]), spec("F32", [4, 3],
                                                 in_place_of=1)],
             packed_copies=[{"arg": 1, "layout": "transpose"}],
             comm_buffers=[{"bucket": 0, "peer": True, "dtype": "F32",
                            "count": 10}])))
    put("cache-entry", cache_entry(dict(ident, args=[], results=[])))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ms-opt", help="ms-opt used to keep only inputs "
                        "that verify for the pipeline corpora")
    args = parser.parse_args()
    mlir_corpora(args.ms_opt)
    npy_corpus()
    safetensors_corpus()
    idx_corpus()
    cache_entry_corpus()
    checkpoint_corpus()


if __name__ == "__main__":
    sys.exit(main())
