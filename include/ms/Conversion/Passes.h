//===- Passes.h - ms conversion passes --------------------------*- C++ -*-===//
#ifndef MS_CONVERSION_PASSES_H
#define MS_CONVERSION_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace arith { class ArithDialect; }
namespace linalg { class LinalgDialect; }
namespace math { class MathDialect; }
namespace tensor { class TensorDialect; }
} // namespace mlir

namespace ms {

#define GEN_PASS_DECL
#include "ms/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ms/Conversion/Passes.h.inc"

} // namespace ms

#endif // MS_CONVERSION_PASSES_H
