//===- ScanSort.cpp - cumsum, argsort, gather_elements to linalg ----------===//
//
// cumsum is an scf.for along the axis carrying the running sum of the
// slices before it (one elementwise add per step: sequential, in order).
// argsort counts, for each element, the elements that go before it (its
// rank, one in-order reduction), then finds, for each output position, the
// element of that rank (another); no data-dependent control flow, so every
// codegen path handles it. gather_elements and its gradient read and sum
// through indices inside linalg.generic bodies. Unsigned tensors are
// bit-cast to signless ones around the kernels (arith is signless; the
// predicates say how to compare).
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"

using namespace mlir;
using namespace ms;
using namespace ms::lowering;

namespace {

using utils::IteratorType;

/// `value` with an unsigned element type bit-cast to the signless one.
Value signless(OpBuilder &b, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  if (!type.getElementType().isUnsignedInteger())
    return value;
  Type element = b.getIntegerType(type.getElementTypeBitWidth());
  return tensor::BitcastOp::create(b, loc, type.clone(element), value);
}

/// `value` bit-cast back to `type` when they differ (signless to unsigned).
Value restore(OpBuilder &b, Location loc, Value value, RankedTensorType type) {
  if (value.getType() == type)
    return value;
  return tensor::BitcastOp::create(b, loc, type, value);
}

Value zeroOf(OpBuilder &b, Location loc, Type element) {
  return arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
}

Value zeros(OpBuilder &b, Location loc, RankedTensorType type) {
  Value zero = zeroOf(b, loc, type.getElementType());
  return linalg::FillOp::create(b, loc, ValueRange{zero},
                                ValueRange{emptyLike(b, loc, type)})
      .getResult(0);
}

Value add(OpBuilder &b, Location loc, Value l, Value r) {
  if (isa<FloatType>(l.getType()))
    return arith::AddFOp::create(b, loc, l, r);
  return arith::AddIOp::create(b, loc, l, r);
}

/// The dims of a rank-`rank` space, with `axis` replaced by dim `extra`.
AffineMap replacedAxisMap(MLIRContext *ctx, int64_t rank, int64_t axis,
                          int64_t extra) {
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < rank; ++d)
    exprs.push_back(getAffineDimExpr(d == axis ? extra : d, ctx));
  return AffineMap::get(rank + 1, 0, exprs, ctx);
}

AffineMap firstDimsMap(MLIRContext *ctx, int64_t rank) {
  return AffineMap::getMultiDimIdentityMap(rank + 1, ctx).getMajorSubMap(rank);
}

/// `acc` + `slice`, elementwise, written into `acc`.
Value accumulate(OpBuilder &b, Location loc, Value acc, Value slice) {
  auto type = cast<RankedTensorType>(acc.getType());
  MLIRContext *ctx = b.getContext();
  auto identity = AffineMap::getMultiDimIdentityMap(type.getRank(), ctx);
  SmallVector<IteratorType> iterators(type.getRank(), IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{slice}, ValueRange{acc},
             ArrayRef<AffineMap>{identity, identity}, iterators,
             [](OpBuilder &nb, Location nl, ValueRange args) {
               linalg::YieldOp::create(nb, nl, add(nb, nl, args[1], args[0]));
             })
      .getResult(0);
}

struct CumsumPattern : OpConversionPattern<CumsumOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CumsumOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    Value input = signless(rewriter, loc, adaptor.getInput());
    auto type = cast<RankedTensorType>(input.getType());
    int64_t rank = type.getRank(), axis = op.getNormalizedAxis();
    int64_t n = type.getDimSize(axis);
    SmallVector<int64_t> sliceShape(type.getShape());
    sliceShape.erase(sliceShape.begin() + axis);
    auto sliceType = RankedTensorType::get(sliceShape, type.getElementType());
    bool exclusive = op.getExclusive(), reverse = op.getReverse();

    Value lower = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value upper = arith::ConstantIndexOp::create(rewriter, loc, n);
    Value step = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value last = arith::ConstantIndexOp::create(rewriter, loc, n - 1);
    Value init = zeros(rewriter, loc, sliceType);
    Value result = emptyLike(rewriter, loc, type);
    auto loop = scf::ForOp::create(
        rewriter, loc, lower, upper, step, ValueRange{init, result},
        [&](OpBuilder &b, Location l, Value i, ValueRange carried) {
          Value acc = carried[0], out = carried[1];
          Value pos = i;
          if (reverse)
            pos = arith::SubIOp::create(b, l, last, i);
          SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
          offsets[axis] = pos;
          SmallVector<OpFoldResult> sizes;
          for (int64_t d = 0; d < rank; ++d)
            sizes.push_back(b.getIndexAttr(d == axis ? 1 : type.getDimSize(d)));
          SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
          Value slice = tensor::ExtractSliceOp::create(
              b, l, sliceType, input, offsets, sizes, strides);
          // The running sum is updated in place (the generic's init is the
          // carried tensor), so the loop's tensors bufferize to one buffer.
          Value updated = out;
          if (exclusive)
            updated = tensor::InsertSliceOp::create(b, l, acc, out, offsets,
                                                    sizes, strides);
          Value next = accumulate(b, l, acc, slice);
          if (!exclusive)
            updated = tensor::InsertSliceOp::create(b, l, next, out, offsets,
                                                    sizes, strides);
          scf::YieldOp::create(b, l, ValueRange{next, updated});
        });
    rewriter.replaceOp(op, restore(rewriter, loc, loop.getResult(1),
                                   resultType));
    return success();
  }
};

/// `x` goes strictly before `y` in the order (ties are broken by position
/// by the caller): ascending, or descending; NaN is above every number.
Value precedes(OpBuilder &b, Location loc, Value x, Value y, bool descending,
               bool isUnsigned) {
  if (!isa<FloatType>(x.getType())) {
    arith::CmpIPredicate p =
        descending ? (isUnsigned ? arith::CmpIPredicate::ugt
                                 : arith::CmpIPredicate::sgt)
                   : (isUnsigned ? arith::CmpIPredicate::ult
                                 : arith::CmpIPredicate::slt);
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  // Ascending: x < y, or y is NaN and x is not. Descending: x > y, or x is
  // NaN and y is not.
  Value ordered = arith::CmpFOp::create(
      b, loc, descending ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT,
      x, y);
  Value nan = descending ? x : y, number = descending ? y : x;
  Value isNaN =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, nan, nan);
  Value isNumber = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ORD,
                                         number, number);
  Value nanAbove = arith::AndIOp::create(b, loc, isNaN, isNumber);
  return arith::OrIOp::create(b, loc, ordered, nanAbove);
}

/// `x` and `y` are tied: equal, or both NaN.
Value tied(OpBuilder &b, Location loc, Value x, Value y) {
  if (!isa<FloatType>(x.getType()))
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y);
  Value equal = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x, y);
  Value xNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
  Value yNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, y, y);
  Value bothNaN = arith::AndIOp::create(b, loc, xNaN, yNaN);
  return arith::OrIOp::create(b, loc, equal, bothNaN);
}

struct ArgsortPattern : OpConversionPattern<ArgsortOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ArgsortOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    bool isUnsigned =
        op.getInput().getType().getElementType().isUnsignedInteger();
    Value input = signless(rewriter, loc, adaptor.getInput());
    auto type = cast<RankedTensorType>(input.getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    Type indexType = resultType.getElementType();
    int64_t rank = type.getRank(), axis = op.getNormalizedAxis();
    bool descending = op.getDescending();
    SmallVector<IteratorType> iterators(rank, IteratorType::parallel);
    iterators.push_back(IteratorType::reduction);

    // rank[i] = #{j : x[j] before x[i], or tied with j < i}; dim `rank` is j.
    auto ranksType = type.clone(indexType);
    auto ranks = linalg::GenericOp::create(
        rewriter, loc, TypeRange{ranksType}, ValueRange{input, input},
        ValueRange{zeros(rewriter, loc, ranksType)},
        ArrayRef<AffineMap>{replacedAxisMap(ctx, rank, axis, axis),
                            replacedAxisMap(ctx, rank, axis, rank),
                            firstDimsMap(ctx, rank)},
        iterators, [&](OpBuilder &b, Location l, ValueRange args) {
          Value xi = args[0], xj = args[1], count = args[2];
          Value before = precedes(b, l, xj, xi, descending, isUnsigned);
          Value same = tied(b, l, xj, xi);
          Value i = linalg::IndexOp::create(b, l, axis);
          Value j = linalg::IndexOp::create(b, l, rank);
          Value earlier =
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, j, i);
          Value tieBefore = arith::AndIOp::create(b, l, same, earlier);
          Value goesFirst = arith::OrIOp::create(b, l, before, tieBefore);
          Value one = arith::ExtUIOp::create(b, l, indexType, goesFirst);
          linalg::YieldOp::create(
              b, l, arith::AddIOp::create(b, l, count, one).getResult());
        });

    // index[r] = the i with rank[i] == r (exactly one); dim `rank` is i.
    auto indices = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType},
        ValueRange{ranks.getResult(0)},
        ValueRange{zeros(rewriter, loc, resultType)},
        ArrayRef<AffineMap>{replacedAxisMap(ctx, rank, axis, rank),
                            firstDimsMap(ctx, rank)},
        iterators, [&](OpBuilder &b, Location l, ValueRange args) {
          Value rankOfI = args[0], acc = args[1];
          Value r = arith::IndexCastOp::create(
              b, l, indexType, linalg::IndexOp::create(b, l, axis));
          Value i = arith::IndexCastOp::create(
              b, l, indexType, linalg::IndexOp::create(b, l, rank));
          Value hit = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                            rankOfI, r);
          Value zero = zeroOf(b, l, indexType);
          Value picked = arith::SelectOp::create(b, l, hit, i, zero);
          linalg::YieldOp::create(
              b, l, arith::AddIOp::create(b, l, acc, picked).getResult());
        });
    rewriter.replaceOp(op, indices.getResult(0));
    return success();
  }
};

struct GatherElementsPattern : OpConversionPattern<GatherElementsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GatherElementsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto resultType = cast<RankedTensorType>(op.getType());
    Value input = signless(rewriter, loc, adaptor.getInput());
    auto inputType = cast<RankedTensorType>(input.getType());
    auto computeType = resultType.clone(inputType.getElementType());
    int64_t rank = computeType.getRank(), axis = op.getNormalizedAxis();
    int64_t axisSize = inputType.getDimSize(axis);
    auto identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
    SmallVector<IteratorType> iterators(rank, IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{computeType}, ValueRange{adaptor.getIndices()},
        ValueRange{emptyLike(rewriter, loc, computeType)},
        ArrayRef<AffineMap>{identity, identity}, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          // An index outside [0, size) reads position 0 and yields 0.
          Value index =
              arith::IndexCastOp::create(b, l, b.getIndexType(), args[0]);
          Value zero = arith::ConstantIndexOp::create(b, l, 0);
          Value size = arith::ConstantIndexOp::create(b, l, axisSize);
          Value atLeastZero = arith::CmpIOp::create(
              b, l, arith::CmpIPredicate::sge, index, zero);
          Value belowSize = arith::CmpIOp::create(
              b, l, arith::CmpIPredicate::slt, index, size);
          Value inRange = arith::AndIOp::create(b, l, atLeastZero, belowSize);
          Value safe = arith::SelectOp::create(b, l, inRange, index, zero);
          SmallVector<Value> at;
          for (int64_t d = 0; d < rank; ++d)
            at.push_back(d == axis ? safe
                                   : linalg::IndexOp::create(b, l, d).getResult());
          Value element = tensor::ExtractOp::create(b, l, input, at);
          Value fill = zeroOf(b, l, element.getType());
          linalg::YieldOp::create(
              b, l,
              arith::SelectOp::create(b, l, inRange, element, fill).getResult());
        });
    rewriter.replaceOp(op, restore(rewriter, loc, generic.getResult(0),
                                   resultType));
    return success();
  }
};

/// dx[p, j, q] = sum over t in order of (indices[p, t, q] == j ? dy : 0);
/// dim `rank` of the iteration space is t.
struct GatherElementsGradPattern : OpConversionPattern<GatherElementsGradOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GatherElementsGradOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto resultType = cast<RankedTensorType>(op.getType());
    Value dy = signless(rewriter, loc, adaptor.getDy());
    auto computeType =
        resultType.clone(cast<RankedTensorType>(dy.getType()).getElementType());
    int64_t rank = computeType.getRank(), axis = op.getNormalizedAxis();
    SmallVector<IteratorType> iterators(rank, IteratorType::parallel);
    iterators.push_back(IteratorType::reduction);
    AffineMap read = replacedAxisMap(ctx, rank, axis, rank);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{computeType},
        ValueRange{dy, adaptor.getIndices()},
        ValueRange{zeros(rewriter, loc, computeType)},
        ArrayRef<AffineMap>{read, read, firstDimsMap(ctx, rank)}, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value grad = args[0], index = args[1], acc = args[2];
          Value j = arith::IndexCastOp::create(
              b, l, index.getType(), linalg::IndexOp::create(b, l, axis));
          Value hit =
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, index, j);
          Value zero = zeroOf(b, l, grad.getType());
          Value picked = arith::SelectOp::create(b, l, hit, grad, zero);
          linalg::YieldOp::create(b, l, add(b, l, acc, picked));
        });
    rewriter.replaceOp(op, restore(rewriter, loc, generic.getResult(0),
                                   resultType));
    return success();
  }
};

} // namespace

void ms::populateScanSortToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<CumsumPattern, ArgsortPattern, GatherElementsPattern,
               GatherElementsGradPattern>(patterns.getContext());
}
