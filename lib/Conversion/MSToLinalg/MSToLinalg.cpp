//===- MSToLinalg.cpp - Lower ms ops to linalg/tensor/arith/math ----------===//
//
// The pass: each ms op lowers on its own, on tensors, through the pattern set
// of its family (Elementwise.cpp, Linear.cpp, Convolution.cpp, Pooling.cpp,
// Normalization.cpp, Reduction.cpp, DataMovement.cpp,
// IndirectDataMovement.cpp, ...; Communication.cpp: all_reduce).
//
//===----------------------------------------------------------------------===//

#include "ms/Conversion/Passes.h"
#include "ms/Conversion/MSToLinalg/MSToLinalg.h"
#include "ms/Dialect/MS/IR/MSOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

namespace ms {
#define GEN_PASS_DEF_CONVERTMSTOLINALG
#include "ms/Conversion/Passes.h.inc"
} // namespace ms

using namespace mlir;
using namespace ms;

namespace {

bool isEmptyTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape() && tensor.getNumElements() == 0;
}

/// An ms op whose results are all empty (a dim of 0, such as a batch of 0)
/// computes nothing: each result is a tensor.empty. So the family
/// lowerings never meet empty results, whose slices tensor ops' verifiers
/// reject (an offset 0 into a dim of 0 is out of bounds).
struct EmptyResultsLowering : ConversionPattern {
  EmptyResultsLowering(const TypeConverter &storage, MLIRContext *ctx)
      : ConversionPattern(storage, MatchAnyOpTypeTag(), /*benefit=*/10, ctx) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value>,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<MSDialect>(op->getDialect()) || op->getNumResults() == 0 ||
        !isMemoryEffectFree(op) ||
        !llvm::all_of(op->getResultTypes(), isEmptyTensor))
      return failure();
    SmallVector<Value> results;
    for (Type type : op->getResultTypes()) {
      auto stored =
          cast<RankedTensorType>(getTypeConverter()->convertType(type));
      results.push_back(tensor::EmptyOp::create(
          rewriter, op->getLoc(), stored.getShape(), stored.getElementType()));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct ConvertMSToLinalgPass
    : ms::impl::ConvertMSToLinalgBase<ConvertMSToLinalgPass> {
  using ConvertMSToLinalgBase::ConvertMSToLinalgBase;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    if (failed(checkStaticShapes()))
      return signalPassFailure();
    addSharedBucketArguments(getOperation());
    RewritePatternSet patterns(ctx);
    // Bool and ui8 tensors are stored as i8: signatures, returns, calls and
    // constants change type with the ops (StorageTypes.cpp says why).
    TypeConverter storage;
    addStorageConversions(storage);
    patterns.add<EmptyResultsLowering>(storage, ctx);
    populateElementwiseToLinalgPatterns(patterns, storage);
    populateLinearToLinalgPatterns(patterns, storage);
    populateConvolutionToLinalgPatterns(patterns, convAsMatmul);
    populatePoolingToLinalgPatterns(patterns);
    populateNormalizationToLinalgPatterns(patterns);
    populateReductionToLinalgPatterns(patterns, storage);
    populateDataMovementToLinalgPatterns(patterns, storage);
    populateIndirectDataMovementToLinalgPatterns(patterns, storage);
    populateIndexingToLinalgPatterns(patterns, storage);
    populateRandomToLinalgPatterns(patterns);
    populateArithToLinalgPatterns(patterns);
    populateScanSortToLinalgPatterns(patterns);
    populateResizeToLinalgPatterns(patterns);
    populateCommunicationToLinalgPatterns(patterns);
    populateLogicalToLinalgPatterns(patterns, storage);
    populateStoredConstantPatterns(patterns, storage);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   storage);
    populateReturnOpTypeConversionPattern(patterns, storage);
    populateCallOpTypeConversionPattern(patterns, storage);

    ConversionTarget target(*ctx);
    target.addIllegalDialect<MSDialect>();
    target.addLegalDialect<bufferization::BufferizationDialect,
                           linalg::LinalgDialect, math::MathDialect,
                           scf::SCFDialect, tensor::TensorDialect>();
    target.addDynamicallyLegalDialect<arith::ArithDialect>(isStorageLegal);
    target.markUnknownOpDynamicallyLegal(isStorageLegal);
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp func) {
      return storage.isSignatureLegal(func.getFunctionType()) &&
             storage.isLegal(&func.getBody());
    });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      return signalPassFailure();
    splitBucketSumSlices(getOperation());
  }

  /// The lowerings build static-shaped tensors: a ? dim that reaches them
  /// is an error naming the op, not a crash.
  LogicalResult checkStaticShapes() {
    auto isDynamic = [](Type type) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      return tensor && !tensor.hasStaticShape();
    };
    WalkResult result = getOperation()->walk([&](Operation *op) {
      if (!isa<MSDialect>(op->getDialect()) ||
          (llvm::none_of(op->getOperandTypes(), isDynamic) &&
           llvm::none_of(op->getResultTypes(), isDynamic)))
        return WalkResult::advance();
      op->emitOpError("has a ? dim; ms ops lower on static shapes (a ? "
                      "batch is split into static tiles by "
                      "ms-split-dynamic-batch first, as every pipeline does)");
      return WalkResult::interrupt();
    });
    return failure(result.wasInterrupted());
  }
};

} // namespace
