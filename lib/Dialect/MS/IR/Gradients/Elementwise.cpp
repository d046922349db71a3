//===- Elementwise.cpp - Gradient rules of the elementwise ops ------------===//
//
// Binary ops broadcast like numpy, so each operand's cotangent is summed over
// the dims it was stretched along (sumToShape). maximum/minimum route the
// gradient to one operand, on ties to lhs (MindSpore's MaximumGrad; torch
// splits ties in half). Unary rules reuse the forward result where the
// derivative is a function of it (sigmoid, tanh, exp, sqrt, relu). relu_grad
// and gelu_grad have second-order rules, as their MindSpore bprops do:
// relu_grad is linear in dy and flat in y; gelu_grad needs gelu''.
//
//===----------------------------------------------------------------------===//

#include "Gradients.h"

using namespace mlir;

namespace ms {
namespace grad {
namespace {

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

/// Piecewise constant: no cotangent flows (MindSpore's Floor bprop gives
/// zeros).
LogicalResult floorRule(FloorOp, OpBuilder &, Grads, OperandGrads) {
  return success();
}

LogicalResult geluRule(GeluOp op, OpBuilder &b, Grads dys, OperandGrads dxs) {
  dxs[0] = GeluGradOp::create(b, op.getLoc(), dys[0], op.getInput(),
                              op.getApproximateAttr());
  return success();
}

/// dx = relu_grad(dy, y) selects dy where y > 0: the cotangent of dy is the
/// same selection of ddx; y, almost everywhere flat, gets none.
LogicalResult reluGradRule(ReluGradOp op, OpBuilder &b, Grads dys,
                           OperandGrads dxs) {
  dxs[0] = ReluGradOp::create(b, op.getLoc(), dys[0], op.getY());
  return success();
}

/// gelu''(x) of the tanh form: with u = c (x + a x^3), t = tanh(u) and
/// u' = c (1 + 3 a x^2), gelu' = (1 + t) / 2 + x (1 - t^2) u' / 2, so
/// gelu'' = (1 - t^2) (u' + x (3 a c x - t u'^2)).
Value geluTanhSecondDerivative(OpBuilder &b, Location loc, Value x) {
  Type type = tensorType(x).getElementType();
  const double c = 0.7978845608028654, a = 0.044715; // sqrt(2 / pi)
  Value x2 = MulOp::create(b, loc, x, x);
  Value x3 = MulOp::create(b, loc, x2, x);
  Value cubic = MulOp::create(b, loc, x3, scalar(b, loc, type, a));
  Value inner = AddOp::create(b, loc, x, cubic);
  Value u = MulOp::create(b, loc, inner, scalar(b, loc, type, c));
  Value t = TanhOp::create(b, loc, u);
  Value threeAcX = MulOp::create(b, loc, x, scalar(b, loc, type, 3 * a * c));
  Value slope = MulOp::create(b, loc, x, threeAcX);
  Value du = AddOp::create(b, loc, slope, scalar(b, loc, type, c));
  Value t2 = MulOp::create(b, loc, t, t);
  Value sech2 = SubOp::create(b, loc, scalar(b, loc, type, 1.0), t2);
  Value du2 = MulOp::create(b, loc, du, du);
  Value tdu2 = MulOp::create(b, loc, t, du2);
  Value bracket = SubOp::create(b, loc, threeAcX, tdu2);
  Value xBracket = MulOp::create(b, loc, x, bracket);
  Value sum = AddOp::create(b, loc, du, xBracket);
  return MulOp::create(b, loc, sech2, sum);
}

/// gelu''(x) of the erf form: gelu' = Phi(x) + x phi(x), so gelu'' =
/// phi(x) (2 - x^2) with phi(x) = exp(-x^2 / 2) / sqrt(2 pi).
Value geluErfSecondDerivative(OpBuilder &b, Location loc, Value x) {
  Type type = tensorType(x).getElementType();
  const double invSqrt2Pi = 0.3989422804014327;
  Value x2 = MulOp::create(b, loc, x, x);
  Value half = MulOp::create(b, loc, x2, scalar(b, loc, type, -0.5));
  Value e = ExpOp::create(b, loc, half);
  Value phi = MulOp::create(b, loc, e, scalar(b, loc, type, invSqrt2Pi));
  Value twoMinus = SubOp::create(b, loc, scalar(b, loc, type, 2.0), x2);
  return MulOp::create(b, loc, phi, twoMinus);
}

/// dx = dy * gelu'(x): dy's cotangent is gelu_grad(ddx, x), x's is
/// ddx * dy * gelu''(x).
LogicalResult geluGradRule(GeluGradOp op, OpBuilder &b, Grads dys,
                           OperandGrads dxs) {
  Location loc = op.getLoc();
  Value ddx = dys[0];
  dxs[0] = GeluGradOp::create(b, loc, ddx, op.getX(), op.getApproximateAttr());
  Value curvature = op.getApproximate()
                        ? geluTanhSecondDerivative(b, loc, op.getX())
                        : geluErfSecondDerivative(b, loc, op.getX());
  Value scaled = MulOp::create(b, loc, ddx, op.getDy());
  dxs[1] = MulOp::create(b, loc, scaled, curvature);
  return success();
}

/// The identity at inference. In training, y = x * keep(i) * scale with a
/// mask that depends only on (rng_state, element index), so the cotangent
/// is the same dropout of dy: the same rng_state draws the same mask.
LogicalResult dropoutRule(DropoutOp op, OpBuilder &b, Grads dys,
                          OperandGrads dxs) {
  if (!op.getTraining()) {
    dxs[0] = dys[0];
    return success();
  }
  dxs[0] = DropoutOp::create(b, op.getLoc(), dys[0], op.getRngState(),
                             op.getPAttr(), op.getTrainingAttr());
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
  attachRule<FloorOp, floorRule>(context);
  attachRule<GeluOp, geluRule>(context);
  attachRule<ReluGradOp, reluGradRule>(context);
  attachRule<GeluGradOp, geluGradRule>(context);
  attachRule<DropoutOp, dropoutRule>(context);
  attachRule<StopGradientOp, stopGradientRule>(context);
}

} // namespace grad
} // namespace ms
