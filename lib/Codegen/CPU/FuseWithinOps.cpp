//===- FuseWithinOps.cpp - Elementwise fusion inside one ms op's lowering -===//
//
// O0 runs each ms op as its own kernel, with no fusion across ops. One op
// can still lower to several elementwise linalg ops. Those are one kernel
// anyway, so O0 fuses them like O1 does, which saves a pass over the
// result and a parallel region. The ops an ms op lowers to carry its
// location; ops from different ms ops are left apart. Transposes are named
// ops by then (ms-collapse-transposes), which fusion leaves alone.
//
//===----------------------------------------------------------------------===//

#include "ms/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace ms {
#define GEN_PASS_DEF_MSFUSEWITHINOPS
#include "ms/Codegen/CPU/Passes.h.inc"
} // namespace ms

using namespace mlir;

namespace {

/// Fuses when the producer has no other reader and both come from the same
/// ms op: the same location, and a known one.
bool fromOneOp(OpOperand *fused) {
  Operation *producer = fused->get().getDefiningOp();
  Operation *consumer = fused->getOwner();
  return producer && producer->hasOneUse() &&
         !isa<UnknownLoc>(producer->getLoc()) &&
         producer->getLoc() == consumer->getLoc();
}

struct MSFuseWithinOpsPass
    : ms::impl::MSFuseWithinOpsBase<MSFuseWithinOpsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    linalg::populateElementwiseOpsFusionPatterns(patterns, fromOneOp);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
