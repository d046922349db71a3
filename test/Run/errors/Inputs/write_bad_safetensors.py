"""write_bad_safetensors.py KIND PATH: writes a malformed .safetensors file.

nested:  a header of 60,000 nested '[' (deep enough to overflow the stack of
         a recursive JSON parser).
overlap: two tensors whose data_offsets share bytes.
"""
import json
import struct
import sys

kind, path = sys.argv[1], sys.argv[2]
if kind == "nested":
    header = b"[" * 60000 + b"]" * 60000
    data = b""
elif kind == "overlap":
    header = json.dumps({
        "dense_relu_sequential.0.bias": {
            "dtype": "F32", "shape": [4], "data_offsets": [0, 16]},
        "dense_relu_sequential.2.bias": {
            "dtype": "F32", "shape": [4], "data_offsets": [8, 24]},
    }).encode()
    data = bytes(24)
else:
    sys.exit("unknown kind " + kind)
with open(path, "wb") as f:
    f.write(struct.pack("<Q", len(header)) + header + data)
