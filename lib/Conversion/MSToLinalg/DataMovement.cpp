//===- DataMovement.cpp - ms shape ops to tensor and linalg -----------------===//
//
// flatten and reshape become collapse/expand_shape, transpose
// linalg.transpose, concat tensor.insert_slice, slice tensor.extract_slice,
// pad tensor.pad and broadcast_to a copying linalg.generic.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"

using namespace mlir;
using namespace ms;
using namespace ms::lowering;

namespace {

using utils::IteratorType;

struct FlattenPattern : OpConversionPattern<FlattenOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(FlattenOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    int64_t rank = cast<RankedTensorType>(adaptor.getInput().getType()).getRank();
    ReassociationIndices rest;
    for (int64_t i = 1; i < rank; ++i)
      rest.push_back(i);
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
        op, storedType(op.getType()), adaptor.getInput(),
        ArrayRef<ReassociationIndices>{{0}, rest});
    return success();
  }
};

/// Any reshape is a collapse to rank 1 followed by an expand to the target.
struct ReshapePattern : OpConversionPattern<ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inputType = cast<RankedTensorType>(adaptor.getInput().getType());
    auto resultType = storedType(op.getType());
    auto allDims = [](int64_t rank) {
      ReassociationIndices all;
      for (int64_t i = 0; i < rank; ++i)
        all.push_back(i);
      return all;
    };
    Value value = adaptor.getInput();
    if (inputType.getRank() == 0 || resultType.getRank() == 0) {
      // Rank 0 holds one element; every dimension on the other side is 1.
      if (inputType.getRank() == 0)
        value = tensor::ExpandShapeOp::create(
            rewriter, loc, resultType, value,
            ArrayRef<ReassociationIndices>{});
      else
        value = tensor::CollapseShapeOp::create(
            rewriter, loc, resultType, value,
            ArrayRef<ReassociationIndices>{});
      rewriter.replaceOp(op, value);
      return success();
    }
    auto flatType = RankedTensorType::get({inputType.getNumElements()},
                                          inputType.getElementType());
    if (inputType.getRank() != 1)
      value = tensor::CollapseShapeOp::create(
          rewriter, loc, flatType, value,
          ArrayRef<ReassociationIndices>{allDims(inputType.getRank())});
    if (resultType.getRank() != 1)
      value = tensor::ExpandShapeOp::create(
          rewriter, loc, resultType, value,
          ArrayRef<ReassociationIndices>{allDims(resultType.getRank())});
    rewriter.replaceOp(op, value);
    return success();
  }
};

struct TransposePattern : OpConversionPattern<TransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = storedType(op.getType());
    Value init = emptyLike(rewriter, op.getLoc(), type);
    auto transpose = linalg::TransposeOp::create(
        rewriter, op.getLoc(), adaptor.getInput(), init, op.getPerm());
    rewriter.replaceOp(op, transpose->getResult(0));
    return success();
  }
};

struct ConcatPattern : OpConversionPattern<ConcatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConcatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = storedType(op.getType());
    int64_t axis = op.getNormalizedAxis();
    Value result = emptyLike(rewriter, loc, type);
    int64_t offset = 0;
    for (Value input : adaptor.getInputs()) {
      auto inputType = cast<RankedTensorType>(input.getType());
      SmallVector<OpFoldResult> offsets(type.getRank(),
                                        rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> sizes, strides(type.getRank(),
                                               rewriter.getIndexAttr(1));
      for (int64_t d : inputType.getShape())
        sizes.push_back(rewriter.getIndexAttr(d));
      offsets[axis] = rewriter.getIndexAttr(offset);
      result = tensor::InsertSliceOp::create(rewriter, loc, input, result,
                                             offsets, sizes, strides);
      offset += inputType.getDimSize(axis);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// A static-index-attribute list as OpFoldResults.
SmallVector<OpFoldResult> indexAttrs(OpBuilder &b, ArrayRef<int64_t> values) {
  return llvm::map_to_vector(values, [&](int64_t v) -> OpFoldResult {
    return b.getIndexAttr(v);
  });
}

struct SlicePattern : OpConversionPattern<SliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = storedType(op.getType());
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        op, type, adaptor.getInput(), indexAttrs(rewriter, op.getBegin()),
        indexAttrs(rewriter, type.getShape()),
        indexAttrs(rewriter, op.getStrides()));
    return success();
  }
};

/// broadcast_to: a copy through numpy's broadcasting map.
struct BroadcastToPattern : OpConversionPattern<BroadcastToOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BroadcastToOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value result = elementwise(
        rewriter, op.getLoc(), storedType(op.getType()),
        ValueRange{adaptor.getInput()},
        [](OpBuilder &, Location, ValueRange args) { return args[0]; });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct PadPattern : OpConversionPattern<PadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = storedType(op.getType());
    // An integer pad value truncates toward zero; a bool one is value != 0.
    double padValue = op.getValue().convertToDouble();
    if (op.getType().getElementType().isInteger(1))
      padValue = padValue != 0.0;
    Value value =
        scalarConst(rewriter, op.getLoc(), type.getElementType(), padValue);
    rewriter.replaceOpWithNewOp<tensor::PadOp>(
        op, type, adaptor.getInput(), indexAttrs(rewriter, op.getLow()),
        indexAttrs(rewriter, op.getHigh()), value);
    return success();
  }
};

} // namespace

void ms::populateDataMovementToLinalgPatterns(RewritePatternSet &patterns,
                                              const TypeConverter &converter) {
  patterns.add<FlattenPattern, ReshapePattern, TransposePattern, ConcatPattern,
               SlicePattern, BroadcastToPattern, PadPattern>(
      converter, patterns.getContext());
}
