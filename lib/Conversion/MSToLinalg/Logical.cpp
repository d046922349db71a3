//===- Logical.cpp - Comparisons, logic, select and cast to linalg --------===//
//
// Bool is i1 in the ms dialect and one byte per element in memory (the
// runtime's DType::Bool, numpy's bool). A tensor<...xi1> cannot be stored
// that way: LLVM packs vectors of i1 into bits. So this pass's type
// converter widens every i1 tensor to i8 (0 or 1), function signatures
// included, and the ops below compute on i1 scalars inside their bodies
// only, widening with arith.extui where they store a bool.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;
using namespace ms;
using namespace ms::lowering;

namespace {

bool isBoolTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getElementType().isInteger(1);
}

/// A tensor of `type` with each element converted by `convert`.
Value mapElements(OpBuilder &b, Location loc, Value input,
                  RankedTensorType type,
                  function_ref<Value(OpBuilder &, Location, Value)> convert) {
  return elementwise(b, loc, type, ValueRange{input},
                     [&](OpBuilder &nb, Location nloc, ValueRange args) {
                       return convert(nb, nloc, args[0]);
                     });
}

/// A stored bool (i8, 0 or 1) as an i1, or an i1 as a stored bool.
Value boolFromByte(OpBuilder &b, Location loc, Value byte) {
  return arith::TruncIOp::create(b, loc, b.getI1Type(), byte);
}
Value byteFromBool(OpBuilder &b, Location loc, Value bit) {
  return arith::ExtUIOp::create(b, loc, b.getI8Type(), bit);
}

/// `value` (a scalar of `from`, bools already as i1) converted to `to` as
/// ms.cast defines it; i1 results stay i1.
Value convertScalar(OpBuilder &b, Location loc, Value value, Type from,
                    Type to) {
  if (from == to)
    return value;
  bool fromBool = from.isInteger(1), toBool = to.isInteger(1);
  if (toBool) {
    if (isa<FloatType>(from))
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, value,
                                   floatConst(b, loc, from, 0.0));
    Value zero = arith::ConstantOp::create(b, loc, b.getIntegerAttr(from, 0));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, value, zero);
  }
  if (isa<FloatType>(from)) {
    if (isa<FloatType>(to))
      return to.getIntOrFloatBitWidth() > from.getIntOrFloatBitWidth()
                 ? Value(arith::ExtFOp::create(b, loc, to, value))
                 : Value(arith::TruncFOp::create(b, loc, to, value));
    return arith::FPToSIOp::create(b, loc, to, value);
  }
  // From an integer; a bool is unsigned (0 or 1), the others signed.
  if (isa<FloatType>(to))
    return fromBool ? Value(arith::UIToFPOp::create(b, loc, to, value))
                    : Value(arith::SIToFPOp::create(b, loc, to, value));
  if (to.getIntOrFloatBitWidth() < from.getIntOrFloatBitWidth())
    return arith::TruncIOp::create(b, loc, to, value);
  return fromBool ? Value(arith::ExtUIOp::create(b, loc, to, value))
                  : Value(arith::ExtSIOp::create(b, loc, to, value));
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
          arith::CmpIPredicate intPredicate, typename SourceOp>
Value compare(OpBuilder &b, Location loc, ValueRange args, SourceOp) {
  Value lhs = args[0], rhs = args[1];
  if (isa<FloatType>(lhs.getType()))
    return arith::CmpFOp::create(b, loc, floatPredicate, lhs, rhs);
  if (lhs.getType().isInteger(1)) {
    // As signed i1, true would be -1: compare bools as 0 and 1.
    lhs = byteFromBool(b, loc, lhs);
    rhs = byteFromBool(b, loc, rhs);
  }
  return arith::CmpIOp::create(b, loc, intPredicate, lhs, rhs);
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

/// Bool constants (graph capture inlines small tensors) in their stored
/// form, i8.
struct BoolConstantPattern : OpConversionPattern<arith::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto dense = dyn_cast<DenseIntElementsAttr>(op.getValue());
    if (!dense || !isBoolTensor(dense.getType()))
      return failure();
    auto stored = cast<RankedTensorType>(
        getTypeConverter()->convertType(dense.getType()));
    auto bytes = dense.mapValues(
        rewriter.getI8Type(), [](const APInt &v) { return v.zext(8); });
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, stored, cast<DenseElementsAttr>(bytes).reshape(stored));
    return success();
  }
};

} // namespace

void ms::addBoolStorageConversions(TypeConverter &converter) {
  converter.addConversion([](Type type) { return type; });
  converter.addConversion([](RankedTensorType type) -> Type {
    if (!type.getElementType().isInteger(1))
      return type;
    return type.clone(IntegerType::get(type.getContext(), 8));
  });
  // Between a converted and an unconverted use (ops this pass leaves
  // alone): widen or narrow elementwise.
  auto narrow = [](OpBuilder &b, Type type, ValueRange inputs,
                   Location loc) -> Value {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (inputs.size() != 1 || !tensor)
      return Value();
    return mapElements(b, loc, inputs[0], tensor, boolFromByte);
  };
  auto widen = [](OpBuilder &b, Type type, ValueRange inputs,
                  Location loc) -> Value {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (inputs.size() != 1 || !tensor)
      return Value();
    return mapElements(b, loc, inputs[0], tensor, byteFromBool);
  };
  converter.addSourceMaterialization(narrow);
  converter.addTargetMaterialization(widen);
}

bool ms::isBoolStorageLegal(Operation *op) {
  auto hasBool = [](TypeRange types) {
    return llvm::any_of(types, isBoolTensor);
  };
  return !hasBool(op->getOperandTypes()) && !hasBool(op->getResultTypes());
}

void ms::populateLogicalToLinalgPatterns(RewritePatternSet &patterns,
                                         const TypeConverter &converter) {
  MLIRContext *ctx = patterns.getContext();
  using F = arith::CmpFPredicate;
  using I = arith::CmpIPredicate;
  patterns.add<ElementwiseBoolPattern<EqualOp>>(
      converter, ctx, compare<F::OEQ, I::eq, EqualOp>);
  patterns.add<ElementwiseBoolPattern<NotEqualOp>>(
      converter, ctx, compare<F::UNE, I::ne, NotEqualOp>);
  patterns.add<ElementwiseBoolPattern<GreaterOp>>(
      converter, ctx, compare<F::OGT, I::sgt, GreaterOp>);
  patterns.add<ElementwiseBoolPattern<GreaterEqualOp>>(
      converter, ctx, compare<F::OGE, I::sge, GreaterEqualOp>);
  patterns.add<ElementwiseBoolPattern<LessOp>>(
      converter, ctx, compare<F::OLT, I::slt, LessOp>);
  patterns.add<ElementwiseBoolPattern<LessEqualOp>>(
      converter, ctx, compare<F::OLE, I::sle, LessEqualOp>);
  patterns.add<ElementwiseBoolPattern<LogicalAndOp>>(
      converter, ctx, logical<arith::AndIOp, LogicalAndOp>);
  patterns.add<ElementwiseBoolPattern<LogicalOrOp>>(
      converter, ctx, logical<arith::OrIOp, LogicalOrOp>);
  patterns.add<ElementwiseBoolPattern<LogicalNotOp>>(converter, ctx,
                                                     logicalNot);
  patterns.add<ElementwiseBoolPattern<SelectOp>>(converter, ctx, selectBody);
  patterns.add<ElementwiseBoolPattern<CastOp>>(converter, ctx, castBody);
  patterns.add<BoolConstantPattern>(converter, ctx);
}
