//===- LoweringUtils.cpp - Helpers shared by the ms -> linalg families ----===//
//
// Arithmetic order is fixed here once for every mode and jit_level:
// reductions start from the identity and accumulate in index order.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/TypeUtilities.h"

#include <limits>

using namespace mlir;

namespace ms::lowering {

using utils::IteratorType;

Type storageElementType(Type type) {
  auto integer = dyn_cast<IntegerType>(type);
  if (!integer)
    return type;
  unsigned width = integer.getWidth() == 1 ? 8 : integer.getWidth();
  return IntegerType::get(type.getContext(), width);
}

RankedTensorType storedType(Type type) {
  auto tensor = cast<RankedTensorType>(type);
  return tensor.clone(storageElementType(tensor.getElementType()));
}

bool isUnsignedElement(Type type) {
  return getElementTypeOrSelf(type).isUnsignedInteger();
}

Value signless(OpBuilder &b, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  if (!type.getElementType().isUnsignedInteger())
    return value;
  Type element = b.getIntegerType(type.getElementTypeBitWidth());
  return tensor::BitcastOp::create(b, loc, type.clone(element), value);
}

Value emptyLike(OpBuilder &b, Location loc, RankedTensorType type) {
  return tensor::EmptyOp::create(b, loc, type.getShape(),
                                 type.getElementType());
}

Value copyOf(OpBuilder &b, Location loc, Value value) {
  // Not a linalg.copy: once generalized, canonicalization erases an
  // identity copy on tensors and the write lands in `value` again.
  return bufferization::AllocTensorOp::create(
      b, loc, cast<RankedTensorType>(value.getType()), ValueRange{}, value);
}

Value floatConst(OpBuilder &b, Location loc, Type type, double value) {
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
}

Value scalarConst(OpBuilder &b, Location loc, Type type, double value) {
  if (isa<FloatType>(type))
    return floatConst(b, loc, type, value);
  return arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(type, static_cast<int64_t>(value)));
}

namespace {
// One op per statement: argument evaluation order is unspecified, and the
// IR must not depend on the host compiler.
Value inBoundsOf(OpBuilder &b, Location loc, Value index, Value zero,
                 Value size) {
  Value atLeastZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, index, zero);
  Value belowSize =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, index, size);
  return arith::AndIOp::create(b, loc, atLeastZero, belowSize);
}
} // namespace

Value inBounds(OpBuilder &b, Location loc, Value index, Value size) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  return inBoundsOf(b, loc, index, zero, size);
}

BoundedIndex boundedIndex(OpBuilder &b, Location loc, Value index,
                          int64_t size) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value bound = arith::ConstantIndexOp::create(b, loc, size);
  Value inRange = inBoundsOf(b, loc, index, zero, bound);
  Value safe = arith::SelectOp::create(b, loc, inRange, index, zero);
  return {inRange, safe};
}

Value zeroUnless(OpBuilder &b, Location loc, Value inRange, Value element) {
  Value zero = scalarConst(b, loc, element.getType(), 0.0);
  return arith::SelectOp::create(b, loc, inRange, element, zero);
}

Value addScalars(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  if (isa<FloatType>(lhs.getType()))
    return arith::AddFOp::create(b, loc, lhs, rhs);
  return arith::AddIOp::create(b, loc, lhs, rhs);
}

Value mulScalars(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  if (isa<FloatType>(lhs.getType()))
    return arith::MulFOp::create(b, loc, lhs, rhs);
  return arith::MulIOp::create(b, loc, lhs, rhs);
}

Value maxScalars(OpBuilder &b, Location loc, Value lhs, Value rhs,
                 bool isUnsigned) {
  if (isa<FloatType>(lhs.getType()))
    return arith::MaximumFOp::create(b, loc, lhs, rhs);
  if (isUnsigned)
    return arith::MaxUIOp::create(b, loc, lhs, rhs);
  return arith::MaxSIOp::create(b, loc, lhs, rhs);
}

Value lowestValue(OpBuilder &b, Location loc, Type type, bool isUnsigned) {
  if (isa<FloatType>(type))
    return floatConst(b, loc, type, -std::numeric_limits<double>::infinity());
  unsigned width = type.getIntOrFloatBitWidth();
  APInt lowest =
      isUnsigned ? APInt::getZero(width) : APInt::getSignedMinValue(width);
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, lowest));
}

/// A tensor of `type` filled with `value`.
Value filled(OpBuilder &b, Location loc, RankedTensorType type, double value) {
  Value init = emptyLike(b, loc, type);
  Value scalar = scalarConst(b, loc, type.getElementType(), value);
  return linalg::FillOp::create(b, loc, ValueRange{scalar}, ValueRange{init})
      .getResult(0);
}

/// The map from the iteration space of `resultShape` into an operand of shape
/// `operandShape` under numpy broadcasting: dimensions align on the right and
/// a size-1 dimension that stretches reads index 0.
AffineMap broadcastMap(MLIRContext *ctx, ArrayRef<int64_t> operandShape,
                       ArrayRef<int64_t> resultShape) {
  size_t offset = resultShape.size() - operandShape.size();
  SmallVector<AffineExpr> exprs;
  for (auto [i, size] : llvm::enumerate(operandShape)) {
    if (size == 1 && resultShape[i + offset] != 1)
      exprs.push_back(getAffineConstantExpr(0, ctx));
    else
      exprs.push_back(getAffineDimExpr(i + offset, ctx));
  }
  return AffineMap::get(resultShape.size(), 0, exprs, ctx);
}

/// An elementwise linalg.generic over `resultType` whose inputs broadcast into
/// it; `body` computes one element from the input elements.
Value elementwise(OpBuilder &b, Location loc, RankedTensorType resultType,
                  ValueRange inputs, BodyFn body) {
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineMap> maps;
  for (Value input : inputs)
    maps.push_back(broadcastMap(
        ctx, cast<RankedTensorType>(input.getType()).getShape(),
        resultType.getShape()));
  maps.push_back(AffineMap::getMultiDimIdentityMap(resultType.getRank(), ctx));
  SmallVector<IteratorType> iterators(resultType.getRank(),
                                      IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, inputs,
      ValueRange{emptyLike(b, loc, resultType)}, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value result = body(nb, nloc, args.drop_back());
        linalg::YieldOp::create(nb, nloc, result);
      });
  return generic.getResult(0);
}

/// A per-channel parameter [C] reshaped to [C, 1, ...] (rank `rank` - 1), so
/// numpy broadcasting lines it up with dimension 1 of a rank-`rank` tensor.
Value channelColumn(OpBuilder &b, Location loc, Value param, int64_t rank) {
  auto type = cast<RankedTensorType>(param.getType());
  if (rank <= 2)
    return param;
  SmallVector<int64_t> shape(rank - 1, 1);
  shape[0] = type.getDimSize(0);
  ReassociationIndices all;
  for (int64_t i = 0; i < rank - 1; ++i)
    all.push_back(i);
  return tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), param,
      ArrayRef<ReassociationIndices>{all});
}

/// `value` + `bias`, the bias broadcast like numpy.
Value addBias(OpBuilder &b, Location loc, Value value, Value bias) {
  return elementwise(b, loc, cast<RankedTensorType>(value.getType()),
                     ValueRange{value, bias},
                     [](OpBuilder &nb, Location l, ValueRange args) {
                       return addScalars(nb, l, args[0], args[1]);
                     });
}


/// Reduces `input` over the sorted `axes` (dropping them) with linalg.reduce.
Value reduce(OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> axes,
             ReduceKind kind, bool isUnsigned) {
  auto inputType = cast<RankedTensorType>(input.getType());
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < inputType.getRank(); ++i)
    if (!llvm::is_contained(axes, i))
      shape.push_back(inputType.getDimSize(i));
  auto resultType = RankedTensorType::get(shape, inputType.getElementType());
  Type element = resultType.getElementType();
  Value initScalar = kind == ReduceKind::Sum
                         ? scalarConst(b, loc, element, 0.0)
                         : lowestValue(b, loc, element, isUnsigned);
  Value init = linalg::FillOp::create(b, loc, ValueRange{initScalar},
                                      ValueRange{emptyLike(b, loc, resultType)})
                   .getResult(0);
  auto op = linalg::ReduceOp::create(
      b, loc, ValueRange{input}, ValueRange{init}, axes,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value r = kind == ReduceKind::Sum
                      ? addScalars(nb, nloc, args[1], args[0])
                      : maxScalars(nb, nloc, args[1], args[0], isUnsigned);
        linalg::YieldOp::create(nb, nloc, r);
      });
  return op.getResult(0);
}

/// Re-inserts size-1 dims at the (sorted) reduced `axes` of a rank-`rank`
/// tensor, as keep_dims asks.
Value keepDims(OpBuilder &b, Location loc, Value reduced,
               RankedTensorType keptType, ArrayRef<int64_t> axes) {
  int64_t rank = keptType.getRank();
  SmallVector<ReassociationIndices> groups;
  // Every kept dim owns itself, the reduced dims right after it, and (for the
  // first kept dim) the reduced dims before it.
  ReassociationIndices pending;
  for (int64_t i = 0; i < rank; ++i) {
    if (llvm::is_contained(axes, i)) {
      if (groups.empty())
        pending.push_back(i);
      else
        groups.back().push_back(i);
      continue;
    }
    ReassociationIndices group = pending;
    pending.clear();
    group.push_back(i);
    groups.push_back(group);
  }
  // A full reduction yields rank 0: the reassociation is empty.
  return tensor::ExpandShapeOp::create(b, loc, keptType, reduced, groups);
}

/// `value` / `count`, elementwise.
Value divideByCount(OpBuilder &b, Location loc, Value value, int64_t count) {
  return elementwise(b, loc, cast<RankedTensorType>(value.getType()),
                     ValueRange{value},
                     [&](OpBuilder &nb, Location l, ValueRange args) {
                       Value n = floatConst(nb, l, args[0].getType(),
                                            static_cast<double>(count));
                       return arith::DivFOp::create(nb, l, args[0], n)
                           .getResult();
                     });
}

Value padSpatialDims(OpBuilder &b, Location loc, Value input, ConvDim h,
                     ConvDim w, double value) {
  if (!h.padBefore && !h.padAfter && !w.padBefore && !w.padAfter)
    return input;
  auto type = cast<RankedTensorType>(input.getType());
  auto index = [&](int64_t i) { return OpFoldResult(b.getIndexAttr(i)); };
  auto paddedType = RankedTensorType::get(
      {type.getDimSize(0), type.getDimSize(1),
       type.getDimSize(2) + h.padBefore + h.padAfter,
       type.getDimSize(3) + w.padBefore + w.padAfter},
      type.getElementType());
  return tensor::PadOp::create(
      b, loc, paddedType, input,
      {index(0), index(0), index(h.padBefore), index(w.padBefore)},
      {index(0), index(0), index(h.padAfter), index(w.padAfter)},
      scalarConst(b, loc, type.getElementType(), value));
}

Value spreadSpatialDims(OpBuilder &b, Location loc, Value value,
                        ArrayRef<int64_t> stride, ArrayRef<int64_t> before,
                        ArrayRef<int64_t> size, double fill) {
  auto type = cast<RankedTensorType>(value.getType());
  auto spreadType = RankedTensorType::get(
      {type.getDimSize(0), type.getDimSize(1), size[0], size[1]},
      type.getElementType());
  Value base = filled(b, loc, spreadType, fill);
  auto index = [&](int64_t i) { return OpFoldResult(b.getIndexAttr(i)); };
  SmallVector<OpFoldResult> offsets = {index(0), index(0), index(before[0]),
                                       index(before[1])};
  SmallVector<OpFoldResult> sizes;
  for (int64_t d : type.getShape())
    sizes.push_back(index(d));
  SmallVector<OpFoldResult> strides = {index(1), index(1), index(stride[0]),
                                       index(stride[1])};
  return tensor::InsertSliceOp::create(b, loc, value, base, offsets, sizes,
                                       strides);
}

} // namespace ms::lowering
