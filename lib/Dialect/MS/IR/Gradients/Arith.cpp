//===- Arith.cpp - Gradient rules of pow, floor_div, floor_mod, fmod ------===//
//
// torch's (and MindSpore's) rules. pow: dx = dz * y * x^(y - 1), 0 where
// y = 0; dy = dz * z * log(x), 0 where x = 0 and y >= 0. floor_div is
// piecewise constant: no cotangent (MindSpore's FloorDiv bprop gives zeros).
// floor_mod and fmod pass dz to x and give y -dz times the floor (or
// truncated) quotient. Integer operands carry no cotangent.
//
//===----------------------------------------------------------------------===//

#include "Gradients.h"

using namespace mlir;

namespace ms {
namespace grad {
namespace {

bool isFloat(Value v) { return isa<FloatType>(tensorType(v).getElementType()); }

void setBinary(Operation *op, OpBuilder &b, Value lhsFull, Value rhsFull,
               OperandGrads dxs) {
  if (lhsFull)
    dxs[0] = sumToShape(b, op->getLoc(), lhsFull,
                        tensorType(op->getOperand(0)));
  if (rhsFull)
    dxs[1] = sumToShape(b, op->getLoc(), rhsFull,
                        tensorType(op->getOperand(1)));
}

LogicalResult powRule(PowOp op, OpBuilder &b, Grads dys, OperandGrads dxs) {
  if (!isFloat(op.getResult()))
    return success();
  Location loc = op.getLoc();
  Value x = op.getLhs(), y = op.getRhs(), z = op.getResult(), dz = dys[0];
  Type element = tensorType(z).getElementType();
  Value zero = scalar(b, loc, element, 0.0);
  Value one = scalar(b, loc, element, 1.0);
  // dx = dz * (y * x^(y - 1)), 0 where y = 0 (x^-1 would be inf at x = 0).
  Value yMinus1 = SubOp::create(b, loc, y, one);
  Value power = PowOp::create(b, loc, x, yMinus1);
  Value slope = MulOp::create(b, loc, y, power);
  Value dxFull = MulOp::create(b, loc, dz, slope);
  Value yZero = EqualOp::create(b, loc, y, zero);
  dxFull = SelectOp::create(b, loc, yZero, zero, dxFull);
  // dy = dz * (z * log x), 0 where x = 0 and y >= 0 (log 0 = -inf).
  Value logX = LogOp::create(b, loc, x);
  Value zLogX = MulOp::create(b, loc, z, logX);
  Value xZero = EqualOp::create(b, loc, x, zero);
  Value yNonNegative = GreaterEqualOp::create(b, loc, y, zero);
  Value flat = LogicalAndOp::create(b, loc, xZero, yNonNegative);
  Value dySlope = SelectOp::create(b, loc, flat, zero, zLogX);
  Value dyFull = MulOp::create(b, loc, dz, dySlope);
  setBinary(op, b, dxFull, dyFull, dxs);
  return success();
}

/// Piecewise constant: nothing flows.
LogicalResult floorDivRule(FloorDivOp, OpBuilder &, Grads, OperandGrads) {
  return success();
}

/// x - q * y with q the floor (or truncated) quotient: dx = dz, dy = -dz * q.
void remainderGrads(Operation *op, OpBuilder &b, Value dz, Value quotient,
                    OperandGrads dxs) {
  Location loc = op->getLoc();
  Value scaled = MulOp::create(b, loc, dz, quotient);
  Value dyFull = NegOp::create(b, loc, scaled);
  setBinary(op, b, dz, dyFull, dxs);
}

LogicalResult floorModRule(FloorModOp op, OpBuilder &b, Grads dys,
                           OperandGrads dxs) {
  if (!isFloat(op.getResult()))
    return success();
  Value q = FloorDivOp::create(b, op.getLoc(), op.getLhs(), op.getRhs());
  remainderGrads(op, b, dys[0], q, dxs);
  return success();
}

LogicalResult fmodRule(FmodOp op, OpBuilder &b, Grads dys, OperandGrads dxs) {
  if (!isFloat(op.getResult()))
    return success();
  Location loc = op.getLoc();
  // trunc(x / y) = (x - fmod(x, y)) / y.
  Value whole = SubOp::create(b, loc, op.getLhs(), op.getResult());
  Value q = DivOp::create(b, loc, whole, op.getRhs());
  remainderGrads(op, b, dys[0], q, dxs);
  return success();
}

} // namespace

void attachArithGradients(MLIRContext &context) {
  attachRule<PowOp, powRule>(context);
  attachRule<FloorDivOp, floorDivRule>(context);
  attachRule<FloorModOp, floorModRule>(context);
  attachRule<FmodOp, fmodRule>(context);
}

} // namespace grad
} // namespace ms
