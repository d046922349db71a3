//===- Pooling.cpp - Gradient rules of the 2-D pools ----------------------===//
//
// max_pool2d's gradient goes to each window's maximum (ties: the first in
// window order), avg_pool2d's is spread over the real elements of each
// window; both are ops of their own (MSGradOps.td) with fixed-order kernels.
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

} // namespace

void attachPoolingGradients(MLIRContext &context) {
  attachRule<MaxPool2DOp, poolRule<MaxPool2DOp, MaxPool2DGradOp>>(context);
  attachRule<AvgPool2DOp, poolRule<AvgPool2DOp, AvgPool2DGradOp>>(context);
}

} // namespace grad
} // namespace ms
