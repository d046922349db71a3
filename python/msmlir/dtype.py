"""Tensor element types (MindSpore's ``mindspore.dtype`` names) and the one
type-promotion rule every op applies.

Types: ``float16 float32 float64 bfloat16 int8 int16 int32 int64 uint8
uint16 uint32 uint64 bool_``, with MindSpore's aliases (``half``,
``single``, ``double``, ``byte``, ``short``, ``intc``, ``intp``,
``ubyte``, ``ushort``, ``uintc``, ``uintp``; ``float_`` is float32 and
``int_`` int64). Each ``Type.code`` is the native runtime's dtype
code (include/ms/Runtime/DTypes.def), so the two never disagree.

``bool_`` is i1 in the IR and one byte per element in memory, numpy's bool
in ``asnumpy``. numpy has no bfloat16: a bfloat16 tensor's ``asnumpy``
raises TypeError, as MindSpore's does (convert with ``.float()`` first).

Promotion (``result_type``), as MindSpore's implicit type conversion
documents it (mindspore.cn, "MindSpore Implicit Type Conversion"):

- categories ``bool < integer < float``;
- tensor with tensor: the higher category wins; within a category the
  wider type (priority ``bool < uint8 < int8 < int16 < int32 < int64 <
  float16 < float32 < float64``); uint8 with int8 gives int16; bfloat16
  with float16 gives float32, as in PyTorch (MindSpore's table has no
  bfloat16);
- a Python number takes the tensor's dtype unless its category is higher:
  a float with an integer or bool tensor gives float32, an int with a bool
  tensor gives int32; alone, Python floats are float32, ints int64 and
  bools bool_.
"""

import numpy as np

__all__ = ["Type", "float16", "float32", "float64", "bfloat16", "int8",
           "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "bool_", "half", "single", "double", "float_", "short", "intc",
           "int_", "intp", "ushort", "uintc", "uintp", "byte",
           "ubyte", "number_type", "int_type", "uint_type", "float_type",
           "all_types", "pytype_to_dtype", "dtype_to_nptype",
           "dtype_to_pytype", "promote", "result_type"]

BOOL, INT, FLOAT = 0, 1, 2  # promotion categories


class Type:
    """One element type. ``code`` is the native runtime's dtype code;
    ``np`` the numpy dtype that holds it (uint16 bits for bfloat16)."""

    __slots__ = ("name", "code", "np", "mlir", "category", "rank", "bits")

    def __init__(self, name, code, np_dtype, mlir, category, rank, bits):
        self.name = name
        self.code = code
        self.np = np.dtype(np_dtype)
        self.mlir = mlir
        self.category = category
        self.rank = rank          # MindSpore's priority within a category
        self.bits = bits

    @property
    def values_np(self):
        """The numpy dtype this type's values are written in: ``np``, but
        float32 for bfloat16 (whose ``np`` holds its bits)."""
        return np.dtype(np.float32) if self.name == "BFloat16" else self.np

    @property
    def is_float(self):
        return self.category == FLOAT

    @property
    def is_int(self):
        return self.category == INT

    @property
    def is_signed(self):
        return self.category != BOOL and not self.mlir.startswith("ui")

    def __repr__(self):
        return self.name

    __str__ = __repr__

    def __reduce__(self):
        return (_by_name, (self.name,))


# Codes are the C++ DType enum order (DTypes.def).
float32 = Type("Float32", 0, np.float32, "f32", FLOAT, 2, 32)
float16 = Type("Float16", 1, np.float16, "f16", FLOAT, 0, 16)
int32 = Type("Int32", 2, np.int32, "i32", INT, 6, 32)
int64 = Type("Int64", 3, np.int64, "i64", INT, 7, 64)
bool_ = Type("Bool", 4, np.bool_, "i1", BOOL, 0, 8)
float64 = Type("Float64", 5, np.float64, "f64", FLOAT, 3, 64)
bfloat16 = Type("BFloat16", 6, np.uint16, "bf16", FLOAT, 1, 16)
int8 = Type("Int8", 7, np.int8, "i8", INT, 2, 8)
int16 = Type("Int16", 8, np.int16, "i16", INT, 4, 16)
uint8 = Type("UInt8", 9, np.uint8, "ui8", INT, 1, 8)
uint16 = Type("UInt16", 10, np.uint16, "ui16", INT, 3, 16)
uint32 = Type("UInt32", 11, np.uint32, "ui32", INT, 5, 32)
uint64 = Type("UInt64", 12, np.uint64, "ui64", INT, 8, 64)

# MindSpore's aliases.
half, single, double = float16, float32, float64
float_ = float32
short, intc, int_, intp = int16, int32, int64, int64
byte, ubyte = int8, uint8
ushort, uintc, uintp = uint16, uint32, uint64

all_types = (bool_, int8, int16, int32, int64, uint8, uint16, uint32,
             uint64, float16, bfloat16, float32, float64)
int_type = (int8, int16, int32, int64)
uint_type = (uint8, uint16, uint32, uint64)
float_type = (float16, bfloat16, float32, float64)
number_type = int_type + uint_type + float_type

BY_CODE = {t.code: t for t in all_types}
_BY_NAME = {t.name: t for t in all_types}
_BY_NUMPY = {t.np: t for t in all_types if t is not bfloat16}


def _by_name(name):
    return _BY_NAME[name]


def from_numpy_dtype(np_dtype):
    """The ms type of a numpy dtype: the same type (numpy has no
    bfloat16). Raises TypeError for kinds msmlir tensors cannot hold."""
    d = np.dtype(np_dtype)
    t = _BY_NUMPY.get(d.newbyteorder("="))
    if t is None:
        raise TypeError(f"msmlir tensors cannot hold numpy dtype {d}; use "
                        "one of " + ", ".join(str(t) for t in all_types))
    return t


def to_dtype(value):
    """Accepts an ms Type, a numpy dtype (or its name) or a Python type."""
    if isinstance(value, Type):
        return value
    if value is float:
        return float32
    if value is int:
        return int64
    if value is bool:
        return bool_
    if isinstance(value, str):
        t = _BY_NAME.get(value) or globals().get(value)
        if isinstance(t, Type):
            return t
    return from_numpy_dtype(value)


def pytype_to_dtype(obj):
    """MindSpore's mindspore.dtype.pytype_to_dtype."""
    return to_dtype(obj)


def dtype_to_nptype(type_):
    """MindSpore's mindspore.dtype.dtype_to_nptype. bfloat16 has no numpy
    type (TypeError)."""
    t = to_dtype(type_)
    if t is bfloat16:
        raise TypeError("numpy has no bfloat16 type")
    return t.np.type


def dtype_to_pytype(type_):
    """MindSpore's mindspore.dtype.dtype_to_pytype."""
    return {BOOL: bool, INT: int, FLOAT: float}[to_dtype(type_).category]


#===---------------------------------------------------------------------===#
# Promotion
#===---------------------------------------------------------------------===#

def _promote_ints(a, b):
    if a.is_signed == b.is_signed:
        return a if a.rank >= b.rank else b
    signed, unsigned = (a, b) if a.is_signed else (b, a)
    if signed.bits > unsigned.bits:
        return signed
    # uint8 with int8 gives int16 (MindSpore); wider unsigned ones take the
    # next signed width, capped at int64.
    return {8: int16, 16: int32}.get(unsigned.bits, int64)


def promote(a, b):
    """The dtype two tensors of dtypes `a` and `b` compute in."""
    if a is b:
        return a
    if a.category != b.category:
        return a if a.category > b.category else b
    if a.category == INT:
        return _promote_ints(a, b)
    if {a, b} == {float16, bfloat16}:
        return float32
    return a if a.rank >= b.rank else b


_SCALAR_DEFAULT = {BOOL: bool_, INT: int64, FLOAT: float32}
# A Python number whose category is above the tensors' gives these.
_SCALAR_WIDENS = {INT: int32, FLOAT: float32}


def scalar_category(value):
    """The category of a Python or numpy scalar, or None."""
    if isinstance(value, (bool, np.bool_)):
        return BOOL
    if isinstance(value, (int, np.integer)):
        return INT
    if isinstance(value, (float, np.floating)):
        return FLOAT
    return None


def result_type(*operands):
    """The dtype an op on `operands` computes in: each operand is a Type
    (a tensor's dtype) or a Python number. See the module docstring."""
    tensor = None
    scalar = None
    for x in operands:
        if isinstance(x, Type):
            tensor = x if tensor is None else promote(tensor, x)
            continue
        c = scalar_category(x)
        if c is None:
            raise TypeError(f"cannot promote a {type(x).__name__}")
        scalar = c if scalar is None else max(scalar, c)
    if tensor is None:
        return _SCALAR_DEFAULT[BOOL if scalar is None else scalar]
    if scalar is not None and scalar > tensor.category:
        return _SCALAR_WIDENS[scalar]
    return tensor


#===---------------------------------------------------------------------===#
# bfloat16 bits (numpy has no bfloat16 type)
#===---------------------------------------------------------------------===#

def float32_to_bfloat16_bits(a):
    """uint16 bfloat16 bits of float32 values, rounded to nearest even (NaN
    stays a quiet NaN), as every hardware conversion does."""
    # asarray first: ascontiguousarray would make a 0-d array 1-d.
    a = np.asarray(a, dtype=np.float32)
    bits = np.ascontiguousarray(a).view(np.uint32).reshape(a.shape)
    rounded = (bits + np.uint32(0x7FFF) + ((bits >> 16) & 1)) >> 16
    nan = (bits & 0x7FFFFFFF) > 0x7F800000
    out = np.where(nan, (bits >> 16) | 0x0040, rounded)
    return out.astype(np.uint16)


def bfloat16_bits_to_float32(bits):
    """float32 values of uint16 bfloat16 bits (exact)."""
    bits = np.asarray(bits, dtype=np.uint16)
    wide = np.ascontiguousarray(bits).astype(np.uint32)
    return (wide << 16).view(np.float32).reshape(bits.shape)
