//===- Indexing.cpp - one_hot, argmax and argmin to linalg ----------------===//
//
// one_hot is a linalg.generic that compares each index with its position
// along the new dimension; argmax/argmin are one in-order reduction carrying
// (best value, its index), so ties keep the first index in every mode.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"

#include <limits>

using namespace mlir;
using namespace ms;
using namespace ms::lowering;

namespace {

using utils::IteratorType;

struct OneHotPattern : OpConversionPattern<OneHotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OneHotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto resultType = cast<RankedTensorType>(op.getType());
    int64_t rank = resultType.getRank();
    int64_t axis = op.getNormalizedAxis();
    // The indices are read at every result position but the new axis.
    SmallVector<AffineExpr> indexExprs;
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis)
        indexExprs.push_back(getAffineDimExpr(d, ctx));
    SmallVector<AffineMap> maps = {
        AffineMap::get(rank, 0, indexExprs, ctx),
        AffineMap::getMultiDimIdentityMap(rank, ctx)};
    SmallVector<IteratorType> iterators(rank, IteratorType::parallel);
    Type f32 = resultType.getElementType();
    double on = op.getOnValue().convertToDouble();
    double off = op.getOffValue().convertToDouble();
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType}, ValueRange{adaptor.getIndices()},
        ValueRange{emptyLike(rewriter, loc, resultType)}, maps, iterators,
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          Value index = args[0];
          Value position = arith::IndexCastOp::create(
              b, nloc, index.getType(), linalg::IndexOp::create(b, nloc, axis));
          Value hit = arith::CmpIOp::create(b, nloc, arith::CmpIPredicate::eq,
                                            index, position);
          Value value = arith::SelectOp::create(
              b, nloc, hit, floatConst(b, nloc, f32, on),
              floatConst(b, nloc, f32, off));
          linalg::YieldOp::create(b, nloc, value);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// The identity of the (value, index) reduction: the lowest (for max) or
/// highest (for min) value of the element type.
Value worstValue(OpBuilder &b, Location loc, Type type, bool isMax,
                 bool isUnsigned) {
  if (auto floatType = dyn_cast<FloatType>(type))
    return floatConst(b, loc, type,
                      isMax ? -std::numeric_limits<double>::infinity()
                            : std::numeric_limits<double>::infinity());
  unsigned width = type.getIntOrFloatBitWidth();
  APInt value =
      isUnsigned ? (isMax ? APInt::getZero(width) : APInt::getMaxValue(width))
                 : (isMax ? APInt::getSignedMinValue(width)
                          : APInt::getSignedMaxValue(width));
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, value));
}

/// The body of argmax's (argmin's) generic: the running (value, index)
/// pair and each element in order along the axis.
struct ArgReduceBody {
  bool isMax, isFloat, isUnsigned;
  int64_t axis;
  Type indexType;

  void operator()(OpBuilder &b, Location nloc, ValueRange args) const {
    Value x = args[0], best = args[1], bestIndex = args[2];
    Value better = isBetter(b, nloc, x, best);
    Value position = arith::IndexCastOp::create(
        b, nloc, indexType, linalg::IndexOp::create(b, nloc, axis));
    // The first element always wins, so an all -inf (or all INT_MIN)
    // row gives index 0, not the initial value's.
    Value first = arith::CmpIOp::create(
        b, nloc, arith::CmpIPredicate::eq, position,
        arith::ConstantOp::create(b, nloc, b.getIntegerAttr(indexType, 0)));
    better = arith::OrIOp::create(b, nloc, better, first);
    linalg::YieldOp::create(
        b, nloc,
        ValueRange{
            arith::SelectOp::create(b, nloc, better, x, best),
            arith::SelectOp::create(b, nloc, better, position, bestIndex)});
  }

private:
  /// Strictly better replaces, so ties keep the first index; a NaN beats
  /// everything but an earlier NaN (numpy's rule).
  Value isBetter(OpBuilder &b, Location nloc, Value x, Value best) const {
    if (!isFloat) {
      using P = arith::CmpIPredicate;
      P predicate =
          isUnsigned ? (isMax ? P::ugt : P::ult) : (isMax ? P::sgt : P::slt);
      return arith::CmpIOp::create(b, nloc, predicate, x, best);
    }
    Value better = arith::CmpFOp::create(
        b, nloc, isMax ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT,
        x, best);
    Value xNaN =
        arith::CmpFOp::create(b, nloc, arith::CmpFPredicate::UNO, x, x);
    Value bestNumber =
        arith::CmpFOp::create(b, nloc, arith::CmpFPredicate::ORD, best, best);
    return arith::OrIOp::create(
        b, nloc, better, arith::AndIOp::create(b, nloc, xNaN, bestNumber));
  }
};

template <typename SourceOp, bool isMax>
struct ArgReducePattern : OpConversionPattern<SourceOp> {
  using OpConversionPattern<SourceOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SourceOp op, typename SourceOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    Type element = inputType.getElementType();
    Type indexType = op.getOutputType();
    int64_t rank = inputType.getRank(), axis = op.getNormalizedAxis();

    SmallVector<int64_t> reducedShape;
    SmallVector<AffineExpr> reducedExprs;
    SmallVector<IteratorType> iterators;
    for (int64_t d = 0; d < rank; ++d) {
      iterators.push_back(d == axis ? IteratorType::reduction
                                    : IteratorType::parallel);
      if (d == axis)
        continue;
      reducedShape.push_back(inputType.getDimSize(d));
      reducedExprs.push_back(getAffineDimExpr(d, ctx));
    }
    auto valuesType = RankedTensorType::get(reducedShape, element);
    auto indicesType = RankedTensorType::get(reducedShape, indexType);
    bool isUnsigned = isUnsignedElement(op.getInput().getType());
    Value worst = worstValue(rewriter, loc, element, isMax, isUnsigned);
    Value zero =
        arith::ConstantOp::create(rewriter, loc, rewriter.getIntegerAttr(indexType, 0));
    auto fill = [&](RankedTensorType type, Value scalar) {
      return linalg::FillOp::create(rewriter, loc, ValueRange{scalar},
                                    ValueRange{emptyLike(rewriter, loc, type)})
          .getResult(0);
    };
    AffineMap reducedMap = AffineMap::get(rank, 0, reducedExprs, ctx);
    SmallVector<AffineMap> maps = {AffineMap::getMultiDimIdentityMap(rank, ctx),
                                   reducedMap, reducedMap};
    bool isFloat = isa<FloatType>(element);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{valuesType, indicesType}, ValueRange{input},
        ValueRange{fill(valuesType, worst), fill(indicesType, zero)}, maps,
        iterators, ArgReduceBody{isMax, isFloat, isUnsigned, axis, indexType});
    Value result = generic.getResult(1);
    auto resultType = cast<RankedTensorType>(op.getType());
    if (op.getKeepDims())
      result = keepDims(rewriter, loc, result, resultType, {axis});
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void ms::populateIndexingToLinalgPatterns(RewritePatternSet &patterns,
                                          const TypeConverter &converter) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<OneHotPattern, ArgReducePattern<ArgmaxOp, true>,
               ArgReducePattern<ArgminOp, false>>(converter, ctx);
}
