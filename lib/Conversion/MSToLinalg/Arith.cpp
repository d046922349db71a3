//===- Arith.cpp - pow, floor_div, floor_mod, fmod to linalg.generic ------===//
//
// Each op is one broadcasting linalg.generic whose scalar body depends on the
// element type: floats, signed integers, unsigned integers. Integer division
// never reaches the hardware with a zero divisor (or INT_MIN / -1, which
// traps on x86): those lanes divide by 1 and select numpy's result instead.
// Unsigned tensors are bit-cast to signless ones around the generic, since
// arith works on signless integers and the unsigned ops say how to read them.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace ms;
using namespace ms::lowering;

namespace {

enum class Kind { Float, Signed, Unsigned };

Kind kindOf(Type element) {
  if (isa<FloatType>(element))
    return Kind::Float;
  return element.isUnsignedInteger() ? Kind::Unsigned : Kind::Signed;
}

/// Scalar builders, one op per statement (the IR must not depend on the host
/// compiler's argument evaluation order).
struct Scalar {
  OpBuilder &b;
  Location loc;
  Type type;

  Value intConst(int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, v));
  }
  Value fconst(double v) { return floatConst(b, loc, type, v); }
  Value select(Value c, Value t, Value f) {
    return arith::SelectOp::create(b, loc, c, t, f);
  }
  Value cmpi(arith::CmpIPredicate p, Value l, Value r) {
    return arith::CmpIOp::create(b, loc, p, l, r);
  }
  Value cmpf(arith::CmpFPredicate p, Value l, Value r) {
    return arith::CmpFOp::create(b, loc, p, l, r);
  }
  Value andi(Value l, Value r) { return arith::AndIOp::create(b, loc, l, r); }
  Value ori(Value l, Value r) { return arith::OrIOp::create(b, loc, l, r); }
  Value xori(Value l, Value r) { return arith::XOrIOp::create(b, loc, l, r); }
};

/// Integer division operands made safe: `divisor` is 1 where the true divisor
/// is 0 (or -1 for signed, where INT_MIN / -1 would trap). `special` marks
/// those lanes, whose results the callers pick themselves.
struct SafeDivisor {
  Value divisor, isZero, isMinusOne, special;
};

SafeDivisor safeDivisor(Scalar &s, Value rhs, bool isSigned) {
  SafeDivisor d;
  d.isZero = s.cmpi(arith::CmpIPredicate::eq, rhs, s.intConst(0));
  d.special = d.isZero;
  if (isSigned) {
    d.isMinusOne = s.cmpi(arith::CmpIPredicate::eq, rhs, s.intConst(-1));
    d.special = s.ori(d.isZero, d.isMinusOne);
  }
  d.divisor = s.select(d.special, s.intConst(1), rhs);
  return d;
}

/// True where a nonzero remainder `r` and the divisor `rhs` differ in sign,
/// that is where truncated division must step down to the floor.
Value signsDiffer(Scalar &s, Value r, Value rhs) {
  Value zero = s.intConst(0);
  Value nonZero = s.cmpi(arith::CmpIPredicate::ne, r, zero);
  Value rNeg = s.cmpi(arith::CmpIPredicate::slt, r, zero);
  Value rhsNeg = s.cmpi(arith::CmpIPredicate::slt, rhs, zero);
  Value differ = s.xori(rNeg, rhsNeg);
  return s.andi(nonZero, differ);
}

/// numpy's npy_divmod on floats, remainder part: fmod (exact), stepped by
/// the divisor where a nonzero remainder has the other sign. `step` says
/// where it stepped, for the quotient.
struct FloatMod {
  Value mod, step, modNonZero;
};

FloatMod floatMod(Scalar &s, Value a, Value b) {
  Value zero = s.fconst(0.0);
  Value mod = arith::RemFOp::create(s.b, s.loc, a, b);
  // Nonzero counts NaN (x % 0), as C's truth test does.
  Value modNonZero = s.cmpf(arith::CmpFPredicate::UNE, mod, zero);
  Value bNeg = s.cmpf(arith::CmpFPredicate::OLT, b, zero);
  Value modNeg = s.cmpf(arith::CmpFPredicate::OLT, mod, zero);
  Value differ = s.xori(bNeg, modNeg);
  Value step = s.andi(modNonZero, differ);
  return {mod, step, modNonZero};
}

/// The floor remainder: mod + b where it steps, a zero of b's sign for an
/// exact division.
Value floatRemainder(Scalar &s, Value a, Value b) {
  FloatMod m = floatMod(s, a, b);
  Value modPlusB = arith::AddFOp::create(s.b, s.loc, m.mod, b);
  Value stepped = s.select(m.step, modPlusB, m.mod);
  Value signedZero = math::CopySignOp::create(s.b, s.loc, s.fconst(0.0), b);
  return s.select(m.modNonZero, stepped, signedZero);
}

/// The floor quotient: (a - mod) / b, one less where the remainder stepped,
/// rounded to the nearest integer (it is one up to rounding); a zero keeps
/// the sign of a / b, and b = 0 gives a / b itself.
Value floatFloorDiv(Scalar &s, Value a, Value b) {
  OpBuilder &bb = s.b;
  Location loc = s.loc;
  Value zero = s.fconst(0.0);
  FloatMod m = floatMod(s, a, b);
  Value diff = arith::SubFOp::create(bb, loc, a, m.mod);
  Value div = arith::DivFOp::create(bb, loc, diff, b);
  Value divMinus1 = arith::SubFOp::create(bb, loc, div, s.fconst(1.0));
  Value stepped = s.select(m.step, divMinus1, div);
  Value floored = math::FloorOp::create(bb, loc, stepped);
  Value frac = arith::SubFOp::create(bb, loc, stepped, floored);
  Value roundUp = s.cmpf(arith::CmpFPredicate::OGT, frac, s.fconst(0.5));
  Value flooredPlus1 = arith::AddFOp::create(bb, loc, floored, s.fconst(1.0));
  Value rounded = s.select(roundUp, flooredPlus1, floored);
  Value quotient = arith::DivFOp::create(bb, loc, a, b);
  Value signedZero = math::CopySignOp::create(bb, loc, zero, quotient);
  Value nonZero = s.cmpf(arith::CmpFPredicate::UNE, stepped, zero);
  Value result = s.select(nonZero, rounded, signedZero);
  Value bZero = s.cmpf(arith::CmpFPredicate::OEQ, b, zero);
  return s.select(bZero, quotient, result);
}

Value signedFloorDiv(Scalar &s, const SafeDivisor &d, Value a, Value b) {
  Value q = arith::DivSIOp::create(s.b, s.loc, a, d.divisor);
  Value r = arith::RemSIOp::create(s.b, s.loc, a, d.divisor);
  Value step = signsDiffer(s, r, b);
  Value one = s.intConst(1);
  Value qMinus1 = arith::SubIOp::create(s.b, s.loc, q, one);
  Value floored = s.select(step, qMinus1, q);
  // x // -1 = -x, wrapping INT_MIN to itself; x // 0 = 0.
  Value negated = arith::SubIOp::create(s.b, s.loc, s.intConst(0), a);
  Value result = s.select(d.isMinusOne, negated, floored);
  return s.select(d.isZero, s.intConst(0), result);
}

Value signedFloorMod(Scalar &s, const SafeDivisor &d, Value a, Value b) {
  Value r = arith::RemSIOp::create(s.b, s.loc, a, d.divisor);
  Value step = signsDiffer(s, r, b);
  Value rPlusB = arith::AddIOp::create(s.b, s.loc, r, b);
  Value stepped = s.select(step, rPlusB, r);
  // x % 1 and x % -1 are 0 (the safe divisor 1 gives that); x % 0 = 0.
  return s.select(d.special, s.intConst(0), stepped);
}

Value signedFmod(Scalar &s, const SafeDivisor &d, Value a, Value) {
  Value r = arith::RemSIOp::create(s.b, s.loc, a, d.divisor);
  return s.select(d.special, s.intConst(0), r);
}

Value floatFmod(Scalar &s, Value a, Value b) {
  return arith::RemFOp::create(s.b, s.loc, a, b);
}

using FloatRule = Value (*)(Scalar &, Value, Value);
using SignedRule = Value (*)(Scalar &, const SafeDivisor &, Value, Value);

/// floor_div, floor_mod and fmod: the float rule on floats; on ints, over a
/// safe divisor, UnsignedOp (0 where the divisor is 0) or the signed rule.
template <FloatRule onFloat, typename UnsignedOp, SignedRule onSigned>
Value divisionBody(Scalar &s, Kind kind, Value a, Value b) {
  if (kind == Kind::Float)
    return onFloat(s, a, b);
  SafeDivisor d = safeDivisor(s, b, kind == Kind::Signed);
  if (kind == Kind::Signed)
    return onSigned(s, d, a, b);
  Value result = UnsignedOp::create(s.b, s.loc, a, d.divisor);
  return s.select(d.isZero, s.intConst(0), result);
}

/// Integer power by squaring over every exponent bit (unrolled: no loop in
/// the kernel body, so every codegen path takes it), wrapping on overflow.
/// A negative signed exponent gives trunc(1 / a^-b): 1 for a = 1, +-1 for
/// a = -1 (by the exponent's parity), 0 otherwise.
Value intPowBody(Scalar &s, Kind kind, Value a, Value b) {
  unsigned width = s.type.getIntOrFloatBitWidth();
  Value one = s.intConst(1), zero = s.intConst(0);
  Value result = one, base = a;
  for (unsigned bit = 0; bit < width; ++bit) {
    Value shift = s.intConst(bit);
    Value shifted = arith::ShRUIOp::create(s.b, s.loc, b, shift);
    Value low = s.andi(shifted, one);
    Value set = s.cmpi(arith::CmpIPredicate::ne, low, zero);
    Value product = arith::MulIOp::create(s.b, s.loc, result, base);
    result = s.select(set, product, result);
    base = arith::MulIOp::create(s.b, s.loc, base, base);
  }
  if (kind == Kind::Unsigned)
    return result;
  Value negative = s.cmpi(arith::CmpIPredicate::slt, b, zero);
  Value lowBit = s.andi(b, one);
  Value odd = s.cmpi(arith::CmpIPredicate::ne, lowBit, zero);
  Value aIsOne = s.cmpi(arith::CmpIPredicate::eq, a, one);
  Value aIsMinusOne = s.cmpi(arith::CmpIPredicate::eq, a, s.intConst(-1));
  Value minusOne = s.intConst(-1);
  Value parity = s.select(odd, minusOne, one);
  Value reciprocal = s.select(aIsMinusOne, parity, zero);
  reciprocal = s.select(aIsOne, one, reciprocal);
  return s.select(negative, reciprocal, result);
}

Value powBody(Scalar &s, Kind kind, Value a, Value b) {
  if (kind == Kind::Float)
    return math::PowFOp::create(s.b, s.loc, a, b);
  return intPowBody(s, kind, a, b);
}

using BodyBuilder = Value (*)(Scalar &, Kind, Value, Value);

template <typename SourceOp>
struct NumericBinaryPattern : OpConversionPattern<SourceOp> {
  NumericBinaryPattern(MLIRContext *ctx, BodyBuilder body)
      : OpConversionPattern<SourceOp>(ctx), body(body) {}

  LogicalResult
  matchAndRewrite(SourceOp op, typename SourceOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    Kind kind = kindOf(resultType.getElementType());
    Value lhs = signless(rewriter, loc, adaptor.getLhs());
    Value rhs = signless(rewriter, loc, adaptor.getRhs());
    Type element = cast<RankedTensorType>(lhs.getType()).getElementType();
    auto computeType = resultType.clone(element);
    Value result = elementwise(
        rewriter, loc, computeType, ValueRange{lhs, rhs},
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          Scalar s{b, nloc, element};
          return body(s, kind, args[0], args[1]);
        });
    if (computeType != resultType)
      result = tensor::BitcastOp::create(rewriter, loc, resultType, result);
    rewriter.replaceOp(op, result);
    return success();
  }
  BodyBuilder body;
};

} // namespace

void ms::populateArithToLinalgPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<NumericBinaryPattern<PowOp>>(ctx, powBody);
  patterns.add<NumericBinaryPattern<FloorDivOp>>(
      ctx, divisionBody<floatFloorDiv, arith::DivUIOp, signedFloorDiv>);
  patterns.add<NumericBinaryPattern<FloorModOp>>(
      ctx, divisionBody<floatRemainder, arith::RemUIOp, signedFloorMod>);
  patterns.add<NumericBinaryPattern<FmodOp>>(
      ctx, divisionBody<floatFmod, arith::RemUIOp, signedFmod>);
}
