//===- ConvTiles.h - The register tiles of ms-vectorize-convs ---*- C++ -*-===//
//
// Private to ms-vectorize-convs. Three strategies replace a matched im2col
// conv (ConvMatcher.h) with register tiles that read the image itself:
// - channel-lane tiles (ConvChannelLaneTiles.cpp): output channels in the
//   vector lanes, a weight vector per tap, each pixel's image value
//   broadcast;
// - pixel-lane tiles (ConvPixelLaneTiles.cpp): pixels in the lanes, a
//   contiguous image run per tap, each channel's weight broadcast; over
//   output rows, or over the flattened pixels when the lanes do not divide
//   a row;
// - pooled tiles (ConvPooledTiles.cpp): channel-lane tiles that cover whole
//   max-pool windows, run the elementwise chain and pool in registers.
// Each strategy reads the match and the tile, which it does not change, and
// keeps the values it makes (transposed weights, constants) to itself.
// ConvTileBuilder holds what they share: the IR every tile builds alike.
//
//===----------------------------------------------------------------------===//
#ifndef MS_LIB_CODEGEN_CPU_CONVTILES_H
#define MS_LIB_CODEGEN_CPU_CONVTILES_H

#include "ConvMatcher.h"

#include "ms/Codegen/CPU/TileSizeModel.h"

#include "mlir/IR/PatternMatch.h"

namespace ms::conv {

/// Rewrites `conv` with channel-lane tiles (tile.channelLanes).
void emitChannelLaneTiles(mlir::RewriterBase &rewriter, const Im2colConv &conv,
                          const ConvTile &tile);

/// Rewrites `conv` with pixel-lane tiles (!tile.channelLanes).
void emitPixelLaneTiles(mlir::RewriterBase &rewriter, const Im2colConv &conv,
                        const ConvTile &tile);

/// Rewrites `conv`, `fused`'s chain and its pool as one loop over the
/// images of channel-lane tiles covering `windowsPerTile` pooling windows
/// of a row each.
void emitPooledTiles(mlir::RewriterBase &rewriter, const Im2colConv &conv,
                     const ConvTile &tile, const PooledEpilogue &fused,
                     int64_t windowsPerTile);

/// The IR the strategies build alike. Everything here is fixed when it is
/// made; the values a strategy creates are passed in by that strategy.
class ConvTileBuilder {
public:
  ConvTileBuilder(const Im2colConv &conv, const ConvTile &tile);

protected:
  using TileBody =
      llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Value,
                                     mlir::Value, int64_t)>;
  using TapBody = llvm::function_ref<void(
      mlir::OpBuilder &, mlir::Value c, mlir::Value kh, int64_t kw,
      mlir::Value k, llvm::SmallVector<mlir::Value> &acc)>;
  using RowTileBody = llvm::function_ref<mlir::Value(
      mlir::OpBuilder &, mlir::Value out, mlir::Value o0, int64_t channels,
      mlir::Value oh, mlir::Value ow0, int64_t pixels)>;

  /// Where a product's tiles start and write: the product's init, or, when
  /// the product is zero-filled, the fill's destination and the filled
  /// scalar each accumulator starts from.
  struct ProductInit {
    mlir::Value init;
    mlir::Operation *fill = nullptr;
    mlir::Value filled;
  };

  mlir::Value index(mlir::OpBuilder &b, int64_t v) const;
  /// A zero of the element type: the padding of masked reads.
  mlir::Value zero(mlir::OpBuilder &b) const;

  /// Runs `body(out, start, size)` over [0, extent) in steps of `step`: a
  /// loop over the whole steps, then one call for the remainder.
  mlir::Value split(mlir::OpBuilder &b, mlir::Value out, int64_t extent,
                    int64_t step, TileBody body) const;

  /// The sum over (c, kh, kw) in the im2col matmul's order: loops over c
  /// and kh carrying `accumulators`, and `tap` for each kw in turn, where
  /// k = (c * KH + kh) * KW + kw is the im2col row.
  llvm::SmallVector<mlir::Value>
  sumOverTaps(mlir::OpBuilder &b, mlir::ValueRange accumulators,
              TapBody tap) const;

  /// [O, K] weights as [K, O], so a tap's output channels are one vector:
  /// once per call, where the weights are defined (outside the batch loop).
  mlir::Value transposeWeights(mlir::RewriterBase &b) const;

  /// One tap with channels in the lanes: the tap's weights for o0.. as one
  /// vector (of the [K, O] `weightsKO`), times each pixel's image value.
  void channelLanesTap(mlir::OpBuilder &b, mlir::Value image,
                       mlir::Value weightsKO, mlir::Value padding,
                       llvm::SmallVector<mlir::Value> &acc,
                       llvm::ArrayRef<mlir::Value> row,
                       llvm::ArrayRef<mlir::Value> column, mlir::Value c,
                       mlir::Value k, mlir::Value o0, int64_t kw) const;

  /// Channel-lane accumulators (one per pixel) as channel rows: `lanes`
  /// pixels at a time, padded with zeros to a square and transposed by
  /// shuffles, then each channel's row of pixels written at once.
  mlir::Value writeTransposed(mlir::OpBuilder &b, mlir::Value padding,
                              mlir::ValueRange accumulators, mlir::Value out,
                              mlir::Value o0, mlir::Value oh,
                              mlir::Value ow0) const;

  /// `count` accumulators: each the `filled` scalar broadcast when the
  /// product was filled, else `read(i)` of the product.
  llvm::SmallVector<mlir::Value>
  startAccumulators(mlir::OpBuilder &b, mlir::Value filled, int64_t count,
                    llvm::function_ref<mlir::Value(int64_t)> read) const;

  /// The product's init, seen through a zero fill that has no other use.
  ProductInit productInit() const;

  /// The product as [O, OH, OW], its tiles over channels by `channelStep`,
  /// output rows, and pixels of a row by `pixelStep`, each written by
  /// `body`; returns the product as [O, OH*OW].
  mlir::Value overRowTiles(mlir::OpBuilder &b, mlir::Value init,
                           int64_t channelStep, int64_t pixelStep,
                           RowTileBody body) const;

  /// Replaces the matmul by `product` and erases what fed only it.
  void replaceMatmul(mlir::RewriterBase &b, const ProductInit &start,
                     mlir::Value product) const;

  const Im2colConv &conv;
  const ConvTile tile;
  const mlir::Location loc;
  const mlir::Type elementType;
  const mlir::VectorType vectorType;
  const int64_t imageWidth;
};

} // namespace ms::conv

#endif // MS_LIB_CODEGEN_CPU_CONVTILES_H
