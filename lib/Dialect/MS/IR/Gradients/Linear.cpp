//===- Linear.cpp - Gradient rules of dense and matmul --------------------===//
//
// Both rules are matmuls with transpose flags, so the backward products get
// the same contraction kernels (and fixed K order) as the forward ones.
//
//===----------------------------------------------------------------------===//

#include "Gradients.h"

using namespace mlir;

namespace ms {
namespace grad {
namespace {

/// y[..., out] = x[..., in] @ w[out, in]^T + b[out]. With the leading dims
/// flattened to M rows: dx = dy @ w, dw = dy^T @ x, db = the column sums.
LogicalResult denseRule(DenseOp op, OpBuilder &b, Grads dys,
                        OperandGrads dxs) {
  Location loc = op.getLoc();
  RankedTensorType xType = tensorType(op.getInput());
  RankedTensorType yType = tensorType(op.getResult());
  int64_t in = xType.getShape().back(), out = yType.getShape().back();
  int64_t rows = xType.getNumElements() / std::max<int64_t>(in, 1);
  if (in == 0)
    rows = yType.getNumElements() / std::max<int64_t>(out, 1);
  Value dy = reshape(b, loc, dys[0], {rows, out});
  Value x = reshape(b, loc, op.getInput(), {rows, in});
  Value dx = MatmulOp::create(b, loc, dy, op.getWeight(), UnitAttr(),
                              UnitAttr());
  dxs[0] = reshape(b, loc, dx, xType.getShape());
  dxs[1] = MatmulOp::create(b, loc, dy, x, b.getUnitAttr(), UnitAttr());
  if (op.getBias())
    dxs[2] = ReduceSumOp::create(b, loc, dy, b.getDenseI64ArrayAttr({0}),
                                 UnitAttr());
  return success();
}

/// c = op(a) @ op(b), op a transpose when its flag is set. Each cotangent is
/// one matmul; the batch dims an operand was broadcast along are summed.
LogicalResult matmulRule(MatmulOp op, OpBuilder &b, Grads dys,
                         OperandGrads dxs) {
  Location loc = op.getLoc();
  Value dc = dys[0], lhs = op.getLhs(), rhs = op.getRhs();
  bool ta = op.getTransposeA(), tb = op.getTransposeB();
  auto flag = [&](bool set) { return set ? b.getUnitAttr() : UnitAttr(); };
  Value da, db;
  if (!ta && !tb) {
    da = MatmulOp::create(b, loc, dc, rhs, flag(false), flag(true));
    db = MatmulOp::create(b, loc, lhs, dc, flag(true), flag(false));
  } else if (ta && !tb) {
    da = MatmulOp::create(b, loc, rhs, dc, flag(false), flag(true));
    db = MatmulOp::create(b, loc, lhs, dc, flag(false), flag(false));
  } else if (!ta && tb) {
    da = MatmulOp::create(b, loc, dc, rhs, flag(false), flag(false));
    db = MatmulOp::create(b, loc, dc, lhs, flag(true), flag(false));
  } else {
    da = MatmulOp::create(b, loc, rhs, dc, flag(true), flag(true));
    db = MatmulOp::create(b, loc, dc, lhs, flag(true), flag(true));
  }
  dxs[0] = sumToShape(b, loc, da, tensorType(lhs));
  dxs[1] = sumToShape(b, loc, db, tensorType(rhs));
  return success();
}

} // namespace

void attachLinearGradients(MLIRContext &context) {
  attachRule<DenseOp, denseRule>(context);
  attachRule<MatmulOp, matmulRule>(context);
}

} // namespace grad
} // namespace ms
