"""Runtime limits seen from Python: files and sizes that used to abort or
crash the interpreter raise instead (issue 18)."""

import json
import struct

import numpy as np
import pytest

import msmlir as ms
from msmlir import Tensor, ops


def _write_safetensors(path, header_bytes, data=b""):
    path.write_bytes(struct.pack("<Q", len(header_bytes)) + header_bytes +
                     data)
    return str(path)


def test_deeply_nested_checkpoint_header_raises(tmp_path):
    # 60,000 nested '[' overflowed the stack inside the JSON parser.
    path = _write_safetensors(tmp_path / "deep.safetensors",
                              b"[" * 60000 + b"]" * 60000)
    with pytest.raises(RuntimeError, match="deep.safetensors: JSON header "
                       "nests arrays or objects deeper than 64 levels"):
        ms.load_checkpoint(path)


def test_overlapping_checkpoint_entries_raise(tmp_path):
    header = json.dumps({
        "a": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]},
        "b": {"dtype": "F32", "shape": [4], "data_offsets": [8, 24]},
    }).encode()
    path = _write_safetensors(tmp_path / "overlap.safetensors", header,
                              bytes(24))
    with pytest.raises(RuntimeError, match=r"overlap.safetensors: tensors 'a' "
                       r"\(data_offsets \[0, 16\]\) and 'b' "
                       r"\(data_offsets \[8, 24\]\) overlap"):
        ms.load_checkpoint(path)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_result_too_large_for_the_machine_raises(mode):
    # Two 128 MiB inputs broadcast to a 4 PiB result; allocating it used to
    # abort the interpreter in HostTensor. It is now rejected when compiling.
    ms.set_context(mode=mode)
    a = Tensor(np.zeros((1 << 25, 1), np.float32))
    b = Tensor(np.zeros((1, 1 << 25), np.float32))
    with pytest.raises(RuntimeError, match=r"this op needs a "
                       r"tensor<33554432x33554432xf32> intermediate of "
                       r"4 PiB, more than") as info:
        ms.jit(ops.add)(a, b) if mode == ms.GRAPH_MODE else ops.add(a, b)
    assert "\n" not in str(info.value)
