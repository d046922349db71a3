//===- Convolution.cpp - ms.conv2d to linalg --------------------------------===//
//
// conv2d and its two gradients, each as one in-order accumulation, or as
// im2col plus linalg.matmul (the same sums, in the same order) when
// conv-as-matmul asks for it.
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

#include <array>
#include <type_traits>

using namespace mlir;
using namespace ms;
using namespace ms::lowering;

namespace {

using utils::IteratorType;

/// Whether one image's im2col copy, [c*kh*kw, oh*ow], stays under
/// kMaxIm2colElements. Past it (a kernel as large as the image, say) the
/// copy would dwarf the image and the weights, and take longer to write
/// than the direct conv takes to run, so the conv stays direct.
bool im2colFits(int64_t c, int64_t kh, int64_t kw, int64_t oh, int64_t ow) {
  constexpr int64_t kMaxIm2colElements = int64_t(1) << 24;
  std::optional<int64_t> elements = c;
  for (int64_t factor : {kh, kw, oh, ow})
    if (elements)
      elements = llvm::checkedMul(*elements, factor);
  return elements && *elements <= kMaxIm2colElements;
}

/// The read of an image [C, H, W] by an iteration space over (c, kh, kw,
/// oh, ow) in some order: `dims` gives the position of each of the five, and
/// the read is (c, oh * stride + kh * dilation, ow * stride + kw * dilation).
AffineMap windowRead(MLIRContext *ctx, std::array<unsigned, 5> dims,
                     ArrayRef<int64_t> stride, ArrayRef<int64_t> dilation) {
  auto d = [&](unsigned which) { return getAffineDimExpr(dims[which], ctx); };
  return AffineMap::get(5, 0,
                        {d(0), d(3) * stride[0] + d(1) * dilation[0],
                         d(4) * stride[1] + d(2) * dilation[1]},
                        ctx);
}

/// Offsets [index, 0, ...] of a rank-`rank` slice at `index` of dim 0.
SmallVector<OpFoldResult> atIndex(OpBuilder &b, OpFoldResult index,
                                  size_t rank) {
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
  offsets[0] = index;
  return offsets;
}

/// Sizes [1, dims...] of one slice of dim 0.
SmallVector<OpFoldResult> oneOf(OpBuilder &b, ArrayRef<int64_t> dims) {
  SmallVector<OpFoldResult> result = {b.getIndexAttr(1)};
  for (int64_t d : dims)
    result.push_back(b.getIndexAttr(d));
  return result;
}

SmallVector<OpFoldResult> unitStrides(OpBuilder &b, size_t rank) {
  return SmallVector<OpFoldResult>(rank, b.getIndexAttr(1));
}

/// images[index] of an [N, dims...] tensor, as a [dims...] tensor.
Value sliceOf(OpBuilder &b, Location loc, Value images, OpFoldResult index) {
  auto type = cast<RankedTensorType>(images.getType());
  ArrayRef<int64_t> dims = type.getShape().drop_front();
  return tensor::ExtractSliceOp::create(
      b, loc, RankedTensorType::get(dims, type.getElementType()), images,
      atIndex(b, index, type.getRank()), oneOf(b, dims),
      unitStrides(b, type.getRank()));
}

/// The im2col columns of one image [C, H, W]: windows[d0..d4] =
/// image[read(d0..d4)] over the iteration space `windowDims`, collapsed by
/// `collapse` into a matrix.
Value im2colColumns(OpBuilder &b, Location loc, Value image,
                    ArrayRef<int64_t> windowDims, AffineMap read,
                    ArrayRef<ReassociationIndices> collapse) {
  Type elementType = cast<RankedTensorType>(image.getType()).getElementType();
  auto windowsType = RankedTensorType::get(windowDims, elementType);
  Value windows =
      linalg::GenericOp::create(
          b, loc, TypeRange{windowsType}, ValueRange{image},
          ValueRange{emptyLike(b, loc, windowsType)},
          SmallVector<AffineMap>{read, AffineMap::getMultiDimIdentityMap(
                                           windowDims.size(), b.getContext())},
          SmallVector<IteratorType>(windowDims.size(), IteratorType::parallel),
          [](OpBuilder &nb, Location l, ValueRange args) {
            linalg::YieldOp::create(nb, l, args[0]);
          })
          .getResult(0);
  SmallVector<int64_t> matrixDims;
  for (const ReassociationIndices &group : collapse) {
    int64_t size = 1;
    for (int64_t i : group)
      size *= windowDims[i];
    matrixDims.push_back(size);
  }
  return tensor::CollapseShapeOp::create(
      b, loc, RankedTensorType::get(matrixDims, elementType), windows,
      collapse);
}

/// result[n, r, oh, ow] = lhs[r, (c, kh, kw)] x cols_n[(c, kh, kw), (oh,
/// ow)], cols_n[c, kh, kw, oh, ow] = images[n][read(c, kh, kw, oh, ow)],
/// over windowDims = {C, KH, KW, OH, OW}: im2col one image at a time (an
/// scf.forall over the batch, so each image's columns are still in cache
/// when the matmul reads them, and images run in parallel at O2), summed
/// in (c, kh, kw) order like the direct forms, so the bits do not change.
/// The columns are per-iteration scratch (the runtime's caching allocator
/// makes that cheap). Each iteration inserts a whole [1, R, OH, OW] image,
/// so ms-fuse-batch-loops can pull consumers into the loop.
Value perImageIm2colMatmul(OpBuilder &b, Location loc, Value images,
                           Value lhs, ArrayRef<int64_t> windowDims,
                           AffineMap read, RankedTensorType resultType) {
  Type elementType = resultType.getElementType();
  int64_t n = resultType.getDimSize(0), r = resultType.getDimSize(1);
  int64_t outH = windowDims[3], outW = windowDims[4];
  auto forall = scf::ForallOp::create(
      b, loc, ArrayRef<OpFoldResult>{b.getIndexAttr(n)},
      ValueRange{emptyLike(b, loc, resultType)}, std::nullopt);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(forall.getTerminator());
  Value image = forall.getInductionVars()[0];
  Value sharedOut = forall.getRegionIterArgs()[0];
  Value cols = im2colColumns(b, loc, sliceOf(b, loc, images, image),
                             windowDims, read, {{0, 1, 2}, {3, 4}});
  auto productType = RankedTensorType::get({r, outH * outW}, elementType);
  auto imageType = RankedTensorType::get({1, r, outH, outW}, elementType);
  SmallVector<OpFoldResult> imageSizes = oneOf(b, {r, outH, outW});
  Value imageSlot = tensor::ExtractSliceOp::create(
      b, loc, imageType, sharedOut, atIndex(b, image, 4), imageSizes,
      unitStrides(b, 4));
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
                               ValueRange{lhs, cols}, ValueRange{zeros})
          .getResult(0);
  Value imageResult = tensor::ExpandShapeOp::create(b, loc, imageType, product,
                                                    imageToProduct);
  b.setInsertionPointToEnd(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(b, loc, imageResult, sharedOut,
                                        atIndex(b, image, 4), imageSizes,
                                        unitStrides(b, 4));
  b.setInsertionPointAfter(forall);
  return forall.getResult(0);
}

/// mulf + addf, as every conv accumulates.
void yieldProductSum(OpBuilder &b, Location l, ValueRange args) {
  Value prod = arith::MulFOp::create(b, l, args[0], args[1]);
  linalg::YieldOp::create(
      b, l, arith::AddFOp::create(b, l, args[2], prod).getResult());
}

/// The grouped backprops' sum: a linalg.generic over 8 loops, the last 3 a
/// reduction, of a * b into a zero-filled `groupedType`; then collapsed
/// to `resultType` by `groups` (the group dim merged back).
Value groupedProductSum(OpBuilder &b, Location loc,
                        RankedTensorType groupedType, Value lhs, Value rhs,
                        ArrayRef<AffineMap> maps, RankedTensorType resultType,
                        ArrayRef<ReassociationIndices> groups) {
  SmallVector<IteratorType> iterators(5, IteratorType::parallel);
  iterators.append(3, IteratorType::reduction);
  Value grouped =
      linalg::GenericOp::create(b, loc, TypeRange{groupedType},
                                ValueRange{lhs, rhs},
                                ValueRange{filled(b, loc, groupedType, 0.0)},
                                maps, iterators, yieldProductSum)
          .getResult(0);
  return tensor::CollapseShapeOp::create(b, loc, resultType, grouped, groups);
}

/// conv2d as one linalg.generic over (n, g, o, oh, ow, c, kh, kw): channels
/// split into groups by reshapes, padding by tensor.pad, then a zero-filled
/// accumulation in (c, kh, kw) order and the bias added afterwards.
struct Conv2DPattern : OpConversionPattern<Conv2DOp> {
  Conv2DPattern(MLIRContext *ctx, bool asMatmul)
      : OpConversionPattern(ctx), asMatmul(asMatmul) {}

  LogicalResult
  matchAndRewrite(Conv2DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto inputType = cast<RankedTensorType>(adaptor.getInput().getType());
    auto weightType = cast<RankedTensorType>(adaptor.getWeight().getType());
    std::string why;
    auto geometry = convGeometry(inputType.getShape(), weightType.getShape(),
                                 op.getPadMode(), op.getPadding(),
                                 op.getStride(), op.getDilation(), why);
    if (!geometry)
      return rewriter.notifyMatchFailure(op, why);
    auto [h, w] = *geometry;
    int64_t c = inputType.getDimSize(1);
    int64_t kh = weightType.getDimSize(2), kw = weightType.getDimSize(3);
    Location loc = op.getLoc();
    Value input = padSpatialDims(rewriter, loc, adaptor.getInput(), h, w, 0.0);
    Value result = asMatmul && op.getGroup() == 1 &&
                           im2colFits(c, kh, kw, h.output, w.output)
                       ? im2colConv(rewriter, op, adaptor, input, h, w)
                       : groupedConv(rewriter, op, adaptor, input, h, w);
    if (Value bias = adaptor.getBias()) {
      int64_t rank = cast<RankedTensorType>(result.getType()).getRank();
      result = addBias(rewriter, loc, result,
                       channelColumn(rewriter, loc, bias, rank));
    }
    rewriter.replaceOp(op, result);
    return success();
  }

private:
  /// The (padded) image's columns times the weight as an [O, C*KH*KW]
  /// matrix, one image at a time.
  static Value im2colConv(ConversionPatternRewriter &rewriter, Conv2DOp op,
                          OpAdaptor adaptor, Value input, const ConvDim &h,
                          const ConvDim &w) {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type elementType = resultType.getElementType();
    auto weightType = cast<RankedTensorType>(adaptor.getWeight().getType());
    int64_t c = cast<RankedTensorType>(input.getType()).getDimSize(1);
    int64_t o = weightType.getDimSize(0), kh = weightType.getDimSize(2),
            kw = weightType.getDimSize(3);
    Value weightMatrix = tensor::CollapseShapeOp::create(
        rewriter, loc, RankedTensorType::get({o, c * kh * kw}, elementType),
        adaptor.getWeight(), ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}});
    // (c, kh, kw, oh, ow)
    AffineMap read = windowRead(rewriter.getContext(), {0, 1, 2, 3, 4},
                                op.getStride(), op.getDilation());
    return perImageIm2colMatmul(rewriter, loc, input, weightMatrix,
                                {c, kh, kw, h.output, w.output}, read,
                                resultType);
  }

  /// The generic over (n, g, o, oh, ow, c, kh, kw) on the (padded) image
  /// and the weight split into groups.
  static Value groupedConv(ConversionPatternRewriter &rewriter, Conv2DOp op,
                           OpAdaptor adaptor, Value input, const ConvDim &h,
                           const ConvDim &w) {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Type elementType = cast<RankedTensorType>(op.getType()).getElementType();
    auto weightType = cast<RankedTensorType>(adaptor.getWeight().getType());
    auto paddedType = cast<RankedTensorType>(input.getType());
    int64_t n = paddedType.getDimSize(0), c = paddedType.getDimSize(1);
    int64_t g = static_cast<int64_t>(op.getGroup());
    int64_t o = weightType.getDimSize(0), kh = weightType.getDimSize(2),
            kw = weightType.getDimSize(3);
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
    Value conv = linalg::GenericOp::create(
                     rewriter, loc, TypeRange{groupedOutType},
                     ValueRange{groupedInput, groupedWeight}, ValueRange{init},
                     maps, iterators, yieldProductSum)
                     .getResult(0);
    auto flatType =
        RankedTensorType::get({n, o, h.output, w.output}, elementType);
    return tensor::CollapseShapeOp::create(
        rewriter, loc, flatType, conv,
        ArrayRef<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
  }

private:
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
  ArrayRef<int64_t> stride, dilation;
  /// The gradient's type (dx's or dw's) and element type.
  RankedTensorType resultType;
  Type elementType;
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
    r.stride = op.getStride();
    r.dilation = op.getDilation();
    r.resultType = cast<RankedTensorType>(op.getType());
    r.elementType = r.resultType.getElementType();
    return r;
  }
};

/// The backprop patterns' common start: the geometry of the forward conv,
/// whose x shape is the result's (input gradient) or the `other` operand's
/// (filter gradient), and w's the other way round; then Derived::rewrite.
template <typename GradOp, typename Derived>
struct ConvBackpropPattern : OpConversionPattern<GradOp> {
  ConvBackpropPattern(MLIRContext *ctx, bool asMatmul)
      : OpConversionPattern<GradOp>(ctx), asMatmul(asMatmul) {}
  LogicalResult
  matchAndRewrite(GradOp op, typename GradOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    ArrayRef<int64_t> result = cast<RankedTensorType>(op.getType()).getShape();
    ArrayRef<int64_t> other =
        cast<RankedTensorType>(adaptor.getOther().getType()).getShape();
    constexpr bool isInputGrad =
        std::is_same_v<GradOp, Conv2DBackpropInputOp>;
    auto geom = ConvGradGeometry::get(op, isInputGrad ? result : other,
                                      isInputGrad ? other : result, rewriter);
    if (failed(geom))
      return failure();
    return static_cast<const Derived *>(this)->rewrite(op, adaptor, *geom,
                                                       rewriter);
  }

protected:
  bool asMatmul;
};

/// dx[n, c, i, j] = sum over (o in c's group, kh, kw), in that order, of
/// dy[n, o, oh, ow] * w[o, c, kh, kw] for the (oh, ow) whose window puts
/// (kh, kw) on (i, j): dy spread out by the strides (zeros between) makes
/// that an affine read, i + padTop + (KH - 1 - kh) * dilation.
struct Conv2DBackpropInputPattern
    : ConvBackpropPattern<Conv2DBackpropInputOp, Conv2DBackpropInputPattern> {
  using ConvBackpropPattern::ConvBackpropPattern;
  LogicalResult rewrite(Conv2DBackpropInputOp op, OpAdaptor adaptor,
                        const ConvGradGeometry &G,
                        ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    ArrayRef<int64_t> dilation = G.dilation;
    int64_t extentH = (G.kh - 1) * dilation[0], extentW = (G.kw - 1) * dilation[1];
    SmallVector<int64_t> size = {
        G.height + G.h.padBefore + G.h.padAfter + extentH,
        G.width + G.w.padBefore + G.w.padAfter + extentW};
    Value spread = spreadSpatialDims(rewriter, loc, adaptor.getDy(), G.stride,
                                     {extentH, extentW}, size, 0.0);
    AffineExpr d[8];
    for (unsigned i = 0; i < 8; ++i)
      d[i] = getAffineDimExpr(i, ctx);
    int64_t offsetH = G.h.padBefore + extentH, offsetW = G.w.padBefore + extentW;
    if (asMatmul && G.g == 1 && im2colFits(G.o, G.kh, G.kw, G.height, G.width)) {
      // (o, kh, kw, i, j): the direct form's read, one image at a time.
      AffineMap read = AffineMap::get(
          5, 0,
          {d[0], d[3] - d[1] * dilation[0] + offsetH,
           d[4] - d[2] * dilation[1] + offsetW},
          ctx);
      rewriter.replaceOp(
          op, perImageIm2colMatmul(
                  rewriter, loc, spread,
                  transposedWeightMatrix(rewriter, loc, adaptor.getOther()),
                  {G.o, G.kh, G.kw, G.height, G.width}, read, G.resultType));
      return success();
    }
    int64_t og = G.o / G.g, cg = G.c / G.g;
    Value groupedDy = tensor::ExpandShapeOp::create(
        rewriter, loc,
        RankedTensorType::get({G.n, G.g, og, size[0], size[1]}, G.elementType),
        spread, ArrayRef<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
    Value groupedWeight = tensor::ExpandShapeOp::create(
        rewriter, loc,
        RankedTensorType::get({G.g, og, cg, G.kh, G.kw}, G.elementType),
        adaptor.getOther(),
        ArrayRef<ReassociationIndices>{{0, 1}, {2}, {3}, {4}});
    auto groupedType = RankedTensorType::get(
        {G.n, G.g, cg, G.height, G.width}, G.elementType);
    // (n, g, c, i, j, o, kh, kw)
    SmallVector<AffineMap> maps = {
        AffineMap::get(8, 0,
                       {d[0], d[1], d[5], d[3] - d[6] * dilation[0] + offsetH,
                        d[4] - d[7] * dilation[1] + offsetW},
                       ctx),
        AffineMap::get(8, 0, {d[1], d[5], d[2], d[6], d[7]}, ctx),
        AffineMap::get(8, 0, {d[0], d[1], d[2], d[3], d[4]}, ctx)};
    rewriter.replaceOp(
        op, groupedProductSum(
                rewriter, loc, groupedType, groupedDy, groupedWeight, maps,
                G.resultType, {{0}, {1, 2}, {3}, {4}}));
    return success();
  }

private:
  /// w [O, C, KH, KW] as the [C, O*KH*KW] matrix of dx = w^T x dy's
  /// columns.
  static Value transposedWeightMatrix(OpBuilder &b, Location loc, Value w) {
    auto type = cast<RankedTensorType>(w.getType());
    ArrayRef<int64_t> dims = type.getShape();
    auto transposedType = RankedTensorType::get(
        {dims[1], dims[0], dims[2], dims[3]}, type.getElementType());
    Value transposed =
        linalg::TransposeOp::create(b, loc, w, emptyLike(b, loc, transposedType),
                                    ArrayRef<int64_t>{1, 0, 2, 3})
            ->getResult(0);
    return tensor::CollapseShapeOp::create(
        b, loc,
        RankedTensorType::get({dims[1], dims[0] * dims[2] * dims[3]},
                              type.getElementType()),
        transposed, ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}});
  }

};

/// dw[o, c, kh, kw] = sum over (n, oh, ow), in that order, of
/// dy[n, o, oh, ow] * x_padded[n, c, oh * stride + kh * dilation, ...].
struct Conv2DBackpropFilterPattern
    : ConvBackpropPattern<Conv2DBackpropFilterOp,
                          Conv2DBackpropFilterPattern> {
  using ConvBackpropPattern::ConvBackpropPattern;
  LogicalResult rewrite(Conv2DBackpropFilterOp op, OpAdaptor adaptor,
                        const ConvGradGeometry &G,
                        ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    ArrayRef<int64_t> stride = G.stride, dilation = G.dilation;
    Value padded =
        padSpatialDims(rewriter, loc, adaptor.getOther(), G.h, G.w, 0.0);
    if (asMatmul && G.g == 1 &&
        im2colFits(G.c, G.kh, G.kw, G.h.output, G.w.output)) {
      rewriter.replaceOp(op, filterAsMatmul(rewriter, loc, padded,
                                            adaptor.getDy(), G));
      return success();
    }
    auto paddedType = cast<RankedTensorType>(padded.getType());
    int64_t og = G.o / G.g, cg = G.c / G.g;
    Value groupedInput = tensor::ExpandShapeOp::create(
        rewriter, loc,
        RankedTensorType::get({G.n, G.g, cg, paddedType.getDimSize(2),
                               paddedType.getDimSize(3)},
                              G.elementType),
        padded, ArrayRef<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
    Value groupedDy = tensor::ExpandShapeOp::create(
        rewriter, loc,
        RankedTensorType::get({G.n, G.g, og, G.h.output, G.w.output},
                              G.elementType),
        adaptor.getDy(), ArrayRef<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
    auto groupedType =
        RankedTensorType::get({G.g, og, cg, G.kh, G.kw}, G.elementType);
    // (g, o, c, kh, kw, n, oh, ow)
    MLIRContext *ctx = rewriter.getContext();
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
    rewriter.replaceOp(
        op, groupedProductSum(
                rewriter, loc, groupedType, groupedDy, groupedInput, maps,
                G.resultType, {{0, 1}, {2}, {3}, {4}}));
    return success();
  }

private:
  /// dw[o, (c, kh, kw)] += dy_n[o, (oh, ow)] x cols_n[(oh, ow), (c, kh, kw)]
  /// for n = 0, 1, ... in turn (an scf.for carrying dw), so the sum runs in
  /// the direct form's (n, oh, ow) order and the bits do not change.
  static Value filterAsMatmul(OpBuilder &b, Location loc, Value padded,
                              Value dy, const ConvGradGeometry &G) {
    MLIRContext *ctx = b.getContext();
    Type elementType = G.elementType;
    int64_t k = G.c * G.kh * G.kw, pixels = G.h.output * G.w.output;
    auto sumType = RankedTensorType::get({G.o, k}, elementType);
    // (oh, ow, c, kh, kw)
    AffineMap read = windowRead(ctx, {2, 3, 4, 0, 1}, G.stride, G.dilation);
    Value lower = arith::ConstantIndexOp::create(b, loc, 0);
    Value upper = arith::ConstantIndexOp::create(b, loc, G.n);
    Value step = arith::ConstantIndexOp::create(b, loc, 1);
    auto loop = scf::ForOp::create(
        b, loc, lower, upper, step, ValueRange{filled(b, loc, sumType, 0.0)},
        [&](OpBuilder &nb, Location l, Value image, ValueRange sum) {
          Value cols = im2colColumns(
              nb, l, sliceOf(nb, l, padded, image),
              {G.h.output, G.w.output, G.c, G.kh, G.kw}, read,
              {{0, 1}, {2, 3, 4}});
          Value dyImage = tensor::CollapseShapeOp::create(
              nb, l, RankedTensorType::get({G.o, pixels}, elementType),
              sliceOf(nb, l, dy, image),
              ArrayRef<ReassociationIndices>{{0}, {1, 2}});
          Value next = linalg::MatmulOp::create(nb, l, TypeRange{sumType},
                                                ValueRange{dyImage, cols},
                                                ValueRange{sum[0]})
                           .getResult(0);
          scf::YieldOp::create(nb, l, next);
        });
    return tensor::ExpandShapeOp::create(
        b, loc, G.resultType, loop.getResult(0),
        ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}});
  }

};

} // namespace

void ms::populateConvolutionToLinalgPatterns(RewritePatternSet &patterns,
                                             bool convAsMatmul) {
  patterns.add<Conv2DPattern>(patterns.getContext(), convAsMatmul);
  patterns.add<Conv2DBackpropInputPattern, Conv2DBackpropFilterPattern>(
      patterns.getContext(), convAsMatmul);
}
