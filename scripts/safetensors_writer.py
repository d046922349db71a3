"""A minimal safetensors writer for the scripts that make reference data.

Kept apart from the msmlir package on purpose: reference data must not be
written by the code it checks.
"""
import json
import struct

import numpy as np


def write_safetensors(path, tensors):
    """u64 header size, JSON header (padded to 8 bytes), raw f32 data."""
    header, offset, blobs = {}, 0, []
    for name, array in tensors.items():
        data = np.ascontiguousarray(array, dtype="<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(array.shape),
                        "data_offsets": [offset, offset + len(data)]}
        offset += len(data)
        blobs.append(data)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for blob in blobs:
            f.write(blob)
