//===- Logical.cpp - Gradient rules of select and cast --------------------===//
//
// Only float tensors carry cotangents (ms-autodiff's activity rule), so the
// comparisons, logical ops, argmax/argmin (bool or integer results) and
// one_hot (integer operand) never need a rule: nothing differentiable flows
// through them. select routes dy to the chosen operand; a cast between
// float types casts dy back.
//
//===----------------------------------------------------------------------===//

#include "Gradients.h"

using namespace mlir;

namespace ms {
namespace grad {
namespace {

/// d true_value = select(cond, dy, 0), d false_value = select(cond, 0, dy),
/// each summed back to its operand's shape; the condition has none.
LogicalResult selectRule(SelectOp op, OpBuilder &b, Grads dys,
                         OperandGrads dxs) {
  Location loc = op.getLoc();
  auto dyType = tensorType(dys[0]);
  Value zero = scalar(b, loc, dyType.getElementType(), 0.0);
  if (isa<FloatType>(dyType.getElementType())) {
    Value onTrue = SelectOp::create(b, loc, op.getCondition(), dys[0], zero);
    dxs[1] = sumToShape(b, loc, onTrue, tensorType(op.getTrueValue()));
    Value onFalse = SelectOp::create(b, loc, op.getCondition(), zero, dys[0]);
    dxs[2] = sumToShape(b, loc, onFalse, tensorType(op.getFalseValue()));
  }
  return success();
}

/// A float-to-float cast passes dy back in the input's type; from an
/// integer or bool nothing flows.
LogicalResult castRule(CastOp op, OpBuilder &b, Grads dys, OperandGrads dxs) {
  Type from = op.getInput().getType().getElementType();
  if (!isa<FloatType>(from))
    return success();
  dxs[0] = CastOp::create(b, op.getLoc(), dys[0], TypeAttr::get(from));
  return success();
}

} // namespace

void attachLogicalGradients(MLIRContext &context) {
  attachRule<SelectOp, selectRule>(context);
  attachRule<CastOp, castRule>(context);
}

} // namespace grad
} // namespace ms
