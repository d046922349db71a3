//===- Resize.cpp - Gradient rule of interpolate --------------------------===//
//
// interpolate is linear and separable: per image, y = R x C^T, where R
// [OH, H] and C [OW, W] hold each output row's (column's) source weights,
// the same tables the lowering reads (MSResizeTables.h). So dx = R^T dy C:
// two ms.matmul with constant matrices, which accumulate in index order in
// every mode, as every matmul does. The matrices are dense, so the cost is
// that of two matmuls (H*OH*OW + H*OW*W multiply-adds per plane), not of
// the few taps per output.
//
// The tables are float64 for f64 input and float32 otherwise (as the
// forward computes); f16/bf16 cotangents are taken to f32 for the products
// and back, as the forward computes in f32.
//
//===----------------------------------------------------------------------===//

#include "Gradients.h"
#include "ms/Dialect/MS/IR/MSResizeTables.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

namespace ms {
namespace grad {
namespace {

/// The [out, in] interpolation matrix of one axis, or its transpose [in,
/// out] when `transposed`, in `element` (f32 or f64). A weight is added in
/// the table's precision, so an edge sample (i0 == i1) gets w0 + w1 as
/// the forward's two products give.
Value axisMatrix(OpBuilder &b, Location loc, const resize::AxisTable &t,
                 int64_t in, bool transposed, FloatType element) {
  int64_t out = t.i0.size();
  SmallVector<double> values(out * in, 0.0);
  auto at = [&](int64_t o, int64_t i) -> double & {
    return transposed ? values[i * out + o] : values[o * in + i];
  };
  bool f64 = element.isF64();
  for (int64_t o = 0; o < out; ++o) {
    double &first = at(o, t.i0[o]);
    first = f64 ? first + t.w0[o]
                : double(static_cast<float>(first) + static_cast<float>(t.w0[o]));
    double &second = at(o, t.i1[o]);
    second = f64 ? second + t.w1[o]
                 : double(static_cast<float>(second) +
                          static_cast<float>(t.w1[o]));
  }
  SmallVector<int64_t> shape = transposed ? SmallVector<int64_t>{in, out}
                                          : SmallVector<int64_t>{out, in};
  auto type = RankedTensorType::get(shape, element);
  DenseElementsAttr attr;
  if (f64) {
    attr = DenseElementsAttr::get(type, ArrayRef<double>(values));
  } else {
    SmallVector<float> narrow(values.begin(), values.end());
    attr = DenseElementsAttr::get(type, ArrayRef<float>(narrow));
  }
  return arith::ConstantOp::create(b, loc, attr);
}

LogicalResult interpolateRule(InterpolateOp op, OpBuilder &b, Grads dys,
                              OperandGrads dxs) {
  Location loc = op.getLoc();
  RankedTensorType inputType = op.getInput().getType();
  auto resultType = cast<RankedTensorType>(op.getType());
  Type element = inputType.getElementType();
  FloatType compute = element.isF64() ? cast<FloatType>(b.getF64Type())
                                      : cast<FloatType>(b.getF32Type());
  bool bilinear = op.getMode() == "bilinear";
  bool align = op.getAlignCorners();
  std::optional<double> ratioH, ratioW;
  if (auto scales = op.getScales()) {
    ratioH = (*scales)[0];
    ratioW = (*scales)[1];
  }
  int64_t h = inputType.getDimSize(2), w = inputType.getDimSize(3);
  resize::AxisTable rows =
      resize::axisTable(h, resultType.getDimSize(2), bilinear, align, ratioH,
                        compute.isF64());
  resize::AxisTable cols =
      resize::axisTable(w, resultType.getDimSize(3), bilinear, align, ratioW,
                        compute.isF64());
  Value rowsT = axisMatrix(b, loc, rows, h, /*transposed=*/true, compute);
  Value colsM = axisMatrix(b, loc, cols, w, /*transposed=*/false, compute);
  Value dy = dys[0];
  if (element != compute)
    dy = CastOp::create(b, loc, dy, TypeAttr::get(compute));
  // [H, OH] @ [N, C, OH, OW] -> [N, C, H, OW]; then @ [OW, W].
  Value partial = MatmulOp::create(b, loc, rowsT, dy, UnitAttr(), UnitAttr());
  Value dx = MatmulOp::create(b, loc, partial, colsM, UnitAttr(), UnitAttr());
  if (element != compute)
    dx = CastOp::create(b, loc, dx, TypeAttr::get(element));
  dxs[0] = dx;
  return success();
}

} // namespace

void attachResizeGradients(MLIRContext &context) {
  attachRule<InterpolateOp, interpolateRule>(context);
}

} // namespace grad
} // namespace ms
