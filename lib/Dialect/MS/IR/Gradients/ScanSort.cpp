//===- ScanSort.cpp - Gradient rules of cumsum and gather_elements --------===//
//
// cumsum's cotangent is the cumsum of dy in the other direction (exclusive
// stays exclusive). gather_elements sends each dy element back to the
// position it was read from (gather_elements_grad), so sort, topk and
// max/min with indices, composed from argsort/argmax and gather_elements,
// route their gradients to the selected elements as torch and MindSpore
// do. gather_elements_grad, linear in dy, has the transpose as its rule:
// gather_elements of the cotangent at the same indices. argsort has an
// integer result and needs no rule.
//
//===----------------------------------------------------------------------===//

#include "Gradients.h"

using namespace mlir;

namespace ms {
namespace grad {
namespace {

bool isFloat(Value v) { return isa<FloatType>(tensorType(v).getElementType()); }

LogicalResult cumsumRule(CumsumOp op, OpBuilder &b, Grads dys,
                         OperandGrads dxs) {
  if (!isFloat(op.getResult()))
    return success();
  UnitAttr flipped = op.getReverse() ? UnitAttr() : b.getUnitAttr();
  dxs[0] = CumsumOp::create(b, op.getLoc(), dys[0], op.getAxisAttr(),
                            op.getExclusiveAttr(), flipped);
  return success();
}

LogicalResult gatherElementsRule(GatherElementsOp op, OpBuilder &b, Grads dys,
                                 OperandGrads dxs) {
  if (!isFloat(op.getResult()))
    return success();
  int64_t size = op.getInput().getType().getDimSize(op.getNormalizedAxis());
  dxs[0] = GatherElementsGradOp::create(b, op.getLoc(), dys[0],
                                        op.getIndices(), op.getAxisAttr(),
                                        b.getI64IntegerAttr(size));
  return success();
}

LogicalResult gatherElementsGradRule(GatherElementsGradOp op, OpBuilder &b,
                                     Grads dys, OperandGrads dxs) {
  if (!isFloat(op.getResult()))
    return success();
  dxs[0] = GatherElementsOp::create(b, op.getLoc(), dys[0], op.getIndices(),
                                    op.getAxisAttr());
  return success();
}

} // namespace

void attachScanSortGradients(MLIRContext &context) {
  attachRule<CumsumOp, cumsumRule>(context);
  attachRule<GatherElementsOp, gatherElementsRule>(context);
  attachRule<GatherElementsGradOp, gatherElementsGradRule>(context);
}

} // namespace grad
} // namespace ms
