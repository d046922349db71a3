//===- Logical.cpp - Comparisons, logic, select and cast to linalg --------===//
//
// Bool tensors are stored as i8 (StorageTypes.cpp); the ops below compute on
// i1 scalars inside their bodies only, widening with arith.extui where they
// store a bool. ui8 operands compare and convert as unsigned.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace ms;
using namespace ms::lowering;

namespace {

bool isBoolTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getElementType().isInteger(1);
}

/// A float scalar converted to the signless integer `to` for every value:
/// truncated toward zero, clamped to int64 (NaN gives 0), then wrapped to
/// the width of `to` as numpy does on x86 (-1.7 -> uint8 255). fptosi alone
/// would give poison out of range. Computed in f64, which holds every f16,
/// bf16 and f32 exactly.
Value floatToInteger(OpBuilder &b, Location loc, Value value, Type to) {
  Type f64 = b.getF64Type();
  if (value.getType() != f64)
    value = arith::ExtFOp::create(b, loc, f64, value);
  Value isNaN =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, value, value);
  Value zero = floatConst(b, loc, f64, 0.0);
  Value number = arith::SelectOp::create(b, loc, isNaN, zero, value);
  // 2^63 is exact in f64; the largest f64 below it converts exactly.
  Value low = floatConst(b, loc, f64, -9223372036854775808.0);
  Value high = floatConst(b, loc, f64, 9223372036854774784.0);
  Value clamped = arith::MinimumFOp::create(
      b, loc, arith::MaximumFOp::create(b, loc, number, low), high);
  Value wide = arith::FPToSIOp::create(b, loc, b.getI64Type(), clamped);
  if (to.getIntOrFloatBitWidth() == 64)
    return wide;
  return arith::TruncIOp::create(b, loc, to, wide);
}

/// An f64 scalar rounded once to bf16. LLVM has no f64 -> bf16 conversion
/// on x86 (__truncdfbf2 is missing from the runtime libraries), and f64 ->
/// f32 -> bf16 would round twice. Rounding to f32 toward zero and setting
/// the last bit when inexact ("round to odd") keeps enough of the value for
/// the second rounding to be the correct one.
Value f64ToBF16(OpBuilder &b, Location loc, Value value) {
  Type f32 = b.getF32Type(), i32 = b.getI32Type();
  Value nearest = arith::TruncFOp::create(b, loc, f32, value);
  Value bits = arith::BitcastOp::create(b, loc, i32, nearest);
  Value one = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(1));
  // Rounded away from zero: one f32 ulp back toward it.
  Value away = arith::CmpFOp::create(
      b, loc, arith::CmpFPredicate::OGT,
      math::AbsFOp::create(
          b, loc, arith::ExtFOp::create(b, loc, value.getType(), nearest)),
      math::AbsFOp::create(b, loc, value));
  Value towardZero = arith::SelectOp::create(
      b, loc, away, arith::SubIOp::create(b, loc, bits, one), bits);
  Value truncated = arith::BitcastOp::create(b, loc, f32, towardZero);
  Value inexact = arith::CmpFOp::create(
      b, loc, arith::CmpFPredicate::UNE,
      arith::ExtFOp::create(b, loc, value.getType(), truncated), value);
  Value odd = arith::SelectOp::create(
      b, loc, inexact, arith::OrIOp::create(b, loc, towardZero, one),
      towardZero);
  return arith::TruncFOp::create(b, loc, b.getBF16Type(),
                                 arith::BitcastOp::create(b, loc, f32, odd));
}

/// `value` (a scalar of `from`'s storage type, bools already as i1)
/// converted to `to` as ms.cast defines it; i1 results stay i1, other
/// integers are signless. `from` and `to` are the ms element types, so ui8
/// converts as unsigned.
Value convertScalar(OpBuilder &b, Location loc, Value value, Type from,
                    Type to) {
  if (from == to)
    return value;
  bool toBool = to.isInteger(1);
  // A bool or a ui8 is unsigned (a bool is 0 or 1), the others signed.
  bool fromUnsigned = from.isInteger(1) || from.isUnsignedInteger();
  Type stored = to.isInteger(1) ? to : storageElementType(to);
  Type valueType = value.getType();
  if (toBool) {
    if (isa<FloatType>(from))
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, value,
                                   floatConst(b, loc, from, 0.0));
    Value zero =
        arith::ConstantOp::create(b, loc, b.getIntegerAttr(valueType, 0));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, value, zero);
  }
  if (isa<FloatType>(from)) {
    if (isa<FloatType>(to)) {
      // bf16 <-> f16 goes through f32: neither holds the other.
      if (to.getIntOrFloatBitWidth() == from.getIntOrFloatBitWidth()) {
        value = arith::ExtFOp::create(b, loc, b.getF32Type(), value);
        return arith::TruncFOp::create(b, loc, to, value);
      }
      if (from.isF64() && to.isBF16())
        return f64ToBF16(b, loc, value);
      return to.getIntOrFloatBitWidth() > from.getIntOrFloatBitWidth()
                 ? Value(arith::ExtFOp::create(b, loc, to, value))
                 : Value(arith::TruncFOp::create(b, loc, to, value));
    }
    return floatToInteger(b, loc, value, stored);
  }
  // From an integer. To bf16 through f64 (exact up to 32 bits), rounding
  // once: LLVM would go through f32 and round twice.
  if (to.isBF16()) {
    Type f64 = b.getF64Type();
    value = fromUnsigned ? Value(arith::UIToFPOp::create(b, loc, f64, value))
                         : Value(arith::SIToFPOp::create(b, loc, f64, value));
    return f64ToBF16(b, loc, value);
  }
  if (isa<FloatType>(to))
    return fromUnsigned ? Value(arith::UIToFPOp::create(b, loc, to, value))
                        : Value(arith::SIToFPOp::create(b, loc, to, value));
  unsigned fromWidth = valueType.getIntOrFloatBitWidth();
  unsigned toWidth = stored.getIntOrFloatBitWidth();
  if (toWidth == fromWidth)
    return value; // i8 <-> ui8: the same bytes.
  if (toWidth < fromWidth)
    return arith::TruncIOp::create(b, loc, stored, value);
  return fromUnsigned ? Value(arith::ExtUIOp::create(b, loc, stored, value))
                      : Value(arith::ExtSIOp::create(b, loc, stored, value));
}

/// Lowers an op whose result is computed elementwise from its (broadcast)
/// operands; `body` gets the operands as scalars, bools as i1, and returns
/// the result element, a bool as i1.
template <typename SourceOp>
struct ElementwiseBoolPattern : OpConversionPattern<SourceOp> {
  using BodyFn = Value (*)(OpBuilder &, Location, ValueRange, SourceOp);
  ElementwiseBoolPattern(const TypeConverter &converter, MLIRContext *ctx,
                         BodyFn body)
      : OpConversionPattern<SourceOp>(converter, ctx), body(body) {}

  LogicalResult
  matchAndRewrite(SourceOp op, typename SourceOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type resultType = op->getResult(0).getType();
    auto storedType = dyn_cast_or_null<RankedTensorType>(
        this->getTypeConverter()->convertType(resultType));
    if (!storedType)
      return failure();
    SmallVector<bool> operandIsBool;
    for (Value operand : op->getOperands())
      operandIsBool.push_back(isBoolTensor(operand.getType()));
    bool resultIsBool = isBoolTensor(resultType);
    Value result = elementwise(
        rewriter, op.getLoc(), storedType, adaptor.getOperands(),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          SmallVector<Value> scalars;
          for (auto [arg, isBool] : llvm::zip(args, operandIsBool))
            scalars.push_back(isBool ? boolFromByte(b, loc, arg) : arg);
          Value value = body(b, loc, scalars, op);
          return resultIsBool ? byteFromBool(b, loc, value) : value;
        });
    rewriter.replaceOp(op, result);
    return success();
  }
  BodyFn body;
};

template <arith::CmpFPredicate floatPredicate,
          arith::CmpIPredicate signedPredicate,
          arith::CmpIPredicate unsignedPredicate, typename SourceOp>
Value compare(OpBuilder &b, Location loc, ValueRange args, SourceOp op) {
  Value lhs = args[0], rhs = args[1];
  if (isa<FloatType>(lhs.getType()))
    return arith::CmpFOp::create(b, loc, floatPredicate, lhs, rhs);
  // Bools (0 and 1; as signed i1, true would be -1) and ui8 compare
  // unsigned.
  bool isUnsigned =
      lhs.getType().isInteger(1) || isUnsignedElement(op.getLhs().getType());
  return arith::CmpIOp::create(
      b, loc, isUnsigned ? unsignedPredicate : signedPredicate, lhs, rhs);
}

template <typename ArithOp, typename SourceOp>
Value logical(OpBuilder &b, Location loc, ValueRange args, SourceOp) {
  return ArithOp::create(b, loc, args[0], args[1]);
}

Value logicalNot(OpBuilder &b, Location loc, ValueRange args, LogicalNotOp) {
  Value one = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  return arith::XOrIOp::create(b, loc, args[0], one);
}

Value selectBody(OpBuilder &b, Location loc, ValueRange args, SelectOp) {
  return arith::SelectOp::create(b, loc, args[0], args[1], args[2]);
}

Value castBody(OpBuilder &b, Location loc, ValueRange args, CastOp op) {
  return convertScalar(b, loc, args[0], op.getInput().getType().getElementType(),
                       op.getTo());
}

} // namespace

void ms::populateLogicalToLinalgPatterns(RewritePatternSet &patterns,
                                         const TypeConverter &converter) {
  MLIRContext *ctx = patterns.getContext();
  using F = arith::CmpFPredicate;
  using I = arith::CmpIPredicate;
  patterns.add<ElementwiseBoolPattern<EqualOp>>(
      converter, ctx, compare<F::OEQ, I::eq, I::eq, EqualOp>);
  patterns.add<ElementwiseBoolPattern<NotEqualOp>>(
      converter, ctx, compare<F::UNE, I::ne, I::ne, NotEqualOp>);
  patterns.add<ElementwiseBoolPattern<GreaterOp>>(
      converter, ctx, compare<F::OGT, I::sgt, I::ugt, GreaterOp>);
  patterns.add<ElementwiseBoolPattern<GreaterEqualOp>>(
      converter, ctx, compare<F::OGE, I::sge, I::uge, GreaterEqualOp>);
  patterns.add<ElementwiseBoolPattern<LessOp>>(
      converter, ctx, compare<F::OLT, I::slt, I::ult, LessOp>);
  patterns.add<ElementwiseBoolPattern<LessEqualOp>>(
      converter, ctx, compare<F::OLE, I::sle, I::ule, LessEqualOp>);
  patterns.add<ElementwiseBoolPattern<LogicalAndOp>>(
      converter, ctx, logical<arith::AndIOp, LogicalAndOp>);
  patterns.add<ElementwiseBoolPattern<LogicalOrOp>>(
      converter, ctx, logical<arith::OrIOp, LogicalOrOp>);
  patterns.add<ElementwiseBoolPattern<LogicalNotOp>>(converter, ctx,
                                                     logicalNot);
  patterns.add<ElementwiseBoolPattern<SelectOp>>(converter, ctx, selectBody);
  patterns.add<ElementwiseBoolPattern<CastOp>>(converter, ctx, castBody);
}
