//===- ConvTiles.cpp - What the conv tile strategies build alike ----------===//

#include "ConvTiles.h"

#include "ms/Codegen/CPU/VectorizationUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

namespace ms::conv {

ConvTileBuilder::ConvTileBuilder(const Im2colConv &conv, const ConvTile &tile)
    : conv(conv), tile(tile), loc(conv.matmul->getLoc()),
      elementType(getElementTypeOrSelf(conv.image.getType())),
      vectorType(VectorType::get({tile.lanes}, elementType)),
      imageWidth(cast<ShapedType>(conv.image.getType()).getShape().back()) {}

Value ConvTileBuilder::index(OpBuilder &b, int64_t v) const {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value ConvTileBuilder::zero(OpBuilder &b) const {
  return arith::ConstantOp::create(b, loc, elementType,
                                   b.getZeroAttr(elementType));
}

Value ConvTileBuilder::split(OpBuilder &b, Value out, int64_t extent,
                             int64_t step, TileBody body) const {
  int64_t whole = extent / step * step;
  if (whole > 0) {
    auto loop = scf::ForOp::create(
        b, loc, index(b, 0), index(b, whole), index(b, step), ValueRange{out},
        [&](OpBuilder &lb, Location, Value iv, ValueRange args) {
          scf::YieldOp::create(lb, loc, body(lb, args[0], iv, step));
        });
    out = loop.getResult(0);
  }
  if (whole < extent)
    out = body(b, out, index(b, whole), extent - whole);
  return out;
}

SmallVector<Value> ConvTileBuilder::sumOverTaps(OpBuilder &b,
                                                ValueRange accumulators,
                                                TapBody tap) const {
  auto overChannels = scf::ForOp::create(
      b, loc, index(b, 0), index(b, conv.channels), index(b, 1), accumulators,
      [&](OpBuilder &cb, Location, Value c, ValueRange byChannel) {
        auto overRows = scf::ForOp::create(
            cb, loc, index(cb, 0), index(cb, conv.kernelH), index(cb, 1),
            byChannel,
            [&](OpBuilder &kb, Location, Value kh, ValueRange byRow) {
              SmallVector<Value> acc(byRow);
              Value kRow = arith::MulIOp::create(
                  kb, loc,
                  arith::AddIOp::create(
                      kb, loc,
                      arith::MulIOp::create(kb, loc, c,
                                            index(kb, conv.kernelH)),
                      kh),
                  index(kb, conv.kernelW));
              for (int64_t kw = 0; kw < conv.kernelW; ++kw)
                tap(kb, c, kh, kw,
                    arith::AddIOp::create(kb, loc, kRow, index(kb, kw)), acc);
              scf::YieldOp::create(kb, loc, acc);
            });
        scf::YieldOp::create(cb, loc, overRows.getResults());
      });
  return SmallVector<Value>(overChannels.getResults());
}

Value ConvTileBuilder::transposeWeights(RewriterBase &b) const {
  OpBuilder::InsertionGuard guard(b);
  Value weights = conv.weights;
  if (Operation *def = weights.getDefiningOp())
    b.setInsertionPointAfter(def);
  else
    b.setInsertionPointToStart(weights.getParentBlock());
  auto type = cast<RankedTensorType>(weights.getType());
  Value empty = tensor::EmptyOp::create(
      b, loc, ArrayRef<int64_t>{type.getDimSize(1), type.getDimSize(0)},
      elementType);
  return linalg::TransposeOp::create(b, loc, weights, empty,
                                     ArrayRef<int64_t>{1, 0})
      ->getResult(0);
}

void ConvTileBuilder::channelLanesTap(OpBuilder &b, Value image,
                                      Value weightsKO, Value padding,
                                      SmallVector<Value> &acc,
                                      ArrayRef<Value> row,
                                      ArrayRef<Value> column, Value c, Value k,
                                      Value o0, int64_t kw) const {
  Value weightVector = vector::TransferReadOp::create(
      b, loc, vectorType, weightsKO, ValueRange{k, o0}, padding,
      ArrayRef<bool>{true});
  for (size_t r = 0; r < acc.size(); ++r) {
    Value imageColumn = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(b, loc, column[r], index(b, conv.strideW)),
        index(b, kw * conv.dilationW));
    Value pixel = tensor::ExtractOp::create(
        b, loc, image, ValueRange{c, row[r], imageColumn});
    Value splat = vector::BroadcastOp::create(b, loc, vectorType, pixel);
    acc[r] = math::FmaOp::create(b, loc, weightVector, splat, acc[r]);
  }
}

Value ConvTileBuilder::writeTransposed(OpBuilder &b, Value padding,
                                       ValueRange accumulators, Value out,
                                       Value o0, Value oh, Value ow0) const {
  Value zeros = vector::BroadcastOp::create(b, loc, vectorType, padding);
  int64_t pixels = accumulators.size();
  for (int64_t first = 0; first < pixels; first += tile.lanes) {
    SmallVector<Value> square;
    for (int64_t r = first; r < first + tile.lanes; ++r)
      square.push_back(r < pixels ? accumulators[r] : zeros);
    SmallVector<Value> channelRows = transposeRows(b, loc, square);
    Value column = b.createOrFold<arith::AddIOp>(loc, ow0, index(b, first));
    for (int64_t o = 0; o < tile.lanes; ++o) {
      Value channel = b.createOrFold<arith::AddIOp>(loc, o0, index(b, o));
      out = writeLanes(b, loc, channelRows[o], out, {channel, oh, column},
                       std::min(tile.lanes, pixels - first));
    }
  }
  return out;
}

SmallVector<Value> ConvTileBuilder::startAccumulators(
    OpBuilder &b, Value filled, int64_t count,
    function_ref<Value(int64_t)> read) const {
  SmallVector<Value> accumulators;
  for (int64_t i = 0; i < count; ++i)
    accumulators.push_back(
        filled ? vector::BroadcastOp::create(b, loc, vectorType, filled)
                     .getResult()
               : read(i));
  return accumulators;
}

ConvTileBuilder::ProductInit ConvTileBuilder::productInit() const {
  ProductInit start;
  linalg::MatmulOp matmul = conv.matmul;
  start.init = matmul.getDpsInits()[0];
  start.fill = start.init.getDefiningOp();
  start.filled = start.init.hasOneUse() ? filledScalar(start.fill) : nullptr;
  if (start.filled)
    start.init = cast<DestinationStyleOpInterface>(start.fill).getDpsInits()[0];
  return start;
}

Value ConvTileBuilder::overRowTiles(OpBuilder &b, Value init,
                                    int64_t channelStep, int64_t pixelStep,
                                    RowTileBody body) const {
  auto productType = cast<RankedTensorType>(init.getType());
  SmallVector<ReassociationIndices> pixels = {{0}, {1, 2}};
  Value outRows = tensor::ExpandShapeOp::create(
      b, loc,
      RankedTensorType::get({conv.channelsOut, conv.outH, conv.outW},
                            elementType),
      init, pixels);
  // Whole tiles in a loop, then the remainder tile, on both axes.
  outRows = split(
      b, outRows, conv.channelsOut, channelStep,
      [&](OpBuilder &cb, Value out, Value o0, int64_t channels) {
        auto overRows = scf::ForOp::create(
            cb, loc, index(cb, 0), index(cb, conv.outH), index(cb, 1),
            ValueRange{out},
            [&](OpBuilder &rb, Location, Value oh, ValueRange args) {
              Value rowOut = split(
                  rb, args[0], conv.outW, pixelStep,
                  [&](OpBuilder &tb, Value tileOut, Value ow0,
                      int64_t pixelCount) {
                    return body(tb, tileOut, o0, channels, oh, ow0,
                                pixelCount);
                  });
              scf::YieldOp::create(rb, loc, rowOut);
            });
        return overRows.getResult(0);
      });
  return tensor::CollapseShapeOp::create(b, loc, productType, outRows, pixels);
}

void ConvTileBuilder::replaceMatmul(RewriterBase &b, const ProductInit &start,
                                    Value product) const {
  b.replaceOp(conv.matmul, product);
  if (start.filled && start.fill->use_empty())
    b.eraseOp(start.fill);
  if (conv.columns->use_empty())
    b.eraseOp(conv.columns);
  if (conv.windows->use_empty())
    b.eraseOp(conv.windows);
}

} // namespace ms::conv
