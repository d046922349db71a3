#!/usr/bin/python3
"""Derives the polynomial coefficients of lib/Codegen/CPU/
ApproximateTranscendentals.cpp (prints them as C++ arrays).

Each polynomial is a near-minimax fit by Lawson's algorithm (iteratively
reweighted least squares on Chebyshev nodes) with the relative error of the
function as the weight; the coefficients are then rounded to float32, all
at once (exp, log, tanh) or one at a time with the higher ones refitted
after each rounding (erf, whose large-|x| polynomial is sensitive to the
rounding of its low coefficients). Needs numpy and torch (float64 erf).
scripts/transcendentals_ulp.py measures the compiled result.
"""

import math

import numpy as np
import torch

f32 = np.float32


def nodes(a, b, n=4000):
    k = np.arange(n)
    return (a + b) / 2 + (b - a) / 2 * np.cos(np.pi * (k + 0.5) / n)


def lawson(V, y, w, iters=60):
    """Coefficients c minimizing max |w (V c - y)| (approximately)."""
    u = np.ones(len(y)) / len(y)
    for _ in range(iters):
        s = np.sqrt(u) * w
        c, *_ = np.linalg.lstsq(V * s[:, None], y * s, rcond=None)
        e = np.abs(w * (V @ c - y))
        u = u * e
        u /= u.sum()
    return c


def rounded(c):
    return [float(f32(v)) for v in c]


def rounded_one_at_a_time(V, y, w):
    fixed = []
    for i in range(V.shape[1]):
        rest = y - (V[:, :i] @ np.array(fixed) if fixed else 0)
        fixed.append(float(f32(lawson(V[:, i:], rest, w)[0])))
    return fixed


def erf64(x):
    return torch.special.erf(torch.from_numpy(x)).numpy()


def erfc64(x):
    return torch.special.erfc(torch.from_numpy(x)).numpy()


def main():
    # exp(r) = 1 + r + r^2 Q(r), |r| <= ln2 / 2, Q of degree 4.
    r = nodes(-0.3466, 0.3466)
    q = lawson(np.vander(r, 5, increasing=True), (np.expm1(r) - r) / r**2,
               r**2 / np.exp(r))
    show("kExpCoeffs", [1.0, 1.0] + rounded(q))
    # log1p(f) = f - f^2/2 + f^3 R(f), f in [sqrt(1/2) - 1, sqrt(2) - 1].
    f = nodes(math.sqrt(0.5) - 1, math.sqrt(2) - 1)
    y = (np.log1p(f) - f + f * f / 2) / f**3
    show("kLogCoeffs", rounded(lawson(np.vander(f, 8, increasing=True), y,
                                      np.abs(f**3 / np.log1p(f)))))
    # tanh(x) = x + x^3 P(x^2), |x| < 0.875.
    x = nodes(1e-4, 0.875)
    show("kTanhCoeffs", rounded(lawson(
        np.vander(x * x, 7, increasing=True), (np.tanh(x) - x) / x**3,
        np.abs(x**3 / np.tanh(x)))))
    # erf(x) = x + x P(x^2), |x| < 1.125.
    x = nodes(1e-4, 1.125)
    e = erf64(x)
    show("kErfSmallCoeffs", rounded_one_at_a_time(
        np.vander(x * x, 8, increasing=True), e / x - 1, np.abs(x / e)))
    # log(erfc(x)) = Q(x - 2), 1.125 <= x <= 3.92, weighted by the error it
    # causes in erf = 1 - erfc.
    x = nodes(1.125, 3.92)
    c = erfc64(x)
    show("kErfLargeCoeffs", rounded_one_at_a_time(
        np.vander(x - 2, 10, increasing=True), np.log(c), c / (1 - c)))


def show(name, coeffs):
    print(f"constexpr float {name}[] = {{" +
          ", ".join(f"{v!r}f" for v in coeffs) + "};")


if __name__ == "__main__":
    main()
