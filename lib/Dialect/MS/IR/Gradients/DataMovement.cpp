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
    SmallVector<int64_t> end(type.getShape());
    SmallVector<int64_t> strides(type.getRank(), 1);
    begin[axis] = offset;
    end[axis] = offset + type.getDimSize(axis);
    dxs[i] = SliceOp::create(b, op.getLoc(), dys[0],
                             b.getDenseI64ArrayAttr(begin),
                             b.getDenseI64ArrayAttr(end),
                             b.getDenseI64ArrayAttr(strides));
    offset += type.getDimSize(axis);
  }
  return success();
}

/// `grad` with stride - 1 zeros after each element along `dim`, cut to
/// `extent`: reshape to [..., k, 1, ...], pad the new axis to `stride`,
/// merge back to k * stride.
Value spreadAlong(OpBuilder &b, Location loc, Value grad, int64_t dim,
                  int64_t stride, int64_t extent) {
  RankedTensorType type = tensorType(grad);
  int64_t rank = type.getRank(), k = type.getDimSize(dim);
  SmallVector<int64_t> split(type.getShape());
  split.insert(split.begin() + dim + 1, 1);
  SmallVector<int64_t> low(rank + 1, 0), high(rank + 1, 0);
  high[dim + 1] = stride - 1;
  Value padded = PadOp::create(b, loc, reshape(b, loc, grad, split),
                               b.getDenseI64ArrayAttr(low),
                               b.getDenseI64ArrayAttr(high),
                               b.getF32FloatAttr(0.0f));
  SmallVector<int64_t> merged(type.getShape());
  merged[dim] = k * stride;
  Value spread = reshape(b, loc, padded, merged);
  if (k * stride == extent)
    return spread;
  SmallVector<int64_t> begin(rank, 0), end(merged), strides(rank, 1);
  end[dim] = extent;
  return SliceOp::create(b, loc, spread, b.getDenseI64ArrayAttr(begin),
                         b.getDenseI64ArrayAttr(end),
                         b.getDenseI64ArrayAttr(strides));
}

/// dy put back at the sliced positions of a zero tensor of the input's
/// shape: strided dims spread dy out with zeros between its elements, then
/// one pad adds the zeros before `begin` and after the last element.
LogicalResult sliceRule(SliceOp op, OpBuilder &b, Grads dys,
                        OperandGrads dxs) {
  Location loc = op.getLoc();
  RankedTensorType inputType = tensorType(op.getInput());
  ArrayRef<int64_t> begin = op.getBegin(), strides = op.getStrides();
  Value grad = dys[0];
  int64_t rank = inputType.getRank();
  SmallVector<int64_t> low(rank), high(rank);
  for (int64_t d = 0; d < rank; ++d) {
    int64_t room = inputType.getDimSize(d) - begin[d];
    int64_t k = tensorType(grad).getDimSize(d);
    if (strides[d] > 1 && k > 1)
      grad = spreadAlong(b, loc, grad, d, strides[d],
                         std::min(k * strides[d], room));
    low[d] = begin[d];
    high[d] = room - tensorType(grad).getDimSize(d);
  }
  if (llvm::any_of(low, [](int64_t v) { return v; }) ||
      llvm::any_of(high, [](int64_t v) { return v; }))
    grad = PadOp::create(b, loc, grad, b.getDenseI64ArrayAttr(low),
                         b.getDenseI64ArrayAttr(high),
                         b.getF32FloatAttr(0.0f));
  dxs[0] = grad;
  return success();
}

/// The cotangent summed over the broadcast dims.
LogicalResult broadcastToRule(BroadcastToOp op, OpBuilder &b, Grads dys,
                              OperandGrads dxs) {
  dxs[0] = sumToShape(b, op.getLoc(), dys[0], tensorType(op.getInput()));
  return success();
}

/// The cotangent without the padding: a slice of the input's extent.
LogicalResult padRule(PadOp op, OpBuilder &b, Grads dys, OperandGrads dxs) {
  RankedTensorType type = tensorType(op.getInput());
  SmallVector<int64_t> begin(op.getLow()), end, strides(type.getRank(), 1);
  for (int64_t d = 0; d < type.getRank(); ++d)
    end.push_back(begin[d] + type.getDimSize(d));
  dxs[0] = SliceOp::create(b, op.getLoc(), dys[0],
                           b.getDenseI64ArrayAttr(begin),
                           b.getDenseI64ArrayAttr(end),
                           b.getDenseI64ArrayAttr(strides));
  return success();
}

/// `value` transposed by `perm`, or `value` itself for the identity.
Value transposed(OpBuilder &b, Location loc, Value value,
                 ArrayRef<int64_t> perm) {
  bool identity = true;
  for (auto [i, p] : llvm::enumerate(perm))
    identity &= int64_t(i) == p;
  if (identity)
    return value;
  return TransposeOp::create(b, loc, value, b.getDenseI64ArrayAttr(perm));
}

/// Gather's input gradient: one_hot(indices)^T @ dy, with the indices
/// flattened to [M] and dy to [M, rest] (for an axis other than 0, dy's
/// index dims are first moved to the front and the sum moved back after).
/// Each input row sums the cotangents of its picks in index order (the
/// matmul's in-order K sum), so the bits are fixed; an out-of-range index
/// has an all-zero one_hot row and contributes nothing, as it read nothing.
LogicalResult gatherRule(GatherOp op, OpBuilder &b, Grads dys,
                         OperandGrads dxs) {
  Location loc = op.getLoc();
  RankedTensorType inputType = tensorType(op.getInput());
  int64_t rank = inputType.getRank();
  int64_t axis = op.getAxis();
  if (axis < 0)
    axis += rank;
  int64_t indexRank = tensorType(op.getIndices()).getRank();
  int64_t dyRank = tensorType(dys[0]).getRank();
  // dy [pre..., I..., post...] -> [I..., pre..., post...].
  SmallVector<int64_t> toFront;
  for (int64_t d = axis; d < axis + indexRank; ++d)
    toFront.push_back(d);
  for (int64_t d = 0; d < axis; ++d)
    toFront.push_back(d);
  for (int64_t d = axis + indexRank; d < dyRank; ++d)
    toFront.push_back(d);
  Value dy = transposed(b, loc, dys[0], toFront);
  int64_t picks = tensorType(op.getIndices()).getNumElements();
  int64_t rows = inputType.getDimSize(axis);
  int64_t rest = rows ? inputType.getNumElements() / rows : 0;
  Value indices = reshape(b, loc, op.getIndices(), {picks});
  Value hot = OneHotOp::create(b, loc, indices, b.getI64IntegerAttr(rows),
                               b.getI64IntegerAttr(-1), b.getF32FloatAttr(1.0f),
                               b.getF32FloatAttr(0.0f));
  // one_hot is f32; its 0s and 1s are exact in dy's type (f64, f16, ...).
  Type element = tensorType(dys[0]).getElementType();
  if (tensorType(hot).getElementType() != element)
    hot = CastOp::create(b, loc, hot, TypeAttr::get(element));
  Value flatDy = reshape(b, loc, dy, {picks, rest});
  Value summed = MatmulOp::create(b, loc, hot, flatDy, b.getUnitAttr(),
                                  UnitAttr());
  // [rows, pre..., post...] -> [pre..., rows, post...].
  SmallVector<int64_t> movedShape = {rows};
  SmallVector<int64_t> back;
  for (int64_t d = 0; d < rank; ++d) {
    if (d != axis)
      movedShape.push_back(inputType.getDimSize(d));
    back.push_back(d < axis ? d + 1 : d == axis ? 0 : d);
  }
  dxs[0] = transposed(b, loc, reshape(b, loc, summed, movedShape), back);
  return success();
}

/// slice_update: the input's cotangent is dy with the overwritten slice
/// zeroed; the update's is that slice of dy.
LogicalResult sliceUpdateRule(SliceUpdateOp op, OpBuilder &b, Grads dys,
                              OperandGrads dxs) {
  Location loc = op.getLoc();
  RankedTensorType updateType = tensorType(op.getUpdate());
  dxs[0] = SliceUpdateOp::create(b, loc, dys[0], splat(b, loc, updateType, 0),
                                 op.getBeginAttr(), op.getEndAttr(),
                                 op.getStridesAttr());
  dxs[1] = SliceOp::create(b, loc, dys[0], op.getBeginAttr(),
                           op.getEndAttr(), op.getStridesAttr());
  return success();
}

/// scatter_update: the input's cotangent is dy with the written rows
/// zeroed; the updates' is gather(dy, indices). With a repeated index
/// every one of its updates gets the row's cotangent (as torch's
/// index_put does), although only the last one was kept.
LogicalResult scatterUpdateRule(ScatterUpdateOp op, OpBuilder &b, Grads dys,
                                OperandGrads dxs) {
  Location loc = op.getLoc();
  RankedTensorType updatesType = tensorType(op.getUpdates());
  dxs[0] = ScatterUpdateOp::create(b, loc, dys[0], op.getIndices(),
                                   splat(b, loc, updatesType, 0));
  dxs[2] = GatherOp::create(b, loc, dys[0], op.getIndices(),
                            b.getI64IntegerAttr(0));
  return success();
}

} // namespace

void attachDataMovementGradients(MLIRContext &context) {
  attachRule<FlattenOp, reshapeBackRule<FlattenOp>>(context);
  attachRule<ReshapeOp, reshapeBackRule<ReshapeOp>>(context);
  attachRule<TransposeOp, transposeRule>(context);
  attachRule<ConcatOp, concatRule>(context);
  attachRule<SliceOp, sliceRule>(context);
  attachRule<BroadcastToOp, broadcastToRule>(context);
  attachRule<PadOp, padRule>(context);
  attachRule<GatherOp, gatherRule>(context);
  attachRule<SliceUpdateOp, sliceUpdateRule>(context);
  attachRule<ScatterUpdateOp, scatterUpdateRule>(context);
}

} // namespace grad
} // namespace ms
