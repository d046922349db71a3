"""Datasets and iterators (``mindspore.dataset``).

Each Dataset object describes a pipeline; each iterator builds a fresh
chain of C++ nodes from it (include/ms/Data/Pipeline.h), so iterators are
independent. Sources decode their files once, when the Dataset is made.
Pipelines without Python code run on a background thread that prefetches
rows; pipelines with a Python source or a Python map operation run on the
consumer's thread, calling Python where needed.
"""

import numbers
import os
import random

import numpy as np

from .._msmlir import HostTensor as _HostTensor
from .._msmlir import data as _data
from .. import _trace
from .._tensor import Tensor as _Tensor
from .._tensor import wrap as _wrap
from . import config
from ._ops import CppTransform
from .transforms import Compose

__all__ = ["Dataset", "MnistDataset", "FashionMnistDataset",
           "GeneratorDataset", "NumpySlicesDataset"]

_NO_LIMIT = -1


def _check_optional_int(op, name, value, low):
    if value is None:
        return None
    if not isinstance(value, numbers.Integral) or isinstance(value, bool):
        raise TypeError(f"{op}: {name} must be an int or None, got "
                        f"{type(value).__name__}")
    if value < low:
        raise ValueError(f"{op}: {name} must be >= {low}, got {value}")
    return int(value)


def _check_shards(op, num_shards, shard_id):
    num_shards = _check_optional_int(op, "num_shards", num_shards, 1)
    shard_id = _check_optional_int(op, "shard_id", shard_id, 0)
    if (num_shards is None) != (shard_id is None):
        raise ValueError(f"{op}: num_shards and shard_id must be given "
                         "together")
    if num_shards is None:
        return 1, 0
    if shard_id >= num_shards:
        raise ValueError(f"{op}: shard_id {shard_id} is not in [0, "
                         f"{num_shards})")
    return num_shards, shard_id


def _check_sampler(op, sampler):
    if sampler is not None:
        raise ValueError(f"{op}: sampler is not supported by msmlir; use "
                         "shuffle, num_samples and num_shards/shard_id")


def _check_shuffle(op, shuffle):
    if shuffle is not None and not isinstance(shuffle, bool):
        raise TypeError(f"{op}: shuffle must be a bool or None, got "
                        f"{type(shuffle).__name__}")


def _column_list(op, name, value):
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if not isinstance(value, (list, tuple)) or not all(
            isinstance(v, str) for v in value):
        raise TypeError(f"{op}: {name} must be a str or a list of str, got "
                        f"{value!r}")
    return list(value)


class _Seeds:
    """Gives each random node of one pipeline its own seed."""

    def __init__(self):
        self._rng = random.Random(config._pipeline_seed())

    def next(self):
        return self._rng.getrandbits(63)


class Dataset:
    """A pipeline stage. Methods return new Datasets; nothing runs until
    it is iterated."""

    def __init__(self, parent=None):
        self._parent = parent

    # Subclasses: the C++ node of this stage, given the built parent.
    def _node(self, parent, seeds):
        raise NotImplementedError

    def _set_sampling(self, op, num_samples, shuffle, sampler, num_shards,
                      shard_id):
        """A source's checked sampling arguments (MindSpore's: shuffle None
        means True)."""
        self._num_samples = _check_optional_int(op, "num_samples",
                                                num_samples, 1)
        _check_shuffle(op, shuffle)
        _check_sampler(op, sampler)
        self._shards = _check_shards(op, num_shards, shard_id)
        self._shuffle = True if shuffle is None else shuffle

    def _build(self, seeds=None):
        seeds = seeds or _Seeds()
        parent = self._parent._build(seeds) if self._parent else None
        return self._node(parent, seeds)

    # Pipeline operations -------------------------------------------------

    def map(self, operations, input_columns=None, output_columns=None,
            num_parallel_workers=None, **kwargs):
        """Applies ``operations`` (a transform, a callable, or a list of
        them) to ``input_columns`` (default: the first column); the results
        replace them, named ``output_columns`` (default: the input names)."""
        return _MapDataset(self, operations, input_columns, output_columns)

    def batch(self, batch_size, drop_remainder=False,
              num_parallel_workers=None, **kwargs):
        """Stacks ``batch_size`` rows into one; a last short batch is kept
        unless ``drop_remainder``."""
        if kwargs.get("per_batch_map") is not None:
            raise ValueError("batch: per_batch_map is not supported by "
                             "msmlir")
        if not isinstance(batch_size, numbers.Integral) or \
                isinstance(batch_size, bool):
            raise TypeError(f"batch: batch_size must be an int, got "
                            f"{type(batch_size).__name__}")
        if batch_size <= 0:
            raise ValueError(f"batch: batch_size must be positive, got "
                             f"{batch_size}")
        if not isinstance(drop_remainder, bool):
            raise TypeError("batch: drop_remainder must be a bool")
        return _Stage(self, "batch", int(batch_size), drop_remainder)

    def shuffle(self, buffer_size):
        """Shuffles through a buffer of ``buffer_size`` rows (seeded by
        dataset.config.set_seed)."""
        if not isinstance(buffer_size, numbers.Integral) or \
                isinstance(buffer_size, bool):
            raise TypeError(f"shuffle: buffer_size must be an int, got "
                            f"{type(buffer_size).__name__}")
        if buffer_size < 2:
            raise ValueError(f"shuffle: buffer_size must be at least 2, got "
                             f"{buffer_size}")
        return _Stage(self, "shuffle", int(buffer_size))

    def repeat(self, count=None):
        """The dataset ``count`` times (None or -1: forever)."""
        if count is None or count == -1:
            count = -1
        elif not isinstance(count, numbers.Integral) or \
                isinstance(count, bool) or count <= 0:
            raise ValueError(f"repeat: count must be a positive int, -1 or "
                             f"None, got {count!r}")
        return _Stage(self, "repeat", int(count))

    def take(self, count=-1):
        """The first ``count`` rows (-1: all)."""
        if not isinstance(count, numbers.Integral) or isinstance(count, bool) \
                or (count <= 0 and count != -1):
            raise ValueError(f"take: count must be a positive int or -1, got "
                             f"{count!r}")
        return self if count == -1 else _Stage(self, "take", int(count))

    def skip(self, count):
        """All rows but the first ``count``."""
        if not isinstance(count, numbers.Integral) or isinstance(count, bool) \
                or count < 0:
            raise ValueError(f"skip: count must be a non-negative int, got "
                             f"{count!r}")
        return _Stage(self, "skip", int(count))

    def project(self, columns):
        """Only ``columns`` (a name or a list of names), in that order."""
        return _Stage(self, "project",
                      _column_list("project", "columns", columns))

    def rename(self, input_columns, output_columns):
        """The columns ``input_columns`` named ``output_columns`` (a name or
        a list each, paired in order)."""
        return _Stage(self, "rename",
                      _column_list("rename", "input_columns", input_columns),
                      _column_list("rename", "output_columns",
                                   output_columns))

    def zip(self, datasets):
        """Rows of this dataset and ``datasets`` (one, or a tuple) side by
        side; an epoch ends with the shortest. Column names must differ."""
        return _Combined("zip", [self] + _dataset_list("zip", datasets))

    def concat(self, datasets):
        """This dataset's rows, then each of ``datasets``' (one, or a
        list), which must have the same columns; also ``a + b``."""
        return _Combined("concat",
                         [self] + _dataset_list("concat", datasets))

    def __add__(self, other):
        return self.concat(other)

    # Inspection ----------------------------------------------------------

    def get_dataset_size(self):
        """Rows (batches, after batch) per epoch."""
        node = self._build()
        size = node.size()
        if size >= 0:
            return size
        # An iterable Python source: only iterating tells.
        iterator = _data.Iterator(node, 1, False, 1)
        count = 0
        while iterator.next() is not None:
            count += 1
        return count

    def get_col_names(self):
        return list(self._build().columns)

    def output_shapes(self):
        row = next(self.create_tuple_iterator(num_epochs=1,
                                              output_numpy=True))
        return [list(a.shape) for a in row]

    def output_types(self):
        row = next(self.create_tuple_iterator(num_epochs=1,
                                              output_numpy=True))
        return [a.dtype for a in row]

    # Iteration -----------------------------------------------------------

    def create_tuple_iterator(self, columns=None, num_epochs=-1,
                              output_numpy=False, do_copy=True):
        """An iterator of lists of Tensors (numpy arrays if
        ``output_numpy``), one per column. Iterating it gives one epoch;
        iterating it again gives the next, up to ``num_epochs`` (-1: no
        limit)."""
        return TupleIterator(self, columns, num_epochs, output_numpy)

    def create_dict_iterator(self, num_epochs=-1, output_numpy=False,
                             do_copy=True):
        """Like create_tuple_iterator, with dicts {column name: value}."""
        return DictIterator(self, None, num_epochs, output_numpy)

    def __iter__(self):
        return self.create_tuple_iterator(num_epochs=1)


class _Stage(Dataset):
    def __init__(self, parent, kind, *args):
        super().__init__(parent)
        self._kind = kind
        self._args = args

    def _node(self, parent, seeds):
        if self._kind == "shuffle":
            return _data.shuffle(parent, self._args[0], seeds.next())
        return getattr(_data, self._kind)(parent, *self._args)


def _dataset_list(op, datasets):
    if isinstance(datasets, Dataset):
        return [datasets]
    if isinstance(datasets, (list, tuple)) and datasets and all(
            isinstance(d, Dataset) for d in datasets):
        return list(datasets)
    raise TypeError(f"{op}: datasets must be a Dataset or a non-empty "
                    f"list or tuple of Datasets, got {datasets!r}")


class _Combined(Dataset):
    """zip or concat of several pipelines (each built with the same
    seeds, one after the other)."""

    def __init__(self, kind, datasets):
        super().__init__(None)
        self._kind = kind
        self._datasets = datasets

    def _build(self, seeds=None):
        seeds = seeds or _Seeds()
        return getattr(_data, self._kind)(
            [d._build(seeds) for d in self._datasets])


def zip_datasets(datasets):
    """mindspore.dataset.zip: the rows of ``datasets`` (a tuple of at least
    two) side by side."""
    datasets = _dataset_list("zip", datasets)
    return _Combined("zip", datasets)


def _flatten_operations(operations):
    if not isinstance(operations, (list, tuple)):
        operations = [operations]
    steps = []
    for op in operations:
        if isinstance(op, Compose):
            steps.extend(_flatten_operations(op.transforms))
        elif isinstance(op, CppTransform):
            steps.append(op._op)
        elif callable(op):
            steps.append(op)
        else:
            raise TypeError(f"map: {op!r} is not a transform or a callable")
    if not steps:
        raise ValueError("map: operations is empty")
    return steps


class _MapDataset(Dataset):
    def __init__(self, parent, operations, input_columns, output_columns):
        super().__init__(parent)
        self._steps = _flatten_operations(operations)
        self._inputs = _column_list("map", "input_columns", input_columns)
        self._outputs = _column_list("map", "output_columns", output_columns)

    def _node(self, parent, seeds):
        return _data.map(parent, self._steps, self._inputs, self._outputs,
                         seeds.next())


#===---------------------------------------------------------------------===#
# Sources
#===---------------------------------------------------------------------===#

class MnistDataset(Dataset):
    """MNIST from ``dataset_dir``: columns ``image`` (uint8 [28, 28, 1]) and
    ``label`` (uint32 scalar).

    The directory holds train-images-idx3-ubyte, train-labels-idx1-ubyte,
    t10k-images-idx3-ubyte and t10k-labels-idx1-ubyte, each possibly
    gzipped (told by its magic bytes) and named with ``.gz``; ``.idx3-ubyte``
    for ``-idx3-ubyte`` is accepted too. usage: 'train' (60,000), 'test'
    (10,000) or 'all' (None: train then test, whichever of the two is in
    the directory, as MindSpore reads a Quick Start's MNIST_Data/train).
    shuffle (None: True) draws a
    new order every epoch from the dataset seed. num_samples is a limit
    (per shard with num_shards/shard_id; every shard gets
    ceil(N / num_shards) rows).
    """

    _NAME = "MnistDataset"

    def __init__(self, dataset_dir, usage=None, num_samples=None,
                 num_parallel_workers=None, shuffle=None, sampler=None,
                 num_shards=None, shard_id=None, cache=None):
        super().__init__()
        op = self._NAME
        if not isinstance(dataset_dir, (str, os.PathLike)):
            raise TypeError(f"{op}: dataset_dir must be a path, got "
                            f"{type(dataset_dir).__name__}")
        dataset_dir = os.fspath(dataset_dir)
        if usage is None:
            usage = "all"
        if usage not in ("train", "test", "all"):
            raise ValueError(f"{op}: usage must be 'train', 'test' or 'all', "
                             f"got {usage!r}")
        self._set_sampling(op, num_samples, shuffle, sampler, num_shards,
                           shard_id)
        if not os.path.isdir(dataset_dir):
            raise ValueError(f"{op}: dataset_dir {dataset_dir}: no such "
                             "directory")
        self._data = _data.read_mnist(dataset_dir, usage)

    def _node(self, parent, seeds):
        limit = _NO_LIMIT if self._num_samples is None else self._num_samples
        return _data.mnist_source(self._data, self._shuffle, limit,
                                  *self._shards, seeds.next())


class FashionMnistDataset(MnistDataset):
    """Fashion-MNIST, in MNIST's file format and names (see MnistDataset).
    Debian's dataset-fashion-mnist package installs it in
    /usr/share/datasets/fashion-mnist."""

    _NAME = "FashionMnistDataset"


def _default_columns(op, column_names, count):
    names = _column_list(op, "column_names", column_names)
    return names or [f"column_{i}" for i in range(count)]


class GeneratorDataset(Dataset):
    """Rows from Python: ``source`` is random-access (``__getitem__`` and
    ``__len__``; shuffled by default, and shardable), an iterable, or a
    callable returning an iterator (a generator function). Each row is a
    tuple of numpy arrays (or values numpy.asarray takes), one per column
    of ``column_names``."""

    def __init__(self, source, column_names=None, column_types=None,
                 schema=None, num_samples=None, num_parallel_workers=1,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None,
                 python_multiprocessing=True, max_rowsize=None):
        super().__init__()
        op = "GeneratorDataset"
        self._columns = _column_list(op, "column_names", column_names)
        if not self._columns:
            raise ValueError(f"{op}: column_names is required")
        self._set_sampling(op, num_samples, shuffle, sampler, num_shards,
                           shard_id)
        self._source = source
        self._random_access = hasattr(source, "__getitem__") and \
            hasattr(source, "__len__")
        if not self._random_access:
            if not (callable(source) or hasattr(source, "__iter__")):
                raise TypeError(f"{op}: source must be random-access "
                                "(__getitem__ and __len__), iterable or "
                                f"callable, got {type(source).__name__}")
            if shuffle:
                raise ValueError(f"{op}: shuffle needs a random-access source "
                                 "(__getitem__ and __len__)")
            if num_shards is not None:
                raise ValueError(f"{op}: num_shards needs a random-access "
                                 "source (__getitem__ and __len__)")

    def _node(self, parent, seeds):
        limit = _NO_LIMIT if self._num_samples is None else self._num_samples
        if self._random_access:
            source = self._source
            return _data.indexed_source(len(source), source.__getitem__,
                                        self._columns, self._shuffle, limit,
                                        *self._shards, seeds.next())
        state = {}
        source = self._source

        def start():
            state["it"] = iter(source() if callable(source) and
                               not hasattr(source, "__iter__") else source)

        def pull():
            return next(state["it"], None)

        return _data.iterable_source(start, pull, self._columns, limit)


class NumpySlicesDataset(Dataset):
    """Rows sliced along the first axis of ``data``: a numpy array or list
    (one column), a tuple of them (one column each) or a dict {name:
    array}. The data is copied into C++ once; iterating runs no Python."""

    def __init__(self, data, column_names=None, num_samples=None,
                 num_parallel_workers=1, shuffle=None, sampler=None,
                 num_shards=None, shard_id=None):
        super().__init__()
        op = "NumpySlicesDataset"
        if isinstance(data, dict):
            names = list(data)
            columns = [np.asarray(v) for v in data.values()]
        elif isinstance(data, tuple):
            columns = [np.asarray(v) for v in data]
            names = None
        else:
            columns = [np.asarray(data)]
            names = None
        if names is None:
            names = _default_columns(op, column_names, len(columns))
        if len(names) != len(columns):
            raise ValueError(f"{op}: {len(names)} column_names for "
                             f"{len(columns)} columns")
        self._set_sampling(op, num_samples, shuffle, sampler, num_shards,
                           shard_id)
        self._names = names
        # Checked and copied now, so errors show here.
        self._source_args = (columns, names)
        _data.slices_source(columns, names, False, _NO_LIMIT, 1, 0, 0)

    def _node(self, parent, seeds):
        limit = _NO_LIMIT if self._num_samples is None else self._num_samples
        columns, names = self._source_args
        return _data.slices_source(columns, names, self._shuffle, limit,
                                   *self._shards, seeds.next())


#===---------------------------------------------------------------------===#
# Iterators
#===---------------------------------------------------------------------===#

class _Iterator:
    def __init__(self, dataset, columns, num_epochs, output_numpy):
        if not isinstance(num_epochs, numbers.Integral) or \
                (num_epochs <= 0 and num_epochs != -1):
            raise ValueError(f"num_epochs must be a positive int or -1, got "
                             f"{num_epochs!r}")
        node = dataset._build()
        self._names = list(node.columns)
        columns = _column_list("create_tuple_iterator", "columns", columns)
        for c in columns:
            if c not in self._names:
                raise ValueError(f"create_tuple_iterator: column {c!r} is not "
                                 f"in the dataset (columns: {self._names})")
        self._select = [self._names.index(c) for c in columns] or None
        self._output_numpy = output_numpy
        self._it = _data.Iterator(node, int(num_epochs),
                                  not node.calls_python,
                                  config.get_prefetch_size())

    def __iter__(self):
        return self

    def _next(self):
        if self._output_numpy:
            return self._it.next()
        return self._it.next_for_tensors()

    def _row(self):
        recorder = _trace.RECORDER
        if recorder is None:
            row = self._next()
        else:
            row = recorder.timed(_trace.DATA, "next", self._next)
        if row is None:
            raise StopIteration
        if self._select is not None:
            row = [row[i] for i in self._select]
        if self._output_numpy:
            # Writable copies, as MindSpore gives (the arrays may view the
            # source's data).
            return [np.array(a) for a in row]
        # Batches come as HostTensors the Tensor takes over; the rest
        # (uint8 images, uint32 labels, views) as numpy arrays.
        return [_wrap(a) if type(a) is _HostTensor else _Tensor(a)
                for a in row]

    def native(self):
        """The pipeline's native iterator, which dataset sink mode's step
        loop reads (rows taken there are gone from this iterator too)."""
        return self._it

    def stop(self):
        """Stops the pipeline's thread now (dropping the iterator does too)."""
        self._it.close()


class TupleIterator(_Iterator):
    def __next__(self):
        return self._row()


class DictIterator(_Iterator):
    def __next__(self):
        return dict(zip(self._names, self._row()))
