//===- IndirectDataMovement.cpp - ms.gather to linalg -------------------===//
//
// Data movement whose positions come from a tensor: gather reads
// input[..., indices[...], ...] inside a linalg.generic body; scatter_update
// writes rows one index after another in an scf.for.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"

using namespace mlir;
using namespace ms;
using namespace ms::lowering;

namespace {

using utils::IteratorType;

/// One linalg.generic over the result: the index operand is read through a
/// projection of the result's iteration space, and the body extracts the
/// input element. An index outside [0, size) reads element 0 of that axis
/// (always in bounds) and yields zero instead, so no index can make the
/// kernel read outside the input.
struct GatherPattern : OpConversionPattern<GatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto resultType = storedType(op.getType());
    auto inputType = cast<RankedTensorType>(adaptor.getInput().getType());
    auto indicesType = cast<RankedTensorType>(adaptor.getIndices().getType());
    int64_t axis = op.getAxis();
    if (axis < 0)
      axis += inputType.getRank();
    int64_t indexRank = indicesType.getRank();
    int64_t rank = resultType.getRank();

    SmallVector<AffineExpr> indexDims;
    for (int64_t d = 0; d < indexRank; ++d)
      indexDims.push_back(getAffineDimExpr(axis + d, ctx));
    SmallVector<AffineMap> maps = {
        AffineMap::get(rank, 0, indexDims, ctx),
        AffineMap::getMultiDimIdentityMap(rank, ctx)};
    SmallVector<IteratorType> iterators(rank, IteratorType::parallel);
    Value input = adaptor.getInput();
    int64_t axisSize = inputType.getDimSize(axis);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType}, ValueRange{adaptor.getIndices()},
        ValueRange{emptyLike(rewriter, loc, resultType)}, maps, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value index = arith::IndexCastOp::create(b, l, b.getIndexType(),
                                                   args[0]);
          BoundedIndex bounded = boundedIndex(b, l, index, axisSize);
          SmallVector<Value> at;
          for (int64_t d = 0; d < axis; ++d)
            at.push_back(linalg::IndexOp::create(b, l, d));
          at.push_back(bounded.safe);
          for (int64_t d = axis + indexRank; d < rank; ++d)
            at.push_back(linalg::IndexOp::create(b, l, d));
          Value element = tensor::ExtractOp::create(b, l, input, at);
          linalg::YieldOp::create(b, l,
                                  zeroUnless(b, l, bounded.inRange, element));
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// `value` with its leading `lead` dims merged into one (a unit dim when
/// `lead` is 0).
Value mergeLeading(OpBuilder &b, Location loc, Value value, int64_t lead) {
  auto type = cast<RankedTensorType>(value.getType());
  ArrayRef<int64_t> shape = type.getShape();
  int64_t count = 1;
  for (int64_t d : shape.take_front(lead))
    count *= d;
  SmallVector<int64_t> merged = {count};
  llvm::append_range(merged, shape.drop_front(lead));
  auto mergedType = RankedTensorType::get(merged, type.getElementType());
  if (lead == 1)
    return value;
  SmallVector<ReassociationIndices> groups;
  if (lead == 0) {
    // Expand: the new unit dim joins the first dim, if there is one.
    if (shape.empty())
      return tensor::ExpandShapeOp::create(b, loc, mergedType, value,
                                           ArrayRef<ReassociationIndices>{});
    groups.push_back({0, 1});
    for (int64_t d = 1; d < type.getRank(); ++d)
      groups.push_back({d + 1});
    return tensor::ExpandShapeOp::create(b, loc, mergedType, value, groups);
  }
  ReassociationIndices first;
  for (int64_t d = 0; d < lead; ++d)
    first.push_back(d);
  groups.push_back(first);
  for (int64_t d = lead; d < type.getRank(); ++d)
    groups.push_back({d});
  return tensor::CollapseShapeOp::create(b, loc, mergedType, value, groups);
}

/// An scf.for over the M = indices.size updates, in row-major order (so a
/// repeated index's last update wins): each in-range index replaces one
/// row of the carried tensor with tensor.insert_slice; an index outside
/// [0, rows) leaves it unchanged. Bufferization turns the carried tensor
/// into one buffer written in place: a copy of the input, since a function
/// argument's buffer is writable and a PyNative kernel must not write into
/// its operand.
struct ScatterUpdatePattern : OpConversionPattern<ScatterUpdateOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ScatterUpdateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inputType = cast<RankedTensorType>(adaptor.getInput().getType());
    auto indicesType = cast<RankedTensorType>(adaptor.getIndices().getType());
    int64_t indexRank = indicesType.getRank();
    Value indices = mergeLeading(rewriter, loc, adaptor.getIndices(),
                                 indexRank);
    Value updates = mergeLeading(rewriter, loc, adaptor.getUpdates(),
                                 indexRank);
    int64_t picks = cast<RankedTensorType>(indices.getType()).getDimSize(0);
    int64_t rank = inputType.getRank();
    // One row: [1, rest...] in the update and in the result.
    SmallVector<int64_t> rowShape(inputType.getShape());
    rowShape[0] = 1;
    auto rowType = RankedTensorType::get(
        ArrayRef<int64_t>(rowShape).drop_front(), inputType.getElementType());
    SmallVector<OpFoldResult> sizes, unitStrides, zeros;
    for (int64_t d = 0; d < rank; ++d) {
      sizes.push_back(rewriter.getIndexAttr(rowShape[d]));
      unitStrides.push_back(rewriter.getIndexAttr(1));
      zeros.push_back(rewriter.getIndexAttr(0));
    }
    Value lower = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value upper = arith::ConstantIndexOp::create(rewriter, loc, picks);
    Value step = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value rows = arith::ConstantIndexOp::create(rewriter, loc,
                                                inputType.getDimSize(0));
    auto loop = scf::ForOp::create(
        rewriter, loc, lower, upper, step,
        ValueRange{copyOf(rewriter, loc, adaptor.getInput())},
        [&](OpBuilder &b, Location l, Value m, ValueRange carried) {
          Value raw = tensor::ExtractOp::create(b, l, indices, ValueRange{m});
          Value row = arith::IndexCastOp::create(b, l, b.getIndexType(), raw);
          Value inRange = inBounds(b, l, row, rows);
          auto write = scf::IfOp::create(
              b, l, inRange,
              [&](OpBuilder &tb, Location tl) {
                SmallVector<OpFoldResult> from(zeros), to(zeros);
                from[0] = m;
                to[0] = row;
                Value source = tensor::ExtractSliceOp::create(
                    tb, tl, rowType, updates, from, sizes, unitStrides);
                Value written = tensor::InsertSliceOp::create(
                    tb, tl, source, carried[0], to, sizes, unitStrides);
                scf::YieldOp::create(tb, tl, written);
              },
              [&](OpBuilder &eb, Location el) {
                scf::YieldOp::create(eb, el, carried[0]);
              });
          scf::YieldOp::create(b, l, write.getResult(0));
        });
    rewriter.replaceOp(op, loop.getResult(0));
    return success();
  }
};

} // namespace

void ms::populateIndirectDataMovementToLinalgPatterns(
    RewritePatternSet &patterns, const TypeConverter &converter) {
  patterns.add<GatherPattern, ScatterUpdatePattern>(converter,
                                                    patterns.getContext());
}
