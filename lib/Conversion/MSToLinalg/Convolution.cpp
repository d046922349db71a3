//===- Convolution.cpp - ms.conv2d to linalg --------------------------------===//
//
// conv2d as one in-order accumulation over (channel, kh, kw), or as im2col
// plus linalg.matmul (the same sum) when conv-as-matmul asks for it.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace ms;
using namespace ms::lowering;

namespace {

using utils::IteratorType;

/// conv2d as one linalg.generic over (n, g, o, oh, ow, c, kh, kw): channels
/// split into groups by reshapes, padding by tensor.pad, then a zero-filled
/// accumulation in (c, kh, kw) order and the bias added afterwards.
struct Conv2DPattern : OpConversionPattern<Conv2DOp> {
  Conv2DPattern(MLIRContext *ctx, bool asMatmul)
      : OpConversionPattern(ctx), asMatmul(asMatmul) {}

  LogicalResult
  matchAndRewrite(Conv2DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto inputType = cast<RankedTensorType>(adaptor.getInput().getType());
    auto weightType = cast<RankedTensorType>(adaptor.getWeight().getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    Type elementType = resultType.getElementType();
    std::string why;
    auto geometry = convGeometry(inputType.getShape(), weightType.getShape(),
                                 op.getPadMode(), op.getPadding(),
                                 op.getStride(), op.getDilation(), why);
    if (!geometry)
      return rewriter.notifyMatchFailure(op, why);
    auto [h, w] = *geometry;
    int64_t n = inputType.getDimSize(0), c = inputType.getDimSize(1);
    int64_t g = static_cast<int64_t>(op.getGroup());
    int64_t o = weightType.getDimSize(0), kh = weightType.getDimSize(2),
            kw = weightType.getDimSize(3);

    Value input = adaptor.getInput();
    if (h.padBefore || h.padAfter || w.padBefore || w.padAfter) {
      SmallVector<OpFoldResult> low = {rewriter.getIndexAttr(0),
                                       rewriter.getIndexAttr(0),
                                       rewriter.getIndexAttr(h.padBefore),
                                       rewriter.getIndexAttr(w.padBefore)};
      SmallVector<OpFoldResult> high = {rewriter.getIndexAttr(0),
                                        rewriter.getIndexAttr(0),
                                        rewriter.getIndexAttr(h.padAfter),
                                        rewriter.getIndexAttr(w.padAfter)};
      auto paddedType = RankedTensorType::get(
          {n, c, inputType.getDimSize(2) + h.padBefore + h.padAfter,
           inputType.getDimSize(3) + w.padBefore + w.padAfter},
          elementType);
      input = tensor::PadOp::create(rewriter, loc, paddedType, input, low, high,
                                    floatConst(rewriter, loc, elementType, 0.0));
    }
    if (asMatmul && g == 1 && im2colFits(c, kh, kw, h.output, w.output)) {
      rewriter.replaceOp(op, im2colMatmul(rewriter, loc, op, input,
                                          adaptor.getWeight(),
                                          adaptor.getBias(), h.output,
                                          w.output));
      return success();
    }
    auto paddedType = cast<RankedTensorType>(input.getType());
    auto groupedInputType = RankedTensorType::get(
        {n, g, c / g, paddedType.getDimSize(2), paddedType.getDimSize(3)},
        elementType);
    Value groupedInput = tensor::ExpandShapeOp::create(
        rewriter, loc, groupedInputType, input,
        ArrayRef<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
    auto groupedWeightType =
        RankedTensorType::get({g, o / g, c / g, kh, kw}, elementType);
    Value groupedWeight = tensor::ExpandShapeOp::create(
        rewriter, loc, groupedWeightType, adaptor.getWeight(),
        ArrayRef<ReassociationIndices>{{0, 1}, {2}, {3}, {4}});
    auto groupedOutType = RankedTensorType::get(
        {n, g, o / g, h.output, w.output}, elementType);
    Value init = filled(rewriter, loc, groupedOutType, 0.0);

    ArrayRef<int64_t> stride = op.getStride(), dilation = op.getDilation();
    AffineExpr d[8];
    for (unsigned i = 0; i < 8; ++i)
      d[i] = getAffineDimExpr(i, ctx);
    SmallVector<AffineMap> maps = {
        AffineMap::get(8, 0,
                       {d[0], d[1], d[5], d[3] * stride[0] + d[6] * dilation[0],
                        d[4] * stride[1] + d[7] * dilation[1]},
                       ctx),
        AffineMap::get(8, 0, {d[1], d[2], d[5], d[6], d[7]}, ctx),
        AffineMap::get(8, 0, {d[0], d[1], d[2], d[3], d[4]}, ctx)};
    SmallVector<IteratorType> iterators(5, IteratorType::parallel);
    iterators.append(3, IteratorType::reduction);
    Value conv =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{groupedOutType},
            ValueRange{groupedInput, groupedWeight}, ValueRange{init}, maps,
            iterators,
            [](OpBuilder &b, Location l, ValueRange args) {
              Value prod = arith::MulFOp::create(b, l, args[0], args[1]);
              linalg::YieldOp::create(
                  b, l, arith::AddFOp::create(b, l, args[2], prod).getResult());
            })
            .getResult(0);
    auto flatType = RankedTensorType::get({n, o, h.output, w.output}, elementType);
    Value result = tensor::CollapseShapeOp::create(
        rewriter, loc, flatType, conv,
        ArrayRef<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
    if (Value bias = adaptor.getBias())
      result = addBias(rewriter, loc, result,
                       channelColumn(rewriter, loc, bias, flatType.getRank()));
    rewriter.replaceOp(op, result);
    return success();
  }

private:
  /// Whether one image's im2col copy, [c*kh*kw, oh*ow], stays under
  /// kMaxIm2colElements. Past it (a kernel as large as the image, say) the
  /// copy would dwarf the image and the weights, and take longer to write
  /// than the direct conv takes to run, so the conv stays direct.
  static bool im2colFits(int64_t c, int64_t kh, int64_t kw, int64_t oh,
                         int64_t ow) {
    constexpr int64_t kMaxIm2colElements = int64_t(1) << 24;
    std::optional<int64_t> elements = c;
    for (int64_t factor : {kh, kw, oh, ow})
      if (elements)
        elements = llvm::checkedMul(*elements, factor);
    return elements && *elements <= kMaxIm2colElements;
  }

  /// im2col, one image at a time (an scf.forall over the batch, so each
  /// image's columns are still in cache when the matmul reads them, and
  /// images run in parallel at O2): cols[(c, kh, kw), (oh, ow)] = the padded
  /// image under each window, then weight [O, C*kh*kw] x cols into the
  /// image's [O, OH*OW] of the NCHW result, zero-initialized and summed in
  /// (c, kh, kw) order like the direct form, so the bits do not change. The
  /// columns are per-iteration scratch (the runtime's caching allocator
  /// makes that cheap). Each iteration inserts a whole [1, O, OH, OW] image,
  /// so ms-fuse-batch-loops can pull consumers into the loop. The bias is
  /// added afterwards.
  static Value im2colMatmul(OpBuilder &b, Location loc, Conv2DOp op,
                            Value input, Value weight, Value bias,
                            int64_t outH, int64_t outW) {
    MLIRContext *ctx = b.getContext();
    auto inputType = cast<RankedTensorType>(input.getType());
    auto weightType = cast<RankedTensorType>(weight.getType());
    Type elementType = inputType.getElementType();
    int64_t n = inputType.getDimSize(0), c = inputType.getDimSize(1),
            paddedH = inputType.getDimSize(2), paddedW = inputType.getDimSize(3);
    int64_t o = weightType.getDimSize(0), kh = weightType.getDimSize(2),
            kw = weightType.getDimSize(3);
    int64_t k = c * kh * kw, pixels = outH * outW;
    ArrayRef<int64_t> stride = op.getStride(), dilation = op.getDilation();

    Value weightMatrix = tensor::CollapseShapeOp::create(
        b, loc, RankedTensorType::get({o, k}, elementType), weight,
        ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}});
    auto resultType = cast<RankedTensorType>(op.getType());
    auto forall = scf::ForallOp::create(
        b, loc, ArrayRef<OpFoldResult>{b.getIndexAttr(n)},
        ValueRange{emptyLike(b, loc, resultType)}, std::nullopt);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(forall.getTerminator());
    Value image = forall.getInductionVars()[0];
    Value sharedOut = forall.getRegionIterArgs()[0];
    OpFoldResult one = b.getIndexAttr(1), zero = b.getIndexAttr(0);
    auto sizes = [&](ArrayRef<int64_t> dims) {
      SmallVector<OpFoldResult> result = {one};
      for (int64_t d : dims)
        result.push_back(b.getIndexAttr(d));
      return result;
    };
    auto at = [&](size_t rank) {
      SmallVector<OpFoldResult> offsets(rank, zero);
      offsets[0] = image;
      return offsets;
    };
    auto unitStrides = [&](size_t rank) {
      return SmallVector<OpFoldResult>(rank, one);
    };
    Value pixelsOfImage = tensor::ExtractSliceOp::create(
        b, loc, RankedTensorType::get({c, paddedH, paddedW}, elementType),
        input, at(4), sizes({c, paddedH, paddedW}), unitStrides(4));

    // Iteration space (c, kh, kw, oh, ow) = d0..d4.
    AffineExpr d[5];
    for (unsigned i = 0; i < 5; ++i)
      d[i] = getAffineDimExpr(i, ctx);
    auto windowsType =
        RankedTensorType::get({c, kh, kw, outH, outW}, elementType);
    SmallVector<AffineMap> maps = {
        AffineMap::get(5, 0,
                       {d[0], d[3] * stride[0] + d[1] * dilation[0],
                        d[4] * stride[1] + d[2] * dilation[1]},
                       ctx),
        AffineMap::getMultiDimIdentityMap(5, ctx)};
    Value windows =
        linalg::GenericOp::create(
            b, loc, TypeRange{windowsType}, ValueRange{pixelsOfImage},
            ValueRange{emptyLike(b, loc, windowsType)}, maps,
            SmallVector<IteratorType>(5, IteratorType::parallel),
            [](OpBuilder &nb, Location l, ValueRange args) {
              linalg::YieldOp::create(nb, l, args[0]);
            })
            .getResult(0);
    Value cols = tensor::CollapseShapeOp::create(
        b, loc, RankedTensorType::get({k, pixels}, elementType), windows,
        ArrayRef<ReassociationIndices>{{0, 1, 2}, {3, 4}});
    auto productType = RankedTensorType::get({o, pixels}, elementType);
    auto imageType = RankedTensorType::get({1, o, outH, outW}, elementType);
    SmallVector<OpFoldResult> imageSizes = sizes({o, outH, outW});
    Value imageSlot = tensor::ExtractSliceOp::create(
        b, loc, imageType, sharedOut, at(4), imageSizes, unitStrides(4));
    SmallVector<ReassociationIndices> imageToProduct = {{0, 1}, {2, 3}};
    Value productSlot = tensor::CollapseShapeOp::create(
        b, loc, productType, imageSlot, imageToProduct);
    Value zeros =
        linalg::FillOp::create(b, loc,
                               ValueRange{floatConst(b, loc, elementType, 0.0)},
                               ValueRange{productSlot})
            .getResult(0);
    Value product =
        linalg::MatmulOp::create(b, loc, TypeRange{productType},
                                 ValueRange{weightMatrix, cols},
                                 ValueRange{zeros})
            .getResult(0);
    Value imageResult = tensor::ExpandShapeOp::create(
        b, loc, imageType, product, imageToProduct);
    b.setInsertionPointToEnd(forall.getTerminator().getBody());
    tensor::ParallelInsertSliceOp::create(b, loc, imageResult, sharedOut,
                                          at(4), imageSizes, unitStrides(4));
    b.setInsertionPointAfter(forall);

    Value result = forall.getResult(0);
    if (bias)
      result = addBias(b, loc, result,
                       channelColumn(b, loc, bias, resultType.getRank()));
    return result;
  }

  bool asMatmul;
};

//===----------------------------------------------------------------------===//
// Gradients
//===----------------------------------------------------------------------===//

/// What both conv gradients need: the forward geometry, and the channel
/// counts per group.
struct ConvGradGeometry {
  ConvDim h, w;
  int64_t n, c, o, g, kh, kw, height, width;
  template <typename GradOp>
  static FailureOr<ConvGradGeometry> get(GradOp op, ArrayRef<int64_t> input,
                                         ArrayRef<int64_t> weight,
                                         RewriterBase &rewriter) {
    std::string why;
    auto geometry = convGeometry(input, weight, op.getPadMode(),
                                 op.getPadding(), op.getStride(),
                                 op.getDilation(), why);
    if (!geometry)
      return rewriter.notifyMatchFailure(op, why);
    ConvGradGeometry r;
    std::tie(r.h, r.w) = *geometry;
    r.n = input[0];
    r.c = input[1];
    r.height = input[2];
    r.width = input[3];
    r.o = weight[0];
    r.kh = weight[2];
    r.kw = weight[3];
    r.g = static_cast<int64_t>(op.getGroup());
    return r;
  }
};

/// mulf + addf, as the forward conv accumulates.
void yieldProductSum(OpBuilder &b, Location l, ValueRange args) {
  Value prod = arith::MulFOp::create(b, l, args[0], args[1]);
  linalg::YieldOp::create(b, l,
                          arith::AddFOp::create(b, l, args[2], prod).getResult());
}

/// dx[n, c, i, j] = sum over (o in c's group, kh, kw), in that order, of
/// dy[n, o, oh, ow] * w[o, c, kh, kw] for the (oh, ow) whose window puts
/// (kh, kw) on (i, j): dy spread out by the strides (zeros between) makes
/// that an affine read, i + padTop + (KH - 1 - kh) * dilation.
struct Conv2DBackpropInputPattern
    : OpConversionPattern<Conv2DBackpropInputOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Conv2DBackpropInputOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto resultType = cast<RankedTensorType>(op.getType());
    auto weightType = cast<RankedTensorType>(adaptor.getOther().getType());
    auto geom = ConvGradGeometry::get(op, resultType.getShape(),
                                      weightType.getShape(), rewriter);
    if (failed(geom))
      return failure();
    const ConvGradGeometry &G = *geom;
    Type elementType = resultType.getElementType();
    ArrayRef<int64_t> stride = op.getStride(), dilation = op.getDilation();
    int64_t extentH = (G.kh - 1) * dilation[0], extentW = (G.kw - 1) * dilation[1];
    SmallVector<int64_t> size = {
        G.height + G.h.padBefore + G.h.padAfter + extentH,
        G.width + G.w.padBefore + G.w.padAfter + extentW};
    Value spread = spreadSpatialDims(rewriter, loc, adaptor.getDy(), stride,
                                     {extentH, extentW}, size, 0.0);
    int64_t og = G.o / G.g, cg = G.c / G.g;
    Value groupedDy = tensor::ExpandShapeOp::create(
        rewriter, loc,
        RankedTensorType::get({G.n, G.g, og, size[0], size[1]}, elementType),
        spread, ArrayRef<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
    Value groupedWeight = tensor::ExpandShapeOp::create(
        rewriter, loc,
        RankedTensorType::get({G.g, og, cg, G.kh, G.kw}, elementType),
        adaptor.getOther(),
        ArrayRef<ReassociationIndices>{{0, 1}, {2}, {3}, {4}});
    auto groupedType = RankedTensorType::get(
        {G.n, G.g, cg, G.height, G.width}, elementType);
    // (n, g, c, i, j, o, kh, kw)
    AffineExpr d[8];
    for (unsigned i = 0; i < 8; ++i)
      d[i] = getAffineDimExpr(i, ctx);
    SmallVector<AffineMap> maps = {
        AffineMap::get(8, 0,
                       {d[0], d[1], d[5],
                        d[3] - d[6] * dilation[0] + (G.h.padBefore + extentH),
                        d[4] - d[7] * dilation[1] + (G.w.padBefore + extentW)},
                       ctx),
        AffineMap::get(8, 0, {d[1], d[5], d[2], d[6], d[7]}, ctx),
        AffineMap::get(8, 0, {d[0], d[1], d[2], d[3], d[4]}, ctx)};
    SmallVector<IteratorType> iterators(5, IteratorType::parallel);
    iterators.append(3, IteratorType::reduction);
    Value grouped =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{groupedType},
            ValueRange{groupedDy, groupedWeight},
            ValueRange{filled(rewriter, loc, groupedType, 0.0)}, maps,
            iterators, yieldProductSum)
            .getResult(0);
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
        op, resultType, grouped,
        ArrayRef<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
    return success();
  }
};

/// dw[o, c, kh, kw] = sum over (n, oh, ow), in that order, of
/// dy[n, o, oh, ow] * x_padded[n, c, oh * stride + kh * dilation, ...].
struct Conv2DBackpropFilterPattern
    : OpConversionPattern<Conv2DBackpropFilterOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Conv2DBackpropFilterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto resultType = cast<RankedTensorType>(op.getType());
    auto inputType = cast<RankedTensorType>(adaptor.getOther().getType());
    auto geom = ConvGradGeometry::get(op, inputType.getShape(),
                                      resultType.getShape(), rewriter);
    if (failed(geom))
      return failure();
    const ConvGradGeometry &G = *geom;
    Type elementType = resultType.getElementType();
    ArrayRef<int64_t> stride = op.getStride(), dilation = op.getDilation();
    Value padded =
        padSpatialDims(rewriter, loc, adaptor.getOther(), G.h, G.w, 0.0);
    auto paddedType = cast<RankedTensorType>(padded.getType());
    int64_t og = G.o / G.g, cg = G.c / G.g;
    Value groupedInput = tensor::ExpandShapeOp::create(
        rewriter, loc,
        RankedTensorType::get({G.n, G.g, cg, paddedType.getDimSize(2),
                               paddedType.getDimSize(3)},
                              elementType),
        padded, ArrayRef<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
    Value groupedDy = tensor::ExpandShapeOp::create(
        rewriter, loc,
        RankedTensorType::get({G.n, G.g, og, G.h.output, G.w.output},
                              elementType),
        adaptor.getDy(), ArrayRef<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
    auto groupedType =
        RankedTensorType::get({G.g, og, cg, G.kh, G.kw}, elementType);
    // (g, o, c, kh, kw, n, oh, ow)
    AffineExpr d[8];
    for (unsigned i = 0; i < 8; ++i)
      d[i] = getAffineDimExpr(i, ctx);
    SmallVector<AffineMap> maps = {
        AffineMap::get(8, 0, {d[5], d[0], d[1], d[6], d[7]}, ctx),
        AffineMap::get(8, 0,
                       {d[5], d[0], d[2], d[6] * stride[0] + d[3] * dilation[0],
                        d[7] * stride[1] + d[4] * dilation[1]},
                       ctx),
        AffineMap::get(8, 0, {d[0], d[1], d[2], d[3], d[4]}, ctx)};
    SmallVector<IteratorType> iterators(5, IteratorType::parallel);
    iterators.append(3, IteratorType::reduction);
    Value grouped =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{groupedType},
            ValueRange{groupedDy, groupedInput},
            ValueRange{filled(rewriter, loc, groupedType, 0.0)}, maps,
            iterators, yieldProductSum)
            .getResult(0);
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
        op, resultType, grouped,
        ArrayRef<ReassociationIndices>{{0, 1}, {2}, {3}, {4}});
    return success();
  }
};

} // namespace

void ms::populateConvolutionToLinalgPatterns(RewritePatternSet &patterns,
                                             bool convAsMatmul) {
  patterns.add<Conv2DPattern>(patterns.getContext(), convAsMatmul);
  patterns.add<Conv2DBackpropInputPattern, Conv2DBackpropFilterPattern>(
      patterns.getContext());
}
