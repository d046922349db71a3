//===- StorageTypes.cpp - How ms element types are stored after lowering --===//
//
// Two ms element types have no arith form of their own:
//  - bool is i1 in the ms dialect and one byte per element in memory (the
//    runtime's DType::Bool, numpy's bool). A tensor<...xi1> cannot be stored
//    that way: LLVM packs vectors of i1 into bits. So i1 tensors become i8
//    (0 or 1), and the ops compute on i1 scalars inside their bodies only.
//  - ui8 (uint8) keeps its signedness in the ms dialect so that each op's
//    lowering can choose unsigned arithmetic (maxui, cmpi ult, uitofp, ...);
//    arith takes signless integers only, so ui8 tensors become i8, the same
//    bytes.
// The type converter below does both, function signatures included; every
// family's patterns build their results with it (storedType).
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace ms;
using namespace ms::lowering;

namespace {

/// True for a tensor whose elements are stored as another type.
bool needsStorageConversion(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor &&
         storageElementType(tensor.getElementType()) != tensor.getElementType();
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

/// Between a converted value and an unconverted use (or the reverse):
/// bools widen or narrow elementwise, ui8 and i8 reinterpret the bytes.
Value materialize(OpBuilder &b, Type type, ValueRange inputs, Location loc) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (inputs.size() != 1 || !tensor)
    return Value();
  auto from = cast<RankedTensorType>(inputs[0].getType());
  if (tensor.getElementType().isInteger(1))
    return mapElements(b, loc, inputs[0], tensor, boolFromByte);
  if (from.getElementType().isInteger(1))
    return mapElements(b, loc, inputs[0], tensor, byteFromBool);
  return tensor::BitcastOp::create(b, loc, tensor, inputs[0]);
}

/// Bool and ui8 constants (graph capture inlines small tensors) in their
/// stored form, i8.
struct StoredConstantPattern : OpConversionPattern<arith::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto dense = dyn_cast<DenseIntElementsAttr>(op.getValue());
    if (!dense || !needsStorageConversion(dense.getType()))
      return failure();
    auto stored = storedType(dense.getType());
    auto bytes = dense.mapValues(
        rewriter.getI8Type(), [](const APInt &v) { return v.zextOrTrunc(8); });
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, stored, cast<DenseElementsAttr>(bytes).reshape(stored));
    return success();
  }
};

/// A select between two bool (or ui8) tensors on a scalar condition, in the
/// stored type. Canonicalization makes these from an scf.if whose branches
/// yield constants (graph capture's break and continue flags).
struct StoredSelectPattern : OpConversionPattern<arith::SelectOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::SelectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getCondition().getType().isInteger(1) ||
        !needsStorageConversion(op.getType()))
      return failure();
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, adaptor.getCondition(),
                                                 adaptor.getTrueValue(),
                                                 adaptor.getFalseValue());
    return success();
  }
};

} // namespace

Value ms::lowering::boolFromByte(OpBuilder &b, Location loc, Value byte) {
  return arith::TruncIOp::create(b, loc, b.getI1Type(), byte);
}

Value ms::lowering::byteFromBool(OpBuilder &b, Location loc, Value bit) {
  return arith::ExtUIOp::create(b, loc, b.getI8Type(), bit);
}

void ms::addStorageConversions(TypeConverter &converter) {
  converter.addConversion([](Type type) { return type; });
  converter.addConversion(
      [](RankedTensorType type) -> Type { return storedType(type); });
  converter.addSourceMaterialization(materialize);
  converter.addTargetMaterialization(materialize);
}

bool ms::isStorageLegal(Operation *op) {
  auto any = [](TypeRange types) {
    return llvm::any_of(types, needsStorageConversion);
  };
  return !any(op->getOperandTypes()) && !any(op->getResultTypes());
}

void ms::populateStoredConstantPatterns(RewritePatternSet &patterns,
                                        const TypeConverter &converter) {
  patterns.add<StoredConstantPattern, StoredSelectPattern>(
      converter, patterns.getContext());
}
