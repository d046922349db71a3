//===- Transforms.h - Built-in dataset transforms ---------------*- C++ -*-===//
//
// The C++ bodies of mindspore.dataset.vision and .transforms ops. Each maps
// one array to one array with MindSpore's semantics; random ones draw from
// the generator the pipeline passes, so a seed fixes their choices.
// Errors name the op and what was wrong with its input, one line.
//
//===----------------------------------------------------------------------===//

#ifndef MS_DATA_TRANSFORMS_H
#define MS_DATA_TRANSFORMS_H

#include "ms/Data/Array.h"

#include "llvm/Support/Error.h"

#include <array>
#include <random>
#include <string>
#include <vector>

namespace ms {
namespace data {

enum class OpKind {
  Rescale,
  Normalize,
  HWC2CHW,
  Resize,
  RandomCrop,
  RandomHorizontalFlip,
  TypeCast,
  OneHot
};

/// Inter.LINEAR / Inter.NEAREST (OpenCV's INTER_LINEAR / INTER_NEAREST).
enum class Interpolation { Linear, Nearest };

/// A built-in transform and its arguments (checked by the Python layer when
/// it is made; the data is checked when it is applied).
struct TensorOp {
  OpKind kind = OpKind::Rescale;
  // Rescale: out = in * rescale + shift.
  float rescale = 1, shift = 0;
  // Normalize: out[..., c] = (in[..., c] - mean[c]) / std[c].
  std::vector<float> mean, std;
  bool isHwc = true;
  // Resize: {h, w}, or {s}: the shorter side becomes s, keeping the aspect
  // ratio. RandomCrop: {h, w}.
  std::vector<int64_t> size;
  Interpolation interpolation = Interpolation::Linear;
  // RandomCrop: padding {left, top, right, bottom}, then the crop.
  std::array<int64_t, 4> padding{0, 0, 0, 0};
  bool padIfNeeded = false;
  std::vector<double> fillValue{0};
  // RandomHorizontalFlip.
  double prob = 0.5;
  // TypeCast.
  ElemType castTo = ElemType::F32;
  // OneHot.
  int64_t numClasses = 0;
  double smoothingRate = 0;

  /// The op's MindSpore name: "Rescale", "Normalize", ...
  std::string name() const;
  /// True if the op draws random numbers.
  bool isRandom() const;
};

using Rng = std::mt19937_64;

/// Applies `op` to `in`.
llvm::Expected<Array> applyOp(const TensorOp &op, const Array &in, Rng &rng);

} // namespace data
} // namespace ms

#endif // MS_DATA_TRANSFORMS_H
