//===- Pooling.cpp - Gradient rules of the 2-D pools ----------------------===//
//
// max_pool2d's gradient goes to each window's maximum (ties: the first in
// window order), avg_pool2d's is spread over the real elements of each
// window; both are ops of their own (MSGradOps.td) with fixed-order kernels.
// The two gradient ops are linear in dy, so their own rules (second order,
// as MindSpore's MaxPoolGrad and AvgPoolGrad bprops) are the transposes:
// max_pool2d_grad_grad reads each window's maximum back, and avg_pool2d
// averages. x only says where the maxima are (or, for avg, the shape), so
// it gets no cotangent; nor does max_pool2d_grad_grad's x.
//
//===----------------------------------------------------------------------===//

#include "Gradients.h"

using namespace mlir;

namespace ms {
namespace grad {
namespace {

template <typename PoolOp, typename GradOp>
LogicalResult poolRule(PoolOp op, OpBuilder &b, ArrayRef<Value> dys,
                       MutableArrayRef<Value> dxs) {
  dxs[0] = GradOp::create(b, op.getLoc(), op.getInput(), dys[0],
                          op.getKernelSizeAttr(), op.getStrideAttr(),
                          op.getPadModeAttr());
  return success();
}

/// The rule of a pool gradient op that is linear in its second operand:
/// that operand's cotangent is `TransposeOp` of x and the cotangent, with
/// the same window; x gets none.
template <typename GradOp, typename TransposeOp>
LogicalResult transposeRule(GradOp op, OpBuilder &b, ArrayRef<Value> dys,
                            MutableArrayRef<Value> dxs) {
  dxs[1] = TransposeOp::create(b, op.getLoc(), op.getX(), dys[0],
                               op.getKernelSizeAttr(), op.getStrideAttr(),
                               op.getPadModeAttr());
  return success();
}

LogicalResult avgPoolGradRule(AvgPool2DGradOp op, OpBuilder &b,
                              ArrayRef<Value> dys,
                              MutableArrayRef<Value> dxs) {
  dxs[1] = AvgPool2DOp::create(b, op.getLoc(), dys[0], op.getKernelSizeAttr(),
                               op.getStrideAttr(), op.getPadModeAttr());
  return success();
}

} // namespace

void attachPoolingGradients(MLIRContext &context) {
  attachRule<MaxPool2DOp, poolRule<MaxPool2DOp, MaxPool2DGradOp>>(context);
  attachRule<AvgPool2DOp, poolRule<AvgPool2DOp, AvgPool2DGradOp>>(context);
  attachRule<MaxPool2DGradOp,
             transposeRule<MaxPool2DGradOp, MaxPool2DGradGradOp>>(context);
  attachRule<MaxPool2DGradGradOp,
             transposeRule<MaxPool2DGradGradOp, MaxPool2DGradOp>>(context);
  attachRule<AvgPool2DGradOp, avgPoolGradRule>(context);
}

} // namespace grad
} // namespace ms
