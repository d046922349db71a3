//===- Resize.cpp - ms.interpolate to linalg ------------------------------===//
//
// The source rows and columns (and, for bilinear, the weights) of every
// output position depend only on static sizes, so they are computed at
// compile time (MSResizeTables.h: torch's formulas in torch's precision)
// and become constant tables. One linalg.generic over the output reads
// them per row (d2) and column (d3) and extracts the input elements.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "ms/Dialect/MS/IR/MSResizeTables.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"

#include <optional>

using namespace mlir;
using namespace ms;
using namespace ms::lowering;

namespace {

using utils::IteratorType;

Value indexTable(OpBuilder &b, Location loc, ArrayRef<int64_t> values) {
  auto type = RankedTensorType::get({int64_t(values.size())}, b.getI64Type());
  return arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(type, values));
}

Value weightTable(OpBuilder &b, Location loc, ArrayRef<double> values,
                  FloatType type) {
  auto tensorType = RankedTensorType::get({int64_t(values.size())}, type);
  SmallVector<Attribute> attrs;
  for (double v : values)
    attrs.push_back(b.getFloatAttr(type, v));
  return arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(tensorType, attrs));
}

/// The generic's body: reads the input at the tables' indices (the image
/// and channel from the loop) and, for bilinear, blends the four reads
/// with the tables' weights, in `compute` precision.
struct InterpolateBody {
  Value input;
  FloatType element, compute;
  bool bilinear;

  void operator()(OpBuilder &b, Location l, ValueRange args) const {
    Value n = linalg::IndexOp::create(b, l, 0);
    Value c = linalg::IndexOp::create(b, l, 1);
    Value result =
        bilinear ? blend(b, l, n, c, args) : read(b, l, n, c, args[0], args[1]);
    if (result.getType() != element)
      result = arith::TruncFOp::create(b, l, element, result);
    linalg::YieldOp::create(b, l, result);
  }

private:
  Value read(OpBuilder &b, Location l, Value n, Value c, Value h,
             Value w) const {
    Value hi = arith::IndexCastOp::create(b, l, b.getIndexType(), h);
    Value wi = arith::IndexCastOp::create(b, l, b.getIndexType(), w);
    Value x = tensor::ExtractOp::create(b, l, input, ValueRange{n, c, hi, wi});
    if (x.getType() != compute)
      x = arith::ExtFOp::create(b, l, compute, x);
    return x;
  }

  /// (x00 ww0 + x01 ww1) wh0 + (x10 ww0 + x11 ww1) wh1, one op per
  /// statement.
  Value blend(OpBuilder &b, Location l, Value n, Value c,
              ValueRange args) const {
    Value h0 = args[0], w0 = args[1], h1 = args[2], w1 = args[3];
    Value wh0 = args[4], ww0 = args[5], wh1 = args[6], ww1 = args[7];
    auto mul = [&](Value x, Value y) -> Value {
      return arith::MulFOp::create(b, l, x, y);
    };
    auto add = [&](Value x, Value y) -> Value {
      return arith::AddFOp::create(b, l, x, y);
    };
    Value x00 = read(b, l, n, c, h0, w0);
    Value x01 = read(b, l, n, c, h0, w1);
    Value x10 = read(b, l, n, c, h1, w0);
    Value x11 = read(b, l, n, c, h1, w1);
    Value a = mul(x00, ww0);
    Value bb = mul(x01, ww1);
    Value top = add(a, bb);
    Value cc = mul(x10, ww0);
    Value d = mul(x11, ww1);
    Value bottom = add(cc, d);
    Value t = mul(top, wh0);
    Value u = mul(bottom, wh1);
    return add(t, u);
  }
};

/// The tables the generic reads, alternating row (d2) and column (d3): the
/// first source index, and for bilinear the second and both weights.
SmallVector<Value> tableOperands(OpBuilder &b, Location loc,
                                 const resize::AxisTable &rows,
                                 const resize::AxisTable &cols, bool bilinear,
                                 FloatType compute) {
  SmallVector<Value> tables = {indexTable(b, loc, rows.i0),
                               indexTable(b, loc, cols.i0)};
  if (bilinear) {
    tables.push_back(indexTable(b, loc, rows.i1));
    tables.push_back(indexTable(b, loc, cols.i1));
    tables.push_back(weightTable(b, loc, rows.w0, compute));
    tables.push_back(weightTable(b, loc, cols.w0, compute));
    tables.push_back(weightTable(b, loc, rows.w1, compute));
    tables.push_back(weightTable(b, loc, cols.w1, compute));
  }
  return tables;
}

struct InterpolatePattern : OpConversionPattern<InterpolateOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(InterpolateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    auto element = cast<FloatType>(resultType.getElementType());
    // torch computes in float32 for every float type but double.
    FloatType compute = element.isF64() ? cast<FloatType>(rewriter.getF64Type())
                                        : cast<FloatType>(rewriter.getF32Type());
    int64_t inH = inputType.getDimSize(2), inW = inputType.getDimSize(3);
    int64_t outH = resultType.getDimSize(2), outW = resultType.getDimSize(3);
    std::optional<double> ratioH, ratioW;
    if (auto scales = op.getScales()) {
      ratioH = (*scales)[0];
      ratioW = (*scales)[1];
    }
    bool bilinear = op.getMode() == "bilinear";
    bool align = op.getAlignCorners();
    resize::AxisTable rows = resize::axisTable(inH, outH, bilinear, align,
                                               ratioH, compute.isF64());
    resize::AxisTable cols = resize::axisTable(inW, outW, bilinear, align,
                                               ratioW, compute.isF64());
    SmallVector<Value> tables =
        tableOperands(rewriter, loc, rows, cols, bilinear, compute);
    AffineMap byRow = AffineMap::get(4, 0, getAffineDimExpr(2, ctx));
    AffineMap byCol = AffineMap::get(4, 0, getAffineDimExpr(3, ctx));
    SmallVector<AffineMap> maps;
    for (size_t t = 0; t < tables.size(); ++t)
      maps.push_back(t % 2 == 0 ? byRow : byCol);
    maps.push_back(AffineMap::getMultiDimIdentityMap(4, ctx));
    SmallVector<IteratorType> iterators(4, IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType}, tables,
        ValueRange{emptyLike(rewriter, loc, resultType)}, maps, iterators,
        InterpolateBody{input, element, compute, bilinear});
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

} // namespace

void ms::populateResizeToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<InterpolatePattern>(patterns.getContext());
}
