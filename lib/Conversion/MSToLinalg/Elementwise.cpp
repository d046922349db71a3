//===- Elementwise.cpp - ms elementwise ops to linalg.generic ---------------===//
//
// Unary and broadcasting binary ops become one linalg.generic each, whose
// scalar body is built here; dropout at inference is the identity.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"

#include <cmath>

using namespace mlir;
using namespace ms;
using namespace ms::lowering;

namespace {

using utils::IteratorType;

template <typename SourceOp>
struct ElementwisePattern : OpConversionPattern<SourceOp> {
  using ScalarFn = Value (*)(OpBuilder &, Location, ValueRange, SourceOp);
  ElementwisePattern(const TypeConverter &converter, MLIRContext *ctx,
                     ScalarFn fn)
      : OpConversionPattern<SourceOp>(converter, ctx), fn(fn) {}

  LogicalResult
  matchAndRewrite(SourceOp op, typename SourceOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = storedType(op.getType());
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

/// A float op, or for integers the signed or unsigned one by the ms type
/// (integers wrap, two's complement, as numpy's do).
template <typename FloatOp, typename SignedOp, typename UnsignedOp,
          typename SourceOp>
Value numeric(OpBuilder &b, Location loc, ValueRange args, SourceOp op) {
  if (isa<FloatType>(args[0].getType()))
    return FloatOp::create(b, loc, args[0], args[1]);
  if (isUnsignedElement(op.getType()))
    return UnsignedOp::create(b, loc, args[0], args[1]);
  return SignedOp::create(b, loc, args[0], args[1]);
}

/// -x; for integers 0 - x (wrapping: -INT_MIN is INT_MIN).
Value neg(OpBuilder &b, Location loc, ValueRange args, NegOp) {
  Value x = args[0];
  if (isa<FloatType>(x.getType()))
    return arith::NegFOp::create(b, loc, x);
  return arith::SubIOp::create(b, loc, scalarConst(b, loc, x.getType(), 0), x);
}

/// |x|; an unsigned x is its own absolute value. Signed: max(x, 0 - x), so
/// |INT_MIN| wraps to INT_MIN as numpy's does (math.absi has no lowering in
/// the pipeline's math-to-llvm/libm stage).
Value abs(OpBuilder &b, Location loc, ValueRange args, AbsOp op) {
  Value x = args[0];
  if (isa<FloatType>(x.getType()))
    return math::AbsFOp::create(b, loc, x);
  if (isUnsignedElement(op.getType()))
    return x;
  Value zero = scalarConst(b, loc, x.getType(), 0);
  Value negated = arith::SubIOp::create(b, loc, zero, x);
  return arith::MaxSIOp::create(b, loc, x, negated);
}

template <typename MathOp, typename SourceOp>
Value unary(OpBuilder &b, Location loc, ValueRange args, SourceOp) {
  return MathOp::create(b, loc, args[0]);
}

Value relu(OpBuilder &b, Location loc, ValueRange args, ReluOp op) {
  Value zero = scalarConst(b, loc, args[0].getType(), 0.0);
  return maxScalars(b, loc, args[0], zero, isUnsignedElement(op.getType()));
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

/// dy where y > 0, else 0: a select, so dy's infinities and NaNs never leak
/// through the zeros.
Value reluGrad(OpBuilder &b, Location loc, ValueRange args, ReluGradOp) {
  Value zero = floatConst(b, loc, args[0].getType(), 0.0);
  Value positive = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT,
                                         args[1], zero);
  return arith::SelectOp::create(b, loc, positive, args[0], zero);
}

/// dy * gelu'(x) for the forward op's formula (see gelu above). One op per
/// statement: the IR must not depend on argument evaluation order.
Value geluGrad(OpBuilder &b, Location loc, ValueRange args, GeluGradOp op) {
  Type t = args[0].getType();
  Value dy = args[0], x = args[1];
  auto c = [&](double v) { return floatConst(b, loc, t, v); };
  auto mul = [&](Value l, Value r) {
    return arith::MulFOp::create(b, loc, l, r).getResult();
  };
  auto add = [&](Value l, Value r) {
    return arith::AddFOp::create(b, loc, l, r).getResult();
  };
  Value one = c(1.0), half = c(0.5);
  Value x2 = mul(x, x);
  Value halfX = mul(half, x);
  Value slope;
  if (op.getApproximate()) {
    // 0.5 (1 + t) + 0.5 x (1 - t^2) k (1 + 3a x^2), t = tanh(k (x + a x^3))
    double k = std::sqrt(2.0 / M_PI), a = 0.044715;
    Value kC = c(k), aC = c(a), a3 = c(3.0 * a);
    Value x3 = mul(x2, x);
    Value cubic = add(x, mul(aC, x3));
    Value tanh = math::TanhOp::create(b, loc, mul(kC, cubic));
    Value cdf = mul(half, add(one, tanh));
    Value tanh2 = mul(tanh, tanh);
    Value sech2 = arith::SubFOp::create(b, loc, one, tanh2);
    Value inner = mul(kC, add(one, mul(a3, x2)));
    Value pdfTerm = mul(sech2, inner);
    slope = add(cdf, mul(halfX, pdfTerm));
  } else {
    // 0.5 (1 + erf(x / sqrt(2))) + x exp(-x^2 / 2) / sqrt(2 pi)
    Value invSqrt2 = c(M_SQRT1_2), minusHalf = c(-0.5);
    Value invSqrt2Pi = c(1.0 / std::sqrt(2.0 * M_PI));
    Value erf = math::ErfOp::create(b, loc, mul(x, invSqrt2));
    Value cdf = mul(half, add(one, erf));
    Value gauss = math::ExpOp::create(b, loc, mul(minusHalf, x2));
    Value pdf = mul(gauss, invSqrt2Pi);
    slope = add(cdf, mul(x, pdf));
  }
  return mul(dy, slope);
}

/// ms.stop_gradient is the identity once gradients have been built.
struct StopGradientPattern : OpConversionPattern<StopGradientOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(StopGradientOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getInput());
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

template <typename SourceOp>
void add(RewritePatternSet &patterns, const TypeConverter &converter,
         typename ElementwisePattern<SourceOp>::ScalarFn fn) {
  patterns.add<ElementwisePattern<SourceOp>>(converter, patterns.getContext(),
                                             fn);
}

} // namespace

void ms::populateElementwiseToLinalgPatterns(RewritePatternSet &patterns,
                                             const TypeConverter &converter) {
  MLIRContext *ctx = patterns.getContext();
  add<AddOp>(patterns, converter,
             numeric<arith::AddFOp, arith::AddIOp, arith::AddIOp, AddOp>);
  add<SubOp>(patterns, converter,
             numeric<arith::SubFOp, arith::SubIOp, arith::SubIOp, SubOp>);
  add<MulOp>(patterns, converter,
             numeric<arith::MulFOp, arith::MulIOp, arith::MulIOp, MulOp>);
  add<DivOp>(patterns, converter, binary<arith::DivFOp, DivOp>);
  add<MaximumOp>(
      patterns, converter,
      numeric<arith::MaximumFOp, arith::MaxSIOp, arith::MaxUIOp, MaximumOp>);
  add<MinimumOp>(
      patterns, converter,
      numeric<arith::MinimumFOp, arith::MinSIOp, arith::MinUIOp, MinimumOp>);
  add<ReluOp>(patterns, converter, relu);
  add<SigmoidOp>(patterns, converter, sigmoid);
  add<GeluOp>(patterns, converter, gelu);
  add<TanhOp>(patterns, converter, unary<math::TanhOp, TanhOp>);
  add<ExpOp>(patterns, converter, unary<math::ExpOp, ExpOp>);
  add<LogOp>(patterns, converter, unary<math::LogOp, LogOp>);
  add<SqrtOp>(patterns, converter, unary<math::SqrtOp, SqrtOp>);
  add<NegOp>(patterns, converter, neg);
  add<AbsOp>(patterns, converter, abs);
  add<FloorOp>(patterns, converter, unary<math::FloorOp, FloorOp>);
  add<ReluGradOp>(patterns, converter, reluGrad);
  add<GeluGradOp>(patterns, converter, geluGrad);
  patterns.add<DropoutPattern, StopGradientPattern>(converter, ctx);
}
