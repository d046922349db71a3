//===- MSToLinalg.cpp - Lower ms ops to linalg/tensor/arith/math ----------===//
//
// Each ms op lowers on its own, on tensors. Arithmetic order is fixed here
// once for every mode and jit_level: contractions start from zero and
// accumulate along K in order, and a dense bias is added afterwards.
//
//===----------------------------------------------------------------------===//

#include "ms/Conversion/Passes.h"
#include "ms/Dialect/MS/IR/MSOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <cmath>

namespace ms {
#define GEN_PASS_DEF_CONVERTMSTOLINALG
#include "ms/Conversion/Passes.h.inc"
} // namespace ms

using namespace mlir;
using namespace ms;

namespace {

using utils::IteratorType;

enum class ReduceKind { Sum, Max };
using BodyFn = function_ref<Value(OpBuilder &, Location, ValueRange)>;

Value emptyLike(OpBuilder &b, Location loc, RankedTensorType type) {
  return tensor::EmptyOp::create(b, loc, type.getShape(),
                                 type.getElementType());
}

Value floatConst(OpBuilder &b, Location loc, Type type, double value) {
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
}

/// A tensor of `type` filled with `value`.
Value filled(OpBuilder &b, Location loc, RankedTensorType type, double value) {
  Value init = emptyLike(b, loc, type);
  Value scalar = floatConst(b, loc, type.getElementType(), value);
  return linalg::FillOp::create(b, loc, ValueRange{scalar}, ValueRange{init})
      .getResult(0);
}

/// The map from the iteration space of `resultShape` into an operand of shape
/// `operandShape` under numpy broadcasting: dimensions align on the right and
/// a size-1 dimension that stretches reads index 0.
AffineMap broadcastMap(MLIRContext *ctx, ArrayRef<int64_t> operandShape,
                       ArrayRef<int64_t> resultShape) {
  size_t offset = resultShape.size() - operandShape.size();
  SmallVector<AffineExpr> exprs;
  for (auto [i, size] : llvm::enumerate(operandShape)) {
    if (size == 1 && resultShape[i + offset] != 1)
      exprs.push_back(getAffineConstantExpr(0, ctx));
    else
      exprs.push_back(getAffineDimExpr(i + offset, ctx));
  }
  return AffineMap::get(resultShape.size(), 0, exprs, ctx);
}

/// An elementwise linalg.generic over `resultType` whose inputs broadcast into
/// it; `body` computes one element from the input elements.
Value elementwise(OpBuilder &b, Location loc, RankedTensorType resultType,
                  ValueRange inputs, BodyFn body) {
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineMap> maps;
  for (Value input : inputs)
    maps.push_back(broadcastMap(
        ctx, cast<RankedTensorType>(input.getType()).getShape(),
        resultType.getShape()));
  maps.push_back(AffineMap::getMultiDimIdentityMap(resultType.getRank(), ctx));
  SmallVector<IteratorType> iterators(resultType.getRank(),
                                      IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, inputs,
      ValueRange{emptyLike(b, loc, resultType)}, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value result = body(nb, nloc, args.drop_back());
        linalg::YieldOp::create(nb, nloc, result);
      });
  return generic.getResult(0);
}

//===----------------------------------------------------------------------===//
// Elementwise ops
//===----------------------------------------------------------------------===//

/// Lowers an ms elementwise op through a scalar body builder.
template <typename SourceOp>
struct ElementwisePattern : OpConversionPattern<SourceOp> {
  using ScalarFn = Value (*)(OpBuilder &, Location, ValueRange, SourceOp);
  ElementwisePattern(MLIRContext *ctx, ScalarFn fn)
      : OpConversionPattern<SourceOp>(ctx), fn(fn) {}

  LogicalResult
  matchAndRewrite(SourceOp op, typename SourceOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op.getType());
    Value result = elementwise(
        rewriter, op.getLoc(), resultType, adaptor.getOperands(),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return fn(b, loc, args, op);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
  ScalarFn fn;
};

template <typename ArithOp, typename SourceOp>
Value binary(OpBuilder &b, Location loc, ValueRange args, SourceOp) {
  return ArithOp::create(b, loc, args[0], args[1]);
}

template <typename MathOp, typename SourceOp>
Value unary(OpBuilder &b, Location loc, ValueRange args, SourceOp) {
  return MathOp::create(b, loc, args[0]);
}

Value relu(OpBuilder &b, Location loc, ValueRange args, ReluOp) {
  Value zero = floatConst(b, loc, args[0].getType(), 0.0);
  return arith::MaximumFOp::create(b, loc, args[0], zero);
}

/// 1 / (1 + e^-x) for x >= 0 and e^x / (1 + e^x) below, from one
/// e = exp(-|x|) <= 1: never overflows, so very negative x gives e^x's
/// subnormals rather than 0. The quotient q = n / d, d = 1 + e, is
/// corrected for both roundings: c = e - (d - 1) is d's rounding error and
/// r = n - q d the division's (both exact), so n / (d + c) = q + (r - q c)
/// / d, with 1 / d = q (x >= 0) or 1 - q (x < 0) good enough for the tiny
/// correction. Only the exp's error and one rounding remain.
Value sigmoid(OpBuilder &b, Location loc, ValueRange args, SigmoidOp) {
  Type t = args[0].getType();
  Value x = args[0];
  Value one = floatConst(b, loc, t, 1.0);
  Value negAbs =
      arith::NegFOp::create(b, loc, math::AbsFOp::create(b, loc, x));
  Value e = math::ExpOp::create(b, loc, negAbs);
  Value d = arith::AddFOp::create(b, loc, one, e);
  Value c = arith::SubFOp::create(b, loc, e,
                                  arith::SubFOp::create(b, loc, d, one));
  Value nonNegative = arith::CmpFOp::create(
      b, loc, arith::CmpFPredicate::OGE, x, floatConst(b, loc, t, 0.0));
  Value n = arith::SelectOp::create(b, loc, nonNegative, one, e);
  Value q = arith::DivFOp::create(b, loc, n, d);
  Value r = math::FmaOp::create(b, loc, arith::NegFOp::create(b, loc, q), d,
                                n);
  Value inv = arith::SelectOp::create(b, loc, nonNegative, q,
                                      arith::SubFOp::create(b, loc, one, q));
  Value corr = math::FmaOp::create(b, loc, arith::NegFOp::create(b, loc, q),
                                   c, r);
  return math::FmaOp::create(b, loc, corr, inv, q);
}

Value gelu(OpBuilder &b, Location loc, ValueRange args, GeluOp op) {
  Type t = args[0].getType();
  Value x = args[0];
  Value half = floatConst(b, loc, t, 0.5);
  Value one = floatConst(b, loc, t, 1.0);
  Value inner;
  if (op.getApproximate()) {
    // 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
    Value x3 = arith::MulFOp::create(
        b, loc, arith::MulFOp::create(b, loc, x, x), x);
    Value cubic = arith::AddFOp::create(
        b, loc, x,
        arith::MulFOp::create(b, loc, floatConst(b, loc, t, 0.044715), x3));
    Value scaled = arith::MulFOp::create(
        b, loc, floatConst(b, loc, t, std::sqrt(2.0 / M_PI)), cubic);
    inner = math::TanhOp::create(b, loc, scaled);
  } else {
    // 0.5 x (1 + erf(x / sqrt(2)))
    Value scaled =
        arith::MulFOp::create(b, loc, x, floatConst(b, loc, t, M_SQRT1_2));
    inner = math::ErfOp::create(b, loc, scaled);
  }
  Value sum = arith::AddFOp::create(b, loc, one, inner);
  return arith::MulFOp::create(b, loc,
                               arith::MulFOp::create(b, loc, half, x), sum);
}

/// A per-channel parameter [C] reshaped to [C, 1, ...] (rank `rank` - 1), so
/// numpy broadcasting lines it up with dimension 1 of a rank-`rank` tensor.
Value channelColumn(OpBuilder &b, Location loc, Value param, int64_t rank) {
  auto type = cast<RankedTensorType>(param.getType());
  if (rank <= 2)
    return param;
  SmallVector<int64_t> shape(rank - 1, 1);
  shape[0] = type.getDimSize(0);
  ReassociationIndices all;
  for (int64_t i = 0; i < rank - 1; ++i)
    all.push_back(i);
  return tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), param,
      ArrayRef<ReassociationIndices>{all});
}

/// `value` + `bias`, the bias broadcast like numpy.
Value addBias(OpBuilder &b, Location loc, Value value, Value bias) {
  return elementwise(b, loc, cast<RankedTensorType>(value.getType()),
                     ValueRange{value, bias},
                     [](OpBuilder &nb, Location l, ValueRange args) {
                       return arith::AddFOp::create(nb, l, args[0], args[1])
                           .getResult();
                     });
}

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

/// lhs @ rhs (after the optional transposes) with numpy batch broadcasting, as
/// a zero-initialized contraction that accumulates along K in order. Rank-2
/// cases use the named linalg.matmul variants; the rest a linalg.generic.
Value contraction(OpBuilder &b, Location loc, Value lhs, Value rhs,
                  bool transposeA, bool transposeB,
                  RankedTensorType resultType) {
  Value init = filled(b, loc, resultType, 0.0);
  auto lhsType = cast<RankedTensorType>(lhs.getType());
  auto rhsType = cast<RankedTensorType>(rhs.getType());
  if (lhsType.getRank() == 2 && rhsType.getRank() == 2 &&
      !(transposeA && transposeB)) {
    Operation *mm;
    if (transposeB)
      mm = linalg::MatmulTransposeBOp::create(b, loc, TypeRange{resultType},
                                              ValueRange{lhs, rhs},
                                              ValueRange{init});
    else if (transposeA)
      mm = linalg::MatmulTransposeAOp::create(b, loc, TypeRange{resultType},
                                              ValueRange{lhs, rhs},
                                              ValueRange{init});
    else
      mm = linalg::MatmulOp::create(b, loc, TypeRange{resultType},
                                    ValueRange{lhs, rhs}, ValueRange{init});
    return mm->getResult(0);
  }

  // Iteration space: [batch..., m, n, k].
  MLIRContext *ctx = b.getContext();
  int64_t batchRank = resultType.getRank() - 2;
  unsigned numDims = batchRank + 3;
  AffineExpr m = getAffineDimExpr(batchRank, ctx);
  AffineExpr n = getAffineDimExpr(batchRank + 1, ctx);
  AffineExpr k = getAffineDimExpr(batchRank + 2, ctx);
  ArrayRef<int64_t> resultBatch = resultType.getShape().drop_back(2);
  auto operandMap = [&](RankedTensorType type, AffineExpr row,
                        AffineExpr col) {
    ArrayRef<int64_t> batch = type.getShape().drop_back(2);
    size_t offset = resultBatch.size() - batch.size();
    SmallVector<AffineExpr> exprs;
    for (auto [i, size] : llvm::enumerate(batch))
      exprs.push_back(size == 1 && resultBatch[i + offset] != 1
                          ? getAffineConstantExpr(0, ctx)
                          : getAffineDimExpr(i + offset, ctx));
    exprs.push_back(row);
    exprs.push_back(col);
    return AffineMap::get(numDims, 0, exprs, ctx);
  };
  SmallVector<AffineExpr> resultExprs;
  for (int64_t i = 0; i < batchRank; ++i)
    resultExprs.push_back(getAffineDimExpr(i, ctx));
  resultExprs.push_back(m);
  resultExprs.push_back(n);
  SmallVector<AffineMap> maps = {
      transposeA ? operandMap(lhsType, k, m) : operandMap(lhsType, m, k),
      transposeB ? operandMap(rhsType, n, k) : operandMap(rhsType, k, n),
      AffineMap::get(numDims, 0, resultExprs, ctx)};
  SmallVector<IteratorType> iterators(numDims - 1, IteratorType::parallel);
  iterators.push_back(IteratorType::reduction);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, ValueRange{lhs, rhs}, ValueRange{init},
      maps, iterators, [](OpBuilder &nb, Location nloc, ValueRange args) {
        Value prod = arith::MulFOp::create(nb, nloc, args[0], args[1]);
        Value sum = arith::AddFOp::create(nb, nloc, args[2], prod);
        linalg::YieldOp::create(nb, nloc, sum);
      });
  return generic.getResult(0);
}

struct MatmulPattern : OpConversionPattern<MatmulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, contraction(rewriter, op.getLoc(), adaptor.getLhs(),
                        adaptor.getRhs(), op.getTransposeA(),
                        op.getTransposeB(),
                        cast<RankedTensorType>(op.getType())));
    return success();
  }
};

/// dense(x[..., in], w[out, in], b[out]) = (x2d @ w^T) + b, reshaped back.
struct DensePattern : OpConversionPattern<DenseOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DenseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inputType = cast<RankedTensorType>(adaptor.getInput().getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    Type elementType = resultType.getElementType();
    int64_t in = inputType.getShape().back();
    int64_t out = resultType.getShape().back();
    int64_t rows = inputType.getNumElements() / std::max<int64_t>(in, 1);
    if (in == 0)
      rows = resultType.getNumElements() / std::max<int64_t>(out, 1);

    // Bring the input to [rows, in].
    Value input = adaptor.getInput();
    int64_t rank = inputType.getRank();
    auto input2dType = RankedTensorType::get({rows, in}, elementType);
    if (rank == 1) {
      input = tensor::ExpandShapeOp::create(rewriter, loc, input2dType, input,
                                            {{0, 1}});
    } else if (rank > 2) {
      ReassociationIndices lead;
      for (int64_t i = 0; i < rank - 1; ++i)
        lead.push_back(i);
      input = tensor::CollapseShapeOp::create(rewriter, loc, input2dType,
                                              input, {lead, {rank - 1}});
    }

    auto mm2dType = RankedTensorType::get({rows, out}, elementType);
    Value result = contraction(rewriter, loc, input, adaptor.getWeight(),
                               /*transposeA=*/false, /*transposeB=*/true,
                               mm2dType);
    if (Value bias = adaptor.getBias())
      result = addBias(rewriter, loc, result, bias);

    if (rank == 1) {
      result = tensor::CollapseShapeOp::create(rewriter, loc, resultType,
                                               result, {{0, 1}});
    } else if (rank > 2) {
      ReassociationIndices lead;
      for (int64_t i = 0; i < rank - 1; ++i)
        lead.push_back(i);
      result = tensor::ExpandShapeOp::create(rewriter, loc, resultType, result,
                                             {lead, {rank - 1}});
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

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

//===----------------------------------------------------------------------===//
// Reductions and softmax
//===----------------------------------------------------------------------===//

/// Reduces `input` over the sorted `axes` (dropping them) with linalg.reduce.
Value reduce(OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> axes,
             ReduceKind kind) {
  auto inputType = cast<RankedTensorType>(input.getType());
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < inputType.getRank(); ++i)
    if (!llvm::is_contained(axes, i))
      shape.push_back(inputType.getDimSize(i));
  auto resultType = RankedTensorType::get(shape, inputType.getElementType());
  double initValue = kind == ReduceKind::Sum
                         ? 0.0
                         : -std::numeric_limits<double>::infinity();
  Value init = filled(b, loc, resultType, initValue);
  auto op = linalg::ReduceOp::create(
      b, loc, ValueRange{input}, ValueRange{init}, axes,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value r = kind == ReduceKind::Sum
                      ? arith::AddFOp::create(nb, nloc, args[1], args[0])
                            .getResult()
                      : arith::MaximumFOp::create(nb, nloc, args[1], args[0])
                            .getResult();
        linalg::YieldOp::create(nb, nloc, r);
      });
  return op.getResult(0);
}

/// Re-inserts size-1 dims at the (sorted) reduced `axes` of a rank-`rank`
/// tensor, as keep_dims asks.
Value keepDims(OpBuilder &b, Location loc, Value reduced,
               RankedTensorType keptType, ArrayRef<int64_t> axes) {
  int64_t rank = keptType.getRank();
  SmallVector<ReassociationIndices> groups;
  // Every kept dim owns itself, the reduced dims right after it, and (for the
  // first kept dim) the reduced dims before it.
  ReassociationIndices pending;
  for (int64_t i = 0; i < rank; ++i) {
    if (llvm::is_contained(axes, i)) {
      if (groups.empty())
        pending.push_back(i);
      else
        groups.back().push_back(i);
      continue;
    }
    ReassociationIndices group = pending;
    pending.clear();
    group.push_back(i);
    groups.push_back(group);
  }
  // A full reduction yields rank 0: the reassociation is empty.
  return tensor::ExpandShapeOp::create(b, loc, keptType, reduced, groups);
}

/// `value` / `count`, elementwise.
Value divideByCount(OpBuilder &b, Location loc, Value value, int64_t count) {
  return elementwise(b, loc, cast<RankedTensorType>(value.getType()),
                     ValueRange{value},
                     [&](OpBuilder &nb, Location l, ValueRange args) {
                       Value n = floatConst(nb, l, args[0].getType(),
                                            static_cast<double>(count));
                       return arith::DivFOp::create(nb, l, args[0], n)
                           .getResult();
                     });
}

template <typename SourceOp, ReduceKind kind, bool mean>
struct ReducePattern : OpConversionPattern<SourceOp> {
  using OpConversionPattern<SourceOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SourceOp op, typename SourceOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inputType = cast<RankedTensorType>(adaptor.getInput().getType());
    SmallVector<int64_t> axes = op.getNormalizedAxes();
    Value result = reduce(rewriter, loc, adaptor.getInput(), axes, kind);
    if (mean) {
      int64_t count = 1;
      for (int64_t axis : axes)
        count *= inputType.getDimSize(axis);
      result = divideByCount(rewriter, loc, result, count);
    }
    auto resultType = cast<RankedTensorType>(op.getType());
    if (op.getKeepDims())
      result = keepDims(rewriter, loc, result, resultType, axes);
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

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

struct FlattenPattern : OpConversionPattern<FlattenOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(FlattenOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    int64_t rank = cast<RankedTensorType>(adaptor.getInput().getType()).getRank();
    ReassociationIndices rest;
    for (int64_t i = 1; i < rank; ++i)
      rest.push_back(i);
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
        op, op.getType(), adaptor.getInput(),
        ArrayRef<ReassociationIndices>{{0}, rest});
    return success();
  }
};

/// Any reshape is a collapse to rank 1 followed by an expand to the target.
struct ReshapePattern : OpConversionPattern<ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inputType = cast<RankedTensorType>(adaptor.getInput().getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    auto allDims = [](int64_t rank) {
      ReassociationIndices all;
      for (int64_t i = 0; i < rank; ++i)
        all.push_back(i);
      return all;
    };
    Value value = adaptor.getInput();
    if (inputType.getRank() == 0 || resultType.getRank() == 0) {
      // Rank 0 holds one element; every dimension on the other side is 1.
      if (inputType.getRank() == 0)
        value = tensor::ExpandShapeOp::create(
            rewriter, loc, resultType, value,
            ArrayRef<ReassociationIndices>{});
      else
        value = tensor::CollapseShapeOp::create(
            rewriter, loc, resultType, value,
            ArrayRef<ReassociationIndices>{});
      rewriter.replaceOp(op, value);
      return success();
    }
    auto flatType = RankedTensorType::get({inputType.getNumElements()},
                                          inputType.getElementType());
    if (inputType.getRank() != 1)
      value = tensor::CollapseShapeOp::create(
          rewriter, loc, flatType, value,
          ArrayRef<ReassociationIndices>{allDims(inputType.getRank())});
    if (resultType.getRank() != 1)
      value = tensor::ExpandShapeOp::create(
          rewriter, loc, resultType, value,
          ArrayRef<ReassociationIndices>{allDims(resultType.getRank())});
    rewriter.replaceOp(op, value);
    return success();
  }
};

struct TransposePattern : OpConversionPattern<TransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    Value init = emptyLike(rewriter, op.getLoc(), type);
    auto transpose = linalg::TransposeOp::create(
        rewriter, op.getLoc(), adaptor.getInput(), init, op.getPerm());
    rewriter.replaceOp(op, transpose->getResult(0));
    return success();
  }
};

struct ConcatPattern : OpConversionPattern<ConcatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConcatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    int64_t axis = op.getNormalizedAxis();
    Value result = emptyLike(rewriter, loc, type);
    int64_t offset = 0;
    for (Value input : adaptor.getInputs()) {
      auto inputType = cast<RankedTensorType>(input.getType());
      SmallVector<OpFoldResult> offsets(type.getRank(),
                                        rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> sizes, strides(type.getRank(),
                                               rewriter.getIndexAttr(1));
      for (int64_t d : inputType.getShape())
        sizes.push_back(rewriter.getIndexAttr(d));
      offsets[axis] = rewriter.getIndexAttr(offset);
      result = tensor::InsertSliceOp::create(rewriter, loc, input, result,
                                             offsets, sizes, strides);
      offset += inputType.getDimSize(axis);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct DropoutPattern : OpConversionPattern<DropoutOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DropoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getTraining())
      return failure();
    rewriter.replaceOp(op, adaptor.getInput());
    return success();
  }
};

struct ConvertMSToLinalgPass
    : ms::impl::ConvertMSToLinalgBase<ConvertMSToLinalgPass> {
  using ConvertMSToLinalgBase::ConvertMSToLinalgBase;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    // Training-mode dropout needs random masks, which ms does not have yet.
    WalkResult walk = getOperation()->walk([](DropoutOp op) {
      if (op.getTraining()) {
        op.emitOpError("in training mode is not supported; ms runs "
                       "inference only (call set_train(False))");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();

    RewritePatternSet patterns(ctx);
    patterns.add<ElementwisePattern<AddOp>>(ctx, binary<arith::AddFOp, AddOp>);
    patterns.add<ElementwisePattern<SubOp>>(ctx, binary<arith::SubFOp, SubOp>);
    patterns.add<ElementwisePattern<MulOp>>(ctx, binary<arith::MulFOp, MulOp>);
    patterns.add<ElementwisePattern<DivOp>>(ctx, binary<arith::DivFOp, DivOp>);
    patterns.add<ElementwisePattern<MaximumOp>>(
        ctx, binary<arith::MaximumFOp, MaximumOp>);
    patterns.add<ElementwisePattern<MinimumOp>>(
        ctx, binary<arith::MinimumFOp, MinimumOp>);
    patterns.add<ElementwisePattern<ReluOp>>(ctx, relu);
    patterns.add<ElementwisePattern<SigmoidOp>>(ctx, sigmoid);
    patterns.add<ElementwisePattern<GeluOp>>(ctx, gelu);
    patterns.add<ElementwisePattern<TanhOp>>(ctx, unary<math::TanhOp, TanhOp>);
    patterns.add<ElementwisePattern<ExpOp>>(ctx, unary<math::ExpOp, ExpOp>);
    patterns.add<ElementwisePattern<LogOp>>(ctx, unary<math::LogOp, LogOp>);
    patterns.add<ElementwisePattern<SqrtOp>>(ctx, unary<math::SqrtOp, SqrtOp>);
    patterns.add<ElementwisePattern<NegOp>>(ctx, unary<arith::NegFOp, NegOp>);
    patterns.add<ElementwisePattern<AbsOp>>(ctx, unary<math::AbsFOp, AbsOp>);
    patterns.add<PoolPattern<MaxPool2DOp, ReduceKind::Max>,
                 PoolPattern<AvgPool2DOp, ReduceKind::Sum>>(ctx);
    patterns.add<Conv2DPattern>(ctx, convAsMatmul);
    patterns.add<DensePattern, MatmulPattern, BatchNormPattern,
                 LayerNormPattern, SoftmaxPattern, LogSoftmaxPattern,
                 FlattenPattern, ReshapePattern, TransposePattern,
                 ConcatPattern, DropoutPattern,
                 ReducePattern<ReduceSumOp, ReduceKind::Sum, false>,
                 ReducePattern<ReduceMeanOp, ReduceKind::Sum, true>,
                 ReducePattern<ReduceMaxOp, ReduceKind::Max, false>>(ctx);

    ConversionTarget target(*ctx);
    target.addIllegalDialect<MSDialect>();
    target.addLegalDialect<arith::ArithDialect, linalg::LinalgDialect,
                           math::MathDialect, scf::SCFDialect,
                           tensor::TensorDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
