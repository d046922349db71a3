//===- TransposeMatmulOperands.cpp - Transposed matmuls as plain ones -----===//

#include "ms/Codegen/CPU/MatrixTransposes.h"
#include "ms/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

namespace ms {
#define GEN_PASS_DEF_MSTRANSPOSEMATMULOPERANDS
#include "ms/Codegen/CPU/Passes.h.inc"
} // namespace ms

using namespace mlir;
using ms::emptyTransposeOf;
using ms::transposeOf;

namespace {

/// The transposed accumulator: a fill keeps being a fill, anything else is
/// transposed.
Value transposedInit(OpBuilder &b, Location loc, Value init) {
  if (auto fill = init.getDefiningOp<linalg::FillOp>())
    return linalg::FillOp::create(b, loc, fill.getInputs(),
                                  ValueRange{emptyTransposeOf(b, loc, init)})
        .getResult(0);
  return transposeOf(b, loc, init);
}

struct MSTransposeMatmulOperandsPass
    : ms::impl::MSTransposeMatmulOperandsBase<MSTransposeMatmulOperandsPass> {
  void runOnOperation() override {
    SmallVector<linalg::MatmulOp> transposedB, transposedA;
    getOperation()->walk([&](linalg::MatmulOp op) {
      if (!op.hasPureTensorSemantics())
        return;
      if (linalg::MatmulTransposeBOp::classof(op))
        transposedB.push_back(op);
      else if (linalg::MatmulTransposeAOp::classof(op))
        transposedA.push_back(op);
    });
    for (linalg::MatmulOp op : transposedB)
      rewriteTransposedB(op);
    for (linalg::MatmulOp op : transposedA)
      rewriteTransposedA(op);
  }

  /// x @ w^T as (w @ x^T)^T.
  static void rewriteTransposedB(linalg::MatmulOp op) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    Value x = op.getDpsInputs()[0], w = op.getDpsInputs()[1];
    Value init = op.getDpsInits()[0];
    Value xT = transposeOf(b, loc, x);
    Value cTInit = transposedInit(b, loc, init);
    Value cT = linalg::MatmulOp::create(b, loc, TypeRange{cTInit.getType()},
                                        ValueRange{w, xT}, ValueRange{cTInit})
                   .getResult(0);
    op->getResult(0).replaceAllUsesWith(transposeOf(b, loc, cT));
    op->erase();
  }

  /// a^T @ b as (a^T) @ b, a^T materialized: a gradient's dw = dy^T @ x
  /// then runs on the row-major register tiles like any matmul.
  static void rewriteTransposedA(linalg::MatmulOp op) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    Value aT = transposeOf(b, loc, op.getDpsInputs()[0]);
    Value init = op.getDpsInits()[0];
    Value c = linalg::MatmulOp::create(b, loc, TypeRange{init.getType()},
                                       ValueRange{aT, op.getDpsInputs()[1]},
                                       ValueRange{init})
                  .getResult(0);
    op->getResult(0).replaceAllUsesWith(c);
    op->erase();
  }
};

} // namespace
