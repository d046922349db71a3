//===- Normalization.cpp - Gradient rules of softmax and the norms --------===//
//
// Composed from forward ms ops, reusing the forward result where the
// derivative is a function of it (softmax, log_softmax). batch_norm is the
// inference form: its statistics are constants, so the moving mean and
// variance get no cotangent. layer_norm recomputes its mean and deviation
// (the forward op does not return them).
//
//===----------------------------------------------------------------------===//

#include "Gradients.h"

using namespace mlir;

namespace ms {
namespace grad {
namespace {

DenseI64ArrayAttr axesAttr(OpBuilder &b, ArrayRef<int64_t> axes) {
  return b.getDenseI64ArrayAttr(axes);
}

/// dx = y * (dy - sum(dy * y)).
LogicalResult softmaxRule(SoftmaxOp op, OpBuilder &b, Grads dys,
                          OperandGrads dxs) {
  Location loc = op.getLoc();
  Value y = op.getResult(), dy = dys[0];
  Value sum = ReduceSumOp::create(b, loc, MulOp::create(b, loc, dy, y),
                                  axesAttr(b, {op.getNormalizedAxis()}),
                                  b.getUnitAttr());
  dxs[0] = MulOp::create(b, loc, y, SubOp::create(b, loc, dy, sum));
  return success();
}

/// dx = dy - exp(y) * sum(dy).
LogicalResult logSoftmaxRule(LogSoftmaxOp op, OpBuilder &b, Grads dys,
                             OperandGrads dxs) {
  Location loc = op.getLoc();
  Value y = op.getResult(), dy = dys[0];
  Value sum = ReduceSumOp::create(b, loc, dy,
                                  axesAttr(b, {op.getNormalizedAxis()}),
                                  b.getUnitAttr());
  dxs[0] = SubOp::create(b, loc, dy,
                         MulOp::create(b, loc, ExpOp::create(b, loc, y), sum));
  return success();
}

/// Every axis of a rank-`rank` tensor but `keep`.
SmallVector<int64_t> allAxesBut(int64_t rank, int64_t keep) {
  SmallVector<int64_t> axes;
  for (int64_t i = 0; i < rank; ++i)
    if (i != keep)
      axes.push_back(i);
  return axes;
}

/// y = (x - mean) / std * gamma + beta with std = sqrt(var + eps) per
/// channel: dx = dy * gamma / std, dgamma = sum(dy * (x - mean) / std),
/// dbeta = sum(dy), the sums over every dim but the channels.
LogicalResult batchNormRule(BatchNormOp op, OpBuilder &b, Grads dys,
                            OperandGrads dxs) {
  Location loc = op.getLoc();
  Value dy = dys[0], x = op.getInput();
  RankedTensorType xType = tensorType(x);
  int64_t rank = xType.getRank(), channels = xType.getDimSize(1);
  // [C] as [C, 1, ..., 1], which broadcasts against dim 1 of x.
  SmallVector<int64_t> column(rank - 1, 1);
  column[0] = channels;
  auto col = [&](Value param) { return reshape(b, loc, param, column); };
  Value eps = scalar(b, loc, xType.getElementType(),
                     op.getEpsilon().convertToDouble());
  Value std = SqrtOp::create(
      b, loc, AddOp::create(b, loc, op.getMovingVariance(), eps));
  Value stdCol = col(std);
  SmallVector<int64_t> axes = allAxesBut(rank, 1);
  dxs[0] = DivOp::create(b, loc, MulOp::create(b, loc, dy, col(op.getGamma())),
                         stdCol);
  Value xhat = DivOp::create(
      b, loc, SubOp::create(b, loc, x, col(op.getMovingMean())), stdCol);
  dxs[1] = ReduceSumOp::create(b, loc, MulOp::create(b, loc, dy, xhat),
                               axesAttr(b, axes), UnitAttr());
  dxs[2] = ReduceSumOp::create(b, loc, dy, axesAttr(b, axes), UnitAttr());
  return success();
}

/// With xhat = (x - mean) / std over the norm axes and g = dy * gamma:
/// dx = (g - mean(g) - xhat * mean(g * xhat)) / std; dgamma and dbeta sum
/// dy * xhat and dy over the dims before begin_params_axis.
LogicalResult layerNormRule(LayerNormOp op, OpBuilder &b, Grads dys,
                            OperandGrads dxs) {
  Location loc = op.getLoc();
  Value dy = dys[0], x = op.getInput();
  RankedTensorType xType = tensorType(x);
  int64_t rank = xType.getRank();
  SmallVector<int64_t> normAxes, batchAxes;
  for (int64_t i = op.getNormAxis(); i < rank; ++i)
    normAxes.push_back(i);
  for (int64_t i = 0; i < op.getParamsAxis(); ++i)
    batchAxes.push_back(i);
  auto mean = [&](Value v) {
    return ReduceMeanOp::create(b, loc, v, axesAttr(b, normAxes),
                                b.getUnitAttr());
  };
  Value centered = SubOp::create(b, loc, x, mean(x));
  Value var = mean(MulOp::create(b, loc, centered, centered));
  Value eps = scalar(b, loc, xType.getElementType(),
                     op.getEpsilon().convertToDouble());
  Value std = SqrtOp::create(b, loc, AddOp::create(b, loc, var, eps));
  Value xhat = DivOp::create(b, loc, centered, std);
  Value g = MulOp::create(b, loc, dy, op.getGamma());
  Value centeredG = SubOp::create(b, loc, g, mean(g));
  Value projection = mean(MulOp::create(b, loc, g, xhat));
  Value inner = SubOp::create(b, loc, centeredG,
                              MulOp::create(b, loc, xhat, projection));
  dxs[0] = DivOp::create(b, loc, inner, std);
  auto sumBatch = [&](Value v) -> Value {
    if (batchAxes.empty())
      return v;
    return ReduceSumOp::create(b, loc, v, axesAttr(b, batchAxes), UnitAttr());
  };
  dxs[1] = sumBatch(MulOp::create(b, loc, dy, xhat));
  dxs[2] = sumBatch(dy);
  return success();
}

} // namespace

void attachNormalizationGradients(MLIRContext &context) {
  attachRule<SoftmaxOp, softmaxRule>(context);
  attachRule<LogSoftmaxOp, logSoftmaxRule>(context);
  attachRule<BatchNormOp, batchNormRule>(context);
  attachRule<LayerNormOp, layerNormRule>(context);
}

} // namespace grad
} // namespace ms
