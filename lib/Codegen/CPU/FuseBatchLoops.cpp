//===- FuseBatchLoops.cpp - Conv layers image by image in one loop --------===//
//
// O1/O2 lower each conv to an scf.forall over the batch that produces one
// image per iteration. Run one after the other, every layer streams the
// whole batch through memory, and on several threads every layer ends in a
// join. Pulling the layers that follow (epilogues, pooling, the next conv)
// into the same loop keeps each image in cache from the first conv to the
// last pool, and lets each thread work through whole images.
//
//===----------------------------------------------------------------------===//

#include "ms/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/RegionUtils.h"

namespace ms {
#define GEN_PASS_DEF_MSFUSEBATCHLOOPS
#include "ms/Codegen/CPU/Passes.h.inc"
} // namespace ms

using namespace mlir;

namespace {

/// True for the slice [iv, 0, ...] x [1, full, ...] with unit strides of a
/// statically shaped `whole`: image `iv` of a batch.
bool isImageSlice(ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes,
                  ArrayRef<OpFoldResult> strides, RankedTensorType whole,
                  Value iv) {
  if (!whole.hasStaticShape() || offsets.empty() ||
      dyn_cast<Value>(offsets.front()) != iv ||
      !isConstantIntValue(sizes.front(), 1))
    return false;
  for (unsigned i = 1, e = offsets.size(); i < e; ++i)
    if (!isConstantIntValue(offsets[i], 0) ||
        !isConstantIntValue(sizes[i], whole.getDimSize(i)))
      return false;
  return areAllConstantIntValue(strides, 1);
}

/// A loop over images 0..batch-1 whose every shared output receives one
/// whole image, [1, ...] at [iv, 0, ...], per iteration.
struct BatchLoop {
  scf::ForallOp loop;
  int64_t batch = 0;
  /// Per shared output, the insert of this iteration's image.
  SmallVector<tensor::ParallelInsertSliceOp> inserts;

  Value image(unsigned result) { return inserts[result].getSource(); }
};

std::optional<BatchLoop> matchBatchLoop(scf::ForallOp loop) {
  if (loop.getRank() != 1 || loop.getMapping())
    return std::nullopt;
  std::optional<int64_t> lb = getConstantIntValue(loop.getMixedLowerBound()[0]);
  std::optional<int64_t> ub = getConstantIntValue(loop.getMixedUpperBound()[0]);
  std::optional<int64_t> step = getConstantIntValue(loop.getMixedStep()[0]);
  if (lb != 0 || step != 1 || !ub)
    return std::nullopt;
  BatchLoop match{loop, *ub, {}};
  Value iv = loop.getInductionVar(0);
  for (BlockArgument out : loop.getRegionIterArgs()) {
    SmallVector<Operation *> combining = loop.getCombiningOps(out);
    auto insert = combining.size() == 1
                      ? dyn_cast<tensor::ParallelInsertSliceOp>(combining[0])
                      : nullptr;
    if (!insert || insert.getSourceType().getRank() !=
                       insert.getDestType().getRank() ||
        !isImageSlice(insert.getMixedOffsets(), insert.getMixedSizes(),
                      insert.getMixedStrides(), insert.getDestType(), iv))
      return std::nullopt;
    match.inserts.push_back(insert);
  }
  return match;
}

/// Moves the definitions of `values` that follow `loop` in its block (and
/// what they depend on) before it; fails if one depends on the loop or has
/// side effects.
LogicalResult defineBefore(RewriterBase &rewriter, ArrayRef<Value> values,
                           Operation *loop) {
  SmallVector<Value> later;
  for (Value v : values)
    if (Operation *def = v.getDefiningOp())
      if (def->getBlock() == loop->getBlock() && loop->isBeforeInBlock(def))
        later.push_back(v);
  if (later.empty())
    return success();
  return moveValueDefinitions(rewriter, later, loop);
}

/// `loop` with `extraInits` as further shared outputs (their insert ops are
/// the caller's to add); `loop`'s results become the new loop's first ones.
scf::ForallOp appendOutputs(RewriterBase &rewriter, scf::ForallOp loop,
                            ValueRange extraInits) {
  SmallVector<Value> inits(loop.getOutputs());
  llvm::append_range(inits, extraInits);
  rewriter.setInsertionPoint(loop);
  auto grown = scf::ForallOp::create(
      rewriter, loop.getLoc(), loop.getMixedLowerBound(),
      loop.getMixedUpperBound(), loop.getMixedStep(), inits, std::nullopt);
  rewriter.eraseOp(grown.getTerminator());
  Block *body = grown.getBody();
  rewriter.mergeBlocks(
      loop.getBody(), body,
      body->getArguments().take_front(loop.getBody()->getNumArguments()));
  rewriter.replaceOp(loop, grown.getResults().take_front(loop.getNumResults()));
  return grown;
}

/// The loop dimension of `consumer` along which it reads `loop`'s results,
/// if it reads them only image by image: each such operand is an input whose
/// map starts with one parallel dimension over the whole batch that no other
/// map result uses, and each output is indexed by that dimension too (so
/// iterations write disjoint images).
std::optional<unsigned> consumerBatchDim(linalg::GenericOp consumer,
                                         BatchLoop &producer) {
  if (!consumer.hasPureTensorSemantics())
    return std::nullopt;
  std::optional<unsigned> dim;
  for (OpOperand &operand : consumer->getOpOperands()) {
    if (operand.get().getDefiningOp() != producer.loop)
      continue;
    AffineMap map = consumer.getMatchingIndexingMap(&operand);
    auto first = dyn_cast<AffineDimExpr>(map.getResult(0));
    if (!consumer.isDpsInput(&operand) || !first ||
        (dim && *dim != first.getPosition()) ||
        llvm::any_of(map.getResults().drop_front(), [&](AffineExpr e) {
          return e.isFunctionOfDim(first.getPosition());
        }))
      return std::nullopt;
    dim = first.getPosition();
  }
  if (!dim ||
      consumer.getIteratorTypesArray()[*dim] != utils::IteratorType::parallel ||
      consumer.getStaticLoopRanges()[*dim] != producer.batch)
    return std::nullopt;
  AffineExpr batchExpr = getAffineDimExpr(*dim, consumer.getContext());
  for (OpOperand &init : consumer.getDpsInitsMutable())
    if (!llvm::is_contained(consumer.getMatchingIndexingMap(&init).getResults(),
                            batchExpr))
      return std::nullopt;
  return dim;
}

/// An op that only fills its output (pooling's -inf or a zero init): it is
/// computed image by image in the loop too rather than over the whole batch.
linalg::LinalgOp fillOf(Value init) {
  auto fill = init.getDefiningOp<linalg::LinalgOp>();
  if (!fill || !fill.hasPureTensorSemantics() || fill.getNumDpsInputs() != 0 ||
      fill->getNumResults() != 1 ||
      fill.getNumLoops() != fill.getNumParallelLoops() ||
      !fill.getMatchingIndexingMap(fill.getDpsInitOperand(0)).isIdentity())
    return nullptr;
  return fill;
}

/// Points the tiled consumer's inputs that slice `loop`'s results at this
/// iteration's images instead.
void readImages(RewriterBase &rewriter, BatchLoop &producer, scf::ForallOp loop,
                linalg::LinalgOp tiledOp) {
  for (OpOperand *input : tiledOp.getDpsInputOperands()) {
    auto slice = input->get().getDefiningOp<tensor::ExtractSliceOp>();
    auto result = slice ? dyn_cast<OpResult>(slice.getSource()) : OpResult();
    if (!result || result.getOwner() != loop)
      continue;
    Value image = producer.image(result.getResultNumber());
    if (image.getType() != slice.getType()) {
      // The op reads part of the image (floor-mode pooling skips the last
      // row): the same part of this iteration's image.
      SmallVector<OpFoldResult> offsets = slice.getMixedOffsets();
      offsets.front() = rewriter.getIndexAttr(0);
      rewriter.setInsertionPoint(tiledOp);
      image = tensor::ExtractSliceOp::create(
          rewriter, slice.getLoc(), slice.getType(), image, offsets,
          slice.getMixedSizes(), slice.getMixedStrides());
    }
    rewriter.modifyOpInPlace(tiledOp, [&] { input->set(image); });
    // A slice of the loop's own result inside the loop would read it early.
    if (slice->use_empty())
      rewriter.eraseOp(slice);
  }
}

/// Makes the tiled op's init `init` (a slice of the shared output) the
/// image-sized tile of `fill`, which initialized the whole batch's output.
LogicalResult fillTileOf(RewriterBase &rewriter, linalg::LinalgOp fill,
                         tensor::ExtractSliceOp slice, linalg::LinalgOp tiledOp,
                         OpOperand &init) {
  rewriter.setInsertionPoint(tiledOp);
  FailureOr<TilingResult> tiledFill =
      cast<TilingInterface>(fill.getOperation())
          .getTiledImplementation(rewriter, slice.getMixedOffsets(),
                                  slice.getMixedSizes());
  if (failed(tiledFill) || tiledFill->tiledOps.size() != 1)
    return fill.emitOpError("could not be tiled to one image");
  Operation *fillTile = tiledFill->tiledOps.front();
  OpOperand &fillInit =
      cast<linalg::LinalgOp>(fillTile).getDpsInitsMutable()[0];
  Operation *fillSlice = fillInit.get().getDefiningOp();
  rewriter.modifyOpInPlace(fillTile, [&] { fillInit.set(slice); });
  if (fillSlice && fillSlice->use_empty())
    rewriter.eraseOp(fillSlice);
  rewriter.modifyOpInPlace(tiledOp,
                           [&] { init.set(tiledFill->tiledValues.front()); });
  return success();
}

/// Points the tiled op's init slices at the loop's new shared outputs (from
/// `oldResults` on), each filled image by image where a fill initialized it.
LogicalResult writeSharedOutputs(RewriterBase &rewriter, scf::ForallOp loop,
                                 unsigned oldResults,
                                 linalg::GenericOp consumer,
                                 linalg::LinalgOp tiledOp) {
  for (auto [i, init] : llvm::enumerate(tiledOp.getDpsInitsMutable())) {
    auto slice = init.get().getDefiningOp<tensor::ExtractSliceOp>();
    if (!slice)
      return consumer.emitOpError("tiled without a slice of its init");
    rewriter.modifyOpInPlace(slice, [&] {
      slice.getSourceMutable().assign(loop.getRegionIterArgs()[oldResults + i]);
    });
    linalg::LinalgOp fill = fillOf(consumer.getDpsInits()[i]);
    if (fill && failed(fillTileOf(rewriter, fill, slice, tiledOp, init)))
      return failure();
  }
  return success();
}

/// Inserts each tiled result into its shared output in the loop's
/// terminator.
LogicalResult insertResults(RewriterBase &rewriter, scf::ForallOp loop,
                            unsigned oldResults, linalg::GenericOp consumer,
                            const TilingResult &tiled,
                            ArrayRef<OpFoldResult> offsets,
                            ArrayRef<OpFoldResult> sizes) {
  auto tileable = cast<TilingInterface>(consumer.getOperation());
  for (auto [i, value] : llvm::enumerate(tiled.tiledValues)) {
    SmallVector<OpFoldResult> resultOffsets, resultSizes;
    if (failed(tileable.getResultTilePosition(rewriter, i, offsets, sizes,
                                              resultOffsets, resultSizes)))
      return consumer.emitOpError("has no tile position for its result");
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToEnd(loop.getTerminator().getBody());
    SmallVector<OpFoldResult> strides(resultOffsets.size(),
                                      rewriter.getIndexAttr(1));
    tensor::ParallelInsertSliceOp::create(
        rewriter, consumer.getLoc(), value,
        loop.getRegionIterArgs()[oldResults + i], resultOffsets, resultSizes,
        strides);
  }
  return success();
}

/// Computes `consumer` inside `producer`, one image per iteration, from the
/// images the loop has just produced.
/// Fails without changes when the consumer's other operands cannot be
/// defined before the loop; sets `broken` when it fails halfway.
LogicalResult fuseConsumer(RewriterBase &rewriter, BatchLoop &producer,
                           linalg::GenericOp consumer, unsigned batchDim,
                           bool &broken) {
  SmallVector<Value> outside;
  for (Value v : consumer->getOperands())
    if (v.getDefiningOp() != producer.loop)
      outside.push_back(v);
  if (failed(defineBefore(rewriter, outside, producer.loop)))
    return failure();

  unsigned oldResults = producer.loop.getNumResults();
  SmallVector<Value> inits;
  for (Value init : consumer.getDpsInits()) {
    linalg::LinalgOp fill = fillOf(init);
    inits.push_back(fill ? fill.getDpsInits()[0] : init);
  }
  scf::ForallOp loop = appendOutputs(rewriter, producer.loop, inits);
  auto tileable = cast<TilingInterface>(consumer.getOperation());
  rewriter.setInsertionPoint(loop.getTerminator());
  SmallVector<OpFoldResult> offsets, sizes;
  for (auto [i, range] :
       llvm::enumerate(tileable.getIterationDomain(rewriter))) {
    bool batch = i == batchDim;
    offsets.push_back(batch ? OpFoldResult(loop.getInductionVar(0))
                            : range.offset);
    sizes.push_back(batch ? rewriter.getIndexAttr(1) : range.size);
  }
  FailureOr<TilingResult> tiled =
      tileable.getTiledImplementation(rewriter, offsets, sizes);
  broken = true;
  if (failed(tiled) || tiled->tiledOps.size() != 1)
    return consumer.emitOpError("could not be tiled to one image");
  auto tiledOp = cast<linalg::LinalgOp>(tiled->tiledOps.front());
  // Tiling sliced the loop's results and the consumer's inits: read this
  // iteration's images instead, and write into the new shared outputs.
  readImages(rewriter, producer, loop, tiledOp);
  if (failed(
          writeSharedOutputs(rewriter, loop, oldResults, consumer, tiledOp)) ||
      failed(insertResults(rewriter, loop, oldResults, consumer, *tiled,
                           offsets, sizes)))
    return failure();
  rewriter.replaceOp(consumer, loop.getResults().drop_front(oldResults));
  broken = false;
  return success();
}

/// Merges `second` into `first` when iteration i of `second` reads only
/// image i of `first`'s results: the body of `second` then runs right after
/// `first`'s, on the images it has just produced.
LogicalResult fuseLoops(RewriterBase &rewriter, BatchLoop &first,
                        BatchLoop &second) {
  if (first.batch != second.batch)
    return failure();
  Value secondIv = second.loop.getInductionVar(0);
  SmallVector<tensor::ExtractSliceOp> reads;
  for (OpResult result : first.loop->getResults())
    for (Operation *user : result.getUsers()) {
      if (!second.loop->isProperAncestor(user))
        continue;
      auto slice = dyn_cast<tensor::ExtractSliceOp>(user);
      if (!slice || slice->getBlock() != second.loop.getBody() ||
          slice.getSource() != result ||
          !isImageSlice(slice.getMixedOffsets(), slice.getMixedSizes(),
                        slice.getMixedStrides(), slice.getSourceType(),
                        secondIv))
        return failure();
      reads.push_back(slice);
    }
  if (reads.empty() || llvm::any_of(second.loop.getOutputs(), [&](Value v) {
        return v.getDefiningOp() == first.loop;
      }))
    return failure();
  llvm::SetVector<Value> usedAbove;
  getUsedValuesDefinedAbove(second.loop.getRegion(), usedAbove);
  SmallVector<Value> outside(second.loop.getOutputs());
  for (Value v : usedAbove)
    if (v.getDefiningOp() != first.loop)
      outside.push_back(v);
  if (failed(defineBefore(rewriter, outside, first.loop)))
    return failure();

  unsigned firstResults = first.loop.getNumResults();
  scf::ForallOp merged =
      appendOutputs(rewriter, first.loop, second.loop.getOutputs());
  for (tensor::ExtractSliceOp slice : reads) {
    Value image =
        first.image(cast<OpResult>(slice.getSource()).getResultNumber());
    rewriter.setInsertionPoint(slice);
    SmallVector<OpFoldResult> zeros(slice.getMixedOffsets().size(),
                                    rewriter.getIndexAttr(0));
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        slice, slice.getType(), image, zeros, slice.getMixedSizes(),
        slice.getMixedStrides());
  }
  SmallVector<Value> args = {merged.getInductionVar(0)};
  llvm::append_range(args, merged.getRegionIterArgs().drop_front(firstResults));
  scf::InParallelOp secondInserts = second.loop.getTerminator();
  rewriter.inlineBlockBefore(second.loop.getBody(), merged.getTerminator(),
                             args);
  Block *inserts = merged.getTerminator().getBody();
  for (Operation &op :
       llvm::make_early_inc_range(secondInserts.getBody()->getOperations()))
    rewriter.moveOpBefore(&op, inserts, inserts->end());
  rewriter.eraseOp(secondInserts);
  rewriter.replaceOp(second.loop, merged.getResults().drop_front(firstResults));
  return success();
}

struct MSFuseBatchLoopsPass
    : ms::impl::MSFuseBatchLoopsBase<MSFuseBatchLoopsPass> {
  /// Grows one batch loop by one consumer; false when there is none left,
  /// or when a fusion failed halfway (`failed`).
  bool fuseOnce(RewriterBase &rewriter, bool &failed) {
    SmallVector<scf::ForallOp> loops;
    getOperation()->walk([&](scf::ForallOp loop) { loops.push_back(loop); });
    for (scf::ForallOp loop : loops) {
      std::optional<BatchLoop> producer = matchBatchLoop(loop);
      if (!producer)
        continue;
      // Users in block order, so a layer is fused before the ones after it.
      SmallVector<Operation *> users;
      for (Operation *user : loop->getUsers())
        if (Operation *inBlock = loop->getBlock()->findAncestorOpInBlock(*user))
          if (inBlock != loop && !llvm::is_contained(users, inBlock))
            users.push_back(inBlock);
      llvm::sort(users, [](Operation *a, Operation *b) {
        return a->isBeforeInBlock(b);
      });
      for (Operation *user : users) {
        if (auto consumer = dyn_cast<linalg::GenericOp>(user)) {
          std::optional<unsigned> dim = consumerBatchDim(consumer, *producer);
          if (!dim)
            continue;
          if (succeeded(fuseConsumer(rewriter, *producer, consumer, *dim,
                                     failed)))
            return true;
          if (failed)
            return false;
          continue;
        }
        auto next = dyn_cast<scf::ForallOp>(user);
        std::optional<BatchLoop> second =
            next ? matchBatchLoop(next) : std::nullopt;
        if (second && succeeded(fuseLoops(rewriter, *producer, *second)))
          return true;
      }
    }
    return false;
  }

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    bool failed = false;
    while (fuseOnce(rewriter, failed))
      ;
    if (failed)
      signalPassFailure();
  }
};

} // namespace
