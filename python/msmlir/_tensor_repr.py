"""The values part of a Tensor's repr, in MindSpore's layout.

MindSpore's repr is not numpy's: `Tensor(shape=[2], dtype=Float32,
value= [ 1.00000000e+00,  2.00000000e+00])`. Floats are in scientific
notation, 8 digits (float16: 4) right-aligned in 15 columns (11); bools in
5; integers right-aligned to the widest one printed; values are separated
by ", ". A scalar prints as C++ streams print it (`2`, `0.5`, `True`). A
dimension longer than 6 shows its first and last 3 entries around "...",
except a 1-D tensor, which is summarized only beyond 1000 values and
breaks its line every 12 floats or bools, or 24 integers.
"""

import numpy as np

_THRESHOLD = 6
_HALF = _THRESHOLD // 2
_THRESHOLD_1D = 1000
_ELLIPSIS = "..."


class _Layout:
    """How one dtype's values print (MindSpore's TensorStringifier)."""

    def __init__(self, dtype_name):
        if dtype_name == "Bool":
            self.kind = "bool"
        elif dtype_name in ("Float16", "Float32", "Float64"):
            self.kind = "float"
        else:
            # Integers; bfloat16, which C++ streams as a float, aligns
            # like them.
            self.kind = "bfloat" if dtype_name == "BFloat16" else "int"
        self.half = dtype_name == "Float16"   # narrower, fewer digits
        self.line = 12 if self.kind in ("float", "bool") else 24
        self.aligned = self.kind in ("int", "bfloat")
        self.widest = 0                        # of the aligned values so far

    def scalar(self, value):
        if self.kind == "bool":
            return "True" if value else "False"
        if self.kind == "int":
            return str(int(value))
        return _stream_default(float(value))

    def element(self, value):
        if self.kind == "float":
            width, digits = (11, 4) if self.half else (15, 8)
            return f"{float(value):>{width}.{digits}e}"
        if self.kind == "bool":
            return f"{'True' if value else 'False':>5}"
        text = self.scalar(value)
        self.widest = max(self.widest, len(text))
        # Placeholders, replaced once the widest is known (_align).
        return "\0" * len(text) + text


def _stream_default(value):
    """A double as `std::ostream << double` writes it (6 significant
    digits, %g style)."""
    if value != value:
        return "nan"
    if value in (float("inf"), float("-inf")):
        return "inf" if value > 0 else "-inf"
    return "%g" % value


class _Printer:
    def __init__(self, flat, shape, layout):
        self.flat = flat
        self.shape = shape
        self.layout = layout
        self.cursor = 0
        self.parts = []

    def run(self, start, end):
        """Values [start, end) of the innermost row at the cursor."""
        ndim, out = len(self.shape), self.parts
        for i in range(start, min(end, len(self.flat) - self.cursor)):
            out.append(self.layout.element(self.flat[self.cursor + i]))
            if i != end - 1:
                out.append(", ")
            if ndim == 1 and end - start > _HALF and \
                    (i + 1) % self.layout.line == 0:
                out.append("\n ")

    def dim(self, depth):
        out, num = self.parts, self.shape[depth]
        out.append("[")
        if depth == len(self.shape) - 1:
            if (num > _THRESHOLD and len(self.shape) > 1) or \
                    (num > _THRESHOLD_1D and len(self.shape) == 1):
                self.run(0, _HALF)
                out.append(f" {_ELLIPSIS} ")
                self.run(num - _HALF, num)
            else:
                self.run(0, num)
            self.cursor += num
        else:
            self.outer(depth, num)
        out.append("]")

    def outer(self, depth, num):
        out, indent = self.parts, " " * (depth + 1)
        for i in range(min(_HALF, num)):
            if i > 0:
                out.append(",\n" + indent)
            self.dim(depth + 1)
        if num > _THRESHOLD:
            out.append(",\n" + indent + _ELLIPSIS)
            self.cursor += (num - _THRESHOLD) * int(
                np.prod(self.shape[depth + 1:], dtype=np.int64))
        for i in range(min(num - _HALF, _HALF) if num > _HALF else 0):
            out.append(("," if i != 0 or num <= _THRESHOLD else "") +
                       "\n" + indent)
            self.dim(depth + 1)


def values_repr(values, dtype_name):
    """MindSpore's text of `values` (a numpy array) of ms dtype
    `dtype_name` ("Float32", ...), as its repr shows it after "value="."""
    layout = _Layout(dtype_name)
    flat = values.reshape(-1)
    if flat.size == 0:
        return ""
    if values.ndim == 0:
        return layout.scalar(flat[0])
    printer = _Printer(flat, values.shape, layout)
    printer.dim(0)
    text = "".join(printer.parts)
    return _align(text, layout.widest) if layout.aligned else text


def _align(text, widest):
    """Replaces each run of n placeholders by widest - n spaces."""
    out, i = [], 0
    while True:
        j = text.find("\0", i)
        if j < 0:
            out.append(text[i:])
            return "".join(out)
        k = j
        while k < len(text) and text[k] == "\0":
            k += 1
        out.append(text[i:j] + " " * (widest - (k - j)))
        i = k
