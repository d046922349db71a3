//===- ScanSort.cpp - cumsum, argsort, gather_elements to linalg ----------===//
//
// cumsum is an scf.for along the axis carrying the running sum of the
// slices before it (one elementwise add per step: sequential, in order).
// argsort merge sorts an index buffer per row (scf.for loops with static
// trip counts, choices by select: no data-dependent control flow, O(n log
// n) per row of n). gather_elements and its gradient read and sum
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

/// Stably sorts the positions 0..n-1 of one row by `input`'s elements at
/// `at` (with `at[axis]` replaced by each position): a bottom-up merge sort
/// of positions in a [2n] buffer. Pass p merges adjacent runs of width 2^p
/// from one half of the buffer into the other (one buffer, so the loops
/// update it in place); each output slot takes the head of the left run
/// unless the right run's head strictly precedes it, so ties keep their
/// order. Every loop has a static trip count and every choice is a select:
/// no data-dependent control flow, n ceil(log2 n) steps.
struct RowMergeSort {
  Value input;
  SmallVector<Value> at;
  int64_t axis, n;
  bool descending, isUnsigned;
  int64_t passes = 0;
  Value zero, one, size, last, yes;

  RowMergeSort(OpBuilder &b, Location loc, Value input, ValueRange at,
               int64_t axis, int64_t n, bool descending, bool isUnsigned)
      : input(input), at(at.begin(), at.end()), axis(axis), n(n),
        descending(descending), isUnsigned(isUnsigned) {
    while ((int64_t(1) << passes) < n)
      ++passes;
    zero = arith::ConstantIndexOp::create(b, loc, 0);
    one = arith::ConstantIndexOp::create(b, loc, 1);
    size = arith::ConstantIndexOp::create(b, loc, n);
    last = arith::ConstantIndexOp::create(b, loc, n - 1);
    yes = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
  }

  /// Where the sorted positions end up: slots [base, base + n).
  int64_t base() const { return passes % 2 == 0 ? 0 : n; }

  /// The sorted buffer.
  Value build(OpBuilder &b, Location loc) {
    Value passCount = arith::ConstantIndexOp::create(b, loc, passes);
    auto passLoop = scf::ForOp::create(
        b, loc, zero, passCount, one, ValueRange{iota(b, loc)},
        [&](OpBuilder &pb, Location pl, Value pass, ValueRange buffer) {
          scf::YieldOp::create(pb, pl, mergePass(pb, pl, pass, buffer[0]));
        });
    return passLoop.getResult(0);
  }

private:
  /// [0, 1, ..., 2n - 1]: the first half is the identity order; the second
  /// is scratch, written before it is read.
  Value iota(OpBuilder &b, Location loc) {
    auto type = RankedTensorType::get({2 * n}, b.getIndexType());
    auto identity = AffineMap::getMultiDimIdentityMap(1, b.getContext());
    return linalg::GenericOp::create(
               b, loc, TypeRange{type}, ValueRange{},
               ValueRange{emptyLike(b, loc, type)},
               ArrayRef<AffineMap>{identity},
               ArrayRef<IteratorType>{IteratorType::parallel},
               [](OpBuilder &nb, Location nl, ValueRange) {
                 Value i = linalg::IndexOp::create(nb, nl, 0);
                 linalg::YieldOp::create(nb, nl, i);
               })
        .getResult(0);
  }

  /// One pass: runs of width 2^pass merged into the other half.
  Value mergePass(OpBuilder &b, Location loc, Value pass, Value buffer) {
    Value width = arith::ShLIOp::create(b, loc, one, pass);
    Value span = arith::ShLIOp::create(b, loc, width, one);
    // Even passes read the first half and write the second.
    Value odd = arith::AndIOp::create(b, loc, pass, one);
    Value srcBase = arith::MulIOp::create(b, loc, odd, size);
    Value dstBase = arith::SubIOp::create(b, loc, size, srcBase);
    auto merge = scf::ForOp::create(
        b, loc, zero, size, one, ValueRange{zero, zero, buffer},
        [&](OpBuilder &lb, Location l, Value k, ValueRange carried) {
          scf::YieldOp::create(lb, l,
                               mergeStep(lb, l, k, width, span, srcBase,
                                         dstBase, carried));
        });
    return merge.getResult(2);
  }

  /// The position at `slot` of `buffer` and the element it names.
  std::pair<Value, Value> read(OpBuilder &b, Location loc, Value buffer,
                               Value slot) {
    Value position = tensor::ExtractOp::create(b, loc, buffer, slot);
    at[axis] = position;
    Value element = tensor::ExtractOp::create(b, loc, input, at);
    return {position, element};
  }

  /// Output slot k of a pass; `carried` is (left head, right head, buffer).
  SmallVector<Value> mergeStep(OpBuilder &b, Location l, Value k, Value width,
                               Value span, Value srcBase, Value dstBase,
                               ValueRange carried) {
    // At the first slot of a run pair, both heads restart.
    Value offset = arith::RemUIOp::create(b, l, k, span);
    Value start = arith::SubIOp::create(b, l, k, offset);
    Value startsPair =
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, offset, zero);
    Value midEnd = arith::AddIOp::create(b, l, start, width);
    Value mid = arith::MinUIOp::create(b, l, midEnd, size);
    Value pairEnd = arith::AddIOp::create(b, l, start, span);
    Value end = arith::MinUIOp::create(b, l, pairEnd, size);
    Value left = arith::SelectOp::create(b, l, startsPair, start, carried[0]);
    Value right = arith::SelectOp::create(b, l, startsPair, mid, carried[1]);
    Value leftLive =
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, left, mid);
    Value rightLive =
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, right, end);
    // An exhausted head is clamped to a valid slot; what it reads there is
    // discarded by the select below.
    Value leftSlot = arith::MinUIOp::create(b, l, left, last);
    Value rightSlot = arith::MinUIOp::create(b, l, right, last);
    Value leftAt = arith::AddIOp::create(b, l, srcBase, leftSlot);
    Value rightAt = arith::AddIOp::create(b, l, srcBase, rightSlot);
    auto [leftPos, leftX] = read(b, l, carried[2], leftAt);
    auto [rightPos, rightX] = read(b, l, carried[2], rightAt);
    Value rightFirst = precedes(b, l, rightX, leftX, descending, isUnsigned);
    Value leftWins = arith::XOrIOp::create(b, l, rightFirst, yes);
    Value rightDone = arith::XOrIOp::create(b, l, rightLive, yes);
    Value leftOk = arith::OrIOp::create(b, l, rightDone, leftWins);
    Value takeLeft = arith::AndIOp::create(b, l, leftLive, leftOk);
    Value picked = arith::SelectOp::create(b, l, takeLeft, leftPos, rightPos);
    Value slot = arith::AddIOp::create(b, l, dstBase, k);
    Value written = tensor::InsertOp::create(b, l, picked, carried[2], slot);
    Value leftNext = arith::AddIOp::create(b, l, left, one);
    Value rightNext = arith::AddIOp::create(b, l, right, one);
    Value newLeft = arith::SelectOp::create(b, l, takeLeft, leftNext, left);
    Value newRight = arith::SelectOp::create(b, l, takeLeft, right, rightNext);
    return {newLeft, newRight, written};
  }
};

/// Each row along `axis` (a loop nest over the other dims) is merge sorted
/// on its own, and its first k positions written to the result.
struct ArgsortPattern : OpConversionPattern<ArgsortOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ArgsortOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    bool isUnsigned =
        op.getInput().getType().getElementType().isUnsignedInteger();
    Value input = signless(rewriter, loc, adaptor.getInput());
    auto type = cast<RankedTensorType>(input.getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    Type indexType = resultType.getElementType();
    int64_t rank = type.getRank(), axis = op.getNormalizedAxis();
    int64_t n = type.getDimSize(axis), k = resultType.getDimSize(axis);
    bool descending = op.getDescending();

    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    SmallVector<Value> lbs, ubs, steps;
    for (int64_t d = 0; d < rank; ++d) {
      if (d == axis)
        continue;
      lbs.push_back(zero);
      ubs.push_back(
          arith::ConstantIndexOp::create(rewriter, loc, type.getDimSize(d)));
      steps.push_back(one);
    }
    Value kCount = arith::ConstantIndexOp::create(rewriter, loc, k);
    scf::LoopNest nest = scf::buildLoopNest(
        rewriter, loc, lbs, ubs, steps,
        ValueRange{emptyLike(rewriter, loc, resultType)},
        [&](OpBuilder &b, Location l, ValueRange ivs, ValueRange results) {
          SmallVector<Value> at(ivs.begin(), ivs.end());
          at.insert(at.begin() + axis, zero);
          RowMergeSort sort(b, l, input, at, axis, n, descending,
                            isUnsigned);
          Value sorted = sort.build(b, l);
          Value baseValue = arith::ConstantIndexOp::create(b, l, sort.base());
          auto write = scf::ForOp::create(
              b, l, zero, kCount, one, ValueRange{results[0]},
              [&](OpBuilder &wb, Location wl, Value q, ValueRange out) {
                Value slot = arith::AddIOp::create(wb, wl, baseValue, q);
                Value position =
                    tensor::ExtractOp::create(wb, wl, sorted, slot);
                Value cast =
                    arith::IndexCastOp::create(wb, wl, indexType, position);
                SmallVector<Value> to(at);
                to[axis] = q;
                Value written =
                    tensor::InsertOp::create(wb, wl, cast, out[0], to);
                scf::YieldOp::create(wb, wl, written);
              });
          return scf::ValueVector{write.getResult(0)};
        });
    rewriter.replaceOp(op, nest.results[0]);
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
          BoundedIndex bounded = boundedIndex(b, l, index, axisSize);
          SmallVector<Value> at;
          for (int64_t d = 0; d < rank; ++d)
            at.push_back(d == axis ? bounded.safe
                                   : linalg::IndexOp::create(b, l, d).getResult());
          Value element = tensor::ExtractOp::create(b, l, input, at);
          linalg::YieldOp::create(b, l,
                                  zeroUnless(b, l, bounded.inRange, element));
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
