//===- Random.cpp - Training-mode dropout: Philox4x32-10 masks ------------===//
//
// The mask of element i (row-major index) is a pure function of
// (seed, offset, i): Philox4x32-10 with key = seed and counter =
// (i low, i high, offset low, offset high); the element is kept when the
// first output word is >= p * 2^32. It is computed inside the elementwise
// body with arith ops only, so every mode, jit_level, tiling and thread
// count draws the same mask.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

using namespace mlir;
using namespace ms;
using namespace ms::lowering;

namespace {

/// Philox4x32 constants (Salmon et al., "Parallel random numbers: as easy
/// as 1, 2, 3", SC'11).
constexpr uint32_t kMul0 = 0xD2511F53, kMul1 = 0xCD9E8D57;
constexpr uint32_t kWeyl0 = 0x9E3779B9, kWeyl1 = 0xBB67AE85;
constexpr int kRounds = 10;

Value u32(OpBuilder &b, Location loc, uint32_t value) {
  return arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(b.getI32Type(), static_cast<int64_t>(value)));
}

/// The low and high 32-bit halves of an i64.
std::pair<Value, Value> split(OpBuilder &b, Location loc, Value v) {
  Value lo = arith::TruncIOp::create(b, loc, b.getI32Type(), v);
  Value shifted = arith::ShRUIOp::create(
      b, loc, v,
      arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(32)));
  Value hi = arith::TruncIOp::create(b, loc, b.getI32Type(), shifted);
  return {lo, hi};
}

/// The first word of Philox4x32-10(counter, key).
Value philoxFirstWord(OpBuilder &b, Location loc, std::array<Value, 4> c,
                      std::array<Value, 2> k) {
  Value m0 = u32(b, loc, kMul0), m1 = u32(b, loc, kMul1);
  Value w0 = u32(b, loc, kWeyl0), w1 = u32(b, loc, kWeyl1);
  for (int round = 0; round < kRounds; ++round) {
    auto p0 = arith::MulUIExtendedOp::create(b, loc, m0, c[0]);
    auto p1 = arith::MulUIExtendedOp::create(b, loc, m1, c[2]);
    Value n0 = arith::XOrIOp::create(
        b, loc, arith::XOrIOp::create(b, loc, p1.getHigh(), c[1]), k[0]);
    Value n2 = arith::XOrIOp::create(
        b, loc, arith::XOrIOp::create(b, loc, p0.getHigh(), c[3]), k[1]);
    c = {n0, p1.getLow(), n2, p0.getLow()};
    if (round + 1 < kRounds) {
      k[0] = arith::AddIOp::create(b, loc, k[0], w0);
      k[1] = arith::AddIOp::create(b, loc, k[1], w1);
    }
  }
  return c[0];
}

struct TrainingDropoutPattern : OpConversionPattern<DropoutOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DropoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getTraining() || !adaptor.getRngState())
      return failure();
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Value state = adaptor.getRngState();
    auto element = [&](int64_t i) {
      Value index = arith::ConstantIndexOp::create(rewriter, loc, i);
      return tensor::ExtractOp::create(rewriter, loc, state, ValueRange{index})
          .getResult();
    };
    auto [seedLo, seedHi] = split(rewriter, loc, element(0));
    auto [offsetLo, offsetHi] = split(rewriter, loc, element(1));
    double p = op.getP().convertToDouble();
    // Kept when the uniform 32-bit word is >= p * 2^32 (probability 1 - p).
    auto threshold = static_cast<uint32_t>(
        std::min(std::ldexp(p, 32), 4294967295.0));
    float scale = static_cast<float>(1.0 / (1.0 - p));
    ArrayRef<int64_t> shape = type.getShape();
    Value result = elementwise(
        rewriter, loc, type, ValueRange{adaptor.getInput()},
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          // Row-major linear index of this element, in i64.
          Value linear = arith::ConstantOp::create(b, nloc, b.getI64IntegerAttr(0));
          for (auto [d, size] : llvm::enumerate(shape)) {
            Value i = arith::IndexCastOp::create(
                b, nloc, b.getI64Type(), linalg::IndexOp::create(b, nloc, d));
            linear = arith::AddIOp::create(
                b, nloc,
                arith::MulIOp::create(
                    b, nloc, linear,
                    arith::ConstantOp::create(b, nloc, b.getI64IntegerAttr(size))),
                i);
          }
          auto [lo, hi] = split(b, nloc, linear);
          Value word = philoxFirstWord(b, nloc, {lo, hi, offsetLo, offsetHi},
                                       {seedLo, seedHi});
          Value keep = arith::CmpIOp::create(b, nloc, arith::CmpIPredicate::uge,
                                             word, u32(b, nloc, threshold));
          Value scaled = arith::MulFOp::create(
              b, nloc, args[0], floatConst(b, nloc, args[0].getType(), scale));
          return arith::SelectOp::create(
                     b, nloc, keep, scaled,
                     floatConst(b, nloc, args[0].getType(), 0.0))
              .getResult();
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void ms::populateRandomToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<TrainingDropoutPattern>(patterns.getContext());
}
