//===- VectorizeSmallElementwise.cpp - Small elementwise ops as vectors ---===//
//
// Fusion makes one loop of an elementwise chain. On a small tensor LLVM
// leaves that loop scalar and rolled, so the chain runs element after
// element at the latency of every op; as whole vectors it runs at once.
//
//===----------------------------------------------------------------------===//

#include "ms/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

namespace ms {
#define GEN_PASS_DEF_MSVECTORIZESMALLELEMENTWISE
#include "ms/Codegen/CPU/Passes.h.inc"
} // namespace ms

using namespace mlir;

namespace {

/// Elementwise (every loop parallel, no linalg.index), static, small, and
/// computed by arith and math ops only.
bool isSmallElementwise(linalg::GenericOp op, int64_t maxElements) {
  if (!op.hasPureTensorSemantics() ||
      op.getNumLoops() != op.getNumParallelLoops() || op.getNumLoops() == 0)
    return false;
  int64_t elements = 1;
  for (int64_t range : op.getStaticLoopRanges()) {
    if (ShapedType::isDynamic(range))
      return false;
    elements *= range;
  }
  if (elements > maxElements)
    return false;
  for (Operation &inner : op.getBody()->without_terminator())
    if (!isa<arith::ArithDialect, math::MathDialect>(inner.getDialect()))
      return false;
  return succeeded(linalg::vectorizeOpPrecondition(op));
}

struct MSVectorizeSmallElementwisePass
    : ms::impl::MSVectorizeSmallElementwiseBase<
          MSVectorizeSmallElementwisePass> {
  using MSVectorizeSmallElementwiseBase::MSVectorizeSmallElementwiseBase;

  void runOnOperation() override {
    SmallVector<linalg::GenericOp> candidates;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (isSmallElementwise(op, maxElements))
        candidates.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : candidates) {
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::VectorizationResult> result =
          linalg::vectorize(rewriter, op);
      if (failed(result))
        continue; // stays a loop, as before
      rewriter.replaceOp(op, result->replacements);
    }
  }
};

} // namespace
