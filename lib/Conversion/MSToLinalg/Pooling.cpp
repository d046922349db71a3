//===- Pooling.cpp - ms.max_pool2d and ms.avg_pool2d to linalg --------------===//
//
// Each window is reduced in row-major order by one linalg.generic.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"

#include <limits>

using namespace mlir;
using namespace ms;
using namespace ms::lowering;

namespace {

using utils::IteratorType;

/// Pads dims 2 and 3 of an NCHW tensor with `value`.
Value padSpatial(OpBuilder &b, Location loc, Value input, ConvDim h, ConvDim w,
                 double value) {
  if (!h.padBefore && !h.padAfter && !w.padBefore && !w.padAfter)
    return input;
  auto type = cast<RankedTensorType>(input.getType());
  auto index = [&](int64_t i) { return OpFoldResult(b.getIndexAttr(i)); };
  auto paddedType = RankedTensorType::get(
      {type.getDimSize(0), type.getDimSize(1),
       type.getDimSize(2) + h.padBefore + h.padAfter,
       type.getDimSize(3) + w.padBefore + w.padAfter},
      type.getElementType());
  return tensor::PadOp::create(
      b, loc, paddedType, input,
      {index(0), index(0), index(h.padBefore), index(w.padBefore)},
      {index(0), index(0), index(h.padAfter), index(w.padAfter)},
      floatConst(b, loc, type.getElementType(), value));
}

/// Sum or max of each [kh, kw] window of `input` (already padded) with the
/// given strides, in row-major window order: one linalg.generic over
/// (n, c, oh, ow, kh, kw) with a window-shaped operand giving the extents.
Value poolWindows(OpBuilder &b, Location loc, Value input,
                  RankedTensorType resultType, ArrayRef<int64_t> kernel,
                  ArrayRef<int64_t> stride, ReduceKind kind) {
  MLIRContext *ctx = b.getContext();
  Type elementType = resultType.getElementType();
  Value window = tensor::EmptyOp::create(b, loc, kernel, elementType);
  Value init = filled(b, loc, resultType,
                      kind == ReduceKind::Sum
                          ? 0.0
                          : -std::numeric_limits<double>::infinity());
  AffineExpr d[6];
  for (unsigned i = 0; i < 6; ++i)
    d[i] = getAffineDimExpr(i, ctx);
  SmallVector<AffineMap> maps = {
      AffineMap::get(6, 0,
                     {d[0], d[1], d[2] * stride[0] + d[4],
                      d[3] * stride[1] + d[5]},
                     ctx),
      AffineMap::get(6, 0, {d[4], d[5]}, ctx),
      AffineMap::get(6, 0, {d[0], d[1], d[2], d[3]}, ctx)};
  SmallVector<IteratorType> iterators(4, IteratorType::parallel);
  iterators.append(2, IteratorType::reduction);
  return linalg::GenericOp::create(
             b, loc, TypeRange{resultType}, ValueRange{input, window},
             ValueRange{init}, maps, iterators,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               Value r = kind == ReduceKind::Sum
                             ? arith::AddFOp::create(nb, l, args[2], args[0])
                                   .getResult()
                             : arith::MaximumFOp::create(nb, l, args[2],
                                                         args[0])
                                   .getResult();
               linalg::YieldOp::create(nb, l, r);
             })
      .getResult(0);
}

template <typename PoolOp, ReduceKind kind>
struct PoolPattern : OpConversionPattern<PoolOp> {
  using OpConversionPattern<PoolOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PoolOp op, typename PoolOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inputType = cast<RankedTensorType>(adaptor.getInput().getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    ArrayRef<int64_t> kernel = op.getKernelSize(), stride = op.getStride();
    SmallVector<int64_t> window = {1, 1, kernel[0], kernel[1]};
    SmallVector<int64_t> zeros(4, 0), ones(2, 1);
    std::string why;
    auto geometry = convGeometry(inputType.getShape(), window, op.getPadMode(),
                                 zeros, stride, ones, why);
    if (!geometry)
      return rewriter.notifyMatchFailure(op, why);
    auto [h, w] = *geometry;
    // Max pads with -inf so padding never wins; avg pads with 0 and divides
    // by the count of real elements, found by pooling a padded tensor of 1s.
    double padValue = kind == ReduceKind::Max
                          ? -std::numeric_limits<double>::infinity()
                          : 0.0;
    Value padded = padSpatial(rewriter, loc, adaptor.getInput(), h, w, padValue);
    Value result = poolWindows(rewriter, loc, padded, resultType, kernel,
                               stride, kind);
    if (kind == ReduceKind::Sum) {
      Type elementType = resultType.getElementType();
      auto onesType = RankedTensorType::get(
          {1, 1, inputType.getDimSize(2), inputType.getDimSize(3)},
          elementType);
      Value paddedOnes =
          padSpatial(rewriter, loc, filled(rewriter, loc, onesType, 1.0), h, w,
                     0.0);
      auto countType = RankedTensorType::get(
          {1, 1, resultType.getDimSize(2), resultType.getDimSize(3)},
          elementType);
      Value counts = poolWindows(rewriter, loc, paddedOnes, countType, kernel,
                                 stride, ReduceKind::Sum);
      result = elementwise(rewriter, loc, resultType, ValueRange{result, counts},
                           [](OpBuilder &b, Location l, ValueRange args) {
                             return arith::DivFOp::create(b, l, args[0],
                                                          args[1])
                                 .getResult();
                           });
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void ms::populatePoolingToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<PoolPattern<MaxPool2DOp, ReduceKind::Max>,
               PoolPattern<AvgPool2DOp, ReduceKind::Sum>>(
      patterns.getContext());
}
