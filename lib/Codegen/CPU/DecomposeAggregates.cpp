//===- DecomposeAggregates.cpp - Decompose aggregated linalg ops ----------===//

#include "ms/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace ms {
#define GEN_PASS_DEF_MSDECOMPOSEAGGREGATES
#include "ms/Codegen/CPU/Passes.h.inc"
} // namespace ms

using namespace mlir;

namespace {

/// Upstream's decompositions build float values (softmax's -inf and exp)
/// and crash on any other element type, so those are rejected first.
bool hasFloatOperands(Operation *op) {
  return llvm::all_of(op->getOperandTypes(), [](Type type) {
    return isa<FloatType>(getElementTypeOrSelf(type));
  });
}

struct MSDecomposeAggregatesPass
    : ms::impl::MSDecomposeAggregatesBase<MSDecomposeAggregatesPass> {
  void runOnOperation() override {
    SmallVector<linalg::AggregatedOpInterface> aggregates;
    getOperation()->walk(
        [&](linalg::AggregatedOpInterface op) { aggregates.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::AggregatedOpInterface op : aggregates) {
      if (!hasFloatOperands(op)) {
        op->emitOpError("can only be decomposed on floating-point operands");
        return signalPassFailure();
      }
      rewriter.setInsertionPoint(op);
      FailureOr<SmallVector<Value>> values = op.decomposeOperation(rewriter);
      if (failed(values)) {
        op->emitOpError("could not be decomposed");
        return signalPassFailure();
      }
      rewriter.replaceOp(op, *values);
    }
  }
};

} // namespace
