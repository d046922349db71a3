//===- WidenHalfPrecision.cpp - f16/bf16 ops computed in f32 --------------===//
//
// ms-widen-half-precision: each ms op that computes on f16 or bf16 runs on
// f32 between ms.casts, so it rounds once, at the end (PyTorch's CPU
// "opmath"). Ops that only move or compare values (MS_DtypeNeutral in
// MSBase.td) stay as they are.
//
//===----------------------------------------------------------------------===//

#include "ms/Dialect/MS/IR/MSOps.h"
#include "ms/Dialect/MS/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace ms {
#define GEN_PASS_DEF_MSWIDENHALFPRECISION
#include "ms/Dialect/MS/Transforms/Passes.h.inc"
} // namespace ms

using namespace mlir;
using namespace ms;

namespace {

bool isHalf(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor &&
         (tensor.getElementType().isF16() || tensor.getElementType().isBF16());
}

/// `op` rebuilt on f32 in place of its f16/bf16 operands and results.
void widen(Operation *op) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  Type f32 = b.getF32Type();
  auto toF32 = [&](Type type) -> Type {
    return isHalf(type) ? cast<RankedTensorType>(type).clone(f32) : type;
  };
  SmallVector<Value> operands;
  for (Value operand : op->getOperands())
    operands.push_back(isHalf(operand.getType())
                           ? CastOp::create(b, loc, operand, f32).getResult()
                           : operand);
  OperationState state(loc, op->getName());
  state.addOperands(operands);
  state.addAttributes(op->getAttrs());
  for (Type type : op->getResultTypes())
    state.addTypes(toF32(type));
  Operation *wide = b.create(state);
  for (auto [result, wideResult] :
       llvm::zip(op->getResults(), wide->getResults())) {
    Value narrow = wideResult;
    if (isHalf(result.getType()))
      narrow = CastOp::create(
          b, loc, wideResult,
          cast<RankedTensorType>(result.getType()).getElementType());
    result.replaceAllUsesWith(narrow);
  }
  op->erase();
}

struct MSWidenHalfPrecisionPass
    : ms::impl::MSWidenHalfPrecisionBase<MSWidenHalfPrecisionPass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (!isa_and_nonnull<MSDialect>(op->getDialect()) ||
          op->hasTrait<ms::OpTrait::DtypeNeutral>() ||
          op->getNumRegions() != 0)
        return;
      if (llvm::any_of(op->getOperandTypes(), isHalf) ||
          llvm::any_of(op->getResultTypes(), isHalf))
        ops.push_back(op);
    });
    for (Operation *op : ops)
      widen(op);
  }
};

} // namespace
