//===- MSToLinalg.cpp - Lower ms ops to linalg/tensor/arith/math ----------===//
//
// The pass: each ms op lowers on its own, on tensors, through the pattern set
// of its family (Elementwise.cpp, Linear.cpp, Convolution.cpp, Pooling.cpp,
// Normalization.cpp, Reduction.cpp, DataMovement.cpp).
//
//===----------------------------------------------------------------------===//

#include "ms/Conversion/Passes.h"
#include "ms/Conversion/MSToLinalg/MSToLinalg.h"
#include "ms/Dialect/MS/IR/MSOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

namespace ms {
#define GEN_PASS_DEF_CONVERTMSTOLINALG
#include "ms/Conversion/Passes.h.inc"
} // namespace ms

using namespace mlir;
using namespace ms;

namespace {

struct ConvertMSToLinalgPass
    : ms::impl::ConvertMSToLinalgBase<ConvertMSToLinalgPass> {
  using ConvertMSToLinalgBase::ConvertMSToLinalgBase;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    // Training-mode dropout needs random masks, which ms does not have yet.
    WalkResult walk = getOperation()->walk([](DropoutOp op) {
      if (op.getTraining()) {
        op.emitOpError("in training mode is not supported; ms runs "
                       "inference only (call set_train(False))");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();

    RewritePatternSet patterns(ctx);
    populateElementwiseToLinalgPatterns(patterns);
    populateLinearToLinalgPatterns(patterns);
    populateConvolutionToLinalgPatterns(patterns, convAsMatmul);
    populatePoolingToLinalgPatterns(patterns);
    populateNormalizationToLinalgPatterns(patterns);
    populateReductionToLinalgPatterns(patterns);
    populateDataMovementToLinalgPatterns(patterns);

    ConversionTarget target(*ctx);
    target.addIllegalDialect<MSDialect>();
    target.addLegalDialect<arith::ArithDialect, linalg::LinalgDialect,
                           math::MathDialect, scf::SCFDialect,
                           tensor::TensorDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
