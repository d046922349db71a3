//===- LowerVectors.cpp - Hoist accumulators, contractions to FMAs --------===//

#include "ms/Codegen/CPU/Passes.h"
#include "ms/Codegen/CPU/TransformScript.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace ms {
#define GEN_PASS_DEF_MSLOWERVECTORS
#include "ms/Codegen/CPU/Passes.h.inc"
} // namespace ms

using namespace mlir;

namespace {

// Hoisting first: with the accumulators out of the K loop, each k step is
// one broadcast and one FMA per accumulator register. Canonicalization runs
// in a group of its own: together with the broadcast lowering it loops
// forever on odd vector sizes (vector<1x5xf32>).
constexpr llvm::StringLiteral kScript = R"mlir(
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %funcs = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %hoisted = transform.structured.hoist_redundant_vector_transfers %funcs : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %hoisted {
      transform.apply_patterns.vector.lower_contraction lowering_strategy = "outerproduct"
      transform.apply_patterns.vector.lower_outerproduct
    } : !transform.any_op
    transform.apply_patterns to %hoisted {
      transform.apply_patterns.vector.transfer_permutation_patterns
      transform.apply_patterns.vector.lower_transfer max_transfer_rank = 1
      transform.apply_patterns.vector.lower_shape_cast
      transform.apply_patterns.vector.lower_transpose
      transform.apply_patterns.vector.lower_broadcast
    } : !transform.any_op
    transform.apply_patterns to %hoisted {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.yield
  }
}
)mlir";

struct MSLowerVectorsPass : ms::impl::MSLowerVectorsBase<MSLowerVectorsPass> {
  void runOnOperation() override {
    bool hasVectors = false;
    getOperation()->walk([&](Operation *op) {
      if (isa<vector::VectorDialect>(op->getDialect()))
        hasVectors = true;
    });
    if (!hasVectors)
      return;
    if (failed(ms::applyTransformScript(getOperation(), kScript)))
      return signalPassFailure();
    // vector.fma becomes llvm.intr.fmuladd, which LLVM may split into a
    // multiply and an add; math.fma becomes llvm.intr.fma, always fused, as
    // in the scalar loops of the other modes.
    SmallVector<vector::FMAOp> fmas;
    getOperation()->walk([&](vector::FMAOp op) { fmas.push_back(op); });
    for (vector::FMAOp op : fmas) {
      OpBuilder b(op);
      Value fused = math::FmaOp::create(b, op.getLoc(), op.getLhs(),
                                        op.getRhs(), op.getAcc());
      op.replaceAllUsesWith(fused);
      op.erase();
    }
  }
};

} // namespace
