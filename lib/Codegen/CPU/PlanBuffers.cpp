//===- PlanBuffers.cpp - A loop's per-iteration buffers once per thread ---===//
//
// See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "ms/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace ms {
#define GEN_PASS_DEF_MSPLANBUFFERS
#include "ms/Codegen/CPU/Passes.h.inc"
} // namespace ms

using namespace mlir;

namespace {

/// The iteration count of a bufferized, one-dimensional, outermost forall
/// from 0 with step 1 whose body allocates, if it is one.
std::optional<int64_t> plannableIterations(scf::ForallOp loop) {
  if (loop.getRank() != 1 || !loop.getOutputs().empty() ||
      loop.getMapping().has_value() ||
      loop->getParentOfType<scf::ForallOp>())
    return std::nullopt;
  int64_t upper = loop.getStaticUpperBound()[0];
  if (loop.getStaticLowerBound()[0] != 0 || loop.getStaticStep()[0] != 1 ||
      ShapedType::isDynamic(upper))
    return std::nullopt;
  WalkResult allocates = loop.getBody()->walk([](memref::AllocOp) {
    return WalkResult::interrupt();
  });
  if (!allocates.wasInterrupted())
    return std::nullopt;
  return upper;
}

/// An scf.for over [first, last) at the builder's point, running `loop`'s
/// body (moved, not copied: it is large, a conv's register tiles).
scf::ForOp moveIntoFor(OpBuilder &builder, scf::ForallOp loop, Value first,
                       Value last) {
  Location loc = loop.getLoc();
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  auto sequential = scf::ForOp::create(builder, loc, first, last, one);
  Block *from = loop.getBody();
  loop.getInductionVars()[0].replaceAllUsesWith(
      sequential.getInductionVar());
  Block *to = sequential.getBody();
  to->getOperations().splice(to->getTerminator()->getIterator(),
                             from->getOperations(), from->begin(),
                             from->getTerminator()->getIterator());
  return sequential;
}

/// forall (i) in (n) { body(i) } as forall (t) in (chunks) { for i in
/// [t * size, min((t + 1) * size, n)) { body(i) } }, or as the for alone
/// for one chunk.
scf::ForOp chunk(scf::ForallOp loop, int64_t iterations, int64_t threads) {
  int64_t size = llvm::divideCeil(iterations, threads);
  int64_t chunks = llvm::divideCeil(iterations, size);
  OpBuilder builder(loop);
  Location loc = loop.getLoc();
  Value count = arith::ConstantIndexOp::create(builder, loc, iterations);
  if (chunks == 1) {
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    return moveIntoFor(builder, loop, zero, count);
  }
  auto chunked = scf::ForallOp::create(
      builder, loc, ArrayRef<OpFoldResult>{builder.getIndexAttr(chunks)},
      ValueRange(), std::nullopt);
  builder.setInsertionPointToStart(chunked.getBody());
  Value sizeValue = arith::ConstantIndexOp::create(builder, loc, size);
  Value first = arith::MulIOp::create(
      builder, loc, chunked.getInductionVars()[0], sizeValue);
  Value end = arith::AddIOp::create(builder, loc, first, sizeValue);
  Value last = arith::MinSIOp::create(builder, loc, end, count);
  return moveIntoFor(builder, loop, first, last);
}

/// Moves the static allocations of `loop`'s body that the body does not
/// free to before the loop. The loop yields nothing, so no buffer leaves
/// an iteration: every iteration can reuse the same one.
void hoistAllocations(scf::ForOp loop) {
  for (Operation &op : llvm::make_early_inc_range(*loop.getBody())) {
    auto alloc = dyn_cast<memref::AllocOp>(op);
    if (!alloc || !alloc->getOperands().empty())
      continue;
    bool freedInside = llvm::any_of(alloc->getUsers(), [](Operation *user) {
      return isa<memref::DeallocOp>(user);
    });
    if (!freedInside)
      alloc->moveBefore(loop);
  }
}

struct MSPlanBuffersPass : ms::impl::MSPlanBuffersBase<MSPlanBuffersPass> {
  using MSPlanBuffersBase::MSPlanBuffersBase;

  void runOnOperation() override {
    int64_t threads = std::max(1u, unsigned(numThreads));
    SmallVector<std::pair<scf::ForallOp, int64_t>> loops;
    getOperation()->walk([&](scf::ForallOp loop) {
      // No more iterations than threads: one per thread already.
      std::optional<int64_t> iterations = plannableIterations(loop);
      if (iterations && *iterations > threads)
        loops.push_back({loop, *iterations});
    });
    for (auto [loop, iterations] : loops) {
      scf::ForOp sequential = chunk(loop, iterations, threads);
      loop.erase();
      hoistAllocations(sequential);
    }
  }
};

} // namespace
