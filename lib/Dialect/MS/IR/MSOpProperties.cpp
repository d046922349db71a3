//===- MSOpProperties.cpp - Op properties that passes ask about -----------===//
//
// RowIndependenceOpInterface's generated code and the answers the op
// families along axes share. Each op's own answer is next to its shape
// rule.
//
//===----------------------------------------------------------------------===//

#include "ms/Dialect/MS/IR/MSOpProperties.h"

#include "llvm/ADT/STLExtras.h"

#include "ms/Dialect/MS/IR/MSOpProperties.cpp.inc"

std::string ms::whyRowsMixAlongAxis(int64_t axis) {
  return axis != 0 ? "" : "it works along the batch dim";
}

std::string ms::whyRowsMixOverAxes(llvm::ArrayRef<int64_t> axes) {
  return llvm::is_contained(axes, 0) ? "it reduces over the batch" : "";
}
