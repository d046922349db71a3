//===- ConvChannelLaneTiles.cpp - Output channels in the vector lanes -----===//
//
// When the output channels fill whole vectors (16 or 8 of them), the
// weights are transposed once to [K, O]; per tap, one weight vector times
// each pixel's image value, broadcast, for the pixels of a row the
// registers hold. Any stride. The pixels' vectors are then transposed into
// channel rows by shuffles and each channel's pixels written at once.
//
//===----------------------------------------------------------------------===//

#include "ConvTiles.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

namespace ms::conv {
namespace {

class ChannelLaneTiles : ConvTileBuilder {
public:
  using ConvTileBuilder::ConvTileBuilder;

  void run(RewriterBase &b) {
    weights = transposeWeights(b);
    b.setInsertionPoint(conv.matmul);
    padding = zero(b);
    ProductInit start = productInit();
    filled = start.filled;
    Value product = overRowTiles(
        b, start.init, tile.lanes, tile.accumulators,
        [&](OpBuilder &tb, Value out, Value o0, int64_t, Value oh, Value ow0,
            int64_t pixels) {
          return registerTile(tb, out, o0, oh, ow0, pixels);
        });
    replaceMatmul(b, start, product);
  }

private:
  /// out[o0 : o0+lanes, oh, ow0 : ow0+pixels] = the sum over (c, kh, kw)
  /// in order of weight * image, one FMA per term, as the matmul summed it:
  /// an accumulator per pixel.
  Value registerTile(OpBuilder &tb, Value out, Value o0, Value oh, Value ow0,
                     int64_t pixels) {
    SmallVector<Value> column;
    for (int64_t r = 0; r < pixels; ++r)
      column.push_back(tb.createOrFold<arith::AddIOp>(loc, ow0, index(tb, r)));
    SmallVector<Value> accumulators =
        startAccumulators(tb, filled, pixels, [&](int64_t r) {
          return readPixel(tb, out, o0, oh, column[r]);
        });
    Value rowBase =
        arith::MulIOp::create(tb, loc, oh, index(tb, conv.strideH));
    SmallVector<Value> sums = sumOverTaps(
        tb, accumulators,
        [&](OpBuilder &kb, Value c, Value kh, int64_t kw, Value k,
            SmallVector<Value> &acc) {
          Value row = arith::AddIOp::create(
              kb, loc, rowBase,
              arith::MulIOp::create(kb, loc, kh, index(kb, conv.dilationH)));
          channelLanesTap(kb, conv.image, weights, padding, acc,
                          SmallVector<Value>(acc.size(), row), column, c, k,
                          o0, kw);
        });
    return writeTransposed(tb, padding, sums, out, o0, oh, ow0);
  }

  /// An accumulator's start when the product was not zero-filled: the
  /// channels o0.. at one pixel.
  Value readPixel(OpBuilder &tb, Value out, Value o0, Value oh, Value ow) {
    return vector::TransferReadOp::create(
        tb, loc, vectorType, out, ValueRange{o0, oh, ow}, padding,
        AffineMap::get(3, 0, {tb.getAffineDimExpr(0)}, tb.getContext()),
        ArrayRef<bool>{true});
  }

  Value weights, padding, filled;
};

} // namespace

void emitChannelLaneTiles(RewriterBase &rewriter, const Im2colConv &conv,
                          const ConvTile &tile) {
  ChannelLaneTiles(conv, tile).run(rewriter);
}

} // namespace ms::conv
