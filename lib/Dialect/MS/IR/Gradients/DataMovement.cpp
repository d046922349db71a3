//===- DataMovement.cpp - Gradient rules of the shape ops -----------------===//
//
// Shape ops move elements without arithmetic, so their cotangents are the
// inverse movement: reshape back, the inverse permutation, slices of a
// concat's cotangent, zero padding around a slice's.
//
//===----------------------------------------------------------------------===//

#include "Gradients.h"

using namespace mlir;

namespace ms {
namespace grad {
namespace {

using Grads = ArrayRef<Value>;
using OperandGrads = MutableArrayRef<Value>;

template <typename OpTy>
LogicalResult reshapeBackRule(OpTy op, OpBuilder &b, Grads dys,
                              OperandGrads dxs) {
  dxs[0] = reshape(b, op.getLoc(), dys[0],
                   tensorType(op.getInput()).getShape());
  return success();
}

LogicalResult transposeRule(TransposeOp op, OpBuilder &b, Grads dys,
                            OperandGrads dxs) {
  ArrayRef<int64_t> perm = op.getPerm();
  SmallVector<int64_t> inverse(perm.size());
  for (auto [i, p] : llvm::enumerate(perm))
    inverse[p] = i;
  dxs[0] = TransposeOp::create(b, op.getLoc(), dys[0],
                               b.getDenseI64ArrayAttr(inverse));
  return success();
}

LogicalResult concatRule(ConcatOp op, OpBuilder &b, Grads dys,
                         OperandGrads dxs) {
  int64_t axis = op.getNormalizedAxis(), offset = 0;
  for (auto [i, input] : llvm::enumerate(op.getInputs())) {
    RankedTensorType type = tensorType(input);
    SmallVector<int64_t> begin(type.getRank(), 0);
    begin[axis] = offset;
    dxs[i] = SliceOp::create(b, op.getLoc(), dys[0],
                             b.getDenseI64ArrayAttr(begin),
                             b.getDenseI64ArrayAttr(type.getShape()));
    offset += type.getDimSize(axis);
  }
  return success();
}

/// dy padded with zeros back to the input's shape, one dim at a time.
LogicalResult sliceRule(SliceOp op, OpBuilder &b, Grads dys,
                        OperandGrads dxs) {
  Location loc = op.getLoc();
  RankedTensorType inputType = tensorType(op.getInput());
  Value grad = dys[0];
  ArrayRef<int64_t> begin = op.getBegin();
  for (int64_t d = 0; d < inputType.getRank(); ++d) {
    RankedTensorType current = tensorType(grad);
    int64_t before = begin[d];
    int64_t after = inputType.getDimSize(d) - before - current.getDimSize(d);
    if (before == 0 && after == 0)
      continue;
    SmallVector<Value> parts;
    auto zeros = [&](int64_t extent) {
      SmallVector<int64_t> shape(current.getShape());
      shape[d] = extent;
      parts.push_back(splat(
          b, loc, RankedTensorType::get(shape, current.getElementType()), 0.0));
    };
    if (before > 0)
      zeros(before);
    parts.push_back(grad);
    if (after > 0)
      zeros(after);
    grad = ConcatOp::create(b, loc, parts, b.getI64IntegerAttr(d));
  }
  dxs[0] = grad;
  return success();
}

} // namespace

void attachDataMovementGradients(MLIRContext &context) {
  attachRule<FlattenOp, reshapeBackRule<FlattenOp>>(context);
  attachRule<ReshapeOp, reshapeBackRule<ReshapeOp>>(context);
  attachRule<TransposeOp, transposeRule>(context);
  attachRule<ConcatOp, concatRule>(context);
  attachRule<SliceOp, sliceRule>(context);
}

} // namespace grad
} // namespace ms
