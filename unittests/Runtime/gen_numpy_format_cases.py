#!/usr/bin/env python3
"""Generates the golden cases of NumpyFormatTest.cpp from the real NumPy.

Every expected string is str(array) as printed by the installed NumPy with its
default print options. Array contents are either explicit raw values or come
from a small deterministic generator that NumpyFormatTest.cpp reimplements
with the same exact IEEE operations, so both sides see identical bits.

Usage:
  gen_numpy_format_cases.py            # print the case table to stdout
  gen_numpy_format_cases.py --update   # rewrite the table in
                                       # NumpyFormatTest.cpp in place
"""

import os
import sys

import numpy as np

MASK64 = (1 << 64) - 1
MAGNITUDES = [1e-9, 1e-5, 1e-2, 1.0, 1e3, 1e6, 1e9]
DTYPES = {
    'F32': np.float32,
    'F16': np.float16,
    'I32': np.int32,
    'I64': np.int64,
}


def generate(source, seed, scale, count):
    """Mirror of generateValues() in NumpyFormatTest.cpp."""
    state = seed
    out = []
    for _ in range(count):
        state = (state * 6364136223846793005 + 1442695040888963407) & MASK64
        u = state >> 40
        if source == 'Uniform':
            v = (float(u) - 8388608.0) / 16777216.0 * scale
        elif source == 'Mixed':
            v = (float(u) - 8388608.0) / 16777216.0 * \
                MAGNITUDES[(state >> 20) % len(MAGNITUDES)]
        elif source == 'Integers':
            v = float(u % 201 - 100) * scale
        elif source == 'HalfGrid':
            # Multiples of a power-of-two scale that float16 holds exactly.
            v = float(u % 2047 - 1023) * scale
        elif source == 'Fill':
            v = scale
        else:
            raise ValueError(source)
        out.append(v)
    return out


def make_array(dtype, shape, source, seed=0, scale=0.0, raw=()):
    count = int(np.prod(shape, dtype=np.int64))
    if source == 'Raw':
        if dtype == 'F32':
            a = np.array(raw, dtype=np.uint64).astype(np.uint32).view(np.float32)
        elif dtype == 'F16':
            a = np.array(raw, dtype=np.uint64).astype(np.uint16).view(np.float16)
        else:
            a = np.array(raw, dtype=DTYPES[dtype])
        return a.reshape(shape)
    values = generate(source, seed, scale, count)
    if dtype in ('I32', 'I64'):
        a = np.array([int(v) for v in values], dtype=DTYPES[dtype])
    else:
        a = np.array(values, dtype=np.float64).astype(DTYPES[dtype])
    return a.reshape(shape)


def f32_bits(values):
    return [int(x) for x in np.array(values, np.float32).view(np.uint32)]


def f16_bits(values):
    return [int(x) for x in np.array(values, np.float16).view(np.uint16)]


NAN, INF = float('nan'), float('inf')

GENERATED = []
for shape in [(64, 10), (2, 3), (10,), (3, 4, 5), (1, 10), (2000,), (40, 40),
              (2, 500), (2, 501), (10, 10, 11), (4, 3, 2, 5), (7, 3, 8, 9),
              (2, 1, 2, 1, 2)]:
    GENERATED.append(('F32', shape, 'Uniform', 11, 0.2))
for shape in [(64, 10), (2, 3), (10,), (3, 4, 5), (1, 10), (2000,), (40, 40)]:
    GENERATED.append(('F32', shape, 'Mixed', 23, 0.0))
for shape in [(2, 3), (10,), (40, 40), (3, 4, 5)]:
    GENERATED.append(('F32', shape, 'Integers', 5, 1.0))
GENERATED += [
    ('F32', (64, 10), 'Fill', 0, 1.0),
    ('F32', (2, 3), 'Fill', 0, 0.0),
    ('F32', (12,), 'Integers', 3, 0.5),
    ('F32', (8, 6), 'Integers', 3, 1e5),
    ('F32', (8, 6), 'Integers', 3, 1e7),
    ('F32', (30,), 'Uniform', 7, 1e-3),
    ('F32', (30,), 'Uniform', 7, 1000.0),
    ('F32', (30,), 'Uniform', 7, 3e8),
    ('F32', (5, 5), 'Uniform', 8, 2e-4),
    ('F16', (64, 10), 'HalfGrid', 31, 2.0 ** -10),
    ('F16', (10,), 'HalfGrid', 31, 2.0 ** -20),
    ('F16', (3, 4, 5), 'HalfGrid', 31, 16.0),
    ('F16', (2000,), 'HalfGrid', 31, 2.0 ** -6),
    ('I32', (64, 10), 'Uniform', 41, 2000.0),
    ('I32', (2000,), 'Uniform', 41, 2e9),
    ('I64', (3, 4, 5), 'Uniform', 43, 1e15),
    ('I64', (10,), 'Integers', 43, 1.0),
]

RAW = [
    ('F32', (3,), f32_bits([0.0, -0.0, 1.0])),
    ('F32', (1,), f32_bits([-0.0])),
    ('F32', (), f32_bits([-0.0])),
    ('F32', (4,), f32_bits([0.0, -0.0, 1.5e-5, 1e10])),
    ('F32', (3,), f32_bits([NAN, INF, -INF])),
    ('F32', (2,), f32_bits([NAN, NAN])),
    ('F32', (2,), f32_bits([NAN, -INF])),
    ('F32', (3,), f32_bits([1.5, NAN, 2.0])),
    ('F32', (3,), f32_bits([NAN, 1e-9, -INF])),
    ('F32', (2,), f32_bits([INF, 1e-5])),
    ('F32', (1,), f32_bits([1e-4])),
    ('F32', (1,), f32_bits([1e8])),
    ('F32', (2,), f32_bits([99999992.0, 1.5])),
    ('F32', (2,), f32_bits([1.0, 1000.0])),
    ('F32', (2,), f32_bits([1.0, 1001.0])),
    ('F32', (2,), f32_bits([1.0 / 512, 3.0 / 1024])),
    ('F32', (3,), f32_bits([0.1, 0.2, 0.3])),
    ('F32', (2,), f32_bits([1e-45, 3.4e38])),
    ('F32', (2,), f32_bits([0.1, 1.23456789e-5])),
    ('F32', (30,), f32_bits([-1.2345678e-20] * 30)),
    ('F32', (), f32_bits([3.14159])),
    ('F32', (), f32_bits([1e20])),
    ('F32', (), f32_bits([1e-5])),
    ('F32', (), f32_bits([1e-4])),
    ('F32', (), f32_bits([1e15])),
    ('F32', (), f32_bits([1e16])),
    ('F32', (), f32_bits([1.0])),
    ('F32', (), f32_bits([NAN])),
    ('F32', (), f32_bits([-INF])),
    ('F32', (0,), []),
    ('F32', (2, 0), []),
    ('F16', (), f16_bits([0.1])),
    ('F16', (), f16_bits([65504.0])),
    ('F16', (), f16_bits([-43872.0])),
    ('F16', (5,), f16_bits([2049.0, 4097.0, 65504.0, -43872.0, 1.5])),
    ('F16', (2,), f16_bits([6e-8, 65504.0])),
    ('F16', (2,), f16_bits([NAN, -INF])),
    ('F16', (2,), f16_bits([0.01, 65504.0])),
    ('I32', (), [7]),
    ('I64', (), [-7]),
    ('I32', (2,), [3, -100]),
    ('I32', (2, 2), [-2**31, 2**31 - 1, 1, 2]),
    ('I64', (3,), [-2**63, 2**63 - 1, 0]),
]


def cxx_string(s):
    assert ')np"' not in s
    return 'R"np(' + s + ')np"'


def cxx_shape(shape):
    return '{' + ', '.join(str(d) for d in shape) + '}'


def emit():
    lines = ['// Generated by gen_numpy_format_cases.py with NumPy %s.'
             % np.__version__]
    for dtype, shape, source, seed, scale in GENERATED:
        a = make_array(dtype, shape, source, seed, scale)
        lines.append('{DType::%s, %s, Source::%s, %dull, %r, {},\n %s},'
                     % (dtype, cxx_shape(shape), source, seed, scale,
                        cxx_string(str(a))))
    for dtype, shape, raw in RAW:
        a = make_array(dtype, shape, 'Raw', raw=raw)
        if dtype in ('I32', 'I64'):
            raw_text = ', '.join('INT64_C(%d)' % v if v != -2**63
                                 else 'INT64_MIN' for v in raw)
        else:
            raw_text = ', '.join('0x%x' % v for v in raw)
        lines.append('{DType::%s, %s, Source::Raw, 0, 0.0, {%s},\n %s},'
                     % (dtype, cxx_shape(shape), raw_text, cxx_string(str(a))))
    return '\n'.join(lines) + '\n'


BEGIN = '// BEGIN GENERATED CASES\n'
END = '// END GENERATED CASES\n'


def main():
    table = emit()
    if sys.argv[1:] == ['--update']:
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            'NumpyFormatTest.cpp')
        text = open(path).read()
        start = text.index(BEGIN) + len(BEGIN)
        stop = text.index(END)
        open(path, 'w').write(text[:start] + table + text[stop:])
    else:
        sys.stdout.write(table)


if __name__ == '__main__':
    main()
