"""Primitives about values rather than tensor arithmetic (MindSpore's
``ops.Shape``, ``ops.DType``, ``ops.Rank``, ``ops.Size``, ``ops.Depend``,
``ops.Partial``) and the composites optimizers write with (``ops.HyperMap``,
``ops.Map``, ``ops.MultitypeFuncGraph``). Graph capture runs Python, so
these are Python: a shape is known while capturing, a dependency is the
order the statements run in, and a MultitypeFuncGraph dispatches at
capture time, as MindSpore's does at compile time."""

import functools
import numbers

from .._tensor import Tensor
from .primitive import Primitive

__all__ = ["Shape", "DType", "Rank", "Size", "Depend", "Partial",
           "HyperMap", "Map", "MultitypeFuncGraph", "depend", "partial",
           "shape", "dtype", "rank", "size"]


def shape(input_x):
    """The static shape, a tuple of ints (None for a dynamic dim)."""
    return tuple(input_x.shape)


def dtype(input_x):
    return input_x.dtype


def rank(input_x):
    return len(input_x.shape)


def size(input_x):
    return input_x.size


def depend(value, expr):
    """`value`, once `expr` has run: statements run in program order in
    both modes, so nothing more is needed."""
    return value


def partial(func, *args):
    return functools.partial(func, *args)


def _primitive(name, fn):
    return type(name, (Primitive,), {
        "__call__": lambda self, *args: fn(*args),
        "__doc__": fn.__doc__,
    })


Shape = _primitive("Shape", shape)
DType = _primitive("DType", dtype)
Rank = _primitive("Rank", rank)
Size = _primitive("Size", size)
Depend = _primitive("Depend", depend)
Partial = _primitive("Partial", partial)


def _is_sequence(x):
    return isinstance(x, (tuple, list))


class Map:
    """Map(ops=None, reverse=False): applies a function to the elements of
    equal-length sequences, one level deep; returns a tuple."""

    def __init__(self, ops=None, reverse=False):
        self.ops = ops
        self.reverse = reverse

    def _split(self, args):
        if self.ops is not None:
            return self.ops, args
        if not args:
            raise TypeError(f"{type(self).__name__}: no function to apply")
        return args[0], args[1:]

    @staticmethod
    def _check(name, seqs):
        if not all(_is_sequence(s) for s in seqs):
            raise TypeError(f"For '{name}', the arguments must be all tuples "
                            "or lists, or all leaves.")
        if len({len(s) for s in seqs}) > 1:
            raise ValueError(f"For '{name}', the sequences must have the same "
                             f"length, but got {[len(s) for s in seqs]}.")

    def __call__(self, *args):
        fn, seqs = self._split(args)
        self._check("Map", seqs)
        return tuple(fn(*items) for items in zip(*seqs))


class HyperMap(Map):
    """HyperMap(ops=None, reverse=False): Map that recurses into nested
    tuples and lists; a leaf is an argument that is not a sequence."""

    def __call__(self, *args):
        fn, seqs = self._split(args)
        return self._apply(fn, seqs)

    def _apply(self, fn, seqs):
        if not any(_is_sequence(s) for s in seqs):
            return fn(*seqs)
        self._check("HyperMap", seqs)
        return tuple(self._apply(fn, items) for items in zip(*seqs))


def _matches(type_name, value):
    checks = {
        "Tensor": lambda v: isinstance(v, Tensor),
        "Number": lambda v: isinstance(v, numbers.Number),
        "Bool": lambda v: isinstance(v, bool),
        "Int": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "Float": lambda v: isinstance(v, float),
        "String": lambda v: isinstance(v, str),
        "Tuple": lambda v: isinstance(v, tuple),
        "List": lambda v: isinstance(v, list),
        "Dictionary": lambda v: isinstance(v, dict),
        "None": lambda v: v is None,
        "Function": lambda v: callable(v) and not isinstance(v, Tensor),
    }
    check = checks.get(type_name)
    if check is None:
        raise ValueError(f"For 'MultitypeFuncGraph', the type name "
                         f"'{type_name}' is not supported; supported: "
                         f"{sorted(checks)}.")
    return check(value)


class MultitypeFuncGraph:
    """A function overloaded on MindSpore type names: register with
    ``@f.register("Tensor", "Number")``; a call runs the first overload
    whose names match the arguments."""

    def __init__(self, name, read_value=False, doc_url=""):
        self.name = name
        self.read_value = read_value
        self._entries = []

    def register(self, *type_names):
        for t in type_names:
            _matches(t, None)  # validates the name

        def deco(fn):
            self._entries.append((type_names, fn))
            return fn
        return deco

    def __call__(self, *args):
        if len(self._entries) == 1:
            return self._entries[0][1](*args)
        for names, fn in self._entries:
            if len(names) == len(args) and all(
                    _matches(n, a) for n, a in zip(names, args)):
                return fn(*args)
        sigs = [names for names, _ in self._entries]
        kinds = [type(a).__name__ for a in args]
        raise ValueError("For 'MultitypeFuncGraph', cannot find fn match "
                         f"given args. Got (sigs, fn): {sigs}, and (dtype, "
                         f"args): {kinds}.")
