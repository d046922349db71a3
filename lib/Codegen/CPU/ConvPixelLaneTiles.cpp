//===- ConvPixelLaneTiles.cpp - Output pixels in the vector lanes ---------===//
//
// For unit stride along the width: per tap, a contiguous run of an image
// row times each channel's weight, broadcast, for the channels the
// registers hold. Rows longer than a vector that it does not divide are
// tiled over the flattened pixels, a tile reading a run from each of the
// two rows it may span (LeNet's 28); a shorter row is one masked tile.
//
//===----------------------------------------------------------------------===//

#include "ConvTiles.h"

#include "ms/Codegen/CPU/VectorizationUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

namespace ms::conv {
namespace {

class PixelLaneTiles : ConvTileBuilder {
public:
  using ConvTileBuilder::ConvTileBuilder;

  void run(RewriterBase &b) {
    b.setInsertionPoint(conv.matmul);
    padding = zero(b);
    ProductInit start = productInit();
    filled = start.filled;
    auto rowTiles = [&](OpBuilder &tb, Value out, Value o0, int64_t channels,
                        Value oh, Value ow0, int64_t pixels) {
      return rowTile(tb, out, o0, channels, oh, ow0, pixels);
    };
    Value product =
        tile.flatPixels
            ? overFlatTiles(b, start.init)
            : overRowTiles(b, start.init, tile.accumulators, tile.lanes,
                           rowTiles);
    replaceMatmul(b, start, product);
  }

private:

  /// out[o0 : o0+channels, oh, ow0 : ow0+pixels] = the sum over (c, kh, kw)
  /// in order of weight * image, one FMA per term, as the matmul summed it:
  /// an accumulator per channel.
  Value rowTile(OpBuilder &tb, Value out, Value o0, int64_t channels,
                Value oh, Value ow0, int64_t pixels) {
    SmallVector<Value> channel = channelsFrom(tb, o0, channels);
    SmallVector<Value> accumulators =
        startAccumulators(tb, filled, channels, [&](int64_t r) {
          return readLanes(tb, loc, vectorType, out, {channel[r], oh, ow0},
                           padding, pixels);
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
          rowTap(kb, acc, channel, c, row, k, ow0, kw, pixels);
        });
    for (int64_t r = 0; r < channels; ++r)
      out = writeLanes(tb, loc, sums[r], out, {channel[r], oh, ow0}, pixels);
    return out;
  }

  /// o0, o0 + 1, ..., the channels of a tile's accumulators.
  SmallVector<Value> channelsFrom(OpBuilder &tb, Value o0, int64_t channels) {
    SmallVector<Value> channel;
    for (int64_t i = 0; i < channels; ++i)
      channel.push_back(tb.createOrFold<arith::AddIOp>(loc, o0, index(tb, i)));
    return channel;
  }

  /// One tap of a row tile: a contiguous run of the image row, times each
  /// channel's weight.
  void rowTap(OpBuilder &kb, SmallVector<Value> &acc, ArrayRef<Value> channel,
              Value c, Value row, Value k, Value ow0, int64_t kw,
              int64_t active) {
    // Folded, so the remainder tile's constant start is visible below.
    Value imageColumn = kb.createOrFold<arith::AddIOp>(
        loc, ow0, index(kb, kw * conv.dilationW));
    // Lanes past the output row are junk; only those past the image row
    // must not be read. With a constant start, read as far as the row goes.
    int64_t readable = active;
    if (std::optional<int64_t> start = getConstantIntValue(imageColumn))
      readable = std::max(active, imageWidth - *start);
    Value pixels = readLanes(kb, loc, vectorType, conv.image,
                             {c, row, imageColumn}, padding, readable);
    accumulateByChannel(kb, acc, channel, k, pixels);
  }

  /// acc[i] += weight[channel[i], k] * pixels, one FMA each.
  void accumulateByChannel(OpBuilder &kb, SmallVector<Value> &acc,
                           ArrayRef<Value> channel, Value k, Value pixels) {
    for (size_t i = 0; i < acc.size(); ++i) {
      Value weight = tensor::ExtractOp::create(kb, loc, conv.weights,
                                               ValueRange{channel[i], k});
      Value splat = vector::BroadcastOp::create(kb, loc, vectorType, weight);
      acc[i] = math::FmaOp::create(kb, loc, splat, pixels, acc[i]);
    }
  }

  /// The product's tiles over channels and the flattened pixels; the image
  /// as [C, H*W], so a tile's runs are offsets into a channel.
  Value overFlatTiles(OpBuilder &b, Value init) {
    int64_t imageH = cast<ShapedType>(conv.image.getType()).getDimSize(1);
    flatImage = tensor::CollapseShapeOp::create(
        b, loc,
        RankedTensorType::get({conv.channels, imageH * imageWidth},
                              elementType),
        conv.image, SmallVector<ReassociationIndices>{{0}, {1, 2}});
    return split(
        b, init, conv.channelsOut, tile.accumulators,
        [&](OpBuilder &cb, Value out, Value o0, int64_t channels) {
          return split(cb, out, conv.outH * conv.outW, tile.lanes,
                       [&](OpBuilder &pb, Value tileOut, Value p0,
                           int64_t active) {
                         return flatTile(pb, tileOut, o0, channels, p0,
                                         active);
                       });
        });
  }

  /// Where the runs of a flat tile start: its first `head` lanes are output
  /// row r from column c0, the rest row r+1 from column 0.
  struct FlatRuns {
    Value head, inHead, inTail, headBase, tailBase, width;
  };

  FlatRuns flatRuns(OpBuilder &tb, Value p0, int64_t active) {
    auto vectorOfLanes = [&](int64_t n) {
      return VectorType::get({n}, tb.getI1Type());
    };
    FlatRuns runs;
    Value outW = index(tb, conv.outW);
    Value r = arith::DivUIOp::create(tb, loc, p0, outW);
    Value c0 = arith::RemUIOp::create(tb, loc, p0, outW);
    runs.head = arith::MinUIOp::create(
        tb, loc, index(tb, tile.lanes),
        arith::SubIOp::create(tb, loc, outW, c0));
    // Lanes past the last pixel (in the remainder tile) are in neither run.
    Value inTile = vector::CreateMaskOp::create(
        tb, loc, vectorOfLanes(tile.lanes), ValueRange{index(tb, active)});
    runs.inHead = vector::CreateMaskOp::create(
        tb, loc, vectorOfLanes(tile.lanes),
        ValueRange{
            arith::MinUIOp::create(tb, loc, runs.head, index(tb, active))});
    runs.inTail = arith::XOrIOp::create(tb, loc, runs.inHead, inTile);
    int64_t imageH = cast<ShapedType>(conv.image.getType()).getDimSize(1);
    runs.width = index(tb, imageWidth);
    // Image offsets of each run's first pixel at tap (0, 0): row r from
    // column c0; row r+1 shifted left by `head` so that lane `head` reads
    // its column 0.
    runs.headBase = arith::AddIOp::create(
        tb, loc,
        arith::MulIOp::create(
            tb, loc, arith::MulIOp::create(tb, loc, r, index(tb, conv.strideH)),
            runs.width),
        c0);
    // A tile within one row reads no tail, and its tail start may then lie
    // past the image: keep every tap's start inside. A tail that is read
    // never starts later than this bound, so the bound changes nothing.
    int64_t lastTap = (conv.kernelH - 1) * conv.dilationH * imageWidth +
                      (conv.kernelW - 1) * conv.dilationW;
    runs.tailBase = arith::MinUIOp::create(
        tb, loc,
        arith::SubIOp::create(
            tb, loc,
            arith::MulIOp::create(
                tb, loc,
                arith::MulIOp::create(
                    tb, loc, arith::AddIOp::create(tb, loc, r, index(tb, 1)),
                    index(tb, conv.strideH)),
                runs.width),
            runs.head),
        index(tb, imageH * imageWidth - 1 - lastTap));
    return runs;
  }

  /// product[o0 : o0+channels, p0 : p0+active] over the flattened pixels.
  /// Tiles within one output row (4 of every 7 for 28-pixel rows and 16
  /// lanes) read one run per tap; the others read both runs and select.
  Value flatTile(OpBuilder &tb, Value out, Value o0, int64_t channels,
                 Value p0, int64_t active) {
    FlatRuns runs = flatRuns(tb, p0, active);
    SmallVector<Value> channel = channelsFrom(tb, o0, channels);
    SmallVector<Value> accumulators =
        startAccumulators(tb, filled, channels, [&](int64_t i) {
          return readLanes(tb, loc, vectorType, out, {channel[i], p0},
                           padding, active);
        });
    auto emit = [&](OpBuilder &eb, bool twoRuns) -> Value {
      SmallVector<Value> sums = sumOverTaps(
          eb, accumulators,
          [&](OpBuilder &kb, Value c, Value kh, int64_t kw, Value k,
              SmallVector<Value> &acc) {
            accumulateByChannel(kb, acc, channel, k,
                                flatTap(kb, runs, c, kh, kw, active, twoRuns));
          });
      Value result = out;
      for (int64_t i = 0; i < channels; ++i)
        result = writeLanes(eb, loc, sums[i], result, {channel[i], p0}, active);
      return result;
    };
    Value oneRun = arith::CmpIOp::create(tb, loc, arith::CmpIPredicate::uge,
                                         runs.head, index(tb, active));
    auto branches = scf::IfOp::create(
        tb, loc, oneRun,
        [&](OpBuilder &b, Location) {
          scf::YieldOp::create(b, loc, emit(b, false));
        },
        [&](OpBuilder &b, Location) {
          scf::YieldOp::create(b, loc, emit(b, true));
        });
    return branches.getResult(0);
  }

  /// The pixels of one tap of a flat tile: one masked run, or the head run
  /// and the tail run merged by a select.
  Value flatTap(OpBuilder &kb, const FlatRuns &runs, Value c, Value kh,
                int64_t kw, int64_t active, bool twoRuns) {
    Value tap = arith::AddIOp::create(
        kb, loc,
        arith::MulIOp::create(
            kb, loc,
            arith::MulIOp::create(kb, loc, kh, index(kb, conv.dilationH)),
            runs.width),
        index(kb, kw * conv.dilationW));
    Value headStart = arith::AddIOp::create(kb, loc, runs.headBase, tap);
    if (!twoRuns)
      return readLanes(kb, loc, vectorType, flatImage, {c, headStart},
                       padding, active);
    AffineMap lastDim = AffineMap::getMinorIdentityMap(2, 1, kb.getContext());
    Value headRun = vector::TransferReadOp::create(
        kb, loc, vectorType, flatImage, ValueRange{c, headStart}, lastDim,
        padding, runs.inHead, kb.getBoolArrayAttr({true}));
    Value tailRun = vector::TransferReadOp::create(
        kb, loc, vectorType, flatImage,
        ValueRange{c, arith::AddIOp::create(kb, loc, runs.tailBase, tap)},
        lastDim, padding, runs.inTail, kb.getBoolArrayAttr({true}));
    return arith::SelectOp::create(kb, loc, runs.inHead, headRun, tailRun);
  }

  Value padding, filled, flatImage;
};

} // namespace

void emitPixelLaneTiles(RewriterBase &rewriter, const Im2colConv &conv,
                        const ConvTile &tile) {
  PixelLaneTiles(conv, tile).run(rewriter);
}

} // namespace ms::conv
