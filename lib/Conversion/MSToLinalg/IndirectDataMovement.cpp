//===- IndirectDataMovement.cpp - ms.gather to linalg -------------------===//
//
// Data movement whose source positions come from a tensor: gather reads
// input[..., indices[...], ...] inside a linalg.generic body.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
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
          Value zero = arith::ConstantIndexOp::create(b, l, 0);
          Value size = arith::ConstantIndexOp::create(b, l, axisSize);
          // One op per statement: argument evaluation order is unspecified,
          // and the IR must not depend on the host compiler.
          Value atLeastZero = arith::CmpIOp::create(
              b, l, arith::CmpIPredicate::sge, index, zero);
          Value belowSize = arith::CmpIOp::create(
              b, l, arith::CmpIPredicate::slt, index, size);
          Value inRange = arith::AndIOp::create(b, l, atLeastZero, belowSize);
          Value safe = arith::SelectOp::create(b, l, inRange, index, zero);
          SmallVector<Value> at;
          for (int64_t d = 0; d < axis; ++d)
            at.push_back(linalg::IndexOp::create(b, l, d));
          at.push_back(safe);
          for (int64_t d = axis + indexRank; d < rank; ++d)
            at.push_back(linalg::IndexOp::create(b, l, d));
          Value element = tensor::ExtractOp::create(b, l, input, at);
          Value fill = scalarConst(b, l, element.getType(), 0.0);
          linalg::YieldOp::create(
              b, l, arith::SelectOp::create(b, l, inRange, element, fill)
                        .getResult());
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

} // namespace

void ms::populateIndirectDataMovementToLinalgPatterns(
    RewritePatternSet &patterns, const TypeConverter &converter) {
  patterns.add<GatherPattern>(converter, patterns.getContext());
}
