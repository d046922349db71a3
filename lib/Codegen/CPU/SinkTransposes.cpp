//===- SinkTransposes.cpp - Elementwise ops on the untransposed operand ---===//
//
// A dense layer computes (w @ x^T)^T: its matmul yields the result
// transposed, [out, batch], and a transpose brings it back before the
// bias add and the activation. The next dense layer transposes that
// activation again, for its own x^T. Fused, the transpose back became a
// bias add that gathered its input column by column.
//
// Here an elementwise op whose full-size input is a 2-D transpose runs on
// the transpose's input instead, and the transpose moves below it: the
// bias add and the activation read and write contiguous rows, and where
// the next layer transposes the activation again, the two transposes
// cancel. Each element sees the same operations in the same order, so the
// bits do not change.
//
//===----------------------------------------------------------------------===//

#include "ms/Codegen/CPU/MatrixTransposes.h"
#include "ms/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace ms {
#define GEN_PASS_DEF_MSSINKTRANSPOSES
#include "ms/Codegen/CPU/Passes.h.inc"
} // namespace ms

using namespace mlir;
using ms::emptyTransposeOf;
using ms::transposeOf;

namespace {

/// The input of `value`'s 2-D transpose ([1, 0]), or null.
Value transposedFrom(Value value) {
  auto transpose = value.getDefiningOp<linalg::TransposeOp>();
  if (!transpose || transpose.getPermutation() != ArrayRef<int64_t>{1, 0})
    return nullptr;
  return transpose.getInput();
}

/// A 2-D elementwise op whose one result is written whole (identity map,
/// its init never read) and on static shapes. Its payload must not read
/// the indices (a dropout's counter-based mask: swapped, they would be
/// each other's) nor touch memory (it would run in another order).
bool isPlainElementwise(linalg::GenericOp op) {
  auto pure = [](Operation &payloadOp) {
    return isMemoryEffectFree(&payloadOp);
  };
  if (!op.hasPureTensorSemantics() || op.hasIndexSemantics() ||
      !llvm::all_of(op.getBody()->without_terminator(), pure) ||
      op.getNumLoops() != 2 ||
      op.getNumDpsInits() != 1 ||
      op.getNumParallelLoops() != op.getNumLoops())
    return false;
  OpOperand *init = op.getDpsInitOperand(0);
  auto type = dyn_cast<RankedTensorType>(init->get().getType());
  return type && type.hasStaticShape() &&
         op.getMatchingIndexingMap(init).isIdentity() &&
         !op.payloadUsesValueFromOperand(init);
}

/// Whether reading `input` in the swapped iteration space costs no more
/// than before: it is a transpose read whole that nothing else reads (it
/// becomes a plain read of the transpose's input; a transpose kept for
/// another reader would be one more), or it varies along at most one
/// dimension (a bias, a scalar).
bool readsAsWell(linalg::GenericOp op, OpOperand *input) {
  AffineMap map = op.getMatchingIndexingMap(input);
  if (map.isIdentity())
    return transposedFrom(input->get()) && input->get().hasOneUse();
  return map.isProjectedPermutation() && map.getNumResults() <= 1;
}

/// generic(transpose(x), b) -> transpose(generic'(x, b)), generic' iterating
/// the swapped space, when every input reads as well there and one of them
/// is a transpose read whole.
struct SinkTransposeBelowElementwise
    : public OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!isPlainElementwise(op))
      return rewriter.notifyMatchFailure(op, "not a plain 2-D elementwise op");
    bool anyTransposed = false;
    for (OpOperand *input : op.getDpsInputOperands()) {
      if (!readsAsWell(op, input))
        return rewriter.notifyMatchFailure(op, "an input would be gathered");
      anyTransposed |= op.getMatchingIndexingMap(input).isIdentity();
    }
    if (!anyTransposed)
      return rewriter.notifyMatchFailure(op, "no transposed input");

    AffineMap swap = AffineMap::getPermutationMap(ArrayRef<unsigned>{1, 0},
                                                  rewriter.getContext());
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(input);
      inputs.push_back(map.isIdentity() ? transposedFrom(input->get())
                                        : input->get());
      maps.push_back(map.isIdentity() ? map : map.compose(swap));
    }
    maps.push_back(rewriter.getMultiDimIdentityMap(2));
    Location loc = op.getLoc();
    Value swappedInit = emptyTransposeOf(rewriter, loc, op.getResult(0));
    auto swapped = linalg::GenericOp::create(
        rewriter, loc, swappedInit.getType(), inputs, swappedInit, maps,
        op.getIteratorTypesArray());
    rewriter.inlineRegionBefore(op.getRegion(), swapped.getRegion(),
                                swapped.getRegion().begin());
    rewriter.replaceOp(op, transposeOf(rewriter, loc, swapped.getResult(0)));
    return success();
  }
};

/// transpose(transpose(x)) -> x.
struct CancelTransposePair : public OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getPermutation() != ArrayRef<int64_t>{1, 0})
      return failure();
    Value original = transposedFrom(op.getInput());
    if (!original || original.getType() != op->getResult(0).getType())
      return failure();
    rewriter.replaceOp(op, original);
    return success();
  }
};

struct MSSinkTransposesPass
    : ms::impl::MSSinkTransposesBase<MSSinkTransposesPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<SinkTransposeBelowElementwise, CancelTransposePair>(
        &getContext());
    // Each rewrite stands on its own, so one the driver had no iterations
    // left for is only a transpose not moved.
    (void)applyPatternsGreedily(getOperation(), std::move(patterns));
  }
};

} // namespace
