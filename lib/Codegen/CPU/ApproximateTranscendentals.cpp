//===- ApproximateTranscendentals.cpp - Polynomial exp/log/tanh/erf -------===//
//
// f32 exp, log, tanh and erf (scalars or vectors) become range reductions,
// polynomials and selects built only from correctly rounded operations, so
// every lane gets the same bits whether the code is scalar, an MLIR vector,
// or a loop LLVM vectorizes (DESIGN §7: one implementation in every mode).
//
// The coefficients are near-minimax fits (Lawson's weighted least squares)
// rounded to f32; scripts/fit_transcendentals.py derives them and
// scripts/transcendentals_ulp.py measures the error of the compiled code.
//
//===----------------------------------------------------------------------===//

#include "ms/Codegen/CPU/Passes.h"
#include "ms/Codegen/CPU/SignFacts.h"
#include "ms/Codegen/CPU/VectorizationUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <limits>
#include <utility>

namespace ms {
#define GEN_PASS_DEF_MSAPPROXIMATETRANSCENDENTALS
#include "ms/Codegen/CPU/Passes.h.inc"
} // namespace ms

using namespace mlir;

namespace {

constexpr float kLog2e = static_cast<float>(M_LOG2E);

// exp(r) on [-ln2/2, ln2/2], degree 6: 1 + r + r^2 (c2 + c3 r + ...).
constexpr float kExpCoeffs[] = {1.0f,
                                1.0f,
                                0.4999999403953552f,
                                0.1666652113199234f,
                                0.04166838899254799f,
                                0.008368715643882751f,
                                0.0013814599951729178f};
// (log1p(f) - f + f^2/2) / f^3 on [sqrt(1/2) - 1, sqrt(2) - 1].
constexpr float kLogCoeffs[] = {
    0.3333333134651184f,   -0.250008225440979f,   0.20001226663589478f,
    -0.16623356938362122f, 0.14201761782169342f,  -0.131601944565773f,
    0.12761549651622772f,  -0.07634429633617401f};
// (tanh(x) - x) / x^3 as a polynomial in x^2, |x| < kTanhCut.
constexpr float kTanhCut = 0.875f;
constexpr float kTanhCoeffs[] = {
    -0.33333325386047363f, 0.13333065807819366f,  -0.053937170654535294f,
    0.021696044132113457f, -0.008331943303346634f, 0.0026510111056268215f,
    -0.00048241837066598237f};
// erf(x) / x - 1 as a polynomial in x^2, |x| < kErfCut.
constexpr float kErfCut = 1.125f;
constexpr float kErfSmallCoeffs[] = {
    0.12837916612625122f,   -0.37612631916999817f,  0.1128370612859726f,
    -0.026862017810344696f, 0.005213546101003885f,  -0.0008396828197874129f,
    0.0001074355750461109f, -8.397018973482773e-06f};
// log(erfc(x)) as a polynomial in x - 2, kErfCut <= x <= kErfOne.
constexpr float kErfOne = 3.92f; // erf(x) rounds to 1 from here on
constexpr float kErfLargeCoeffs[] = {
    -5.364941120147705f,    -4.4181599617004395f,  -0.9237546920776367f,
    -0.016487672924995422f, 0.0035586084704846144f, -0.000669047876726836f,
    0.00021288375137373805f, -3.882376404362731e-05f, -5.007622530683875e-05f,
    -1.2857080037065316e-05f};

/// Builds f32 arithmetic on a scalar or vector type (and its i32 twin).
/// Every helper creates ops, so no call below has more than one argument
/// that does: C++ leaves the order of argument evaluation to the compiler
/// (GCC and clang differ), and the IR must not depend on which built ms.
class Emitter {
public:
  Emitter(OpBuilder &b, Location loc, Type type) : b(b), loc(loc), ft(type) {
    Type i32 = b.getI32Type();
    if (auto vt = dyn_cast<VectorType>(type))
      it = vt.clone(i32);
    else
      it = i32;
  }

  Value f(float v) {
    auto attr = b.getF32FloatAttr(v);
    if (auto vt = dyn_cast<VectorType>(ft))
      return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(vt, attr));
    return arith::ConstantOp::create(b, loc, attr);
  }
  Value i(int32_t v) {
    auto attr = b.getI32IntegerAttr(v);
    if (auto vt = dyn_cast<VectorType>(it))
      return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(vt, attr));
    return arith::ConstantOp::create(b, loc, attr);
  }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }
  Value neg(Value x) { return arith::NegFOp::create(b, loc, x); }
  Value fma(Value x, Value y, Value z) {
    return math::FmaOp::create(b, loc, x, y, z);
  }
  Value abs(Value x) { return math::AbsFOp::create(b, loc, x); }
  Value copysign(Value mag, Value sign) {
    return math::CopySignOp::create(b, loc, mag, sign);
  }
  /// IEEE minNum/maxNum: a NaN operand yields the other one.
  Value minnum(Value x, Value y) { return arith::MinNumFOp::create(b, loc, x, y); }
  Value maxnum(Value x, Value y) { return arith::MaxNumFOp::create(b, loc, x, y); }
  Value cmp(arith::CmpFPredicate p, Value x, Value y) {
    return arith::CmpFOp::create(b, loc, p, x, y);
  }
  Value isNaN(Value x) { return cmp(arith::CmpFPredicate::UNO, x, x); }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  Value toBits(Value x) { return arith::BitcastOp::create(b, loc, it, x); }
  Value fromBits(Value x) { return arith::BitcastOp::create(b, loc, ft, x); }
  Value toInt(Value x) { return arith::FPToSIOp::create(b, loc, it, x); }
  Value toFloat(Value x) { return arith::SIToFPOp::create(b, loc, ft, x); }
  Value iadd(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value isub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value iand(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value ior(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value shl(Value x, Value y) { return arith::ShLIOp::create(b, loc, x, y); }
  Value ashr(Value x, Value y) { return arith::ShRSIOp::create(b, loc, x, y); }

  /// c[0] + x (c[1] + x (c[2] + ...)), one fma per step.
  template <size_t N> Value horner(const float (&c)[N], Value x) {
    Value p = f(c[N - 1]);
    for (size_t k = N - 1; k-- > 0;)
      p = fma(p, x, f(c[k]));
    return p;
  }

  /// 2^k for integer k in [-126, 127], as a float.
  Value pow2(Value k) {
    Value biased = iadd(k, i(127));
    return fromBits(shl(biased, i(23)));
  }

  /// exp(x) = 2^k exp(r), x = k ln2 + r, |r| <= ln2/2. `nonPositive`:
  /// x is -|y| (sigmoid's), so only the lower clamp can change it.
  Value exp(Value x, bool nonPositive) {
    // exp(89) overflows and exp(-104) rounds to 0; NaN clamps to a number
    // (the result is replaced below), so the conversion to int is defined.
    Value below = nonPositive ? x : minnum(x, f(89.0f));
    Value xc = maxnum(below, f(-104.0f));
    auto [k, p] = reduceExp(xc, mul(xc, f(kLog2e)));
    Value res = scaleTwice(p, k);
    return select(isNaN(x), x, res);
  }

  /// Splits exp(x) = 2^k p for x in [-104, 89], never NaN: returns k (as
  /// i32) and p = exp(x - k ln2). `xLog2e` is x * log2(e) as one rounded
  /// product. Callers that know their range skip exp's clamps and may form
  /// that product from a value x is an exact multiple of.
  std::pair<Value, Value> reduceExp(Value x, Value xLog2e) {
    // Round to nearest even by the 1.5 * 2^23 shift (|k| < 2^22).
    Value magic = f(12582912.0f);
    Value kf = sub(add(xLog2e, magic), magic);
    // ln2 = kLn2Hi + kLn2Lo; the first fma is exact (Cody-Waite by fma).
    const float ln2Hi = static_cast<float>(M_LN2);
    const float ln2Lo = static_cast<float>(M_LN2 - static_cast<double>(ln2Hi));
    Value nk = neg(kf);
    Value r = fma(nk, f(ln2Hi), x);
    r = fma(nk, f(ln2Lo), r);
    Value p = horner(kExpCoeffs, r);
    return {toInt(kf), p};
  }

  /// p 2^k for k in [-150, 129]: scaled by 2^(k/2) twice, so that 2^k never
  /// needs to be a float itself; the first product is exact and the second
  /// rounds once, also into the subnormals.
  Value scaleTwice(Value p, Value k) {
    Value k1 = ashr(k, i(1));
    Value k2 = isub(k, k1);
    Value scaled = mul(p, pow2(k1));
    return mul(scaled, pow2(k2));
  }

  /// p 2^k in one product, for k in [-126, 127] with p 2^k normal: then
  /// both products of scaleTwice are exact, and so is this one.
  Value scaleOnce(Value p, Value k) { return mul(p, pow2(k)); }

  /// log(x) = e ln2 + log1p(f), x = 2^e (1 + f), 1 + f in [sqrt(1/2), sqrt(2)).
  Value log(Value x) {
    using P = arith::CmpFPredicate;
    // Denormals: scale into the normal range first.
    Value denormal = cmp(P::OLT, x, f(0x1p-126f));
    Value xs = select(denormal, mul(x, f(0x1p23f)), x);
    Value bits = toBits(xs);
    Value biased = ashr(bits, i(23));
    Value denormalBias = i(127 + 23);
    Value bias = select(denormal, denormalBias, i(127));
    Value e = isub(biased, bias);
    Value mantissa = iand(bits, i(0x7fffff));
    Value m = fromBits(ior(mantissa, i(0x3f800000)));
    Value high = cmp(P::OGT, m, f(static_cast<float>(M_SQRT2)));
    m = select(high, mul(m, f(0.5f)), m);
    e = select(high, iadd(e, i(1)), e);
    Value fr = sub(m, f(1.0f)); // exact
    Value ef = toFloat(e);
    // log1p(f) = f + f^2 (-1/2 + f R(f)).
    Value fr2 = mul(fr, fr);
    Value r = horner(kLogCoeffs, fr);
    Value y = mul(fr2, fma(fr, r, f(-0.5f)));
    // ln2 split so that e * ln2Hi is exact (|e| < 2^8, 9-bit ln2Hi).
    const float ln2Hi = 0.693359375f;
    const float ln2Lo = static_cast<float>(M_LN2 - 0.693359375);
    Value eHigh = mul(ef, f(ln2Hi));
    Value res = add(eHigh, add(fr, fma(ef, f(ln2Lo), y)));
    const float inf = std::numeric_limits<float>::infinity();
    res = select(cmp(P::OEQ, x, f(inf)), x, res);
    Value negative = cmp(P::OLT, x, f(0.0f));
    res = select(negative, f(std::numeric_limits<float>::quiet_NaN()), res);
    Value zero = cmp(P::OEQ, x, f(0.0f));
    res = select(zero, f(-inf), res);
    return select(isNaN(x), x, res);
  }

  /// tanh(|x|): an odd polynomial below kTanhCut, 1 - 2 / (exp(2|x|) + 1)
  /// above; the sign of x (±0 included) is copied at the end, unless x is
  /// `signClear` (its sign bit is clear unless it is NaN; SignFacts.h).
  Value tanh(Value x, bool signClear) {
    using P = arith::CmpFPredicate;
    Value a = signClear ? x : abs(x);
    Value s = mul(x, x);
    Value small = fma(a, mul(s, horner(kTanhCoeffs, s)), a);
    // tanh(10) rounds to 1; NaN clamps to 10 and is replaced below.
    Value ac = minnum(a, f(10.0f));
    // 2|x| is in [0, 20], inside exp's range. 2 ac is exact and so is
    // 2 log2(e) as a float: ac * (2 log2 e) rounds the same product as
    // (2 ac) * log2 e, one addition earlier on tanh's critical path.
    Value twice = add(ac, ac);
    Value twiceLog2e = mul(ac, f(2.0f * kLog2e));
    // k = round(2 ac log2 e) is in [0, 29].
    auto [k, p] = reduceExp(twice, twiceLog2e);
    Value e = scaleOnce(p, k);
    Value ePlusOne = add(e, f(1.0f));
    Value two = f(2.0f);
    Value quotient = div(two, ePlusOne);
    Value one = f(1.0f);
    Value big = sub(one, quotient);
    Value res = select(cmp(P::OLT, a, f(kTanhCut)), small, big);
    return signAndNaN(res, x, signClear);
  }

  /// erf(|x|): a polynomial below kErfCut, 1 - exp(log erfc) above, 1 from
  /// kErfOne; the sign of x is copied at the end, as for tanh.
  Value erf(Value x, bool signClear) {
    using P = arith::CmpFPredicate;
    Value a = signClear ? x : abs(x);
    Value small = fma(a, horner(kErfSmallCoeffs, mul(x, x)), a);
    Value ac = minnum(a, f(kErfOne));
    Value logErfc = horner(kErfLargeCoeffs, sub(ac, f(2.0f)));
    // The fit of log erfc on [0, kErfOne] stays in [-17.4, 0), inside
    // exp's range (exhaustively checked: the same bits as with clamps).
    // k is in [-25, 0] and erfc is at least 2^-26.
    auto [k, p] = reduceExp(logErfc, mul(logErfc, f(kLog2e)));
    Value erfc = scaleOnce(p, k);
    Value big = sub(f(1.0f), erfc);
    Value saturated = cmp(P::OGE, a, f(kErfOne));
    big = select(saturated, f(1.0f), big);
    Value res = select(cmp(P::OLT, a, f(kErfCut)), small, big);
    return signAndNaN(res, x, signClear);
  }

  /// An odd function's value at x from its value `res` at |x| (+0 or
  /// positive): x's sign copied (not needed for a `signClear` x), and x
  /// itself where it is NaN.
  Value signAndNaN(Value res, Value x, bool signClear) {
    Value signedRes = signClear ? res : copysign(res, x);
    return select(isNaN(x), x, signedRes);
  }

private:
  OpBuilder &b;
  Location loc;
  Type ft, it;
};

/// Whether `x` is -|y|: at most -0, or NaN.
bool isNegatedAbs(Value x) {
  auto neg = x.getDefiningOp<arith::NegFOp>();
  return neg && neg.getOperand().getDefiningOp<math::AbsFOp>();
}

/// Marked by ms-sign-facts: the operand's sign bit is clear unless NaN.
bool signClear(Operation *op) {
  return op->hasAttr(ms::kSignClearOperandAttr);
}

struct MSApproximateTranscendentalsPass
    : ms::impl::MSApproximateTranscendentalsBase<
          MSApproximateTranscendentalsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa<math::ExpOp, math::LogOp, math::TanhOp, math::ErfOp>(op) &&
          ms::isF32OrF32Vector(op->getResult(0).getType()))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      OpBuilder b(op);
      Emitter em(b, op->getLoc(), op->getResult(0).getType());
      Value x = op->getOperand(0);
      Value res = llvm::TypeSwitch<Operation *, Value>(op)
                      .Case([&](math::ExpOp) {
                        return em.exp(x, isNegatedAbs(x));
                      })
                      .Case([&](math::LogOp) { return em.log(x); })
                      .Case([&](math::TanhOp) {
                        return em.tanh(x, signClear(op));
                      })
                      .Case([&](math::ErfOp) {
                        return em.erf(x, signClear(op));
                      });
      op->getResult(0).replaceAllUsesWith(res);
      op->erase();
    }
  }
};

} // namespace
