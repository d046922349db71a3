"""msmlir.dataset's MindSpore API: sources, transforms (against numpy
references written here), batching, shuffling, sharding, repeat/take/skip,
iterators, errors, and MindSpore's Quick Start pipeline."""

import gzip
import os
import struct

import numpy as np
import pytest

import msmlir as ms
from msmlir import dataset as ds
from msmlir.dataset import transforms, vision

FASHION = "/usr/share/datasets/fashion-mnist"
needs_fashion_mnist = pytest.mark.skipif(
    not os.path.isdir(FASHION),
    reason=f"{FASHION} is absent (Debian's dataset-fashion-mnist)")


@pytest.fixture(autouse=True)
def fixed_seed():
    ds.config.set_seed(1234)
    yield
    ds.config._seed = None


def idx_bytes(array):
    array = np.asarray(array, dtype=np.uint8)
    header = struct.pack(">HBB", 0, 0x08, array.ndim)
    header += struct.pack(f">{array.ndim}I", *array.shape)
    return header + array.tobytes()


def make_mnist(root, n_train=10, n_test=4, size=6, gz=True, sep="-",
               seed=0):
    """A fake MNIST directory; returns (images, labels) per split."""
    rng = np.random.default_rng(seed)
    root.mkdir(exist_ok=True)
    splits = {}
    for prefix, n in (("train", n_train), ("t10k", n_test)):
        images = rng.integers(0, 256, size=(n, size, size), dtype=np.uint8)
        labels = rng.integers(0, 10, size=n, dtype=np.uint8)
        for kind, data, idx in (("images", images, "idx3"),
                                ("labels", labels, "idx1")):
            name = f"{prefix}-{kind}{sep}{idx}-ubyte" + (".gz" if gz else "")
            raw = idx_bytes(data)
            (root / name).write_bytes(gzip.compress(raw) if gz else raw)
        splits[prefix] = (images, labels)
    return splits


def rows(dataset, **kwargs):
    return list(dataset.create_tuple_iterator(output_numpy=True, **kwargs))


#===-------------------------------------------------------------------===#
# MNIST sources
#===-------------------------------------------------------------------===#

@pytest.mark.parametrize("gz,sep", [(True, "-"), (False, "-"), (True, "."),
                                    (False, ".")])
def test_mnist_rows_match_the_files(tmp_path, gz, sep):
    data = make_mnist(tmp_path / "mnist", gz=gz, sep=sep)
    for usage, parts in (("train", ["train"]), ("test", ["t10k"]),
                         (None, ["train", "t10k"])):
        got = rows(ds.MnistDataset(str(tmp_path / "mnist"), usage=usage,
                                   shuffle=False))
        images = np.concatenate([data[p][0] for p in parts])
        labels = np.concatenate([data[p][1] for p in parts])
        assert len(got) == len(images)
        for (image, label), want_image, want_label in zip(got, images,
                                                          labels):
            assert image.dtype == np.uint8 and image.shape == (6, 6, 1)
            assert label.dtype == np.uint32 and label.shape == ()
            np.testing.assert_array_equal(image[:, :, 0], want_image)
            assert label == want_label


def test_fashion_mnist_is_the_same_format(tmp_path):
    data = make_mnist(tmp_path / "f")
    got = rows(ds.FashionMnistDataset(tmp_path / "f", usage="test",
                                      shuffle=False))
    np.testing.assert_array_equal(np.stack([r[0][:, :, 0] for r in got]),
                                  data["t10k"][0])
    assert ds.FashionMnistDataset(tmp_path / "f").get_col_names() == [
        "image", "label"]


def test_shuffle_is_default_and_seeded(tmp_path):
    make_mnist(tmp_path / "m", n_train=50)

    def labels_in_order(**kwargs):
        d = ds.MnistDataset(tmp_path / "m", usage="train", **kwargs)
        return [int(r[1]) for r in rows(d.map(
            lambda l: np.uint32(0) + l, "label"))], \
            [r[0].tobytes() for r in rows(d)]

    plain = labels_in_order(shuffle=False)[1]
    ds.config.set_seed(7)
    first = labels_in_order()[1]
    again = labels_in_order()[1]
    ds.config.set_seed(8)
    other = labels_in_order()[1]
    assert first == again
    assert first != other
    assert first != plain
    assert sorted(first) == sorted(plain)


def test_shards_partition_the_rows(tmp_path):
    make_mnist(tmp_path / "m", n_train=10)
    path = tmp_path / "m"
    everything = [r[0].tobytes() for r in rows(
        ds.MnistDataset(path, usage="train", shuffle=False))]
    for shuffle in (False, True):
        seen = []
        for shard in range(3):
            d = ds.MnistDataset(path, usage="train", shuffle=shuffle,
                                num_shards=3, shard_id=shard)
            got = [r[0].tobytes() for r in rows(d)]
            assert len(got) == 4 == d.get_dataset_size()  # ceil(10 / 3)
            if not shuffle:  # Rows shard, shard + 3, ..., wrapping.
                assert got == [everything[(shard + 3 * j) % 10]
                               for j in range(4)]
            seen += got
        assert set(seen) == set(everything)


def test_num_samples_limits(tmp_path):
    make_mnist(tmp_path / "m", n_train=10)
    d = ds.MnistDataset(tmp_path / "m", usage="train", num_samples=3)
    assert d.get_dataset_size() == 3 and len(rows(d)) == 3
    d = ds.MnistDataset(tmp_path / "m", usage="train", num_samples=3,
                        num_shards=2, shard_id=1)
    assert d.get_dataset_size() == 3


def test_mnist_errors(tmp_path):
    with pytest.raises(ValueError, match="nowhere: no such directory"):
        ds.MnistDataset(str(tmp_path / "nowhere"))
    make_mnist(tmp_path / "m")
    with pytest.raises(ValueError, match="usage must be"):
        ds.MnistDataset(tmp_path / "m", usage="valid")
    with pytest.raises(ValueError, match="num_shards and shard_id"):
        ds.MnistDataset(tmp_path / "m", num_shards=2)
    with pytest.raises(ValueError, match=r"shard_id 2 is not in \[0, 2\)"):
        ds.MnistDataset(tmp_path / "m", num_shards=2, shard_id=2)
    with pytest.raises(ValueError, match="num_samples must be >= 1"):
        ds.MnistDataset(tmp_path / "m", num_samples=-1)
    with pytest.raises(TypeError, match="shuffle must be a bool"):
        ds.MnistDataset(tmp_path / "m", shuffle="yes")
    # A missing file names the directory and the names looked for.
    (tmp_path / "m" / "t10k-labels-idx1-ubyte.gz").unlink()
    ds.MnistDataset(tmp_path / "m", usage="train")  # Not needed: fine.
    with pytest.raises(ms.MSError, match="no t10k-labels file .*"
                       "t10k-labels-idx1-ubyte"):
        ds.MnistDataset(tmp_path / "m", usage="test")
    # 'all' (the default) reads the splits that are there, as MindSpore
    # does; a directory with neither says what it looked for.
    # Half a split (t10k images without labels) is still an error.
    with pytest.raises(ms.MSError, match="no t10k-labels file"):
        ds.MnistDataset(tmp_path / "m")
    (tmp_path / "m" / "t10k-images-idx3-ubyte.gz").unlink()
    assert ds.MnistDataset(tmp_path / "m").get_dataset_size() == 10
    for name in ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"):
        (tmp_path / "m" / name).unlink()
    with pytest.raises(ms.MSError, match="no MNIST files"):
        ds.MnistDataset(tmp_path / "m")
    make_mnist(tmp_path / "m")
    # A corrupt file names the file.
    bad = tmp_path / "m" / "train-images-idx3-ubyte.gz"
    bad.write_bytes(gzip.compress(b"\x00\x00\x08\x03" + bytes(5)))
    with pytest.raises(ms.MSError, match=f"^{bad}: truncated IDX header"):
        ds.MnistDataset(tmp_path / "m", usage="train")
    # Labels that do not match the images.
    make_mnist(tmp_path / "n")
    (tmp_path / "n" / "train-labels-idx1-ubyte.gz").write_bytes(
        gzip.compress(idx_bytes(np.zeros(3))))
    with pytest.raises(ms.MSError, match="3 labels for 10 images"):
        ds.MnistDataset(tmp_path / "n", usage="train")


#===-------------------------------------------------------------------===#
# Transforms against numpy
#===-------------------------------------------------------------------===#

RNG = np.random.default_rng(5)
IMAGE_U8 = RNG.integers(0, 256, size=(5, 7, 3), dtype=np.uint8)
IMAGE_F32 = RNG.normal(size=(5, 7, 3)).astype(np.float32)


def via_map(op, image, column="x"):
    """`op` applied inside a pipeline (the C++ map path)."""
    d = ds.NumpySlicesDataset({column: image[None]}, shuffle=False)
    (out,), = rows(d.map(op, column))
    return out


def test_rescale():
    for image in (IMAGE_U8, IMAGE_F32):
        want = image.astype(np.float32) * np.float32(1 / 255) + \
            np.float32(0.5)
        for got in (vision.Rescale(1 / 255, 0.5)(image),
                    via_map(vision.Rescale(1 / 255, 0.5), image)):
            assert got.dtype == np.float32
            np.testing.assert_array_equal(got, want)


def test_normalize():
    mean, std = [10.0, 20.0, 30.0], [2.0, 3.0, 4.0]
    want = (IMAGE_U8.astype(np.float32) - np.float32(mean)) / \
        np.float32(std)
    np.testing.assert_array_equal(vision.Normalize(mean, std)(IMAGE_U8),
                                  want)
    chw = np.ascontiguousarray(IMAGE_F32.transpose(2, 0, 1))
    want = (chw - np.float32(mean)[:, None, None]) / \
        np.float32(std)[:, None, None]
    got = via_map(vision.Normalize(mean, std, is_hwc=False), chw)
    np.testing.assert_array_equal(got, want)
    with pytest.raises(ms.MSError, match="Normalize: 2 mean/std values for "
                       "an image of 3 channels"):
        vision.Normalize([1, 2], [1, 1])(IMAGE_U8)
    with pytest.raises(ValueError, match="std values must be positive"):
        vision.Normalize([1], [0])


def test_rescale_then_normalize_on_uint8_equals_numpy_step_by_step():
    # The map runs this pair as a 256-entry table; it must equal the ops
    # applied one after the other.
    image = np.arange(256, dtype=np.uint8).reshape(16, 16, 1)
    ops = [vision.Rescale(1.0 / 255.0, 0),
           vision.Normalize(mean=(0.1307,), std=(0.3081,))]
    step = image.astype(np.float32) * np.float32(1.0 / 255.0) + \
        np.float32(0)
    want = (step - np.float32(0.1307)) / np.float32(0.3081)
    np.testing.assert_array_equal(via_map(ops, image), want)
    np.testing.assert_array_equal(transforms.Compose(ops)(image), want)


def test_hwc2chw():
    for image in (IMAGE_U8, IMAGE_F32, IMAGE_U8[:, :, :1]):
        want = image.transpose(2, 0, 1)
        got = via_map(vision.HWC2CHW(), image)
        assert got.dtype == image.dtype
        np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(vision.HWC2CHW()(IMAGE_U8[:, :, 0]),
                                  IMAGE_U8[:, :, 0])
    with pytest.raises(ms.MSError, match=r"HWC2CHW: expected an image"):
        vision.HWC2CHW()(np.zeros((2, 2, 2, 2)))


def resize_reference(image, oh, ow, nearest=False):
    """OpenCV's INTER_LINEAR / INTER_NEAREST mapping in float64."""
    h, w = image.shape[:2]
    x = image.astype(np.float64)
    if nearest:
        ys = np.minimum(h - 1, (np.arange(oh) * h) // oh)
        xs = np.minimum(w - 1, (np.arange(ow) * w) // ow)
        return x[ys][:, xs]

    def taps(n_out, n_in):
        s = (np.arange(n_out) + 0.5) * n_in / n_out - 0.5
        i0 = np.floor(s).astype(int)
        f = s - i0
        f[i0 < 0] = 0
        i0[i0 < 0] = 0
        f[i0 >= n_in - 1] = 0
        i0[i0 >= n_in - 1] = n_in - 1
        return i0, np.minimum(i0 + 1, n_in - 1), f

    y0, y1, fy = taps(oh, h)
    x0, x1, fx = taps(ow, w)
    fx = fx[None, :, None] if x.ndim == 3 else fx[None, :]
    fy = fy[:, None, None] if x.ndim == 3 else fy[:, None]
    top = x[y0][:, x0] * (1 - fx) + x[y0][:, x1] * fx
    bottom = x[y1][:, x0] * (1 - fx) + x[y1][:, x1] * fx
    return top * (1 - fy) + bottom * fy


@pytest.mark.parametrize("nearest", [False, True])
def test_resize(nearest):
    inter = vision.Inter.NEAREST if nearest else vision.Inter.LINEAR
    for size, (oh, ow) in (((9, 4), (9, 4)), ((3, 11), (3, 11)),
                           (10, (10, 14))):  # int: shorter side, 5x7 -> 10x14
        want = resize_reference(IMAGE_F32, oh, ow, nearest)
        got = via_map(vision.Resize(size, inter), IMAGE_F32)
        assert got.dtype == np.float32 and got.shape == (oh, ow, 3)
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
        got = vision.Resize(size, inter)(IMAGE_U8)
        want = np.clip(np.rint(resize_reference(IMAGE_U8, oh, ow, nearest)),
                       0, 255)
        assert got.dtype == np.uint8
        assert np.abs(got.astype(int) - want).max() <= (0 if nearest else 1)
    got = vision.Resize((4, 4))(IMAGE_U8[:, :, 0])
    assert got.shape == (4, 4)
    with pytest.raises(ms.MSError, match="Resize: supports uint8 and float32"):
        vision.Resize(3)(IMAGE_U8.astype(np.int32))
    with pytest.raises(ValueError, match="Resize: size must be positive"):
        vision.Resize(0)


def test_random_crop_is_a_window_of_the_padded_image():
    image = IMAGE_U8
    padded = np.pad(image, ((1, 3), (2, 4), (0, 0)), constant_values=9)
    windows = {padded[y:y + 4, x:x + 5].tobytes()
               for y in range(padded.shape[0] - 3)
               for x in range(padded.shape[1] - 4)}
    op = vision.RandomCrop((4, 5), padding=(2, 1, 4, 3), fill_value=9)
    many = ds.NumpySlicesDataset({"x": np.stack([image] * 20)},
                                 shuffle=False).map(op, "x")
    got = [r[0] for r in rows(many)]
    assert all(g.shape == (4, 5, 3) and g.tobytes() in windows for g in got)
    assert len({g.tobytes() for g in got}) > 1  # It does move.
    # The same seed, the same crops; another seed, others.
    ds.config.set_seed(3)
    first = [r[0].tobytes() for r in rows(many)]
    ds.config.set_seed(3)
    assert first == [r[0].tobytes() for r in rows(many)]
    ds.config.set_seed(4)
    assert first != [r[0].tobytes() for r in rows(many)]
    np.testing.assert_array_equal(vision.RandomCrop((5, 7))(image), image)
    with pytest.raises(ms.MSError, match=r"RandomCrop: crop size \[6, 7\] is "
                       r"larger than the image \[5, 7\]"):
        vision.RandomCrop((6, 7))(image)
    got = vision.RandomCrop((6, 9), pad_if_needed=True)(image)
    assert got.shape == (6, 9, 3)


def test_random_horizontal_flip():
    np.testing.assert_array_equal(
        vision.RandomHorizontalFlip(1.0)(IMAGE_U8), IMAGE_U8[:, ::-1])
    np.testing.assert_array_equal(
        vision.RandomHorizontalFlip(0.0)(IMAGE_U8), IMAGE_U8)
    d = ds.NumpySlicesDataset({"x": np.stack([IMAGE_U8] * 64)},
                              shuffle=False)
    flips = [np.array_equal(r[0], IMAGE_U8[:, ::-1])
             for r in rows(d.map(vision.RandomHorizontalFlip(), "x"))]
    assert 10 < sum(flips) < 54  # About half, for this seed.
    with pytest.raises(ValueError, match=r"prob must be in \[0, 1\]"):
        vision.RandomHorizontalFlip(2)


def test_type_cast():
    values = np.array([-1.7, 0.2, 3.9, 250.0], dtype=np.float32)
    for dtype in (ms.int32, np.int64, "uint8", np.float16, ms.float32):
        got = transforms.TypeCast(dtype)(values)
        want = values.astype(getattr(dtype, "np", dtype)) \
            if dtype != "uint8" else values[1:].astype(np.uint8)
        if dtype == "uint8":
            got = got[1:]  # Negative to unsigned is undefined.
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
    with pytest.raises(TypeError, match="not a data type"):
        transforms.TypeCast("nonsense")


def test_one_hot():
    labels = np.array([0, 3, 1], dtype=np.int32)
    np.testing.assert_array_equal(transforms.OneHot(4)(labels),
                                  np.eye(4, dtype=np.int32)[labels])
    got = transforms.OneHot(4, smoothing_rate=0.2)(np.uint32(2))
    want = np.full(4, np.float32(0.2 / 4))
    want[2] = np.float32(0.8) + np.float32(0.05)
    np.testing.assert_allclose(got, want, rtol=1e-6)
    with pytest.raises(ms.MSError, match=r"OneHot: label 4 is outside "
                       r"\[0, 4\)"):
        transforms.OneHot(4)(np.array([4]))
    with pytest.raises(ms.MSError, match="expected integer class labels"):
        transforms.OneHot(4)(np.float32(1))


#===-------------------------------------------------------------------===#
# Pipeline operations
#===-------------------------------------------------------------------===#

def numbers(n):
    return ds.NumpySlicesDataset({"x": np.arange(n, dtype=np.int64)},
                                 shuffle=False)


def values(dataset):
    return [r[0].tolist() for r in rows(dataset)]


def test_batch():
    assert values(numbers(7).batch(3)) == [[0, 1, 2], [3, 4, 5], [6]]
    assert values(numbers(7).batch(3, drop_remainder=True)) == [
        [0, 1, 2], [3, 4, 5]]
    assert numbers(7).batch(3).get_dataset_size() == 3
    assert numbers(7).batch(3, True).get_dataset_size() == 2
    ragged = ds.GeneratorDataset(lambda: (np.zeros(i) for i in (1, 2)),
                                 ["x"])
    with pytest.raises(ms.MSError, match=r"batch: column 'x' has rows of "
                       r"different types or shapes \(float64\[1\] and "
                       r"float64\[2\]\)"):
        rows(ragged.batch(2))
    with pytest.raises(ValueError, match="batch_size must be positive"):
        numbers(3).batch(0)


def test_shuffle_buffer_is_seeded():
    ds.config.set_seed(11)
    first = values(numbers(30).shuffle(8))
    second = values(numbers(30).shuffle(8))
    ds.config.set_seed(12)
    other = values(numbers(30).shuffle(8))
    assert first == second != other
    assert sorted(first) == list(range(30)) and first != list(range(30))
    with pytest.raises(ValueError, match="buffer_size must be at least 2"):
        numbers(3).shuffle(1)


def test_global_set_seed_seeds_the_dataset():
    ds.config._seed = None
    ms.set_seed(5)
    first = values(numbers(20).shuffle(20))
    ms.set_seed(5)
    assert values(numbers(20).shuffle(20)) == first
    assert ds.config.get_seed() == 5


def test_repeat_take_skip():
    assert values(numbers(3).repeat(2)) == [0, 1, 2, 0, 1, 2]
    assert numbers(3).repeat(2).get_dataset_size() == 6
    assert values(numbers(5).take(2)) == [0, 1]
    assert values(numbers(5).skip(2)) == [2, 3, 4]
    assert numbers(5).skip(7).get_dataset_size() == 0
    assert values(numbers(5).skip(1).take(3).repeat(2)) == [1, 2, 3] * 2
    assert values(numbers(5).batch(2).repeat(2)) == [[0, 1], [2, 3], [4]] * 2
    forever = numbers(2).repeat()
    it = forever.create_tuple_iterator(output_numpy=True)
    assert [int(next(it)[0]) for _ in range(5)] == [0, 1, 0, 1, 0]
    # A shuffle repeated reshuffles on each pass.
    passes = values(numbers(20).shuffle(20).repeat(2))
    assert passes[:20] != passes[20:]


def columns(n, **offsets):
    """n rows of columns named by `offsets`: column k holds i + offset."""
    return ds.NumpySlicesDataset(
        {name: np.arange(n, dtype=np.int64) + off
         for name, off in offsets.items()}, shuffle=False)


def table(dataset):
    return [[int(v) for v in row] for row in rows(dataset)]


def test_project_and_rename():
    data = columns(2, a=0, b=10, c=20)
    assert data.project(["c", "a"]).get_col_names() == ["c", "a"]
    assert table(data.project(["c", "a"])) == [[20, 0], [21, 1]]
    assert table(data.project("b")) == [[10], [11]]
    renamed = data.rename(["a", "c"], ["x", "z"])
    assert renamed.get_col_names() == ["x", "b", "z"]
    assert table(renamed) == table(data)
    assert data.rename("a", "y").get_col_names() == ["y", "b", "c"]


def test_zip_and_concat():
    left, right = columns(3, a=0), columns(2, b=100)
    zipped = left.zip(right)
    assert zipped.get_col_names() == ["a", "b"]
    assert table(zipped) == [[0, 100], [1, 101]]
    assert zipped.get_dataset_size() == 2
    assert table(ds.zip((left, right, columns(5, c=7)))) == [
        [0, 100, 7], [1, 101, 8]]
    joined = left.concat(columns(2, a=50))
    assert values(joined) == [0, 1, 2, 50, 51]
    assert joined.get_dataset_size() == 5
    assert values(left + columns(1, a=9) + columns(1, a=8)) == [0, 1, 2, 9, 8]
    assert values(left.concat([columns(1, a=9), columns(1, a=8)])) == [
        0, 1, 2, 9, 8]
    # Each epoch runs every part again; batches may span the parts.
    assert values(joined.batch(2).repeat(2)) == [[0, 1], [2, 50], [51]] * 2


@pytest.mark.parametrize("make, message", [
    (lambda: columns(1, a=0).project(["z"]),
     "project: column 'z' is not in the dataset \\(columns: 'a'\\)"),
    (lambda: columns(1, a=0, b=0).rename(["a", "b"], ["c"]),
     "rename: input_columns has 2 names, output_columns 1"),
    (lambda: columns(1, a=0, b=0).rename("a", "b"),
     "rename: column 'b' appears twice"),
    (lambda: columns(1, a=0).zip(columns(1, a=0)),
     "zip: column 'a' appears twice"),
    (lambda: columns(1, a=0).concat(columns(1, b=0)),
     "concat: dataset 1 has columns 'b', the first has 'a'"),
])
def test_column_errors_name_the_columns(make, message):
    with pytest.raises(ms.MSError, match=message):
        make().get_col_names()


def test_combining_needs_datasets():
    with pytest.raises(TypeError, match="zip: datasets must be a Dataset"):
        columns(1, a=0).zip([1])
    with pytest.raises(TypeError, match="concat: datasets must be a Dataset"):
        columns(1, a=0).concat(3)
    with pytest.raises(TypeError, match="project: columns must be a str"):
        columns(1, a=0).project(3)


#===-------------------------------------------------------------------===#
# Python sources and operations
#===-------------------------------------------------------------------===#

class RandomAccess:
    def __init__(self, n):
        self.n = n

    def __getitem__(self, i):
        return np.array([i], np.int32), np.array(i * 10, np.int64)

    def __len__(self):
        return self.n


def test_generator_sources():
    d = ds.GeneratorDataset(RandomAccess(6), ["a", "b"], shuffle=False)
    assert [(int(a[0]), int(b)) for a, b in rows(d)] == [
        (i, i * 10) for i in range(6)]
    assert d.get_dataset_size() == 6
    shuffled = ds.GeneratorDataset(RandomAccess(6), ["a", "b"])
    assert sorted(int(a[0]) for a, _ in rows(shuffled)) == list(range(6))
    shard = ds.GeneratorDataset(RandomAccess(6), ["a", "b"], shuffle=False,
                                num_shards=2, shard_id=1)
    assert [int(a[0]) for a, _ in rows(shard)] == [1, 3, 5]

    def gen():
        for i in range(4):
            yield (np.float32(i),)

    d = ds.GeneratorDataset(gen, "x")
    assert values(d) == [0.0, 1.0, 2.0, 3.0]
    assert values(d) == [0.0, 1.0, 2.0, 3.0]  # Restarts per iterator.
    assert d.get_dataset_size() == 4
    d = ds.GeneratorDataset([(1,), (2,), (3,)], ["x"], num_samples=2,
                            shuffle=False)
    assert values(d) == [1, 2]
    with pytest.raises(ValueError, match="shuffle needs a random-access"):
        ds.GeneratorDataset(gen, ["x"], shuffle=True)
    with pytest.raises(ValueError, match="column_names is required"):
        ds.GeneratorDataset(gen)


def test_python_errors_come_back_unchanged():
    class Broken(RandomAccess):
        def __getitem__(self, i):
            if i == 2:
                raise KeyError("row two is missing")
            return super().__getitem__(i)

    with pytest.raises(KeyError, match="row two is missing"):
        rows(ds.GeneratorDataset(Broken(4), ["a", "b"], shuffle=False))

    def fail(x):
        raise ZeroDivisionError("in the map")

    with pytest.raises(ZeroDivisionError, match="in the map"):
        rows(numbers(3).map(fail, "x"))
    with pytest.raises(ValueError, match="gave 1 columns, but column_names "
                       "names 2"):
        rows(ds.GeneratorDataset([(1,)], ["a", "b"]))


def test_python_and_cpp_operations_mix():
    d = ds.NumpySlicesDataset({"img": np.stack([IMAGE_U8] * 3),
                               "y": np.arange(3)}, shuffle=False)
    d = d.map([vision.Rescale(2.0, 0), lambda x: x + 1,
               vision.HWC2CHW()], "img")
    d = d.map(lambda y: (y, y * 2), "y", ["y", "y2"])
    assert d.get_col_names() == ["img", "y", "y2"]
    for i, (img, y, y2) in enumerate(rows(d)):
        want = (IMAGE_U8.astype(np.float32) * 2 + 1).transpose(2, 0, 1)
        np.testing.assert_array_equal(img, want)
        assert (int(y), int(y2)) == (i, 2 * i)
    with pytest.raises(ms.MSError, match="map: input column 'nope' is not in"
                       " the dataset"):
        numbers(2).map(vision.HWC2CHW(), "nope").get_col_names()


def test_numpy_slices():
    d = ds.NumpySlicesDataset(([1, 2], [[3, 4], [5, 6]]), shuffle=False)
    assert d.get_col_names() == ["column_0", "column_1"]
    assert [(int(a), b.tolist()) for a, b in rows(d)] == [
        (1, [3, 4]), (2, [5, 6])]
    d = ds.NumpySlicesDataset([1.5, 2.5], column_names=["v"], shuffle=False)
    assert values(d) == [1.5, 2.5]
    with pytest.raises(ValueError, match="has 3 rows, the first column 2"):
        ds.NumpySlicesDataset(([1, 2], [1, 2, 3]))


#===-------------------------------------------------------------------===#
# Iterators
#===-------------------------------------------------------------------===#

def test_iterators_yield_tensors_and_epochs():
    d = numbers(4).batch(2)
    batches = list(d)
    assert all(isinstance(b[0], ms.Tensor) for b in batches)
    assert [b[0].asnumpy().tolist() for b in batches] == [[0, 1], [2, 3]]
    it = d.create_dict_iterator(num_epochs=2, output_numpy=True)
    first = [r["x"].tolist() for r in it]
    second = [r["x"].tolist() for r in it]
    assert first == second == [[0, 1], [2, 3]]
    assert list(it) == []  # Two epochs only.
    d = ds.NumpySlicesDataset({"a": [1, 2], "b": [3, 4]}, shuffle=False)
    assert [r[0].tolist() for r in d.create_tuple_iterator(
        columns=["b"], output_numpy=True)] == [3, 4]


def test_an_error_in_the_prefetch_thread_reaches_the_consumer(tmp_path):
    make_mnist(tmp_path / "m")
    d = ds.MnistDataset(tmp_path / "m", usage="train", shuffle=False)
    bad = d.map(vision.Normalize([1, 2, 3], [1, 1, 1]), "image").batch(2)
    it = bad.create_tuple_iterator()
    with pytest.raises(ms.MSError, match="map: Normalize: 3 mean/std values "
                       r"for an image of 1 channels .*\(column 'image'\)"):
        next(it)
    with pytest.raises(StopIteration):
        next(it)  # Stopped, not hung.


def test_dropping_an_iterator_early_stops_its_thread(tmp_path):
    make_mnist(tmp_path / "m", n_train=200)
    d = ds.MnistDataset(tmp_path / "m", usage="train").repeat()
    for _ in range(20):
        it = d.create_tuple_iterator(output_numpy=True)
        next(it)
        del it  # Must join the worker, which is blocked on a full queue.
    it = d.create_tuple_iterator()
    next(it)
    it.stop()


#===-------------------------------------------------------------------===#
# MindSpore's Quick Start
#===-------------------------------------------------------------------===#

def quick_start(dataset):
    image_transforms = [
        vision.Rescale(1.0 / 255.0, 0),
        vision.Normalize(mean=(0.1307,), std=(0.3081,)),
        vision.HWC2CHW()
    ]
    label_transform = transforms.TypeCast(ms.int32)
    dataset = dataset.map(image_transforms, 'image')
    dataset = dataset.map(label_transform, 'label')
    dataset = dataset.batch(64)
    return dataset


@needs_fashion_mnist
def test_quick_start_pipeline():
    train = quick_start(ds.FashionMnistDataset(FASHION, usage="train",
                                               shuffle=False))
    assert train.get_dataset_size() == 938
    images, labels = ds.load_fashion_mnist("train")
    x = images.astype(np.float32)[:, None] * np.float32(1.0 / 255.0) + \
        np.float32(0)
    x = (x - np.float32(0.1307)) / np.float32(0.3081)
    count = 0
    for i, (image, label) in enumerate(train):
        assert isinstance(image, ms.Tensor) and image.dtype == ms.float32
        assert label.dtype == ms.int32
        np.testing.assert_array_equal(image.asnumpy(),
                                      x[64 * i:64 * (i + 1)])
        np.testing.assert_array_equal(label.asnumpy(),
                                      labels[64 * i:64 * (i + 1)])
        count += image.shape[0]
    assert count == 60000
    # Shuffled by default: every label once per epoch, in another order.
    shuffled = quick_start(ds.FashionMnistDataset(FASHION, usage="train"))
    got = np.concatenate([l for _, l in shuffled.create_tuple_iterator(
        output_numpy=True, num_epochs=1)])
    assert not np.array_equal(got, labels)
    np.testing.assert_array_equal(np.bincount(got), np.bincount(labels))
