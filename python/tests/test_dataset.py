"""msmlir.dataset: IDX files of every element type, plain and gzipped, every
error a bad file can give, and Fashion-MNIST (from small fake files here;
the installed dataset only where it is present)."""

import gzip
import os
import struct

import numpy as np
import pytest

import msmlir as ms
from msmlir import dataset

FASHION = "/usr/share/datasets/fashion-mnist"
needs_fashion_mnist = pytest.mark.skipif(
    not os.path.isdir(FASHION),
    reason=f"{FASHION} is absent (Debian's dataset-fashion-mnist)")

# IDX element type codes and the big-endian numpy types they hold, written
# here independently of msmlir.dataset.
CODES = {0x08: ">u1", 0x09: ">i1", 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4",
         0x0E: ">f8"}


def idx_bytes(array, code):
    array = np.asarray(array)
    header = struct.pack(">HBB", 0, code, array.ndim)
    header += struct.pack(f">{array.ndim}I", *array.shape)
    return header + array.astype(CODES[code]).tobytes()


def write(path, data, gz=False):
    path.write_bytes(gzip.compress(data) if gz else data)
    return str(path)


def sample(code, shape, seed=0):
    rng = np.random.default_rng(seed)
    dt = np.dtype(CODES[code])
    if dt.kind == "f":
        values = rng.normal(0, 1e3, size=shape)
        extremes = [-0.0, np.finfo(dt).max, np.finfo(dt).tiny]
    else:
        info = np.iinfo(dt)
        values = rng.integers(info.min, info.max, size=shape,
                              endpoint=True)
        extremes = [info.min, info.max, 0]
    for i, v in enumerate(extremes[:values.size]):
        values.flat[i] = v
    return values.astype(dt)


@pytest.mark.parametrize("gz", [False, True], ids=["plain", "gzip"])
@pytest.mark.parametrize("code", sorted(CODES), ids=[
    "u8", "i8", "i16", "i32", "f32", "f64"])
@pytest.mark.parametrize("shape", [(7,), (3, 5), (2, 3, 4), (0, 2, 2)])
def test_round_trip_of_every_dtype(tmp_path, code, gz, shape):
    expected = sample(code, shape)
    path = write(tmp_path / "data.bin", idx_bytes(expected, code), gz)
    got = dataset.read_idx(path)
    assert got.shape == shape
    assert got.dtype == expected.dtype.newbyteorder("=")
    assert got.dtype.isnative
    assert got.flags.writeable and got.flags.c_contiguous
    np.testing.assert_array_equal(got, expected)
    assert got.tobytes() == expected.astype(got.dtype).tobytes()  # -0.0 too


def test_gzip_is_detected_by_magic_not_name(tmp_path):
    values = np.arange(12, dtype=np.uint8).reshape(3, 4)
    data = idx_bytes(values, 0x08)
    compressed = write(tmp_path / "images-idx2-ubyte", data, gz=True)
    plain = write(tmp_path / "images-idx2-ubyte.gz", data, gz=False)
    for path in (compressed, plain):
        np.testing.assert_array_equal(dataset.read_idx(path), values)
    # Concatenated gzip members are one valid gzip file.
    both = tmp_path / "members.gz"
    both.write_bytes(gzip.compress(data[:9]) + gzip.compress(data[9:]))
    np.testing.assert_array_equal(dataset.read_idx(both), values)


def test_missing_file_and_directory(tmp_path):
    missing = str(tmp_path / "t10k-images-idx3-ubyte.gz")
    with pytest.raises(ValueError, match=f"^read_idx: {missing}: no such "
                                         "file$"):
        dataset.read_idx(missing)
    with pytest.raises(ValueError, match="is a directory"):
        dataset.read_idx(tmp_path)


def _error(path):
    with pytest.raises(ms.MSError) as info:
        dataset.read_idx(path)
    message = str(info.value)
    assert message.startswith(f"{path}: "), message
    return message[len(path) + 2:]


@pytest.mark.parametrize("gz", [False, True], ids=["plain", "gzip"])
def test_header_errors(tmp_path, gz):
    def bad(data):
        return _error(write(tmp_path / "bad", data, gz))

    assert bad(b"") == "too short for an IDX header (0 bytes)"
    assert bad(b"\x00\x00\x08") == "too short for an IDX header (3 bytes)"
    assert bad(b"garbage!") == ("not an IDX file (it does not start with two "
                                "zero bytes)")
    assert bad(b"\x00\x01\x08\x01" + bytes(8)) == (
        "not an IDX file (it does not start with two zero bytes)")
    assert bad(b"\x00\x00\x0A\x01" + bytes(8)) == (
        "unknown IDX element type 0x0A (expected 0x08, 0x09, 0x0B, 0x0C, "
        "0x0D or 0x0E)")
    assert bad(b"\x00\x00\x08\x00") == ("IDX rank is 0; expected at least "
                                        "one dimension")
    kind = "the decompressed file" if gz else "the file"
    assert bad(b"\x00\x00\x08\x03" + struct.pack(">2I", 10, 28)) == (
        f"truncated IDX header: rank 3 needs 16 bytes, {kind} has 12")


@pytest.mark.parametrize("gz", [False, True], ids=["plain", "gzip"])
def test_data_errors(tmp_path, gz):
    kind = "the decompressed file" if gz else "the file"
    header = b"\x00\x00\x08\x03" + struct.pack(">3I", 10000, 28, 28)
    path = write(tmp_path / "t10k-images-idx3-ubyte", header + bytes(1234),
                 gz)
    assert _error(path) == ("truncated: the header says 7840000 bytes of "
                            f"data, {kind} has 1234")
    values = np.arange(6, dtype=np.float32)
    path = write(tmp_path / "f32", idx_bytes(values, 0x0D) + b"junk!", gz)
    assert _error(path) == ("5 unexpected bytes after the data (the header "
                            "says 24)")
    path = write(tmp_path / "f32", idx_bytes(values, 0x0D)[:-1], gz)
    assert _error(path) == ("truncated: the header says 24 bytes of data, "
                            f"{kind} has 23")


def test_gzip_errors(tmp_path):
    rng = np.random.default_rng(0)
    values = rng.integers(0, 255, size=(50, 28, 28)).astype(np.uint8)
    compressed = gzip.compress(idx_bytes(values, 0x08))
    middle = len(compressed) // 2
    # Bytes flipped in the middle of the deflate data.
    flipped = bytearray(compressed)
    for i in range(middle, middle + 16):
        flipped[i] ^= 0xFF
    path = str(tmp_path / "flipped.gz")
    open(path, "wb").write(flipped)
    assert _error(path).startswith("corrupt gzip stream (")
    # A wrong CRC in the trailer: the data inflates but does not check out.
    bad_crc = bytearray(compressed)
    bad_crc[-8] ^= 0x01
    path = str(tmp_path / "crc.gz")
    open(path, "wb").write(bad_crc)
    assert _error(path).startswith("corrupt gzip stream (")
    # Cut in half, and cut inside the gzip header.
    for n, name in ((middle, "cut.gz"), (5, "header.gz")):
        path = str(tmp_path / name)
        open(path, "wb").write(compressed[:n])
        assert _error(path) == ("truncated gzip stream (the file ends "
                                "before the compressed data does)")
    path = str(tmp_path / "after.gz")
    open(path, "wb").write(compressed + b"trailing")
    assert _error(path) == "unexpected bytes after the gzip stream"


def fake_fashion(directory, n_train=6, n_test=4, size=28):
    """A Fashion-MNIST directory with small, recognizable data."""
    directory.mkdir(exist_ok=True)
    rng = np.random.default_rng(1)
    sets = {}
    for prefix, n in (("train", n_train), ("t10k", n_test)):
        images = rng.integers(0, 256, size=(n, size, size)).astype(np.uint8)
        labels = rng.integers(0, 10, size=n).astype(np.uint8)
        write(directory / f"{prefix}-images-idx3-ubyte.gz",
              idx_bytes(images, 0x08), gz=True)
        write(directory / f"{prefix}-labels-idx1-ubyte.gz",
              idx_bytes(labels, 0x08), gz=True)
        sets[prefix] = (images, labels)
    return sets


def test_load_fashion_mnist_from_a_directory(tmp_path):
    sets = fake_fashion(tmp_path / "fashion")
    d = str(tmp_path / "fashion")
    images, labels = dataset.load_fashion_mnist(dataset_dir=d)  # "test"
    assert images.dtype == np.uint8 and images.shape == (4, 28, 28)
    assert labels.dtype == np.int32 and labels.shape == (4,)
    np.testing.assert_array_equal(images, sets["t10k"][0])
    np.testing.assert_array_equal(labels, sets["t10k"][1])
    images, labels = dataset.load_fashion_mnist("train", d, num_samples=3)
    np.testing.assert_array_equal(images, sets["train"][0][:3])
    np.testing.assert_array_equal(labels, sets["train"][1][:3])
    images, labels = dataset.load_fashion_mnist("all", d, num_samples=100)
    assert images.shape == (10, 28, 28)
    np.testing.assert_array_equal(labels, np.concatenate(
        [sets["train"][1], sets["t10k"][1]]))


def test_load_fashion_mnist_errors(tmp_path):
    missing = str(tmp_path / "nowhere")
    with pytest.raises(ValueError, match=f"^load_fashion_mnist: {missing}: "
                                         "no such directory .*install "
                                         "Debian's dataset-fashion-mnist"):
        dataset.load_fashion_mnist(dataset_dir=missing)
    d = tmp_path / "fashion"
    fake_fashion(d)
    with pytest.raises(ValueError, match="usage must be 'train', 'test' or "
                                         "'all', got 'valid'"):
        dataset.load_fashion_mnist("valid", str(d))
    with pytest.raises(ValueError, match="num_samples must be a positive"):
        dataset.load_fashion_mnist("test", str(d), num_samples=0)
    # Labels of another set.
    (d / "t10k-labels-idx1-ubyte.gz").write_bytes(
        (d / "train-labels-idx1-ubyte.gz").read_bytes())
    with pytest.raises(ms.MSError, match="4 test images but 6 labels"):
        dataset.load_fashion_mnist("test", str(d))
    # Images as labels.
    (d / "t10k-labels-idx1-ubyte.gz").write_bytes(
        (d / "t10k-images-idx3-ubyte.gz").read_bytes())
    with pytest.raises(ms.MSError, match=r"t10k-labels-idx1-ubyte.gz: "
                                         r"expected uint8 labels \[N\], got "
                                         r"uint8 \[4, 28, 28\]"):
        dataset.load_fashion_mnist("test", str(d))
    os.remove(d / "t10k-images-idx3-ubyte.gz")
    with pytest.raises(ValueError, match="t10k-images-idx3-ubyte.gz: no such "
                                         "file"):
        dataset.load_fashion_mnist("test", str(d))


def test_lenet_input_is_the_training_preprocessing():
    rng = np.random.default_rng(2)
    images = rng.integers(0, 256, size=(3, 28, 28)).astype(np.uint8)
    images[0, 0, 0], images[0, 0, 1] = 255, 0
    x = dataset.lenet_input(images)
    assert x.dtype == np.float32 and x.shape == (3, 1, 32, 32)
    assert x.flags.c_contiguous
    # examples/lenet/train_torch.py: float32(pixel) / float32(255), then
    # two zero pixels on every side.
    expected = images.astype(np.float32) / np.float32(255)
    assert x[:, 0, 2:30, 2:30].tobytes() == expected.tobytes()
    border = np.ones((32, 32), bool)
    border[2:30, 2:30] = False
    assert not x[:, 0][:, border].any()
    assert x[0, 0, 2, 2] == 1.0
    with pytest.raises(ValueError, match=r"expected images \[N, H, W\]"):
        dataset.lenet_input(images[0])


@needs_fashion_mnist
def test_installed_fashion_mnist():
    images, labels = dataset.load_fashion_mnist()
    assert images.shape == (10000, 28, 28) and images.dtype == np.uint8
    assert labels.shape == (10000,) and labels.dtype == np.int32
    # The test set has 1000 images of each of the 10 classes.
    np.testing.assert_array_equal(np.bincount(labels), np.full(10, 1000))
    train, train_labels = dataset.load_fashion_mnist("train",
                                                     num_samples=100)
    assert train.shape == (100, 28, 28) and train_labels.shape == (100,)
    # The loader agrees with an independent read of the same file.
    with gzip.open(os.path.join(FASHION, "t10k-labels-idx1-ubyte.gz")) as f:
        raw = f.read()
    np.testing.assert_array_equal(labels, np.frombuffer(raw, np.uint8, -1, 8))


def test_empty_items_are_an_error_as_in_ms_run(tmp_path):
    # read_idx is the runtime's IDX reader (the one ms-run uses), which
    # rejects items with no elements.
    path = write(tmp_path / "empty", idx_bytes(np.zeros((4, 0, 2)), 0x08))
    assert _error(path) == "IDX dimension 1 is 0; items must not be empty"
