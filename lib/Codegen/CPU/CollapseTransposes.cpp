//===- CollapseTransposes.cpp - Transposes as 2-D linalg.transpose --------===//
//
// A dense layer computes (w @ x^T)^T, so its input is transposed first:
// LeNet's [64, 400] activations become [400, 64]. As a linalg.generic, such
// a transpose is copied one element at a time, and ms-fuse-batch-loops
// would even pull it into the conv's loop over images as 400 strided
// stores per image. Here it becomes a 2-D `linalg.transpose` between
// collapse_shape and expand_shape: fusion leaves a named op alone, and
// after bufferization ms-transposes-to-calls hands it to the runtime's
// transpose kernel (Microkernels.h), which no compile pays for.
//
//===----------------------------------------------------------------------===//

#include "ms/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace ms {
#define GEN_PASS_DEF_MSCOLLAPSETRANSPOSES
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

/// For a copy from input [A..., B...] to output [B..., A...] (identity
/// output map), the number of dims in A; none for any other permutation.
std::optional<unsigned> rotationSplit(linalg::LinalgOp op) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  unsigned rank = op.getNumLoops();
  if (maps.size() != 2 || !maps[1].isIdentity() ||
      !maps[0].isPermutation() || rank < 2)
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
  return split;
}

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
  std::optional<unsigned> split = rotationSplit(op);
  if (!split)
    return std::nullopt;
  unsigned rank = op.getNumLoops();
  BlockTranspose transpose;
  transpose.op = op;
  transpose.split = *split;
  transpose.rows = transpose.cols = 1;
  for (unsigned i = 0; i < rank; ++i)
    (i < *split ? transpose.rows : transpose.cols) *= inType.getDimSize(i);
  return transpose;
}

/// The reassociation that collapses `rank` dims into [first `split`, rest].
SmallVector<ReassociationIndices> twoGroups(unsigned rank, unsigned split) {
  ReassociationIndices first, rest;
  for (unsigned i = 0; i < rank; ++i)
    (i < split ? first : rest).push_back(i);
  return {first, rest};
}

void collapse(RewriterBase &rewriter, const BlockTranspose &transpose) {
  linalg::GenericOp op = transpose.op;
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  unsigned rank = op.getNumLoops();
  Value input = op.getDpsInputs()[0];
  Value init = op.getDpsInits()[0];
  Type elementType = getElementTypeOrSelf(input.getType());
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
  auto transposed = linalg::TransposeOp::create(rewriter, loc, matrix, out,
                                                ArrayRef<int64_t>{1, 0});
  rewriter.replaceOp(op, tensor::ExpandShapeOp::create(
                             rewriter, loc, outType,
                             transposed->getResult(0), outGroups));
}

/// Named rotations of more than two dims on static tensors as generics,
/// which the pass then matches: fusion's reshape propagation turns a
/// flattened image's 2-D x^T into one. Other named transposes stay named.
void generalizeTransposes(Operation *root, RewriterBase &rewriter) {
  SmallVector<linalg::TransposeOp> named;
  root->walk([&](linalg::TransposeOp op) {
    auto type = dyn_cast<RankedTensorType>(op.getInput().getType());
    if (op.hasPureTensorSemantics() && type && type.hasStaticShape() &&
        type.getRank() > 2 && rotationSplit(op))
      named.push_back(op);
  });
  for (linalg::TransposeOp op : named) {
    rewriter.setInsertionPoint(op);
    (void)linalg::generalizeNamedOp(rewriter, op);
  }
}

struct MSCollapseTransposesPass
    : ms::impl::MSCollapseTransposesBase<MSCollapseTransposesPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    generalizeTransposes(getOperation(), rewriter);
    SmallVector<BlockTranspose> transposes;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (std::optional<BlockTranspose> transpose = matchTranspose(op))
        transposes.push_back(*transpose);
    });
    for (const BlockTranspose &transpose : transposes)
      collapse(rewriter, transpose);
  }
};

} // namespace
