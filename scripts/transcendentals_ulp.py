#!/usr/bin/python3
"""Max ulp error of ms's compiled exp, log, tanh, erf and sigmoid over float32.

Runs the real compiled code (the msmlir package's graph compiler, the same
pipeline as every mode) on float32 inputs and compares with float64
references (numpy; torch for erf). The error of a result y against the
float64 reference r is |y - r| / ulp(r), where ulp(r) is the float32 spacing
at r (2^-149 in the subnormals): a correctly rounded result is within 0.5.
A reference that rounds to +-inf must be matched exactly; NaN must give NaN.

    PYTHONPATH=build/python /usr/bin/python3 scripts/transcendentals_ulp.py
        [--step K] [--level O0|O1|O2] [--functions exp,log,...]

--step 1 is every float32 bit pattern (2^32 inputs per function, about 11
minutes per function here); --step 61 takes 11 s per function.

    ... --bits          instead: a hash of the output bits over every
                        float32 input (about 45 s per function), to show
                        that a rewrite of an expansion changed no result

python/tests/test_transcendentals.py imports this module.
"""

import argparse
import math
import sys
import time

import numpy as np

CHUNK = 1 << 22  # elements per compiled call


def _erf64(x):
    try:
        import torch
        return torch.special.erf(torch.from_numpy(x)).numpy()
    except ImportError:
        return np.vectorize(math.erf, otypes=[np.float64])(x)


def _sigmoid64(x):
    with np.errstate(over="ignore"):
        return 1.0 / (1.0 + np.exp(-x))


# name -> (body of the compiled function on %a, float64 reference)
_MATH = """#id = affine_map<(d0) -> (d0)>
func.func @construct(%a: tensor<{n}xf32>) -> tensor<{n}xf32> {{
  %e = tensor.empty() : tensor<{n}xf32>
  %r = linalg.generic {{indexing_maps = [#id, #id],
                        iterator_types = ["parallel"]}}
      ins(%a : tensor<{n}xf32>) outs(%e : tensor<{n}xf32>) {{
  ^bb0(%x: f32, %o: f32):
    %y = math.{op} %x : f32
    linalg.yield %y : f32
  }} -> tensor<{n}xf32>
  return %r : tensor<{n}xf32>
}}
"""
_MS = """func.func @construct(%a: tensor<{n}xf32>) -> tensor<{n}xf32> {{
  %r = ms.{op} %a : tensor<{n}xf32>
  return %r : tensor<{n}xf32>
}}
"""
FUNCTIONS = {
    "exp": (_MATH, "exp", np.exp),
    "log": (_MATH, "log", np.log),
    "tanh": (_MATH, "tanh", np.tanh),
    "erf": (_MATH, "erf", _erf64),
    "sigmoid": (_MS, "sigmoid", _sigmoid64),
}


def ulp_error(got, ref):
    """|got - ref| / ulp32(ref) per element (float64); inf where an
    overflow, infinity or NaN does not match."""
    y = np.asarray(got, dtype=np.float64)
    r = np.asarray(ref, dtype=np.float64)
    with np.errstate(all="ignore"):
        r32 = r.astype(np.float32).astype(np.float64)
        _, e = np.frexp(r)  # |r| = m 2^e, m in [0.5, 1)
        ulp = np.ldexp(1.0, np.maximum(e - 1, -126) - 23)
        err = np.abs(y - r) / ulp
    finite = np.isfinite(r32)
    err = np.where(finite, err, np.where(r32 == y, 0.0, np.inf))
    nan_r, nan_y = np.isnan(r), np.isnan(y)
    err = np.where(nan_r | nan_y, np.where(nan_r & nan_y, 0.0, np.inf), err)
    return err


class Compiled:
    """One function compiled for CHUNK-element float32 vectors."""

    def __init__(self, name, level="O0", threads=1, n=CHUNK):
        from msmlir import _runtime
        template, op, self.ref = FUNCTIONS[name]
        self.n = n
        self.module = _runtime.graph_compiler().compile(
            template.format(n=n, op=op),
            _runtime.compile_options(level, threads, "sink"), "construct",
            f"<{name}>")

    def __call__(self, x):
        from msmlir._runtime import HostTensor
        from msmlir._tensor import _np_view
        x = np.asarray(x, dtype=np.float32)
        out = np.empty_like(x)
        for i in range(0, x.size, self.n):
            part = x[i:i + self.n]
            buf = np.zeros(self.n, np.float32)
            buf[:part.size] = part
            (res,) = self.module.run([HostTensor.from_buffer(buf)])
            out[i:i + part.size] = _np_view(res)[:part.size]
        return out


def special_inputs():
    """+-0, +-inf, NaNs, the smallest and largest denormals and normals,
    and values around each function's thresholds."""
    f = np.float32
    tiny = np.finfo(f).tiny
    vals = [0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan,
            np.frombuffer(np.uint32(0x7fa00000).tobytes(), f)[0],  # sNaN
            1e-45, -1e-45, 1e-40, -1e-40, tiny * (1 - 2**-23), tiny, -tiny,
            np.finfo(f).max, -np.finfo(f).max, 1.0, -1.0, 2.0, 0.5]
    for c in (88.72, 88.7228, 88.3763, -87.3365, -87.68, -103.28, -103.97,
              -104.0, 0.875, 1.125, 3.92, 9.0, 10.0, 2**-12, 0.6931472):
        for s in (1, -1):
            v = f(c * s)
            vals += [v, np.nextafter(v, f(np.inf)), np.nextafter(v, f(-np.inf))]
    return np.array(vals, dtype=f)


def bit_patterns(step, offset=0, start=0, stop=1 << 32):
    """Every step-th float32 bit pattern in [start, stop)."""
    return np.arange(start + offset, stop, step,
                     dtype=np.uint64).astype(np.uint32).view(np.float32)


def measure(fn, ref, x):
    """(max ulp, argmax input, fraction over 1 ulp, count) on inputs x."""
    y = fn(x)
    with np.errstate(all="ignore"):
        err = ulp_error(y, ref(x.astype(np.float64)))
    i = int(np.argmax(err))
    return float(err[i]), float(x[i]), float(np.mean(err > 1.0)), x.size


def output_hash(name, level):
    """blake2b of the outputs' bytes for every float32 bit pattern, in
    order."""
    import hashlib
    fn = Compiled(name, level)
    h = hashlib.blake2b(digest_size=16)
    for start in range(0, 1 << 32, CHUNK):
        h.update(fn(bit_patterns(1, 0, start, start + CHUNK)).tobytes())
    return h.hexdigest()


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--step", type=int, default=1,
                   help="every K-th float32 bit pattern (1: all 2^32)")
    p.add_argument("--level", default="O0")
    p.add_argument("--functions", default=",".join(FUNCTIONS))
    p.add_argument("--bits", action="store_true",
                   help="print a hash of the outputs over all 2^32 inputs")
    args = p.parse_args()
    if args.bits:
        for name in args.functions.split(","):
            t0 = time.time()
            print(f"{name:8} {output_hash(name, args.level)} "
                  f"{time.time() - t0:6.1f} s", flush=True)
        return 0
    print(f"inputs: every {args.step}-th float32 bit pattern plus special "
          f"values, jit_level {args.level}")
    print(f"{'function':8} {'max ulp':>8} {'at x':>16} {'> 1 ulp':>10} "
          f"{'inputs':>12} {'seconds':>8}")
    span = 1 << 28  # bit patterns per batch
    for name in args.functions.split(","):
        t0 = time.time()
        fn = Compiled(name, args.level)
        ref = FUNCTIONS[name][2]
        worst, at, over, count = measure(fn, ref, special_inputs())
        over *= count
        for start in range(0, 1 << 32, span):
            first = (-start) % args.step
            x = bit_patterns(args.step, first, start, start + span)
            if x.size == 0:
                continue
            for i in range(0, x.size, CHUNK * 4):
                m, a, o, c = measure(fn, ref, x[i:i + CHUNK * 4])
                if m > worst:
                    worst, at = m, a
                over += o * c
                count += c
        print(f"{name:8} {worst:8.3f} {at:16.9g} {over / count:10.2e} "
              f"{count:12d} {time.time() - t0:8.1f}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
