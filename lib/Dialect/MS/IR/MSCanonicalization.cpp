//===- MSCanonicalization.cpp - Folders and canonicalization patterns -----===//
//
// Only rewrites that keep results bit for bit identical: mode parity
// (DESIGN §7) compares graph mode, where these run, with PyNative, where they
// do not.
//
//===----------------------------------------------------------------------===//

#include "ms/Dialect/MS/IR/MSOps.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace ms;

/// relu(relu(x)) is relu(x).
OpFoldResult ReluOp::fold(FoldAdaptor) {
  if (auto inner = getInput().getDefiningOp<ReluOp>())
    return inner.getResult();
  return {};
}

/// neg(neg(x)) is x.
OpFoldResult NegOp::fold(FoldAdaptor) {
  if (auto inner = getInput().getDefiningOp<NegOp>())
    return inner.getInput();
  return {};
}

/// abs(abs(x)) is abs(x).
OpFoldResult AbsOp::fold(FoldAdaptor) {
  if (auto inner = getInput().getDefiningOp<AbsOp>())
    return inner.getResult();
  return {};
}

/// Dropout is the identity at inference.
OpFoldResult DropoutOp::fold(FoldAdaptor) {
  if (!getTraining())
    return getInput();
  return {};
}

/// Flattening a rank-2 tensor (for example a flatten's result) changes nothing.
OpFoldResult FlattenOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

OpFoldResult ReshapeOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

OpFoldResult TransposeOp::fold(FoldAdaptor) {
  for (auto [i, p] : llvm::enumerate(getPerm()))
    if (static_cast<int64_t>(i) != p)
      return {};
  return getInput();
}

OpFoldResult ConcatOp::fold(FoldAdaptor) {
  if (getInputs().size() == 1)
    return getInputs().front();
  return {};
}

namespace {

/// reshape(reshape(x)) and reshape(flatten(x)) reshape x directly: both only
/// reinterpret the row-major element order.
struct ReshapeOfReshape : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    Operation *producer = op.getInput().getDefiningOp();
    if (!isa_and_nonnull<ReshapeOp, FlattenOp>(producer))
      return failure();
    auto resultType = cast<RankedTensorType>(op.getType());
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, producer->getOperand(0),
                                           resultType.getShape());
    return success();
  }
};

/// transpose(transpose(x, inner), outer) is one transpose of x.
struct TransposeOfTranspose : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getInput().getDefiningOp<TransposeOp>();
    if (!inner)
      return failure();
    SmallVector<int64_t> perm;
    for (int64_t p : op.getPerm())
      perm.push_back(inner.getPerm()[p]);
    rewriter.replaceOpWithNewOp<TransposeOp>(op, inner.getInput(), perm);
    return success();
  }
};

} // namespace

void ReshapeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                            MLIRContext *context) {
  results.add<ReshapeOfReshape>(context);
}

void TransposeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<TransposeOfTranspose>(context);
}
