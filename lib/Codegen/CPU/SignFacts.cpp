//===- SignFacts.cpp - Simplify fused float code by known signs -----------===//
//
// A fused kernel joins ops whose sign handling was written for any input:
// tanh copies its operand's sign, maximum orders signed zeros, and so on.
// Across the ops it fused, some of that is known to be dead: the maximum of
// |a| and y is never negative unless NaN, so the tanh it feeds needs no
// sign handling. Every rewrite here gives the same bits as the code it
// replaces, for every input, NaN payloads included (see each one).
//
//===----------------------------------------------------------------------===//

#include "ms/Codegen/CPU/SignFacts.h"
#include "ms/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"

namespace ms {
#define GEN_PASS_DEF_MSSIGNFACTS
#include "ms/Codegen/CPU/Passes.h.inc"
} // namespace ms

using namespace mlir;

namespace {

// How far back through defining ops a fact is looked for: a fused chain's
// facts come from a few ops back, and the bound keeps each walk short.
constexpr unsigned kMaxDepth = 6;

bool isF32OrF32Vector(Type t) {
  if (auto vt = dyn_cast<VectorType>(t))
    return vt.getElementType().isF32() && !vt.isScalable();
  return t.isF32();
}

/// A constant whose every element has a clear sign bit.
bool isConstantWithClearSignBits(Value v) {
  Attribute attr;
  if (!matchPattern(v, m_Constant(&attr)))
    return false;
  if (auto f = dyn_cast<FloatAttr>(attr))
    return !f.getValue().isNegative();
  if (auto dense = dyn_cast<DenseFPElementsAttr>(attr))
    return llvm::none_of(dense.getValues<APFloat>(),
                         [](const APFloat &f) { return f.isNegative(); });
  return false;
}

bool clearSignBit(Value v, unsigned depth) {
  if (isConstantWithClearSignBits(v))
    return true;
  Operation *def = v.getDefiningOp();
  if (!def || depth == 0)
    return false;
  if (isa<math::AbsFOp>(def))
    return true;
  // Not min and max: with two NaN operands they may return the default
  // NaN, whose sign bit is set on x86.
  if (auto select = dyn_cast<arith::SelectOp>(def))
    return clearSignBit(select.getTrueValue(), depth - 1) &&
           clearSignBit(select.getFalseValue(), depth - 1);
  return false;
}

bool nonNegativeUnlessNaN(Value v, unsigned depth) {
  if (clearSignBit(v, depth))
    return true;
  Operation *def = v.getDefiningOp();
  if (!def || depth == 0)
    return false;
  auto both = [&] {
    return nonNegativeUnlessNaN(def->getOperand(0), depth - 1) &&
           nonNegativeUnlessNaN(def->getOperand(1), depth - 1);
  };
  // maximum(+0, -0) is +0: at least one such operand is enough.
  if (isa<arith::MaximumFOp>(def))
    return nonNegativeUnlessNaN(def->getOperand(0), depth - 1) ||
           nonNegativeUnlessNaN(def->getOperand(1), depth - 1);
  // +0 + +0, +0 * x and x / y stay +0 or positive for such x and y; min
  // and max return one of their operands (or NaN).
  if (isa<arith::AddFOp, arith::MulFOp, arith::DivFOp, arith::MinimumFOp,
          arith::MinNumFOp, arith::MaxNumFOp>(def))
    return both();
  if (auto select = dyn_cast<arith::SelectOp>(def))
    return nonNegativeUnlessNaN(select.getTrueValue(), depth - 1) &&
           nonNegativeUnlessNaN(select.getFalseValue(), depth - 1);
  if (isa<math::TanhOp, math::ErfOp>(def))
    return nonNegativeUnlessNaN(def->getOperand(0), depth - 1);
  return isa<math::ExpOp>(def);
}

/// |(-u) - y| as |u + y|: the rounding is symmetric, so -u - y is exactly
/// -(u + y), and a NaN operand keeps its payload through the negation.
/// (With two NaN operands either payload may come out, as from any add.)
void dropNegationUnderAbs(math::AbsFOp abs) {
  auto sub = abs.getOperand().getDefiningOp<arith::SubFOp>();
  if (!sub || !sub->hasOneUse())
    return;
  auto neg = sub.getLhs().getDefiningOp<arith::NegFOp>();
  if (!neg)
    return;
  OpBuilder b(sub);
  Value sum = arith::AddFOp::create(b, sub.getLoc(), neg.getOperand(),
                                    sub.getRhs(), sub.getFastmathAttr());
  abs.getOperandMutable().assign(sum);
  sub.erase();
  if (neg->use_empty())
    neg.erase();
}

/// maximum(a, y) for `a` with a clear sign bit, as `isnan(y) ? y : (y > a
/// ? y : a)`. That is the x86 backend's own expansion of llvm.maximum once
/// a's sign is known (it orders the operands by the first one's sign bit,
/// takes MAXPS, then picks the second operand where it is NaN), so the bits
/// match every other mode's maximum, NaN payloads included; the sign-bit
/// test and its two blends go. Vectors only: that is the expansion they
/// get (python/tests/test_sign_facts.py compares PyNative on NaN pairs).
void maximumOfClearSign(arith::MaximumFOp max) {
  Value a = max.getLhs(), y = max.getRhs();
  if (!isa<VectorType>(max.getType()) || !clearSignBit(a, kMaxDepth))
    return;
  OpBuilder b(max);
  Location loc = max.getLoc();
  using P = arith::CmpFPredicate;
  Value greater = arith::CmpFOp::create(b, loc, P::OGT, y, a);
  Value larger = arith::SelectOp::create(b, loc, greater, y, a);
  Value nan = arith::CmpFOp::create(b, loc, P::UNO, y, y);
  Value res = arith::SelectOp::create(b, loc, nan, y, larger);
  max.replaceAllUsesWith(res);
  max.erase();
}

struct MSSignFactsPass : ms::impl::MSSignFactsBase<MSSignFactsPass> {
  void runOnOperation() override {
    Operation *root = getOperation();
    SmallVector<math::AbsFOp> absOps;
    root->walk([&](math::AbsFOp op) { absOps.push_back(op); });
    for (math::AbsFOp abs : absOps)
      dropNegationUnderAbs(abs);
    // Marked before the maximums are rewritten: the selects that replace
    // them no longer show that their result is never negative.
    root->walk([&](Operation *op) {
      if (isa<math::TanhOp, math::ErfOp>(op) &&
          isF32OrF32Vector(op->getResult(0).getType()) &&
          nonNegativeUnlessNaN(op->getOperand(0), kMaxDepth))
        op->setAttr(ms::kNonNegativeOperandAttr,
                    UnitAttr::get(op->getContext()));
    });
    SmallVector<arith::MaximumFOp> maxOps;
    root->walk([&](arith::MaximumFOp op) {
      if (isF32OrF32Vector(op.getType()))
        maxOps.push_back(op);
    });
    for (arith::MaximumFOp max : maxOps)
      maximumOfClearSign(max);
  }
};

} // namespace
