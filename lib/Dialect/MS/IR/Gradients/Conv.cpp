//===- Conv.cpp - Gradient rule of conv2d ---------------------------------===//
//
// The input and weight cotangents are ms.conv2d_backprop_input/_filter with
// the forward op's geometry (every pad_mode, padding, stride, dilation and
// group); the bias cotangent sums dy over N, H and W. conv2d_backprop_input
// is also a forward op (nn.Conv2dTranspose), so it has a rule too, and
// conv2d_backprop_filter, bilinear in dy and the input, has the second-order
// one (MindSpore's Conv2DBackpropFilter bprop).
//
//===----------------------------------------------------------------------===//

#include "Gradients.h"

using namespace mlir;

namespace ms {
namespace grad {
namespace {

LogicalResult conv2dRule(Conv2DOp op, OpBuilder &b, ArrayRef<Value> dys,
                         MutableArrayRef<Value> dxs) {
  Location loc = op.getLoc();
  Value dy = dys[0];
  auto shapeOf = [&](Value v) {
    return b.getDenseI64ArrayAttr(tensorType(v).getShape());
  };
  dxs[0] = Conv2DBackpropInputOp::create(
      b, loc, dy, op.getWeight(), shapeOf(op.getInput()), op.getPadModeAttr(),
      op.getPaddingAttr(), op.getStrideAttr(), op.getDilationAttr(),
      op.getGroupAttr());
  dxs[1] = Conv2DBackpropFilterOp::create(
      b, loc, dy, op.getInput(), shapeOf(op.getWeight()), op.getPadModeAttr(),
      op.getPaddingAttr(), op.getStrideAttr(), op.getDilationAttr(),
      op.getGroupAttr());
  if (op.getBias())
    dxs[2] = ReduceSumOp::create(b, loc, dy,
                                 b.getDenseI64ArrayAttr({0, 2, 3}), UnitAttr());
  return success();
}

/// conv2d_backprop_input as a layer (nn.Conv2dTranspose): y = A^T x for
/// the conv A of this geometry, so dx = A dy (a conv2d) and dw is the
/// filter gradient of conv2d(dy, w) against the cotangent x.
LogicalResult conv2dBackpropInputRule(Conv2DBackpropInputOp op, OpBuilder &b,
                                      ArrayRef<Value> dys,
                                      MutableArrayRef<Value> dxs) {
  Location loc = op.getLoc();
  Value dy = dys[0];
  dxs[0] = Conv2DOp::create(b, loc, dy, op.getOther(), Value(),
                            op.getPadModeAttr(), op.getPaddingAttr(),
                            op.getStrideAttr(), op.getDilationAttr(),
                            op.getGroupAttr());
  dxs[1] = Conv2DBackpropFilterOp::create(
      b, loc, op.getDy(), dy,
      b.getDenseI64ArrayAttr(tensorType(op.getOther()).getShape()),
      op.getPadModeAttr(), op.getPaddingAttr(), op.getStrideAttr(),
      op.getDilationAttr(), op.getGroupAttr());
  return success();
}

/// dw = F(dy, x), the filter gradient of y = conv2d(x, w): with dw's
/// cotangent ddw, <ddw, F(dy, x)> = <dy, conv2d(x, ddw)>, so d dy is
/// conv2d(x, ddw) and d x is the input gradient of that conv against dy.
LogicalResult conv2dBackpropFilterRule(Conv2DBackpropFilterOp op, OpBuilder &b,
                                       ArrayRef<Value> dys,
                                       MutableArrayRef<Value> dxs) {
  Location loc = op.getLoc();
  Value ddw = dys[0];
  dxs[0] = Conv2DOp::create(b, loc, op.getOther(), ddw, Value(),
                            op.getPadModeAttr(), op.getPaddingAttr(),
                            op.getStrideAttr(), op.getDilationAttr(),
                            op.getGroupAttr());
  dxs[1] = Conv2DBackpropInputOp::create(
      b, loc, op.getDy(), ddw,
      b.getDenseI64ArrayAttr(tensorType(op.getOther()).getShape()),
      op.getPadModeAttr(), op.getPaddingAttr(), op.getStrideAttr(),
      op.getDilationAttr(), op.getGroupAttr());
  return success();
}

} // namespace

void attachConvGradients(MLIRContext &context) {
  attachRule<Conv2DOp, conv2dRule>(context);
  attachRule<Conv2DBackpropInputOp, conv2dBackpropInputRule>(context);
  attachRule<Conv2DBackpropFilterOp, conv2dBackpropFilterRule>(context);
}

} // namespace grad
} // namespace ms
