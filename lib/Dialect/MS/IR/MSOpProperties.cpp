//===- MSOpProperties.cpp - Op properties that passes ask about -----------===//
//
// RowIndependenceOpInterface's generated code and the answers the op
// families along axes share. Each op's own answer is next to its shape
// rule.
//
//===----------------------------------------------------------------------===//

#include "ms/Dialect/MS/IR/MSOpProperties.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"

#include <optional>
#include <utility>

#include "ms/Dialect/MS/IR/MSOpProperties.cpp.inc"

std::string ms::whyRowsMixAlongAxis(int64_t axis) {
  return axis != 0 ? "" : "it works along the batch dim";
}

std::string ms::whyRowsMixOverAxes(llvm::ArrayRef<int64_t> axes) {
  return llvm::is_contained(axes, 0) ? "it reduces over the batch" : "";
}

/// The first of `types` whose rank exceeds kMaxRank, as (index, rank).
static std::optional<std::pair<unsigned, int64_t>>
firstOverRank(mlir::TypeRange types) {
  for (auto [i, type] : llvm::enumerate(types))
    if (auto shaped = llvm::dyn_cast<mlir::RankedTensorType>(type))
      if (shaped.getRank() > ms::kMaxRank)
        return std::make_pair(unsigned(i), shaped.getRank());
  return std::nullopt;
}

mlir::LogicalResult ms::verifyBoundedRank(mlir::Operation *op) {
  auto operand = firstOverRank(op->getOperandTypes());
  auto result = operand ? std::nullopt : firstOverRank(op->getResultTypes());
  auto over = operand ? operand : result;
  if (!over)
    return mlir::success();
  return op->emitOpError() << (operand ? "operand #" : "result #")
                           << over->first << " has rank " << over->second
                           << "; ms ops take tensors of rank at most "
                           << kMaxRank << ", as MindSpore's do";
}
