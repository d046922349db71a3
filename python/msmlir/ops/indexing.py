"""Tensor.__getitem__ and Tensor.__setitem__ in ms ops, with numpy's
semantics, so graph mode captures them.

- Basic indices (ints, slices, None, Ellipsis) read with one ms.slice and a
  reshape, and write with one ms.slice_update. A negative step slices with
  the positive step and reverses the axis with an ms.gather.
- Advanced indices (integer lists, arrays and Tensors, and boolean masks,
  which stand for the integer arrays of their True positions) move the
  indexed dims to the front, merge them into one, and read with ms.gather
  or write with ms.scatter_update along it: index arrays become one linear
  index, computed on the host when the indices are known and in ms ops
  when they are symbolic. The result dims go where numpy puts them.
- A boolean mask whose True count is unknown (a symbolic mask in a graph)
  cannot give a static shape: reading it is value-dependent (one error at
  the user's line, or a PyNative fallback under LAX). Writing through it is
  one ms.select when the value does not depend on the count.

Item assignment is functional: the Tensor is rebound to the updated value
(in graph mode, its name then refers to the new graph value), and a
Parameter is updated through ops.assign.
"""

import numbers

import numpy as np

from .. import dtype as mstype
from .._graph import Sym, value_dependent
from .._runtime import STATE
from .._tensor import Tensor, Parameter, op, binary, nary, _np_values
from . import functional as F
from ._args import _i64_array
from .array_func import _slice

# Indices of symbolic index tensors are merged in float32 (ms integer
# arithmetic comes with the dtype work): exact below 2^24.
_EXACT_F32 = 1 << 24


class _Unsupported(Exception):
    """An index this module does not express in ms ops (PyNative then
    indexes the numpy array)."""


def _in_ms_ops(x):
    """Whether x's dtype moves through the ms data-movement ops: every
    dtype does (MS_AllTensor); bfloat16 too, though numpy cannot hold it."""
    return isinstance(x.dtype, mstype.Type)


#===---------------------------------------------------------------------===#
# Normalizing an index
#===---------------------------------------------------------------------===#

def _entry(i):
    """One index entry as None, Ellipsis, a slice, an int, a numpy integer
    or bool array (known), or an integer or bool Tensor (maybe symbolic)."""
    if i is None or i is Ellipsis or isinstance(i, slice):
        return i
    if isinstance(i, (bool, np.bool_)):
        raise _Unsupported()
    if isinstance(i, numbers.Integral):
        return int(i)
    if isinstance(i, Tensor):
        if i.dtype not in (mstype.int32, mstype.int64, mstype.bool_):
            raise IndexError("tensors used as indices must be integer or "
                             f"bool tensors, got {i.dtype}")
        if not i.is_symbolic:
            return i.asnumpy().copy()
        return i
    if isinstance(i, (list, tuple, np.ndarray)):
        a = np.asarray(i)
        if a.size == 0 and a.dtype.kind == "f":
            a = a.astype(np.int64)
        if a.dtype.kind not in "iub":
            raise IndexError("arrays used as indices must be of integer or "
                             "boolean type")
        return a
    raise IndexError(f"only integers, slices, None, Ellipsis and integer or "
                     f"boolean arrays are valid indices, got "
                     f"{type(i).__name__}")


def _is_mask(i):
    return (isinstance(i, np.ndarray) and i.dtype == np.bool_) or (
        isinstance(i, Tensor) and i.dtype == mstype.bool_)


def _normalize(x, index):
    """(entries, advanced) for x[index]: Ellipsis expanded, each known mask
    replaced by the integer arrays of its True positions. Raises
    _SymbolicMask for a symbolic mask."""
    if not isinstance(index, tuple):
        index = (index,)
    entries = [_entry(i) for i in index]
    if sum(e is Ellipsis for e in entries) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    used = 0
    for e in entries:
        if e is None or e is Ellipsis:
            continue
        used += e.ndim if _is_mask(e) else 1
    if used > x.ndim:
        raise IndexError(f"too many indices for tensor: tensor is "
                         f"{x.ndim}-dimensional, but {used} were indexed")
    if Ellipsis in [e for e in entries if not isinstance(
            e, (np.ndarray, Tensor))]:
        at = next(k for k, e in enumerate(entries) if e is Ellipsis)
        entries[at:at + 1] = [slice(None)] * (x.ndim - used)
    out, d = [], 0
    for e in entries:
        if _is_mask(e):
            if isinstance(e, Tensor):
                raise _SymbolicMask(e, d)
            want = tuple(x.shape[d:d + e.ndim])
            if e.shape != want:
                raise IndexError(f"boolean index of shape {list(e.shape)} "
                                 f"does not match the indexed dims "
                                 f"{list(want)} at dim {d}")
            out.extend(np.nonzero(e))
            d += e.ndim
        else:
            out.append(e)
            d += e is not None
    advanced = any(isinstance(e, (np.ndarray, Tensor)) for e in out)
    return out, advanced


class _SymbolicMask(Exception):
    def __init__(self, mask, dim):
        super().__init__()
        self.mask, self.dim = mask, dim


#===---------------------------------------------------------------------===#
# Basic indexing: one slice
#===---------------------------------------------------------------------===#

def _basic_plan(x, entries):
    """(begin, end, strides, reversed dims, sliced shape, result shape)
    for basic entries: the slice has one dim per dim of x (an int keeps a
    unit dim), the result drops the ints and adds the Nones."""
    begin, end, strides, flips, sliced, result = [], [], [], [], [], []
    d = 0
    for e in entries:
        if e is None:
            result.append(1)
            continue
        size = x.shape[d]
        if isinstance(e, slice):
            start, stop, step = e.indices(size)
            count = len(range(start, stop, step))
            if step < 0:
                # The same elements with a positive step, read backwards.
                start = start + (count - 1) * step if count else 0
                step = -step
                flips.append(d)
            stop = start + (count - 1) * step + 1 if count else start
            begin.append(start)
            end.append(stop)
            strides.append(step)
            sliced.append(count)
            result.append(count)
        else:
            k = e + size if e < 0 else e
            if not 0 <= k < size:
                raise IndexError(f"index {e} is out of bounds for dimension "
                                 f"{d} with size {size}")
            begin.append(k)
            end.append(k + 1)
            strides.append(1)
            sliced.append(1)
        d += 1
    for rest in x.shape[d:]:
        begin.append(0)
        end.append(rest)
        strides.append(1)
        sliced.append(rest)
        result.append(rest)
    return begin, end, strides, flips, sliced, result


def _reverse(x, dims):
    """x reversed along each of `dims`: a gather of n-1, ..., 0."""
    for d in dims:
        n = x.shape[d]
        if n > 1:
            x = F.gather(x, Tensor(np.arange(n - 1, -1, -1,
                                               dtype=np.int64)), d)
    return x


def _slice_update_op(begin, end, strides):
    a = _i64_array
    return op("ms.slice_update", f"{{begin = {a(begin)}, end = "
              f"{a(end)}, strides = {a(strides)}}}",
              "Tensor.__setitem__")


def _transpose(x, perm):
    """x transposed by perm; x itself for the identity (no op)."""
    perm = tuple(perm)
    return x if perm == tuple(range(len(perm))) else F.transpose(x, perm)


def _get_basic(x, entries):
    begin, end, strides, flips, _, result = _basic_plan(x, entries)
    y = _slice(x, begin, end, strides)
    return F.reshape(_reverse(y, flips), result)


def _set_basic(x, entries, value):
    begin, end, strides, flips, sliced, result = _basic_plan(x, entries)
    if 0 in sliced:
        return x
    v = F.reshape(_broadcast(value, result), sliced)
    v = _reverse(v, flips)
    if list(sliced) == list(x.shape):
        return v
    return binary(_slice_update_op(begin, end, strides), x, v)


#===---------------------------------------------------------------------===#
# Advanced indexing: the indexed dims merged into one
#===---------------------------------------------------------------------===#

def _unit_dims(x, entries):
    """x with a unit dim for each None, and the entries over its dims
    (None becomes a full slice of that dim), as numpy treats them."""
    shape, out, d = [], [], 0
    for e in entries:
        if e is None:
            shape.append(1)
            out.append(slice(None))
        else:
            shape.append(x.shape[d])
            out.append(e)
            d += 1
    shape += list(x.shape[d:])
    out += [slice(None)] * (x.ndim - d)
    return (F.reshape(x, shape) if len(shape) != x.ndim else x), out


class _Plan:
    """How x[entries] with advanced entries reads and writes: slices of the
    other dims, the indexed dims moved to the front and merged, the linear
    index, and where numpy puts the index dims in the result."""

    def __init__(self, x, entries):
        self.positions = [d for d, e in enumerate(entries)
                          if not isinstance(e, slice)]
        arrays = [e if isinstance(e, (np.ndarray, Tensor)) else np.asarray(e)
                  for e in entries if not isinstance(e, slice)]
        begin, end, strides = [], [], []
        for d, e in enumerate(entries):
            if isinstance(e, slice):
                start, stop, step = e.indices(x.shape[d])
                if step < 0:
                    raise _Unsupported()
                begin.append(start)
                end.append(max(start, stop))
                strides.append(step)
            else:
                begin.append(0)
                end.append(x.shape[d])
                strides.append(1)
        self.begin, self.end, self.strides = begin, end, strides
        sliced = [len(range(b, e, s)) for b, e, s in zip(begin, end, strides)]
        self.sliced = sliced
        p = self.positions
        self.perm = p + [d for d in range(x.ndim) if d not in p]
        self.sizes = [sliced[d] for d in p]
        self.others = [sliced[d] for d in range(x.ndim) if d not in p]
        self.adjacent = p == list(range(p[0], p[0] + len(p)))
        self.index, self.batch = _linear_index(arrays, self.sizes)

    def flat(self, x):
        """x sliced, transposed and merged: [prod(sizes), others...]."""
        y = _slice(x, self.begin, self.end, self.strides)
        y = _transpose(y, self.perm)
        return F.reshape(y, [int(np.prod(self.sizes))] + self.others)

    def unflat(self, flat, x):
        """The inverse of flat, written into x."""
        y = F.reshape(flat, self.sizes + self.others)
        inverse = [self.perm.index(d) for d in range(len(self.perm))]
        y = _transpose(y, inverse)
        if list(self.sliced) == list(x.shape):
            return y
        return binary(_slice_update_op(self.begin, self.end, self.strides),
                      x, y)

    def batch_perm(self):
        """The transpose from [batch..., others...] to numpy's result
        layout (identity unless the indexed dims are adjacent and not
        first)."""
        nb, p0 = len(self.batch), self.positions[0]
        if not self.adjacent or p0 == 0:
            return None
        rest = len(self.others)
        return (list(range(nb, nb + p0)) + list(range(nb)) +
                list(range(nb + p0, nb + rest)))

    def result_shape(self):
        shape = list(self.batch) + self.others
        perm = self.batch_perm()
        return [shape[i] for i in perm] if perm else shape


def _linear_index(arrays, sizes):
    """(index, batch shape): the row of each pick in the merged dims, as a
    Tensor. Known arrays are checked (IndexError as numpy) and merged on the
    host; symbolic ones in ms ops, where an out-of-range index becomes -1
    (ms.gather reads zeros, ms.scatter_update writes nothing)."""
    if all(isinstance(a, np.ndarray) for a in arrays):
        if len(arrays) == 1:
            a, size = arrays[0], sizes[0]
            if a.size and (a.min() < -size or a.max() >= size):
                bad = a[(a < -size) | (a >= size)]
                raise IndexError(f"index {int(bad.flat[0])} is out of bounds "
                                 f"for a dimension with size {size}")
            if a.size and a.min() < 0:
                a = np.where(a < 0, a + size, a)
            return Tensor(a.astype(np.int64, copy=False)), tuple(a.shape)
        try:
            arrays = np.broadcast_arrays(*arrays)
        except ValueError:
            raise IndexError("shape mismatch: indexing arrays could not be "
                             "broadcast together with shapes " + " ".join(
                                 str(list(a.shape)) for a in arrays)) from None
        linear = np.zeros(arrays[0].shape, np.int64)
        for a, size in zip(arrays, sizes):
            bad = a[(a < -size) | (a >= size)]
            if bad.size:
                raise IndexError(f"index {int(bad.flat[0])} is out of bounds "
                                 f"for a dimension with size {size}")
            linear = linear * size + np.where(a < 0, a + size, a)
        return Tensor(linear), tuple(linear.shape)
    tensors = [a if isinstance(a, Tensor) else Tensor(a.astype(np.int64))
               for a in arrays]
    if len(tensors) == 1:
        return tensors[0], tuple(tensors[0].shape)
    total = int(np.prod(sizes))
    if total >= _EXACT_F32:
        raise IndexError(f"indexing {len(sizes)} dims of {sizes} with "
                         "symbolic index tensors needs fewer than 2^24 "
                         "elements in them")
    linear, valid = None, None
    for t, size in zip(tensors, sizes):
        f = F.cast(t, mstype.float32)
        ok = F.logical_and(F.greater_equal(f, 0.0), F.less(f, size))
        linear = f if linear is None else F.add(F.mul(linear, size), f)
        valid = ok if valid is None else F.logical_and(valid, ok)
    linear = F.where(valid, linear, -1.0)
    return F.cast(linear, mstype.int64), tuple(linear.shape)


def _get_advanced(x, entries):
    x, entries = _unit_dims(x, entries)
    plan = _Plan(x, entries)
    y = F.gather(plan.flat(x), plan.index, 0)
    perm = plan.batch_perm()
    return _transpose(y, perm) if perm else y


def _set_advanced(x, entries, value):
    original = x.shape
    x, entries = _unit_dims(x, entries)
    plan = _Plan(x, entries)
    v = _broadcast(value, plan.result_shape())
    perm = plan.batch_perm()
    if perm:
        v = _transpose(v, [perm.index(d) for d in range(len(perm))])
    picks = int(np.prod(plan.batch))
    if picks == 0:
        return F.reshape(x, original)
    v = F.reshape(v, list(plan.batch) + plan.others)
    flat = nary(op("ms.scatter_update", "", "Tensor.__setitem__"),
                (plan.flat(x), plan.index, v))
    return F.reshape(plan.unflat(flat, x), original)


#===---------------------------------------------------------------------===#
# Values and masks
#===---------------------------------------------------------------------===#

def _value(x, value):
    """The assigned value as a Tensor of x's dtype."""
    if not isinstance(value, Tensor):
        if isinstance(value, (numbers.Number, np.generic)):
            return Tensor(np.asarray(value, dtype=x.dtype.values_np),
                          x.dtype)
        value = Tensor(np.asarray(value).astype(x.dtype.values_np), x.dtype)
    return F.cast(value, x.dtype)


def _broadcast(value, shape):
    """value broadcast like numpy to `shape` (leading unit dims of value
    may be dropped, as numpy allows in assignment)."""
    vs = list(value.shape)
    while len(vs) > len(shape) and vs[0] == 1:
        vs = vs[1:]
    if vs != list(value.shape):
        value = F.reshape(value, vs)
    try:
        np.broadcast_shapes(tuple(vs), tuple(shape))
        ok = len(vs) <= len(shape) and all(
            a in (1, b) for a, b in zip(vs[::-1], shape[::-1]))
    except ValueError:
        ok = False
    if not ok:
        raise ValueError(f"could not broadcast input array from shape "
                         f"{list(value.shape)} into shape {list(shape)}")
    return F.broadcast_to(value, shape) if vs != list(shape) else value


def _mask_column(mask, rank):
    """A [k]-dim mask reshaped to broadcast over the trailing dims."""
    extra = rank - mask.ndim
    if not extra:
        return mask
    # Through float32: ms.reshape does not take bools yet.
    column = F.reshape(F.cast(mask, mstype.float32),
                         list(mask.shape) + [1] * extra)
    return F.cast(column, mstype.bool_)


def _set_masked(x, mask, dim, value):
    """x[mask] = value with a symbolic mask over x's leading dims: one
    ms.select when value broadcasts to the dims after the mask."""
    if dim != 0 or tuple(mask.shape) != tuple(x.shape[:mask.ndim]):
        raise _Unsupported()
    rest = list(x.shape[mask.ndim:])
    vs = list(value.shape)
    if len(vs) > len(rest):
        if vs[0] != 1 or len(vs) != len(rest) + 1:
            raise _Unsupported()
        value = F.reshape(value, vs[1:])
    return F.where(_mask_column(mask, x.ndim), _broadcast(value, rest), x)


#===---------------------------------------------------------------------===#
# Entry points (Tensor.__getitem__ / __setitem__)
#===---------------------------------------------------------------------===#

_MASK_ADVICE = ("Its result has as many elements as the mask has True "
                "values, but graph mode compiles static shapes. Keep the "
                "shape with ops.where(mask, x, 0) or ops.masked_fill, or "
                "reduce it, e.g. (x * mask).sum(); or use "
                "ops.masked_select outside the jitted function.")


def _mask_read_error():
    value_dependent("indexes a tensor with a boolean mask tensor",
                    _MASK_ADVICE)


def getitem(x, index):
    """x[index] in ms ops, or None when PyNative should index the numpy
    array instead (dtypes and indices the ms ops do not cover)."""
    if not _in_ms_ops(x):
        return None
    try:
        entries, advanced = _normalize(x, index)
        if advanced:
            return _get_advanced(x, entries)
        return _get_basic(x, entries)
    except _SymbolicMask as m:
        if x.is_symbolic or m.mask.is_symbolic:
            _mask_read_error()
        return None
    except _Unsupported:
        return None


def setitem(x, index, value):
    """x[index] = value: x is rebound to the updated value."""
    new = _setitem_ms(x, index, value) if _in_ms_ops(x) else None
    if new is None:
        new = _setitem_host(x, index, value)
    _rebind(x, new)


def _setitem_ms(x, index, value):
    v = _value(x, value)
    try:
        entries, advanced = _normalize(x, index)
        if advanced:
            return _set_advanced(x, entries, v)
        return _set_basic(x, entries, v)
    except _SymbolicMask as m:
        try:
            return _set_masked(x, m.mask, m.dim, v)
        except _Unsupported:
            value_dependent(
                "assigns through a boolean mask tensor a value with one "
                "row per True element",
                "Graph mode compiles static shapes: assign a value that "
                "broadcasts over the masked elements, or use "
                "ops.where(mask, new_values, x) with new_values shaped "
                "like x.")
    except _Unsupported:
        return None


def _setitem_host(x, index, value):
    """PyNative item assignment on a copy of the numpy array, for what the
    ms ops do not cover (negative-step slices mixed with index arrays)."""
    x._host("assigns to a tensor's elements")
    a = np.array(x.asnumpy())
    if isinstance(index, Tensor):
        index = index.asnumpy()
    elif isinstance(index, tuple):
        index = tuple(i.asnumpy() if isinstance(i, Tensor) else i
                      for i in index)
    a[index] = value.asnumpy() if isinstance(value, Tensor) else value
    return Tensor(a, dtype=x.dtype)


def _rebind(x, new):
    """Makes x hold `new`: a Parameter through ops.assign; a Tensor by
    taking new's value, also in the graph or tape that records it (they
    know values by Tensor identity)."""
    if new is x:
        return
    if isinstance(x, Parameter):
        F.assign(x, new)
        return
    x._t = new._t
    graphs = [STATE.graph]
    if STATE.tape is not None:
        graphs.append(STATE.tape.graph)
    for g in graphs:
        bound = getattr(g, "bound", None)
        if bound is None:
            continue
        sym = bound.get(id(new))
        if sym is None and new._t.__class__ is Sym and new._t.graph is g:
            sym = new._t
        if sym is not None:
            g.bind(x, sym)



def tensor_getitem(x, index):
    """Tensor.__getitem__: ms ops where the index allows, else (PyNative
    only) numpy indexing of the values."""
    result = getitem(x, index)
    if result is not None:
        return result
    t = x._host("indexes a tensor")
    if isinstance(index, Tensor):
        index = index.asnumpy()
    return Tensor(np.array(_np_values(t)[index]), dtype=x.dtype)
