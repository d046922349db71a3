//===- VectorizationUtils.cpp - Shared by the hand-written vectorizers ----===//

#include "ms/Codegen/CPU/VectorizationUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace ms {

std::optional<SmallVector<int64_t>> linearCoefficients(AffineExpr expr,
                                                       unsigned numDims) {
  bool linear = true;
  expr.walk([&](AffineExpr e) {
    if (isa<AffineSymbolExpr>(e) || e.getKind() == AffineExprKind::Mod ||
        e.getKind() == AffineExprKind::FloorDiv ||
        e.getKind() == AffineExprKind::CeilDiv)
      linear = false;
  });
  if (!linear || !expr.isPureAffine())
    return std::nullopt;
  // The value at unit points (and at zero) gives each coefficient.
  MLIRContext *ctx = expr.getContext();
  auto valueAt = [&](std::optional<unsigned> unitDim) -> int64_t {
    SmallVector<AffineExpr> point;
    for (unsigned i = 0; i < numDims; ++i)
      point.push_back(getAffineConstantExpr(unitDim == i ? 1 : 0, ctx));
    return cast<AffineConstantExpr>(expr.replaceDimsAndSymbols(point, {}))
        .getValue();
  };
  if (valueAt(std::nullopt) != 0)
    return std::nullopt;
  SmallVector<int64_t> coefficients;
  for (unsigned i = 0; i < numDims; ++i)
    coefficients.push_back(valueAt(i));
  return coefficients;
}

Value filledScalar(Operation *op) {
  if (auto fill = dyn_cast_or_null<linalg::FillOp>(op))
    return fill.value();
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInputs() != 0 ||
      generic.getNumDpsInits() != 1 ||
      !generic.getBody()->without_terminator().empty())
    return nullptr;
  Value yielded = generic.getBody()->getTerminator()->getOperand(0);
  if (yielded.getParentBlock() == generic.getBody())
    return nullptr;
  return yielded;
}

namespace {
/// Null when every lane is active; the transfer is then simply in bounds.
Value prefixMask(OpBuilder &b, Location loc, int64_t lanes, int64_t active) {
  if (active >= lanes)
    return nullptr;
  return vector::ConstantMaskOp::create(
      b, loc, VectorType::get({lanes}, b.getI1Type()),
      ArrayRef<int64_t>{active});
}
} // namespace

Value readLanes(OpBuilder &b, Location loc, VectorType type, Value source,
                ValueRange indices, Value padding, int64_t active) {
  unsigned rank = cast<ShapedType>(source.getType()).getRank();
  AffineMap lastDim = AffineMap::getMinorIdentityMap(rank, 1, b.getContext());
  return vector::TransferReadOp::create(
      b, loc, type, source, indices, lastDim, padding,
      prefixMask(b, loc, type.getNumElements(), active),
      b.getBoolArrayAttr({true}));
}

Value writeLanes(OpBuilder &b, Location loc, Value vector, Value dest,
                 ValueRange indices, int64_t active) {
  auto type = cast<VectorType>(vector.getType());
  unsigned rank = cast<ShapedType>(dest.getType()).getRank();
  AffineMap lastDim = AffineMap::getMinorIdentityMap(rank, 1, b.getContext());
  return vector::TransferWriteOp::create(
             b, loc, dest.getType(), vector, dest, indices, lastDim,
             prefixMask(b, loc, type.getNumElements(), active),
             b.getBoolArrayAttr({true}))
      ->getResult(0);
}

SmallVector<Value> transposeRows(OpBuilder &b, Location loc,
                                 ArrayRef<Value> rows) {
  // Swap the off-diagonal b x b blocks of every 2b x 2b block, for
  // b = n/2, ..., 1: rows i and i+b (i without bit b) exchange the lanes
  // with bit b set in row i for those without it in row i+b.
  SmallVector<Value> m(rows);
  int64_t n = m.size();
  for (int64_t block = n / 2; block >= 1; block /= 2)
    for (int64_t i = 0; i < n; ++i) {
      if (i & block)
        continue;
      SmallVector<int64_t> low, high;
      for (int64_t j = 0; j < n; ++j) {
        // Lanes of the second operand are numbered from n.
        low.push_back((j & block) ? n + j - block : j);
        high.push_back((j & block) ? n + j : j + block);
      }
      Value top = vector::ShuffleOp::create(b, loc, m[i], m[i + block], low);
      Value bottom =
          vector::ShuffleOp::create(b, loc, m[i], m[i + block], high);
      m[i] = top;
      m[i + block] = bottom;
    }
  return m;
}

bool clampMergesZeros(Value c, bool isMax) {
  FloatAttr constant;
  if (!matchPattern(c, m_Constant(&constant)))
    return false;
  APFloat value = constant.getValue();
  if (value.isNaN())
    return false;
  return isMax ? (value.isPosZero() || (!value.isZero() && !value.isNegative()))
               : (value.isNegZero() || (!value.isZero() && value.isNegative()));
}

Value extremeIgnoringZeroSign(OpBuilder &b, Location loc, Value x, Value y,
                              bool isMax) {
  auto noSignedZeros =
      arith::FastMathFlagsAttr::get(b.getContext(), arith::FastMathFlags::nsz);
  if (isMax)
    return arith::MaximumFOp::create(b, loc, x, y, noSignedZeros);
  return arith::MinimumFOp::create(b, loc, x, y, noSignedZeros);
}

void recordSchedule(Operation *op, DictionaryAttr schedule) {
  auto func = isa<FunctionOpInterface>(op)
                  ? op
                  : op->getParentOfType<FunctionOpInterface>().getOperation();
  if (!func)
    return;
  SmallVector<Attribute> schedules;
  if (auto recorded = func->getAttrOfType<ArrayAttr>(kSchedulesAttr))
    llvm::append_range(schedules, recorded.getValue());
  schedules.push_back(schedule);
  func->setAttr(kSchedulesAttr, ArrayAttr::get(op->getContext(), schedules));
}

Value sliceColumns(OpBuilder &b, Location loc, Value matrix, int64_t col,
                   int64_t width) {
  int64_t rows = cast<RankedTensorType>(matrix.getType()).getDimSize(0);
  return tensor::ExtractSliceOp::create(
      b, loc, matrix, {b.getIndexAttr(0), b.getIndexAttr(col)},
      {b.getIndexAttr(rows), b.getIndexAttr(width)},
      {b.getIndexAttr(1), b.getIndexAttr(1)});
}

bool isF32OrF32Vector(Type t) {
  if (auto vt = dyn_cast<VectorType>(t))
    return vt.getElementType().isF32() && !vt.isScalable();
  return t.isF32();
}

} // namespace ms
