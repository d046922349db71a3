//===- FuseElementwise.cpp - O1's elementwise fusion, bounded -------------===//
//
// See the pass description in Passes.td: upstream's elementwise fusion
// pattern set, whose control function also refuses a fusion whose body
// would pass the bound.
//
//===----------------------------------------------------------------------===//

#include "ms/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace ms {
#define GEN_PASS_DEF_MSFUSEELEMENTWISE
#include "ms/Codegen/CPU/Passes.h.inc"
} // namespace ms

using namespace mlir;

namespace {

int64_t bodyOps(Operation *op) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  return generic ? static_cast<int64_t>(generic.getBody()->getOperations().size())
                 : 0;
}

/// Upstream's rule, that the producer has no other reader.
bool onlyReader(OpOperand *fused) {
  Operation *producer = fused->get().getDefiningOp();
  return producer && producer->hasOneUse();
}

struct MSFuseElementwisePass
    : ms::impl::MSFuseElementwiseBase<MSFuseElementwisePass> {
  using MSFuseElementwiseBase::MSFuseElementwiseBase;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    int64_t bound = maxBodyOps;
    // The fused body is both bodies but the producer's yield.
    linalg::ControlFusionFn bounded = [bound](OpOperand *fused) {
      return onlyReader(fused) &&
             bodyOps(fused->get().getDefiningOp()) - 1 +
                     bodyOps(fused->getOwner()) <=
                 bound;
    };
    RewritePatternSet patterns(context);
    linalg::populateElementwiseOpsFusionPatterns(patterns, bounded);
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, onlyReader);
    tensor::populateBubbleUpExpandShapePatterns(patterns);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
    context->getLoadedDialect<linalg::LinalgDialect>()
        ->getCanonicalizationPatterns(patterns);
    linalg::populateConstantFoldLinalgOperations(patterns, onlyReader);
    // Top-down, as upstream's pass, for compile time.
    (void)applyPatternsGreedily(getOperation(), std::move(patterns),
                                GreedyRewriteConfig().setUseTopDownTraversal());
  }
};

} // namespace
