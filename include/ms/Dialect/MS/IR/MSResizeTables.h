//===- MSResizeTables.h - interpolate's source indices and weights -*- C++ -*-===//
//
// What ms.interpolate reads for each output row (or column), defined in
// lib/Dialect/MS/IR/MSResizeTables.cpp. Shared by its
// lowering (lib/Conversion/MSToLinalg/Resize.cpp) and its gradient rule
// (lib/Dialect/MS/IR/Gradients/Resize.cpp), so both use the same numbers.
//
//===----------------------------------------------------------------------===//
#ifndef MS_DIALECT_MS_IR_MSRESIZETABLES_H
#define MS_DIALECT_MS_IR_MSRESIZETABLES_H

#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <optional>

namespace ms::resize {

/// Per output index along one axis: two source indices and their weights.
/// Nearest reads i0 with weight 1 (i1 = i0, w1 = 0).
struct AxisTable {
  llvm::SmallVector<int64_t> i0, i1;
  llvm::SmallVector<double> w0, w1;
};

/// torch's formulas: nearest_idx (float32), or the linear source index and
/// weights (float64 when `f64`, else float32). `ratio` is the source step
/// per output step when the front end gave one (1 / scale_factor).
AxisTable axisTable(int64_t in, int64_t out, bool bilinear, bool alignCorners,
                    std::optional<double> ratio, bool f64);

} // namespace ms::resize

#endif // MS_DIALECT_MS_IR_MSRESIZETABLES_H
