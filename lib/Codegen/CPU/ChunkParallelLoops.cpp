//===- ChunkParallelLoops.cpp - One chunk of a parallel loop per thread ---===//
//
// See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "ms/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace ms {
#define GEN_PASS_DEF_MSCHUNKPARALLELLOOPS
#include "ms/Codegen/CPU/Passes.h.inc"
} // namespace ms

using namespace mlir;

namespace {

/// The iteration count of a bufferized, one-dimensional, outermost forall
/// from 0 with step 1 whose body allocates, if it is one.
std::optional<int64_t> chunkableIterations(scf::ForallOp loop) {
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

/// forall (i) in (n) { body(i) } as forall (t) in (threads) { for i in
/// [t * chunk, min((t + 1) * chunk, n)) { body(i) } }.
void chunk(scf::ForallOp loop, int64_t iterations, int64_t threads) {
  int64_t size = llvm::divideCeil(iterations, threads);
  int64_t chunks = llvm::divideCeil(iterations, size);
  OpBuilder builder(loop);
  Location loc = loop.getLoc();
  auto chunked = scf::ForallOp::create(
      builder, loc, ArrayRef<OpFoldResult>{builder.getIndexAttr(chunks)},
      ValueRange(), std::nullopt);
  builder.setInsertionPointToStart(chunked.getBody());
  Value index = chunked.getInductionVars()[0];
  Value sizeValue = arith::ConstantIndexOp::create(builder, loc, size);
  Value first = arith::MulIOp::create(builder, loc, index, sizeValue);
  Value end = arith::AddIOp::create(builder, loc, first, sizeValue);
  Value last = arith::MinSIOp::create(
      builder, loc, end,
      arith::ConstantIndexOp::create(builder, loc, iterations));
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  auto inner = scf::ForOp::create(builder, loc, first, last, one);
  builder.setInsertionPointToStart(inner.getBody());
  IRMapping mapping;
  mapping.map(loop.getInductionVars()[0], inner.getInductionVar());
  for (Operation &op : loop.getBody()->without_terminator())
    builder.clone(op, mapping);
  loop.erase();
}

struct MSChunkParallelLoopsPass
    : ms::impl::MSChunkParallelLoopsBase<MSChunkParallelLoopsPass> {
  using MSChunkParallelLoopsBase::MSChunkParallelLoopsBase;

  void runOnOperation() override {
    if (numThreads < 2)
      return;
    SmallVector<std::pair<scf::ForallOp, int64_t>> loops;
    getOperation()->walk([&](scf::ForallOp loop) {
      std::optional<int64_t> iterations = chunkableIterations(loop);
      if (iterations && *iterations > int64_t(numThreads))
        loops.push_back({loop, *iterations});
    });
    for (auto [loop, iterations] : loops)
      chunk(loop, iterations, numThreads);
  }
};

} // namespace
