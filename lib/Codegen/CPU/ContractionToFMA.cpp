//===- ContractionToFMA.cpp - Accumulate contractions with math.fma -------===//

#include "ms/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"

namespace ms {
#define GEN_PASS_DEF_MSCONTRACTIONTOFMA
#include "ms/Codegen/CPU/Passes.h.inc"
} // namespace ms

using namespace mlir;

namespace {

/// Rewrites `yield (acc + a * b)` in a reduction generic into
/// `yield fma(a, b, acc)`, where acc is the output block argument.
void fuseMultiplyAdd(linalg::GenericOp op) {
  if (op.getNumReductionLoops() == 0 || op.getNumDpsInits() != 1)
    return;
  Block *body = op.getBody();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  auto add = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add)
    return;
  Value acc = body->getArguments().back();
  Value other = add.getLhs() == acc   ? add.getRhs()
                : add.getRhs() == acc ? add.getLhs()
                                      : Value();
  auto mul = other ? other.getDefiningOp<arith::MulFOp>() : nullptr;
  if (!mul || !mul->hasOneUse())
    return;
  OpBuilder b(add);
  Value fma = math::FmaOp::create(b, add.getLoc(), mul.getLhs(), mul.getRhs(),
                                  acc);
  add.replaceAllUsesWith(fma);
  add.erase();
  mul.erase();
}

struct MSContractionToFMAPass
    : ms::impl::MSContractionToFMABase<MSContractionToFMAPass> {
  void runOnOperation() override {
    getOperation()->walk(fuseMultiplyAdd);
  }
};

} // namespace
