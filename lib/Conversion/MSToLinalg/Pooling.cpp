//===- Pooling.cpp - ms.max_pool2d, ms.avg_pool2d and gradients to linalg -===//
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

/// The padding and output size of `op`'s windows over `inputType` along H
/// and W: a conv geometry with a [1, 1, KH, KW] window, no explicit padding
/// and no dilation. A match failure, with the reason, if the window does
/// not fit.
template <typename PoolLikeOp>
FailureOr<std::pair<ConvDim, ConvDim>>
poolGeometry(PoolLikeOp op, RankedTensorType inputType,
             RewriterBase &rewriter) {
  ArrayRef<int64_t> kernel = op.getKernelSize();
  SmallVector<int64_t> window = {1, 1, kernel[0], kernel[1]};
  SmallVector<int64_t> zeros(4, 0), ones(2, 1);
  std::string why;
  auto geometry = convGeometry(inputType.getShape(), window, op.getPadMode(),
                               zeros, op.getStride(), ones, why);
  if (!geometry)
    return rewriter.notifyMatchFailure(op, why);
  return *geometry;
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
    auto geometry = poolGeometry(op, inputType, rewriter);
    if (failed(geometry))
      return failure();
    auto [h, w] = *geometry;
    // Max pads with -inf so padding never wins; avg pads with 0 and divides
    // by the count of real elements, found by pooling a padded tensor of 1s.
    double padValue = kind == ReduceKind::Max
                          ? -std::numeric_limits<double>::infinity()
                          : 0.0;
    Value padded =
        padSpatialDims(rewriter, loc, adaptor.getInput(), h, w, padValue);
    Value result = poolWindows(rewriter, loc, padded, resultType, kernel,
                               stride, kind);
    if (kind == ReduceKind::Sum) {
      Type elementType = resultType.getElementType();
      auto onesType = RankedTensorType::get(
          {1, 1, inputType.getDimSize(2), inputType.getDimSize(3)},
          elementType);
      Value paddedOnes = padSpatialDims(
          rewriter, loc, filled(rewriter, loc, onesType, 1.0), h, w, 0.0);
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

//===----------------------------------------------------------------------===//
// Gradients
//===----------------------------------------------------------------------===//

/// Inside a window generic over (n, c, oh, ow, kh, kw): the tap's
/// row-major offset kh * KW + kw, as a float of `type` (how firstMaxIndex
/// records a window's maximum).
Value windowOffset(OpBuilder &b, Location loc, int64_t kw, Type type) {
  Value row = linalg::IndexOp::create(b, loc, 4);
  Value col = linalg::IndexOp::create(b, loc, 5);
  Value flat = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, row,
                            arith::ConstantIndexOp::create(b, loc, kw)),
      col);
  return arith::SIToFPOp::create(
      b, loc, type, arith::IndexCastOp::create(b, loc, b.getI64Type(), flat));
}

/// Inside a window generic over (n, c, oh, ow, kh, kw): whether this is
/// the window's first tap (kh = kw = 0).
Value isFirstWindowTap(OpBuilder &b, Location loc) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value row = linalg::IndexOp::create(b, loc, 4);
  Value col = linalg::IndexOp::create(b, loc, 5);
  Value firstRow =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, row, zero);
  Value firstCol =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, col, zero);
  return arith::AndIOp::create(b, loc, firstRow, firstCol);
}

/// For each window of the padded input, in row-major window order, the
/// value `pick` gives at its first maximum: a strict > keeps the first of
/// equal elements. A window with no element above -inf (all -inf or NaN)
/// picks at its first position, as max_pool2d_grad's routing does.
/// `source`, if given, is read at the same positions as `padded` and
/// handed to `pick` (null otherwise).
Value pickAtFirstMax(
    OpBuilder &b, Location loc, Value padded, Value source,
    RankedTensorType pooledType, ArrayRef<int64_t> kernel,
    ArrayRef<int64_t> stride,
    function_ref<Value(OpBuilder &, Location, Value source)> pick) {
  MLIRContext *ctx = b.getContext();
  Type elementType = pooledType.getElementType();
  Value window = tensor::EmptyOp::create(b, loc, kernel, elementType);
  Value maxInit = filled(b, loc, pooledType,
                         -std::numeric_limits<double>::infinity());
  Value pickInit = filled(b, loc, pooledType, 0.0);
  AffineExpr d[6];
  for (unsigned i = 0; i < 6; ++i)
    d[i] = getAffineDimExpr(i, ctx);
  AffineMap out = AffineMap::get(6, 0, {d[0], d[1], d[2], d[3]}, ctx);
  AffineMap read = AffineMap::get(
      6, 0, {d[0], d[1], d[2] * stride[0] + d[4], d[3] * stride[1] + d[5]},
      ctx);
  SmallVector<Value> inputs = {padded};
  SmallVector<AffineMap> maps = {read};
  if (source) {
    inputs.push_back(source);
    maps.push_back(read);
  }
  inputs.push_back(window);
  maps.append({AffineMap::get(6, 0, {d[4], d[5]}, ctx), out, out});
  SmallVector<IteratorType> iterators(4, IteratorType::parallel);
  iterators.append(2, IteratorType::reduction);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{pooledType, pooledType}, inputs,
      ValueRange{maxInit, pickInit}, maps, iterators,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value x = args[0], best = args[args.size() - 2],
              bestPick = args.back();
        Value candidate = pick(nb, l, source ? args[1] : Value());
        Value greater = arith::CmpFOp::create(
            nb, l, arith::CmpFPredicate::OGT, x, best);
        Value take = arith::OrIOp::create(nb, l, greater,
                                          isFirstWindowTap(nb, l));
        linalg::YieldOp::create(
            nb, l,
            ValueRange{arith::SelectOp::create(nb, l, greater, x, best),
                       arith::SelectOp::create(nb, l, take, candidate,
                                               bestPick)});
      });
  return generic.getResult(1);
}

/// The index (kh * KW + kw, as a float) of the first maximum of each window
/// of the padded input, in row-major window order.
Value firstMaxIndex(OpBuilder &b, Location loc, Value padded,
                    RankedTensorType pooledType, ArrayRef<int64_t> kernel,
                    ArrayRef<int64_t> stride) {
  Type elementType = pooledType.getElementType();
  return pickAtFirstMax(b, loc, padded, Value(), pooledType, kernel, stride,
                        [&](OpBuilder &nb, Location l, Value) {
                          return windowOffset(nb, l, kernel[1], elementType);
                        });
}

/// dx[n, c, i, j] = the sum over the window offsets (kh, kw), in row-major
/// order, of the spread output-gradient at the window that has (i, j) at
/// that offset. `spread` are [N, C, Hp + KH - 1, Wp + KW - 1] tensors from
/// spreadSpatialDims at (KH - 1, KW - 1); `term` turns their elements at
/// one offset into the summand.
Value gatherWindows(OpBuilder &b, Location loc, RankedTensorType inputType,
                    ValueRange spread, ArrayRef<int64_t> kernel, ConvDim h,
                    ConvDim w,
                    function_ref<Value(OpBuilder &, Location, ValueRange)>
                        term) {
  MLIRContext *ctx = b.getContext();
  Value window = tensor::EmptyOp::create(b, loc, kernel,
                                         inputType.getElementType());
  AffineExpr d[6];
  for (unsigned i = 0; i < 6; ++i)
    d[i] = getAffineDimExpr(i, ctx);
  // Padded row i + padBefore, window row kh: the spread row
  // i + padBefore + (KH - 1 - kh).
  AffineMap spreadMap = AffineMap::get(
      6, 0,
      {d[0], d[1], d[2] - d[4] + (h.padBefore + kernel[0] - 1),
       d[3] - d[5] + (w.padBefore + kernel[1] - 1)},
      ctx);
  SmallVector<AffineMap> maps(spread.size(), spreadMap);
  maps.push_back(AffineMap::get(6, 0, {d[4], d[5]}, ctx));
  maps.push_back(AffineMap::get(6, 0, {d[0], d[1], d[2], d[3]}, ctx));
  SmallVector<Value> inputs(spread);
  inputs.push_back(window);
  SmallVector<IteratorType> iterators(4, IteratorType::parallel);
  iterators.append(2, IteratorType::reduction);
  return linalg::GenericOp::create(
             b, loc, TypeRange{inputType}, inputs,
             ValueRange{filled(b, loc, inputType, 0.0)}, maps, iterators,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               Value summand =
                   term(nb, l, args.take_front(spread.size()));
               linalg::YieldOp::create(
                   nb, l, arith::AddFOp::create(nb, l, args.back(), summand)
                              .getResult());
             })
      .getResult(0);
}

/// The geometry shared by both pool gradients.
struct PoolGradGeometry {
  ConvDim h, w;
  SmallVector<int64_t> spreadSize, spreadBefore;
  /// x's type (the gradient's) and the pooled dy's.
  RankedTensorType inputType, pooledType;
  ArrayRef<int64_t> kernel, stride;
  template <typename GradOp>
  static FailureOr<PoolGradGeometry> get(GradOp op, RewriterBase &rewriter) {
    auto inputType = cast<RankedTensorType>(op.getX().getType());
    ArrayRef<int64_t> kernel = op.getKernelSize();
    auto geometry = poolGeometry(op, inputType, rewriter);
    if (failed(geometry))
      return failure();
    PoolGradGeometry g;
    std::tie(g.h, g.w) = *geometry;
    g.spreadSize = {inputType.getDimSize(2) + g.h.padBefore + g.h.padAfter +
                        kernel[0] - 1,
                    inputType.getDimSize(3) + g.w.padBefore + g.w.padAfter +
                        kernel[1] - 1};
    g.spreadBefore = {kernel[0] - 1, kernel[1] - 1};
    g.inputType = inputType;
    g.pooledType = cast<RankedTensorType>(op.getDy().getType());
    g.kernel = kernel;
    g.stride = op.getStride();
    return g;
  }
};

/// The pool gradients' common start: the geometry, then Derived::rewrite.
template <typename GradOp, typename Derived>
struct PoolGradPattern : OpConversionPattern<GradOp> {
  using OpConversionPattern<GradOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GradOp op, typename GradOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    auto g = PoolGradGeometry::get(op, rewriter);
    if (failed(g))
      return failure();
    return static_cast<const Derived *>(this)->rewrite(op, adaptor, *g,
                                                       rewriter);
  }
};

/// Routes each window's gradient to its first maximum.
struct MaxPoolGradPattern
    : PoolGradPattern<MaxPool2DGradOp, MaxPoolGradPattern> {
  using PoolGradPattern::PoolGradPattern;
  LogicalResult rewrite(MaxPool2DGradOp op, OpAdaptor adaptor,
                        const PoolGradGeometry &g,
                        ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    RankedTensorType inputType = g.inputType, pooledType = g.pooledType;
    ArrayRef<int64_t> kernel = g.kernel, stride = g.stride;
    if (tilesExactly(g, inputType, pooledType, kernel, stride) &&
        kernel[0] * kernel[1] <= kMaxTileTaps) {
      rewriter.replaceOp(op, routeWithinTiles(rewriter, loc, inputType,
                                              adaptor.getX(), adaptor.getDy(),
                                              kernel));
      return success();
    }
    Value padded = padSpatialDims(rewriter, loc, adaptor.getX(), g.h, g.w,
                                  -std::numeric_limits<double>::infinity());
    Value argmax =
        firstMaxIndex(rewriter, loc, padded, pooledType, kernel, stride);
    Value dy = spreadSpatialDims(rewriter, loc, adaptor.getDy(), stride,
                                 g.spreadBefore, g.spreadSize, 0.0);
    // -1 matches no window offset: positions no window starts at.
    Value index = spreadSpatialDims(rewriter, loc, argmax, stride,
                                    g.spreadBefore, g.spreadSize, -1.0);
    int64_t kw = kernel[1];
    Value result = gatherWindows(
        rewriter, loc, inputType, ValueRange{dy, index}, kernel, g.h, g.w,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value offset = windowOffset(b, l, kw, args[0].getType());
          Value isMax = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ,
                                              args[1], offset);
          return arith::SelectOp::create(
                     b, l, isMax, args[0],
                     floatConst(b, l, args[0].getType(), 0.0))
              .getResult();
        });
    rewriter.replaceOp(op, result);
    return success();
  }

private:
  /// Whether the windows tile the input: stride == kernel, no padding, and
  /// every row and column in exactly one window (LeNet's 2x2 / 2 pools).
  static bool tilesExactly(const PoolGradGeometry &g,
                           RankedTensorType inputType,
                           RankedTensorType pooledType,
                           ArrayRef<int64_t> kernel, ArrayRef<int64_t> stride) {
    return kernel == stride && !g.h.padBefore && !g.h.padAfter &&
           !g.w.padBefore && !g.w.padAfter &&
           inputType.getDimSize(2) == pooledType.getDimSize(2) * kernel[0] &&
           inputType.getDimSize(3) == pooledType.getDimSize(3) * kernel[1];
  }

  /// Windows larger than this take the general form (one input per tap).
  static constexpr int64_t kMaxTileTaps = 16;

  /// On the [N, C, H / kh, kh, W / kw, kw] view of x and dx, one
  /// elementwise generic over (n, c, i, a, j, b): each element finds its
  /// window's first maximum from the window's kh * kw elements (one operand
  /// per tap, compared in row-major order with a strict >, from -inf and
  /// offset 0, as firstMaxIndex does) and takes dy[n, c, i, j] if that is
  /// its own offset (a, b), else 0. No argmax tensor and no division of
  /// indices, so the loops vectorize; the values are the general form's
  /// (each position is in exactly one window).
  static Value routeWithinTiles(OpBuilder &b, Location loc,
                                RankedTensorType inputType, Value x, Value dy,
                                ArrayRef<int64_t> kernel) {
    MLIRContext *ctx = b.getContext();
    ArrayRef<int64_t> dims = inputType.getShape();
    int64_t kh = kernel[0], kw = kernel[1];
    auto tilesType = RankedTensorType::get(
        {dims[0], dims[1], dims[2] / kh, kh, dims[3] / kw, kw},
        inputType.getElementType());
    SmallVector<ReassociationIndices> split = {{0}, {1}, {2, 3}, {4, 5}};
    Value tiles = tensor::ExpandShapeOp::create(b, loc, tilesType, x, split);
    AffineExpr d[6];
    for (unsigned i = 0; i < 6; ++i)
      d[i] = getAffineDimExpr(i, ctx);
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    for (int64_t a = 0; a < kh; ++a)
      for (int64_t c = 0; c < kw; ++c) {
        inputs.push_back(tiles);
        maps.push_back(AffineMap::get(
            6, 0,
            {d[0], d[1], d[2], getAffineConstantExpr(a, ctx), d[4],
             getAffineConstantExpr(c, ctx)},
            ctx));
      }
    inputs.push_back(dy);
    maps.push_back(AffineMap::get(6, 0, {d[0], d[1], d[2], d[4]}, ctx));
    maps.push_back(AffineMap::getMultiDimIdentityMap(6, ctx));
    Value routed =
        linalg::GenericOp::create(
            b, loc, TypeRange{tilesType}, inputs,
            ValueRange{emptyLike(b, loc, tilesType)}, maps,
            SmallVector<IteratorType>(6, IteratorType::parallel),
            [&](OpBuilder &nb, Location l, ValueRange args) {
              Type type = args[0].getType();
              Value best = floatConst(
                  nb, l, type, -std::numeric_limits<double>::infinity());
              Value bestTap = arith::ConstantIndexOp::create(nb, l, 0);
              for (int64_t t = 0; t < kh * kw; ++t) {
                Value greater = arith::CmpFOp::create(
                    nb, l, arith::CmpFPredicate::OGT, args[t], best);
                best = arith::SelectOp::create(nb, l, greater, args[t], best);
                bestTap = arith::SelectOp::create(
                    nb, l, greater, arith::ConstantIndexOp::create(nb, l, t),
                    bestTap);
              }
              // Statements, not nested calls: argument order is unspecified
              // and the IR (and its lit test) would differ between
              // compilers.
              Value row = linalg::IndexOp::create(nb, l, 3);
              Value column = linalg::IndexOp::create(nb, l, 5);
              Value width = arith::ConstantIndexOp::create(nb, l, kw);
              Value ownTap = arith::AddIOp::create(
                  nb, l, arith::MulIOp::create(nb, l, row, width), column);
              Value isMax = arith::CmpIOp::create(
                  nb, l, arith::CmpIPredicate::eq, bestTap, ownTap);
              linalg::YieldOp::create(
                  nb, l,
                  arith::SelectOp::create(nb, l, isMax, args[kh * kw],
                                          floatConst(nb, l, type, 0.0))
                      .getResult());
            })
            .getResult(0);
    return tensor::CollapseShapeOp::create(b, loc, inputType, routed, split);
  }
};

/// Each window's element of grad at x's first maximum: the windows of x
/// (padded with -inf, so padding never wins) and of grad (padded with 0)
/// read together.
struct MaxPoolGradGradPattern : OpConversionPattern<MaxPool2DGradGradOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MaxPool2DGradGradOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inputType = cast<RankedTensorType>(adaptor.getX().getType());
    ArrayRef<int64_t> kernel = op.getKernelSize(), stride = op.getStride();
    auto geometry = poolGeometry(op, inputType, rewriter);
    if (failed(geometry))
      return failure();
    auto [h, w] = *geometry;
    Value x = padSpatialDims(rewriter, loc, adaptor.getX(), h, w,
                             -std::numeric_limits<double>::infinity());
    Value grad = padSpatialDims(rewriter, loc, adaptor.getGrad(), h, w, 0.0);
    rewriter.replaceOp(
        op, pickAtFirstMax(rewriter, loc, x, grad,
                           cast<RankedTensorType>(op.getType()), kernel,
                           stride, [](OpBuilder &, Location, Value source) {
                             return source;
                           }));
    return success();
  }
};

/// Spreads each window's gradient, divided by its count of real elements,
/// over the window.
struct AvgPoolGradPattern
    : PoolGradPattern<AvgPool2DGradOp, AvgPoolGradPattern> {
  using PoolGradPattern::PoolGradPattern;
  LogicalResult rewrite(AvgPool2DGradOp op, OpAdaptor adaptor,
                        const PoolGradGeometry &g,
                        ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    Type elementType = g.inputType.getElementType();
    // The forward op's counts: the pool of a padded tensor of ones.
    auto onesType = RankedTensorType::get(
        {1, 1, g.inputType.getDimSize(2), g.inputType.getDimSize(3)},
        elementType);
    Value paddedOnes = padSpatialDims(
        rewriter, loc, filled(rewriter, loc, onesType, 1.0), g.h, g.w, 0.0);
    auto countType = RankedTensorType::get(
        {1, 1, g.pooledType.getDimSize(2), g.pooledType.getDimSize(3)},
        elementType);
    Value counts = poolWindows(rewriter, loc, paddedOnes, countType, g.kernel,
                               g.stride, ReduceKind::Sum);
    Value share = elementwise(
        rewriter, loc, g.pooledType, ValueRange{adaptor.getDy(), counts},
        [](OpBuilder &b, Location l, ValueRange args) {
          return arith::DivFOp::create(b, l, args[0], args[1]).getResult();
        });
    Value spread = spreadSpatialDims(rewriter, loc, share, g.stride,
                                     g.spreadBefore, g.spreadSize, 0.0);
    Value result = gatherWindows(
        rewriter, loc, g.inputType, ValueRange{spread}, g.kernel, g.h, g.w,
        [](OpBuilder &, Location, ValueRange args) { return args[0]; });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void ms::populatePoolingToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<PoolPattern<MaxPool2DOp, ReduceKind::Max>,
               PoolPattern<AvgPool2DOp, ReduceKind::Sum>, MaxPoolGradPattern,
               MaxPoolGradGradPattern, AvgPoolGradPattern>(
      patterns.getContext());
}
