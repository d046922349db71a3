"""Tensor element types (MindSpore's ``mindspore.dtype`` names).

Most ms kernels compute in float32; float16, int32, int64 and bool tensors
can be created, converted (``ops.cast``), printed and saved, and the
comparison, logical, select, one_hot and argmax ops take or return them.
``bool_`` is what comparisons return: i1 in the IR, one byte per element in
memory, numpy's bool in ``asnumpy``.
"""

import numpy as np

__all__ = ["Type", "float32", "float16", "int32", "int64", "bool_",
           "float_", "int_", "pytype_to_dtype", "dtype_to_nptype"]


class Type:
    """One element type. ``code`` is the native runtime's dtype code."""

    __slots__ = ("name", "code", "np", "mlir", "is_float")

    def __init__(self, name, code, np_dtype, mlir, is_float):
        self.name = name
        self.code = code
        self.np = np.dtype(np_dtype)
        self.mlir = mlir
        self.is_float = is_float

    def __repr__(self):
        return self.name

    __str__ = __repr__

    def __reduce__(self):
        return (_by_name, (self.name,))


# Codes 0..4 are the C++ DType enum order (F32, F16, I32, I64, Bool).
float32 = Type("Float32", 0, np.float32, "f32", True)
float16 = Type("Float16", 1, np.float16, "f16", True)
int32 = Type("Int32", 2, np.int32, "i32", False)
int64 = Type("Int64", 3, np.int64, "i64", False)
bool_ = Type("Bool", 4, np.bool_, "i1", False)

float_ = float32
int_ = int64

BY_CODE = {0: float32, 1: float16, 2: int32, 3: int64, 4: bool_}
_BY_NAME = {t.name: t for t in (float32, float16, int32, int64, bool_)}


def _by_name(name):
    return _BY_NAME[name]


def from_numpy_dtype(np_dtype):
    """The ms type that holds a numpy dtype; float64 becomes float32 and
    small or unsigned integers become int32/int64, as ms has no kernels for
    them. Raises TypeError for other kinds."""
    d = np.dtype(np_dtype)
    if d == np.float32 or d == np.float64:
        return float32
    if d == np.float16:
        return float16
    if d == np.bool_:
        return bool_
    if d.kind in "iu":
        if d.itemsize < 4 or (d.kind == "i" and d.itemsize == 4):
            return int32
        return int64
    raise TypeError(f"msmlir tensors cannot hold numpy dtype {d}; use "
                    "float32, float16, int32, int64 or bool")


def to_dtype(value):
    """Accepts an ms Type, a numpy dtype or a Python type."""
    if isinstance(value, Type):
        return value
    if value is float:
        return float32
    if value is int:
        return int64
    if value is bool:
        return bool_
    return from_numpy_dtype(value)


def pytype_to_dtype(obj):
    """MindSpore's mindspore.dtype.pytype_to_dtype."""
    return to_dtype(obj)


def dtype_to_nptype(type_):
    """MindSpore's mindspore.dtype.dtype_to_nptype."""
    return to_dtype(type_).np.type
