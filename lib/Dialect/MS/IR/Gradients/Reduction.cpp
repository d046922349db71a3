//===- Reduction.cpp - Gradient rules of the reductions -------------------===//
//
// The cotangent of a reduction is spread back over the reduced axes.
// reduce_max splits it evenly between the elements equal to the maximum, as
// MindSpore's ReduceMax bprop does (torch's amax too).
//
//===----------------------------------------------------------------------===//

#include "Gradients.h"

using namespace mlir;

namespace ms {
namespace grad {
namespace {

template <typename ReduceOp>
Value spread(ReduceOp op, OpBuilder &b, Value value) {
  return unreduce(b, op.getLoc(), value, op.getNormalizedAxes(),
                  tensorType(op.getInput()));
}

LogicalResult reduceSumRule(ReduceSumOp op, OpBuilder &b, Grads dys,
                            OperandGrads dxs) {
  dxs[0] = spread(op, b, dys[0]);
  return success();
}

/// The spread cotangent divided by the number of reduced elements.
LogicalResult reduceMeanRule(ReduceMeanOp op, OpBuilder &b, Grads dys,
                             OperandGrads dxs) {
  RankedTensorType type = tensorType(op.getInput());
  int64_t count = 1;
  for (int64_t axis : op.getNormalizedAxes())
    count *= type.getDimSize(axis);
  Value n = scalar(b, op.getLoc(), type.getElementType(), double(count));
  dxs[0] = DivOp::create(b, op.getLoc(), spread(op, b, dys[0]), n);
  return success();
}

/// indicators = (x == max) as 1/0; dx = indicators / count * dy.
LogicalResult reduceMaxRule(ReduceMaxOp op, OpBuilder &b, Grads dys,
                            OperandGrads dxs) {
  Location loc = op.getLoc();
  Value x = op.getInput();
  RankedTensorType type = tensorType(x);
  Value ones = splat(b, loc, type, 1.0);
  // max - x > 0 exactly where x is below the maximum.
  Value below = ReluGradOp::create(
      b, loc, ones, SubOp::create(b, loc, spread(op, b, op.getResult()), x));
  Value indicators = SubOp::create(b, loc, ones, below);
  Value count = ReduceSumOp::create(
      b, loc, indicators, b.getDenseI64ArrayAttr(op.getNormalizedAxes()),
      b.getUnitAttr());
  Value share = DivOp::create(b, loc, indicators, count);
  dxs[0] = MulOp::create(b, loc, share, spread(op, b, dys[0]));
  return success();
}

} // namespace

void attachReductionGradients(MLIRContext &context) {
  attachRule<ReduceSumOp, reduceSumRule>(context);
  attachRule<ReduceMeanOp, reduceMeanRule>(context);
  attachRule<ReduceMaxOp, reduceMaxRule>(context);
}

} // namespace grad
} // namespace ms
