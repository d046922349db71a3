//===- Linear.cpp - ms.matmul and ms.dense to linalg ------------------------===//
//
// Contractions start from zero and accumulate along K in order, and a dense
// bias is added afterwards: the arithmetic order every mode shares.
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

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

/// lhs @ rhs (after the optional transposes) with numpy batch broadcasting, as
/// a zero-initialized contraction that accumulates along K in order. Rank-2
/// cases use the named linalg.matmul variants; the rest a linalg.generic.
Value contraction(OpBuilder &b, Location loc, Value lhs, Value rhs,
                  bool transposeA, bool transposeB,
                  RankedTensorType resultType) {
  Value init = filled(b, loc, resultType, 0.0);
  auto lhsType = cast<RankedTensorType>(lhs.getType());
  auto rhsType = cast<RankedTensorType>(rhs.getType());
  if (lhsType.getRank() == 2 && rhsType.getRank() == 2 &&
      !(transposeA && transposeB)) {
    Operation *mm;
    if (transposeB)
      mm = linalg::MatmulTransposeBOp::create(b, loc, TypeRange{resultType},
                                              ValueRange{lhs, rhs},
                                              ValueRange{init});
    else if (transposeA)
      mm = linalg::MatmulTransposeAOp::create(b, loc, TypeRange{resultType},
                                              ValueRange{lhs, rhs},
                                              ValueRange{init});
    else
      mm = linalg::MatmulOp::create(b, loc, TypeRange{resultType},
                                    ValueRange{lhs, rhs}, ValueRange{init});
    return mm->getResult(0);
  }

  // Iteration space: [batch..., m, n, k].
  MLIRContext *ctx = b.getContext();
  int64_t batchRank = resultType.getRank() - 2;
  unsigned numDims = batchRank + 3;
  AffineExpr m = getAffineDimExpr(batchRank, ctx);
  AffineExpr n = getAffineDimExpr(batchRank + 1, ctx);
  AffineExpr k = getAffineDimExpr(batchRank + 2, ctx);
  ArrayRef<int64_t> resultBatch = resultType.getShape().drop_back(2);
  auto operandMap = [&](RankedTensorType type, AffineExpr row,
                        AffineExpr col) {
    ArrayRef<int64_t> batch = type.getShape().drop_back(2);
    size_t offset = resultBatch.size() - batch.size();
    SmallVector<AffineExpr> exprs;
    for (auto [i, size] : llvm::enumerate(batch))
      exprs.push_back(size == 1 && resultBatch[i + offset] != 1
                          ? getAffineConstantExpr(0, ctx)
                          : getAffineDimExpr(i + offset, ctx));
    exprs.push_back(row);
    exprs.push_back(col);
    return AffineMap::get(numDims, 0, exprs, ctx);
  };
  SmallVector<AffineExpr> resultExprs;
  for (int64_t i = 0; i < batchRank; ++i)
    resultExprs.push_back(getAffineDimExpr(i, ctx));
  resultExprs.push_back(m);
  resultExprs.push_back(n);
  SmallVector<AffineMap> maps = {
      transposeA ? operandMap(lhsType, k, m) : operandMap(lhsType, m, k),
      transposeB ? operandMap(rhsType, n, k) : operandMap(rhsType, k, n),
      AffineMap::get(numDims, 0, resultExprs, ctx)};
  SmallVector<IteratorType> iterators(numDims - 1, IteratorType::parallel);
  iterators.push_back(IteratorType::reduction);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, ValueRange{lhs, rhs}, ValueRange{init},
      maps, iterators, [](OpBuilder &nb, Location nloc, ValueRange args) {
        Value prod = mulScalars(nb, nloc, args[0], args[1]);
        Value sum = addScalars(nb, nloc, args[2], prod);
        linalg::YieldOp::create(nb, nloc, sum);
      });
  return generic.getResult(0);
}

struct MatmulPattern : OpConversionPattern<MatmulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, contraction(rewriter, op.getLoc(), adaptor.getLhs(),
                                       adaptor.getRhs(), op.getTransposeA(),
                                       op.getTransposeB(),
                                       storedType(op.getType())));
    return success();
  }
};

/// dense(x[..., in], w[out, in], b[out]) = (x2d @ w^T) + b, reshaped back.
struct DensePattern : OpConversionPattern<DenseOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DenseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inputType = cast<RankedTensorType>(adaptor.getInput().getType());
    auto resultType = storedType(op.getType());
    Type elementType = resultType.getElementType();
    int64_t in = inputType.getShape().back();
    int64_t out = resultType.getShape().back();
    int64_t rows = inputType.getNumElements() / std::max<int64_t>(in, 1);
    if (in == 0)
      rows = resultType.getNumElements() / std::max<int64_t>(out, 1);

    // Bring the input to [rows, in].
    Value input = adaptor.getInput();
    int64_t rank = inputType.getRank();
    auto input2dType = RankedTensorType::get({rows, in}, elementType);
    if (rank == 1) {
      input = tensor::ExpandShapeOp::create(rewriter, loc, input2dType, input,
                                            {{0, 1}});
    } else if (rank > 2) {
      ReassociationIndices lead;
      for (int64_t i = 0; i < rank - 1; ++i)
        lead.push_back(i);
      input = tensor::CollapseShapeOp::create(rewriter, loc, input2dType,
                                              input, {lead, {rank - 1}});
    }

    auto mm2dType = RankedTensorType::get({rows, out}, elementType);
    Value result = contraction(rewriter, loc, input, adaptor.getWeight(),
                               /*transposeA=*/false, /*transposeB=*/true,
                               mm2dType);
    if (Value bias = adaptor.getBias())
      result = addBias(rewriter, loc, result, bias);

    if (rank == 1) {
      result = tensor::CollapseShapeOp::create(rewriter, loc, resultType,
                                               result, {{0, 1}});
    } else if (rank > 2) {
      ReassociationIndices lead;
      for (int64_t i = 0; i < rank - 1; ++i)
        lead.push_back(i);
      result = tensor::ExpandShapeOp::create(rewriter, loc, resultType, result,
                                             {lead, {rank - 1}});
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void ms::populateLinearToLinalgPatterns(RewritePatternSet &patterns,
                                        const TypeConverter &converter) {
  patterns.add<DensePattern, MatmulPattern>(converter, patterns.getContext());
}
