//===- VectorizeTransposes.cpp - Transposes as shuffled square blocks -----===//
//
// A dense layer at O2 computes (w @ x^T)^T, so its input is transposed
// first: LeNet's [64, 400] activations become [400, 64]. LLVM copies such a
// transpose one element at a time, and ms-fuse-batch-loops would even pull
// it into the conv's loop over images as 400 strided stores per image.
// Here the transpose becomes square blocks of vectors: a block's rows read
// as vectors, transposed by shuffles, written as the output block's rows.
//
//===----------------------------------------------------------------------===//

#include "ms/Codegen/CPU/Passes.h"
#include "ms/Codegen/CPU/TileSizeModel.h"
#include "ms/Codegen/CPU/VectorizationUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

namespace ms {
#define GEN_PASS_DEF_MSVECTORIZETRANSPOSES
#include "ms/Codegen/CPU/Passes.h.inc"
} // namespace ms

using namespace mlir;
using namespace ms;

namespace {

/// A copy whose output dims are the input's rotated by `split`: input
/// [A..., B...] (A the first `split` dims) to output [B..., A...], that is
/// a [prod A, prod B] matrix transposed.
struct BlockTranspose {
  linalg::GenericOp op;
  unsigned split = 0;
  int64_t rows = 0, cols = 0; // of the input matrix
};

std::optional<BlockTranspose> matchTranspose(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() != 1 ||
      op.getNumDpsInits() != 1 ||
      op.getNumParallelLoops() != op.getNumLoops())
    return std::nullopt;
  Block *body = op.getBody();
  if (!body->without_terminator().empty() ||
      body->getTerminator()->getOperand(0) != body->getArgument(0))
    return std::nullopt;
  auto inType = dyn_cast<RankedTensorType>(op.getDpsInputs()[0].getType());
  if (!inType || !inType.hasStaticShape())
    return std::nullopt;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  unsigned rank = op.getNumLoops();
  if (!maps[1].isIdentity() || !maps[0].isPermutation() || rank < 2)
    return std::nullopt;
  // Input dim i is output dim (i + rank - split) mod rank.
  unsigned split = 0;
  if (auto first = dyn_cast<AffineDimExpr>(maps[0].getResult(0)))
    split = rank - first.getPosition();
  if (split == 0 || split == rank)
    return std::nullopt;
  for (unsigned i = 0; i < rank; ++i)
    if (maps[0].getResult(i) !=
        getAffineDimExpr((i + rank - split) % rank, op.getContext()))
      return std::nullopt;
  BlockTranspose transpose;
  transpose.op = op;
  transpose.split = split;
  transpose.rows = transpose.cols = 1;
  for (unsigned i = 0; i < rank; ++i)
    (i < split ? transpose.rows : transpose.cols) *= inType.getDimSize(i);
  return transpose;
}

/// The reassociation that collapses `rank` dims into [first `split`, rest].
SmallVector<ReassociationIndices> twoGroups(unsigned rank, unsigned split) {
  ReassociationIndices first, rest;
  for (unsigned i = 0; i < rank; ++i)
    (i < split ? first : rest).push_back(i);
  return {first, rest};
}

void emitBlocks(RewriterBase &rewriter, const BlockTranspose &transpose,
                int64_t block) {
  linalg::GenericOp op = transpose.op;
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  unsigned rank = op.getNumLoops();
  Value input = op.getDpsInputs()[0];
  Value init = op.getDpsInits()[0];
  Type elementType = getElementTypeOrSelf(input.getType());
  auto vectorType = VectorType::get({block}, elementType);
  Value matrix = tensor::CollapseShapeOp::create(
      rewriter, loc,
      RankedTensorType::get({transpose.rows, transpose.cols}, elementType),
      input, twoGroups(rank, transpose.split));
  auto outType = cast<RankedTensorType>(init.getType());
  SmallVector<ReassociationIndices> outGroups =
      twoGroups(rank, rank - transpose.split);
  Value out = tensor::CollapseShapeOp::create(
      rewriter, loc,
      RankedTensorType::get({transpose.cols, transpose.rows}, elementType),
      init, outGroups);
  Value padding = arith::ConstantOp::create(rewriter, loc, elementType,
                                            rewriter.getZeroAttr(elementType));
  auto index = [&](OpBuilder &b, int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto overRows = scf::ForOp::create(
      rewriter, loc, index(rewriter, 0), index(rewriter, transpose.rows),
      index(rewriter, block), ValueRange{out},
      [&](OpBuilder &rb, Location, Value i0, ValueRange rowArgs) {
        auto overCols = scf::ForOp::create(
            rb, loc, index(rb, 0), index(rb, transpose.cols), index(rb, block),
            rowArgs,
            [&](OpBuilder &b, Location, Value j0, ValueRange args) {
              SmallVector<Value> rows;
              for (int64_t r = 0; r < block; ++r)
                rows.push_back(vector::TransferReadOp::create(
                    b, loc, vectorType, matrix,
                    ValueRange{b.createOrFold<arith::AddIOp>(loc, i0,
                                                             index(b, r)),
                               j0},
                    padding, ArrayRef<bool>{true}));
              SmallVector<Value> columns = transposeRows(b, loc, rows);
              Value result = args[0];
              for (int64_t c = 0; c < block; ++c)
                result = vector::TransferWriteOp::create(
                             b, loc, columns[c], result,
                             ValueRange{b.createOrFold<arith::AddIOp>(
                                            loc, j0, index(b, c)),
                                        i0},
                             ArrayRef<bool>{true})
                             ->getResult(0);
              scf::YieldOp::create(b, loc, result);
            });
        scf::YieldOp::create(rb, loc, overCols.getResults());
      });
  Value transposed = tensor::ExpandShapeOp::create(
      rewriter, loc, outType, overRows.getResult(0), outGroups);
  rewriter.replaceOp(op, transposed);
}

struct MSVectorizeTransposesPass
    : ms::impl::MSVectorizeTransposesBase<MSVectorizeTransposesPass> {
  using MSVectorizeTransposesBase::MSVectorizeTransposesBase;

  void runOnOperation() override {
    CpuModel cpu = CpuModel::host();
    if (vectorLanes)
      cpu.vectorLanes = vectorLanes;
    int64_t block = chooseTransposeBlock(cpu);
    SmallVector<BlockTranspose> transposes;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (std::optional<BlockTranspose> transpose = matchTranspose(op))
        if (transpose->rows % block == 0 && transpose->cols % block == 0)
          transposes.push_back(*transpose);
    });
    IRRewriter rewriter(&getContext());
    for (const BlockTranspose &transpose : transposes)
      emitBlocks(rewriter, transpose, block);
  }
};

} // namespace
