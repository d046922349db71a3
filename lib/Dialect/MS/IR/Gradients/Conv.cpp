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

/// conv2d's geometry attributes, which every op of a conv's gradient
/// carries unchanged.
struct ConvGeometry {
  StringAttr padMode;
  DenseI64ArrayAttr padding, stride, dilation;
  IntegerAttr group;

  template <typename ConvLikeOp> static ConvGeometry of(ConvLikeOp op) {
    return {op.getPadModeAttr(), op.getPaddingAttr(), op.getStrideAttr(),
            op.getDilationAttr(), op.getGroupAttr()};
  }
};

Value conv2d(OpBuilder &b, Location loc, Value input, Value weight,
             const ConvGeometry &g) {
  return Conv2DOp::create(b, loc, input, weight, Value(), g.padMode,
                          g.padding, g.stride, g.dilation, g.group);
}

/// The input gradient of conv2d against dy, for an input shaped like
/// `input`.
Value inputGradient(OpBuilder &b, Location loc, Value dy, Value weight,
                    Value input, const ConvGeometry &g) {
  return Conv2DBackpropInputOp::create(
      b, loc, dy, weight, b.getDenseI64ArrayAttr(tensorType(input).getShape()),
      g.padMode, g.padding, g.stride, g.dilation, g.group);
}

/// The weight gradient of conv2d against dy, for a weight shaped like
/// `weight`.
Value weightGradient(OpBuilder &b, Location loc, Value dy, Value input,
                     Value weight, const ConvGeometry &g) {
  return Conv2DBackpropFilterOp::create(
      b, loc, dy, input, b.getDenseI64ArrayAttr(tensorType(weight).getShape()),
      g.padMode, g.padding, g.stride, g.dilation, g.group);
}

LogicalResult conv2dRule(Conv2DOp op, OpBuilder &b, ArrayRef<Value> dys,
                         MutableArrayRef<Value> dxs) {
  Location loc = op.getLoc();
  Value dy = dys[0];
  ConvGeometry g = ConvGeometry::of(op);
  dxs[0] = inputGradient(b, loc, dy, op.getWeight(), op.getInput(), g);
  dxs[1] = weightGradient(b, loc, dy, op.getInput(), op.getWeight(), g);
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
  ConvGeometry g = ConvGeometry::of(op);
  dxs[0] = conv2d(b, loc, dys[0], op.getOther(), g);
  dxs[1] = weightGradient(b, loc, op.getDy(), dys[0], op.getOther(), g);
  return success();
}

/// dw = F(dy, x), the filter gradient of y = conv2d(x, w): with dw's
/// cotangent ddw, <ddw, F(dy, x)> = <dy, conv2d(x, ddw)>, so d dy is
/// conv2d(x, ddw) and d x is the input gradient of that conv against dy.
LogicalResult conv2dBackpropFilterRule(Conv2DBackpropFilterOp op, OpBuilder &b,
                                       ArrayRef<Value> dys,
                                       MutableArrayRef<Value> dxs) {
  Location loc = op.getLoc();
  ConvGeometry g = ConvGeometry::of(op);
  dxs[0] = conv2d(b, loc, op.getOther(), dys[0], g);
  dxs[1] = inputGradient(b, loc, op.getDy(), dys[0], op.getOther(), g);
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
