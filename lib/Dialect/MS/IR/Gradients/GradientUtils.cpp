//===- GradientUtils.cpp - Builders shared by the gradient rules ----------===//

#include "Gradients.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;

#include "ms/Dialect/MS/IR/MSGradientInterface.cpp.inc"

namespace ms {
namespace grad {

Value splat(OpBuilder &b, Location loc, RankedTensorType type, double value) {
  auto attr = DenseElementsAttr::get(
      type, ArrayRef<Attribute>{b.getFloatAttr(type.getElementType(), value)});
  return arith::ConstantOp::create(b, loc, attr);
}

Value scalar(OpBuilder &b, Location loc, Type elementType, double value) {
  return splat(b, loc, RankedTensorType::get({}, elementType), value);
}

Value reshape(OpBuilder &b, Location loc, Value value,
              ArrayRef<int64_t> shape) {
  if (tensorType(value).getShape() == shape)
    return value;
  return ReshapeOp::create(b, loc, value, b.getDenseI64ArrayAttr(shape));
}

Value sumToShape(OpBuilder &b, Location loc, Value grad,
                 RankedTensorType target) {
  ArrayRef<int64_t> from = tensorType(grad).getShape();
  ArrayRef<int64_t> to = target.getShape();
  if (from == to)
    return grad;
  int64_t offset = from.size() - to.size();
  SmallVector<int64_t> axes;
  for (int64_t i = 0; i < int64_t(from.size()); ++i)
    if (i < offset || (to[i - offset] == 1 && from[i] != 1))
      axes.push_back(i);
  Value summed = grad;
  // An empty axes list would mean "every axis" to reduce_sum.
  if (!axes.empty())
    summed = ReduceSumOp::create(b, loc, grad, b.getDenseI64ArrayAttr(axes),
                                 b.getUnitAttr());
  return reshape(b, loc, summed, to);
}

Value broadcastTo(OpBuilder &b, Location loc, Value value,
                  RankedTensorType target) {
  if (tensorType(value) == target)
    return value;
  return BroadcastToOp::create(b, loc, value,
                               b.getDenseI64ArrayAttr(target.getShape()));
}

Value unreduce(OpBuilder &b, Location loc, Value value, ArrayRef<int64_t> axes,
               RankedTensorType target) {
  SmallVector<int64_t> kept(target.getShape());
  for (int64_t axis : axes)
    kept[axis] = 1;
  return broadcastTo(b, loc, reshape(b, loc, value, kept), target);
}

InFlightDiagnostic error(Operation *op) {
  return op->emitError() << "ms-autodiff: '" << op->getName() << "' ";
}

void attachGradientRules(MLIRContext &context) {
  attachElementwiseGradients(context);
  attachLinearGradients(context);
  attachConvGradients(context);
  attachPoolingGradients(context);
  attachNormalizationGradients(context);
  attachReductionGradients(context);
  attachDataMovementGradients(context);
  attachLogicalGradients(context);
  attachArithGradients(context);
  attachScanSortGradients(context);
  attachResizeGradients(context);
  attachCommunicationGradients(context);
}

} // namespace grad
} // namespace ms
