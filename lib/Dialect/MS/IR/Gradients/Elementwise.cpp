//===- Elementwise.cpp - Gradient rules of the elementwise ops ------------===//
//
// Binary ops broadcast like numpy, so each operand's cotangent is summed over
// the dims it was stretched along (sumToShape). maximum/minimum route the
// gradient to one operand, on ties to lhs (MindSpore's MaximumGrad; torch
// splits ties in half). Unary rules reuse the forward result where the
// derivative is a function of it (sigmoid, tanh, exp, sqrt, relu).
//
//===----------------------------------------------------------------------===//

#include "Gradients.h"

using namespace mlir;

namespace ms {
namespace grad {
namespace {

using Grads = ArrayRef<Value>;
using OperandGrads = MutableArrayRef<Value>;

// Rules create one op per statement (never two in the arguments of one
// call), so the IR does not depend on the host compiler's evaluation order.

/// Sets both operand cotangents of a binary op from full-shape ones.
void setBinary(Operation *op, OpBuilder &b, Value lhsFull, Value rhsFull,
               OperandGrads dxs) {
  dxs[0] = sumToShape(b, op->getLoc(), lhsFull,
                      tensorType(op->getOperand(0)));
  dxs[1] = sumToShape(b, op->getLoc(), rhsFull,
                      tensorType(op->getOperand(1)));
}

LogicalResult addRule(AddOp op, OpBuilder &b, Grads dys, OperandGrads dxs) {
  setBinary(op, b, dys[0], dys[0], dxs);
  return success();
}

LogicalResult subRule(SubOp op, OpBuilder &b, Grads dys, OperandGrads dxs) {
  setBinary(op, b, dys[0], NegOp::create(b, op.getLoc(), dys[0]), dxs);
  return success();
}

LogicalResult mulRule(MulOp op, OpBuilder &b, Grads dys, OperandGrads dxs) {
  Location loc = op.getLoc();
  Value dl = MulOp::create(b, loc, dys[0], op.getRhs());
  Value dr = MulOp::create(b, loc, dys[0], op.getLhs());
  setBinary(op, b, dl, dr, dxs);
  return success();
}

/// z = l / r: dl = dz / r, dr = -(dz * z) / r.
LogicalResult divRule(DivOp op, OpBuilder &b, Grads dys, OperandGrads dxs) {
  Location loc = op.getLoc();
  Value dl = DivOp::create(b, loc, dys[0], op.getRhs());
  Value dr = NegOp::create(
      b, loc,
      DivOp::create(b, loc, MulOp::create(b, loc, dys[0], op.getResult()),
                    op.getRhs()));
  setBinary(op, b, dl, dr, dxs);
  return success();
}

/// Routes dz to rhs where the difference `rhsWins` is positive, else (ties
/// included) to lhs. relu_grad selects, so dl = dz - dr is exact.
void routeBinary(Operation *op, OpBuilder &b, Value dz, Value rhsWins,
                 OperandGrads dxs) {
  Location loc = op->getLoc();
  Value dr = ReluGradOp::create(b, loc, dz, rhsWins);
  Value dl = SubOp::create(b, loc, dz, dr);
  setBinary(op, b, dl, dr, dxs);
}

LogicalResult maximumRule(MaximumOp op, OpBuilder &b, Grads dys,
                          OperandGrads dxs) {
  // r - l > 0 exactly when r > l (IEEE subtraction of distinct finite floats
  // never rounds to zero).
  routeBinary(op, b, dys[0],
              SubOp::create(b, op.getLoc(), op.getRhs(), op.getLhs()), dxs);
  return success();
}

LogicalResult minimumRule(MinimumOp op, OpBuilder &b, Grads dys,
                          OperandGrads dxs) {
  routeBinary(op, b, dys[0],
              SubOp::create(b, op.getLoc(), op.getLhs(), op.getRhs()), dxs);
  return success();
}

LogicalResult reluRule(ReluOp op, OpBuilder &b, Grads dys, OperandGrads dxs) {
  dxs[0] = ReluGradOp::create(b, op.getLoc(), dys[0], op.getResult());
  return success();
}

Value one(OpBuilder &b, Location loc, Value like) {
  return scalar(b, loc, tensorType(like).getElementType(), 1.0);
}

/// dy * (y * (1 - y)).
LogicalResult sigmoidRule(SigmoidOp op, OpBuilder &b, Grads dys,
                          OperandGrads dxs) {
  Location loc = op.getLoc();
  Value y = op.getResult();
  Value slope = MulOp::create(b, loc, y,
                              SubOp::create(b, loc, one(b, loc, y), y));
  dxs[0] = MulOp::create(b, loc, dys[0], slope);
  return success();
}

/// dy * (1 - y * y).
LogicalResult tanhRule(TanhOp op, OpBuilder &b, Grads dys, OperandGrads dxs) {
  Location loc = op.getLoc();
  Value y = op.getResult();
  Value square = MulOp::create(b, loc, y, y);
  Value slope = SubOp::create(b, loc, one(b, loc, y), square);
  dxs[0] = MulOp::create(b, loc, dys[0], slope);
  return success();
}

LogicalResult expRule(ExpOp op, OpBuilder &b, Grads dys, OperandGrads dxs) {
  dxs[0] = MulOp::create(b, op.getLoc(), dys[0], op.getResult());
  return success();
}

LogicalResult logRule(LogOp op, OpBuilder &b, Grads dys, OperandGrads dxs) {
  dxs[0] = DivOp::create(b, op.getLoc(), dys[0], op.getInput());
  return success();
}

/// dy / (2 y), with 2 y formed exactly as y + y.
LogicalResult sqrtRule(SqrtOp op, OpBuilder &b, Grads dys, OperandGrads dxs) {
  Location loc = op.getLoc();
  Value y = op.getResult();
  dxs[0] = DivOp::create(b, loc, dys[0], AddOp::create(b, loc, y, y));
  return success();
}

LogicalResult negRule(NegOp op, OpBuilder &b, Grads dys, OperandGrads dxs) {
  dxs[0] = NegOp::create(b, op.getLoc(), dys[0]);
  return success();
}

/// dy * sign(x), sign(0) = 0 (as torch and MindSpore).
LogicalResult absRule(AbsOp op, OpBuilder &b, Grads dys, OperandGrads dxs) {
  Location loc = op.getLoc();
  Value x = op.getInput();
  Value positive = ReluGradOp::create(b, loc, dys[0], x);
  Value negative =
      ReluGradOp::create(b, loc, dys[0], NegOp::create(b, loc, x));
  dxs[0] = SubOp::create(b, loc, positive, negative);
  return success();
}

LogicalResult geluRule(GeluOp op, OpBuilder &b, Grads dys, OperandGrads dxs) {
  dxs[0] = GeluGradOp::create(b, op.getLoc(), dys[0], op.getInput(),
                              op.getApproximateAttr());
  return success();
}

/// The identity at inference. The training form's mask is not a value of
/// the op, so it has no rule here.
LogicalResult dropoutRule(DropoutOp op, OpBuilder &, Grads dys,
                          OperandGrads dxs) {
  if (op.getTraining())
    return error(op) << "in training mode has no gradient rule";
  dxs[0] = dys[0];
  return success();
}

/// No cotangent flows through.
LogicalResult stopGradientRule(StopGradientOp, OpBuilder &, Grads,
                               OperandGrads) {
  return success();
}

} // namespace

void attachElementwiseGradients(MLIRContext &context) {
  attachRule<AddOp, addRule>(context);
  attachRule<SubOp, subRule>(context);
  attachRule<MulOp, mulRule>(context);
  attachRule<DivOp, divRule>(context);
  attachRule<MaximumOp, maximumRule>(context);
  attachRule<MinimumOp, minimumRule>(context);
  attachRule<ReluOp, reluRule>(context);
  attachRule<SigmoidOp, sigmoidRule>(context);
  attachRule<TanhOp, tanhRule>(context);
  attachRule<ExpOp, expRule>(context);
  attachRule<LogOp, logRule>(context);
  attachRule<SqrtOp, sqrtRule>(context);
  attachRule<NegOp, negRule>(context);
  attachRule<AbsOp, absRule>(context);
  attachRule<GeluOp, geluRule>(context);
  attachRule<DropoutOp, dropoutRule>(context);
  attachRule<StopGradientOp, stopGradientRule>(context);
}

} // namespace grad
} // namespace ms
