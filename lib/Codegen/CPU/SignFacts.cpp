//===- SignFacts.cpp - Simplify fused float code by known signs -----------===//
//
// A fused kernel joins ops whose sign handling was written for any input:
// tanh copies its operand's sign, maximum orders signed zeros, and so on.
// Across the ops it fused, some of that is known to be dead: the maximum of
// |a| and y has a clear sign bit unless it is NaN, so the tanh it feeds
// needs no sign handling. Every rewrite here gives the same bits as the
// code it replaces, for every input, NaN payloads included (see each one).
//
//===----------------------------------------------------------------------===//

#include "ms/Codegen/CPU/SignFacts.h"
#include "ms/Codegen/CPU/VectorizationUtils.h"
#include "ms/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

namespace ms {
#define GEN_PASS_DEF_MSSIGNFACTS
#include "ms/Codegen/CPU/Passes.h.inc"
} // namespace ms

using namespace mlir;

namespace {

// How far back through defining ops a fact is looked for: a fused chain's
// facts come from a few ops back (gelu's tanh form reads |a| through seven
// ops). Results are memoized, so the walk stays linear.
constexpr unsigned kMaxDepth = 12;

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

/// Every value of `v`, NaN included, has a clear sign bit: |y|, a constant
/// of such values, or a select between two such values. (Not min and max:
/// LLVM does not promise which NaN they return for two NaN operands.)
bool hasClearSignBit(Value v, unsigned depth = kMaxDepth) {
  if (isConstantWithClearSignBits(v))
    return true;
  Operation *def = v.getDefiningOp();
  if (!def || depth == 0)
    return false;
  if (isa<math::AbsFOp>(def))
    return true;
  if (auto select = dyn_cast<arith::SelectOp>(def))
    return hasClearSignBit(select.getTrueValue(), depth - 1) &&
           hasClearSignBit(select.getFalseValue(), depth - 1);
  return false;
}

/// Which values have a clear sign bit unless they are NaN: +0, positive,
/// or NaN, never -0 or negative. Memoized over one pass run.
class SignClearUnlessNaN {
public:
  bool operator()(Value v, unsigned depth = kMaxDepth) {
    auto it = known.find(v);
    if (it != known.end())
      return it->second;
    bool result = compute(v, depth);
    // A walk cut short by the depth bound only under-approximates.
    known[v] = result;
    return result;
  }

private:
  bool compute(Value v, unsigned depth) {
    if (hasClearSignBit(v, depth))
      return true;
    Operation *def = v.getDefiningOp();
    if (!def || depth == 0)
      return false;
    auto operand = [&](unsigned i) {
      return (*this)(def->getOperand(i), depth - 1);
    };
    // maximum(+0, -0) is +0: one such operand is enough.
    if (isa<arith::MaximumFOp>(def))
      return operand(0) || operand(1);
    // Sums, products and quotients of such values are such values (+0 + +0
    // is +0, +0 * x is +0 or NaN); min and max return one of their operands
    // or NaN.
    if (isa<arith::AddFOp, arith::MulFOp, arith::DivFOp, arith::MinimumFOp,
            arith::MinNumFOp, arith::MaxNumFOp>(def))
      return operand(0) && operand(1);
    if (auto select = dyn_cast<arith::SelectOp>(def))
      return (*this)(select.getTrueValue(), depth - 1) &&
             (*this)(select.getFalseValue(), depth - 1);
    // tanh and erf keep the sign of their operand; exp is never negative
    // and exp(-inf) is +0.
    if (isa<math::TanhOp, math::ErfOp>(def))
      return operand(0);
    return isa<math::ExpOp>(def);
  }

  llvm::DenseMap<Value, bool> known;
};

/// maximum(a, y) for `a` with a clear sign bit, as `isnan(y) ? y : (y > a
/// ? y : a)`. That is the x86 backend's own expansion of a vector
/// llvm.maximum once a's sign is known (it orders the operands by the
/// first one's sign bit, takes MAXPS, then picks the second operand where
/// it is NaN), so the bits match every other mode's maximum, NaN payloads
/// included; the sign-bit test and its two blends go. Only where that is
/// the backend's expansion (see hostExpandsMaximumWithMaxps).
void maximumOfClearSign(arith::MaximumFOp max) {
  Value a = max.getLhs(), y = max.getRhs();
  if (!isa<VectorType>(max.getType()) || !hasClearSignBit(a))
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
  using MSSignFactsBase::MSSignFactsBase;

  void runOnOperation() override {
    Operation *root = getOperation();
    // Marked before the maximums are rewritten: the selects that replace
    // them no longer show that their result's sign bit is clear.
    SignClearUnlessNaN signClear;
    root->walk([&](Operation *op) {
      if (isa<math::TanhOp, math::ErfOp>(op) &&
          ms::isF32OrF32Vector(op->getResult(0).getType()) &&
          signClear(op->getOperand(0)))
        op->setAttr(ms::kSignClearOperandAttr,
                    UnitAttr::get(op->getContext()));
    });
    if (!rewriteMaximum)
      return;
    SmallVector<arith::MaximumFOp> maxOps;
    root->walk([&](arith::MaximumFOp op) {
      if (ms::isF32OrF32Vector(op.getType()))
        maxOps.push_back(op);
    });
    for (arith::MaximumFOp max : maxOps)
      maximumOfClearSign(max);
  }
};

} // namespace

bool ms::hostExpandsMaximumWithMaxps() {
  // AVX10.2 has a maximum instruction of its own (VMINMAXPS), which picks
  // NaNs its own way; other targets have theirs.
  static const bool maxps = [] {
    if (!llvm::Triple(llvm::sys::getProcessTriple()).isX86())
      return false;
    for (const auto &feature : llvm::sys::getHostCPUFeatures())
      if (feature.getKey().starts_with("avx10.2") && feature.getValue())
        return false;
    return true;
  }();
  return maxps;
}
