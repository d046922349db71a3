//===- ParallelizeGenerics.cpp - Large generics split over threads ---------===//
//
// O2's matmuls and im2col convs run in parallel loops of their own; this
// splits the large ops around them (pooling, fused epilogues) the same way,
// so the sequential rest does not dominate on several threads.
//
//===----------------------------------------------------------------------===//

#include "ms/Codegen/CPU/Passes.h"
#include "ms/Codegen/CPU/TileSizeModel.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace ms {
#define GEN_PASS_DEF_MSPARALLELIZEGENERICS
#include "ms/Codegen/CPU/Passes.h.inc"
} // namespace ms

using namespace mlir;

namespace {

struct MSParallelizeGenericsPass
    : ms::impl::MSParallelizeGenericsBase<MSParallelizeGenericsPass> {
  using MSParallelizeGenericsBase::MSParallelizeGenericsBase;

  /// Large, all-static, outermost loop parallel and worth a chunk per thread.
  bool isCandidate(linalg::GenericOp op) const {
    if (!op.hasPureTensorSemantics() || op->getParentOfType<scf::ForallOp>())
      return false;
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    if (ranges.empty() || llvm::any_of(ranges, ShapedType::isDynamic) ||
        op.getIteratorTypesArray().front() != utils::IteratorType::parallel ||
        ranges.front() < static_cast<int64_t>(numThreads))
      return false;
    int64_t iterations = 1;
    for (int64_t range : ranges)
      iterations *= range;
    return iterations >= (minIterations ? int64_t(minIterations)
                                        : ms::kMinParallelIterations);
  }

  void runOnOperation() override {
    if (numThreads <= 1)
      return;
    SmallVector<linalg::GenericOp> candidates;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (isCandidate(op))
        candidates.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : candidates) {
      rewriter.setInsertionPoint(op);
      SmallVector<OpFoldResult> threads(op.getNumLoops(),
                                        rewriter.getIndexAttr(0));
      threads.front() = rewriter.getIndexAttr(numThreads);
      auto part = cast<TilingInterface>(op.getOperation());
      int64_t rows = op.getStaticLoopRanges().front();
      int64_t even = rows - rows % numThreads;
      if (even != rows)
        // The leftover rows run after the chunks, on one thread, so every
        // chunk is static: a chunk clamped by an affine.min of the thread
        // index cannot bound the affine loops the op becomes.
        part = linalg::splitOp(rewriter, part, 0, rewriter.getIndexAttr(even))
                   .first;
      scf::SCFTilingOptions options;
      options.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
      options.setNumThreads(threads);
      rewriter.setInsertionPoint(part);
      auto tiled = scf::tileUsingSCF(rewriter, part, options);
      if (failed(tiled)) {
        part->emitOpError("could not be split over threads");
        return signalPassFailure();
      }
      rewriter.replaceOp(part, tiled->replacements);
    }
  }
};

} // namespace
