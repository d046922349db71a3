//===- Communication.cpp - Gradient rule of all_reduce --------------------===//
//
// MindSpore's AllReduce bprop. Every rank gets the reduction y of the
// ranks' inputs, so a rank's input x reaches the loss through every rank's
// copy of y: its cotangent starts from the sum over ranks of dy, itself an
// all-reduce, which every rank runs in the same program order as its
// forward one. sum passes that sum on; max and min send it to the ranks
// whose x equals y (every tied rank gets it, as in MindSpore); prod scales
// it by y / x, formed as MindSpore does, all_reduce(dy * y) / x (so an x of
// 0 gives inf or NaN there).
//
//===----------------------------------------------------------------------===//

#include "Gradients.h"

using namespace mlir;

namespace ms {
namespace grad {
namespace {

Value sumOverRanks(OpBuilder &b, Location loc, Value value) {
  return AllReduceOp::create(b, loc, value, b.getStringAttr("sum"));
}

LogicalResult allReduceRule(AllReduceOp op, OpBuilder &b, ArrayRef<Value> dys,
                            MutableArrayRef<Value> dxs) {
  Location loc = op.getLoc();
  Value x = op.getInput(), y = op.getResult(), dy = dys[0];
  StringRef kind = op.getReduceOp();
  if (kind == "sum") {
    dxs[0] = sumOverRanks(b, loc, dy);
    return success();
  }
  if (kind == "prod") {
    Value scaled = MulOp::create(b, loc, dy, y);
    Value summed = sumOverRanks(b, loc, scaled);
    dxs[0] = DivOp::create(b, loc, summed, x);
    return success();
  }
  // max or min: the verifier allows no other reduce_op.
  Value summed = sumOverRanks(b, loc, dy);
  Value chosen = EqualOp::create(b, loc, x, y);
  Value zero = scalar(b, loc, tensorType(x).getElementType(), 0.0);
  dxs[0] = SelectOp::create(b, loc, chosen, summed, zero);
  return success();
}

} // namespace

void attachCommunicationGradients(MLIRContext &context) {
  attachRule<AllReduceOp, allReduceRule>(context);
}

} // namespace grad
} // namespace ms
