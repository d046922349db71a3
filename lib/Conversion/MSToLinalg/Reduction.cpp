//===- Reduction.cpp - ms reductions and softmax to linalg ------------------===//
//
// reduce_sum/mean/max to linalg.reduce; softmax to linalg.softmax and
// log_softmax to its max, exp-sum and log steps.
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

template <typename SourceOp, ReduceKind kind, bool mean>
struct ReducePattern : OpConversionPattern<SourceOp> {
  using OpConversionPattern<SourceOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SourceOp op, typename SourceOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inputType = cast<RankedTensorType>(adaptor.getInput().getType());
    SmallVector<int64_t> axes = op.getNormalizedAxes();
    Value result = reduce(rewriter, loc, adaptor.getInput(), axes, kind,
                          isUnsignedElement(op.getType()));
    if (mean) {
      int64_t count = 1;
      for (int64_t axis : axes)
        count *= inputType.getDimSize(axis);
      result = divideByCount(rewriter, loc, result, count);
    }
    auto resultType = storedType(op.getType());
    if (op.getKeepDims())
      result = keepDims(rewriter, loc, result, resultType, axes);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct SoftmaxPattern : OpConversionPattern<SoftmaxOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SoftmaxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    Value init = emptyLike(rewriter, op.getLoc(), type);
    rewriter.replaceOpWithNewOp<linalg::SoftmaxOp>(
        op, TypeRange{type}, adaptor.getInput(), init,
        static_cast<uint64_t>(op.getNormalizedAxis()));
    return success();
  }
};

/// log_softmax(x) = (x - max) - log(sum(exp(x - max))) along the axis.
struct LogSoftmaxPattern : OpConversionPattern<LogSoftmaxOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LogSoftmaxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    int64_t axis = op.getNormalizedAxis();
    MLIRContext *ctx = rewriter.getContext();
    // Maps from the full iteration space into the reduced tensor.
    SmallVector<AffineExpr> reducedExprs;
    for (int64_t i = 0; i < type.getRank(); ++i)
      if (i != axis)
        reducedExprs.push_back(getAffineDimExpr(i, ctx));
    AffineMap identity = AffineMap::getMultiDimIdentityMap(type.getRank(), ctx);
    AffineMap reducedMap = AffineMap::get(type.getRank(), 0, reducedExprs, ctx);
    SmallVector<IteratorType> parallel(type.getRank(), IteratorType::parallel);
    auto alongAxis = [&](Value full, Value reduced, auto fn) {
      return linalg::GenericOp::create(
                 rewriter, loc, TypeRange{type}, ValueRange{full, reduced},
                 ValueRange{emptyLike(rewriter, loc, type)},
                 ArrayRef<AffineMap>{identity, reducedMap, identity}, parallel,
                 [&](OpBuilder &b, Location l, ValueRange args) {
                   linalg::YieldOp::create(b, l, fn(b, l, args[0], args[1]));
                 })
          .getResult(0);
    };
    Value max = reduce(rewriter, loc, adaptor.getInput(), {axis},
                       ReduceKind::Max);
    Value shifted = alongAxis(adaptor.getInput(), max,
                              [](OpBuilder &b, Location l, Value x, Value m) {
                                return arith::SubFOp::create(b, l, x, m)
                                    .getResult();
                              });
    Value exps = elementwise(rewriter, loc, type, ValueRange{shifted},
                             [](OpBuilder &b, Location l, ValueRange args) {
                               return math::ExpOp::create(b, l, args[0])
                                   .getResult();
                             });
    Value sum = reduce(rewriter, loc, exps, {axis}, ReduceKind::Sum);
    Value result = alongAxis(shifted, sum,
                             [](OpBuilder &b, Location l, Value x, Value s) {
                               Value logSum = math::LogOp::create(b, l, s);
                               return arith::SubFOp::create(b, l, x, logSum)
                                   .getResult();
                             });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void ms::populateReductionToLinalgPatterns(RewritePatternSet &patterns,
                                           const TypeConverter &converter) {
  patterns.add<ReducePattern<ReduceSumOp, ReduceKind::Sum, false>,
               ReducePattern<ReduceMeanOp, ReduceKind::Sum, true>,
               ReducePattern<ReduceMaxOp, ReduceKind::Max, false>,
               SoftmaxPattern, LogSoftmaxPattern>(converter,
                                                  patterns.getContext());
}
