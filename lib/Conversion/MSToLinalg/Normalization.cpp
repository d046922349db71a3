//===- Normalization.cpp - ms.batch_norm and ms.layer_norm to linalg --------===//
//
// Both normalize as (x - mean) / sqrt(var + eps) * gamma + beta, in that
// order, so every mode rounds alike.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"

using namespace mlir;
using namespace ms;
using namespace ms::lowering;

namespace {

using utils::IteratorType;

/// (x - mean) / sqrt(variance + epsilon) * gamma + beta, in that order, from
/// args (x, mean, variance, gamma, beta): batch_norm and layer_norm alike.
Value normalize(OpBuilder &b, Location l, ValueRange args, double epsilon) {
  Value centered = arith::SubFOp::create(b, l, args[0], args[1]);
  Value eps = floatConst(b, l, args[0].getType(), epsilon);
  Value stddev =
      math::SqrtOp::create(b, l, arith::AddFOp::create(b, l, args[2], eps));
  Value normalized = arith::DivFOp::create(b, l, centered, stddev);
  Value scaled = arith::MulFOp::create(b, l, normalized, args[3]);
  return arith::AddFOp::create(b, l, scaled, args[4]).getResult();
}

/// (x - mean) / sqrt(var + eps) * gamma + beta along dimension 1: the [C]
/// parameters become [C, 1, ...] so numpy broadcasting lines them up.
struct BatchNormPattern : OpConversionPattern<BatchNormOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BatchNormOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    SmallVector<Value> inputs = {adaptor.getInput()};
    for (Value param : {adaptor.getMovingMean(), adaptor.getMovingVariance(),
                        adaptor.getGamma(), adaptor.getBeta()})
      inputs.push_back(channelColumn(rewriter, loc, param, type.getRank()));
    double epsilon = op.getEpsilon().convertToDouble();
    Value result = elementwise(
        rewriter, loc, type, inputs,
        [&](OpBuilder &b, Location l, ValueRange args) {
          return normalize(b, l, args, epsilon);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// layer_norm: the mean and the variance are in-order sums over the
/// normalized (trailing) dims, written with those dims kept as size 1 so that
/// the final elementwise pass broadcasts them; gamma and beta broadcast
/// against the trailing dims like numpy.
struct LayerNormPattern : OpConversionPattern<LayerNormOp> {
  using OpConversionPattern::OpConversionPattern;

  /// Sums `body(elements)` over dims [normAxis, rank) into `keptType`.
  static Value sumTrailing(OpBuilder &b, Location loc, ValueRange inputs,
                           RankedTensorType keptType, int64_t normAxis,
                           BodyFn body) {
    MLIRContext *ctx = b.getContext();
    int64_t rank = keptType.getRank();
    // The first input spans the whole space; the others are kept-shaped.
    SmallVector<AffineMap> maps = {
        AffineMap::getMultiDimIdentityMap(rank, ctx)};
    SmallVector<AffineExpr> keptExprs;
    for (int64_t i = 0; i < rank; ++i)
      keptExprs.push_back(i < normAxis ? getAffineDimExpr(i, ctx)
                                       : getAffineConstantExpr(0, ctx));
    AffineMap keptMap = AffineMap::get(rank, 0, keptExprs, ctx);
    for (size_t i = 1; i < inputs.size(); ++i)
      maps.push_back(keptMap);
    maps.push_back(keptMap);
    SmallVector<IteratorType> iterators(rank, IteratorType::parallel);
    for (int64_t i = normAxis; i < rank; ++i)
      iterators[i] = IteratorType::reduction;
    return linalg::GenericOp::create(
               b, loc, TypeRange{keptType}, inputs,
               ValueRange{filled(b, loc, keptType, 0.0)}, maps, iterators,
               [&](OpBuilder &nb, Location l, ValueRange args) {
                 Value term = body(nb, l, args.drop_back());
                 linalg::YieldOp::create(
                     nb, l,
                     arith::AddFOp::create(nb, l, args.back(), term)
                         .getResult());
               })
        .getResult(0);
  }

  LogicalResult
  matchAndRewrite(LayerNormOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    int64_t normAxis = op.getNormAxis();
    SmallVector<int64_t> keptShape(type.getShape());
    int64_t count = 1;
    for (int64_t i = normAxis; i < type.getRank(); ++i) {
      count *= keptShape[i];
      keptShape[i] = 1;
    }
    auto keptType = RankedTensorType::get(keptShape, type.getElementType());
    Value x = adaptor.getInput();
    Value mean = divideByCount(
        rewriter, loc,
        sumTrailing(rewriter, loc, ValueRange{x}, keptType, normAxis,
                    [](OpBuilder &, Location, ValueRange args) {
                      return args[0];
                    }),
        count);
    Value variance = divideByCount(
        rewriter, loc,
        sumTrailing(rewriter, loc, ValueRange{x, mean}, keptType, normAxis,
                    [](OpBuilder &b, Location l, ValueRange args) {
                      Value d = arith::SubFOp::create(b, l, args[0], args[1]);
                      return arith::MulFOp::create(b, l, d, d).getResult();
                    }),
        count);
    double epsilon = op.getEpsilon().convertToDouble();
    Value result = elementwise(
        rewriter, loc, type,
        ValueRange{x, mean, variance, adaptor.getGamma(), adaptor.getBeta()},
        [&](OpBuilder &b, Location l, ValueRange args) {
          return normalize(b, l, args, epsilon);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void ms::populateNormalizationToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<BatchNormPattern, LayerNormPattern>(patterns.getContext());
}
