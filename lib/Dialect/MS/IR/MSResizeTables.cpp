//===- MSResizeTables.cpp - interpolate's source indices and weights -----===//
//
// torch's formulas (upsample_nearest2d's nearest_idx, and
// area_pixel_compute_scale / area_pixel_compute_source_index for
// bilinear), in torch's precision.
//
//===----------------------------------------------------------------------===//

#include "ms/Dialect/MS/IR/MSResizeTables.h"

#include <algorithm>
#include <cmath>

namespace ms {

namespace resize {
namespace {

/// torch's nearest_idx: exact for the same size and for doubling, else
/// min(floor(o * scale), in - 1) in float32.
AxisTable nearestAxis(int64_t in, int64_t out, std::optional<double> ratio) {
  AxisTable t;
  float scale = ratio ? static_cast<float>(*ratio)
                      : static_cast<float>(in) / static_cast<float>(out);
  for (int64_t o = 0; o < out; ++o) {
    int64_t i;
    if (out == in)
      i = o;
    else if (out == 2 * in)
      i = o >> 1;
    else
      i = std::min(static_cast<int64_t>(
                       std::floor(static_cast<float>(o) * scale)),
                   in - 1);
    t.i0.push_back(i);
  }
  return t;
}

/// torch's area_pixel_compute_scale / _source_index and the linear
/// indices and weights, in T.
template <typename T>
AxisTable linearAxis(int64_t in, int64_t out, bool alignCorners,
                     std::optional<double> ratio) {
  AxisTable t;
  T scale;
  if (alignCorners)
    scale = out > 1 ? static_cast<T>(in - 1) / static_cast<T>(out - 1) : T(0);
  else
    scale = ratio ? static_cast<T>(*ratio)
                  : static_cast<T>(in) / static_cast<T>(out);
  for (int64_t o = 0; o < out; ++o) {
    T real;
    if (alignCorners) {
      real = scale * static_cast<T>(o);
    } else {
      real = scale * (static_cast<T>(o) + T(0.5)) - T(0.5);
      real = real < T(0) ? T(0) : real;
    }
    int64_t i = std::min(static_cast<int64_t>(std::floor(real)), in - 1);
    T lambda = std::min(std::max(real - static_cast<T>(i), T(0)), T(1));
    t.i0.push_back(i);
    t.i1.push_back(i + (i < in - 1 ? 1 : 0));
    t.w1.push_back(static_cast<double>(lambda));
    t.w0.push_back(static_cast<double>(T(1) - lambda));
  }
  return t;
}

} // namespace

AxisTable axisTable(int64_t in, int64_t out, bool bilinear, bool alignCorners,
                    std::optional<double> ratio, bool f64) {
  if (!bilinear) {
    AxisTable t = nearestAxis(in, out, ratio);
    t.i1 = t.i0;
    t.w0.assign(t.i0.size(), 1.0);
    t.w1.assign(t.i0.size(), 0.0);
    return t;
  }
  return f64 ? linearAxis<double>(in, out, alignCorners, ratio)
             : linearAxis<float>(in, out, alignCorners, ratio);
}

} // namespace resize

} // namespace ms
