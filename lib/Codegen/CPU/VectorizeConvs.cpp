//===- VectorizeConvs.cpp - Convolution straight from the image -----------===//
//
// convert-ms-to-linalg{conv-as-matmul} lowers a conv to an im2col copy of
// each image and a matmul. The matmul's register tile can read the image
// directly instead: no copy, and the image stays in L1. The pass driver:
// ConvMatcher.h recognizes the conv and a pooled epilogue, TileSizeModel
// chooses the tile, and ConvTiles.h's strategies (channel lanes, pixel
// lanes, pooled) emit it. The choice is recorded in the function's
// `ms.schedules`.
//
//===----------------------------------------------------------------------===//

#include "ConvTiles.h"

#include "ms/Codegen/CPU/Passes.h"
#include "ms/Codegen/CPU/VectorizationUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace ms {
#define GEN_PASS_DEF_MSVECTORIZECONVS
#include "ms/Codegen/CPU/Passes.h.inc"
} // namespace ms

using namespace mlir;
using namespace ms;
using namespace ms::conv;

namespace {

/// The conv's entry in ms.schedules.
DictionaryAttr describe(const Im2colConv &conv, StringRef strategy,
                        const ConvTile &tile,
                        ArrayRef<NamedAttribute> extra = {}) {
  Builder b(conv.matmul->getContext());
  SmallVector<NamedAttribute> entries = {
      b.getNamedAttr("op", b.getStringAttr("conv")),
      b.getNamedAttr("out", b.getDenseI64ArrayAttr(
                                {conv.channelsOut, conv.outH, conv.outW})),
      b.getNamedAttr("strategy", b.getStringAttr(strategy)),
      b.getNamedAttr("tile",
                     b.getDenseI64ArrayAttr({tile.lanes, tile.accumulators}))};
  entries.append(extra.begin(), extra.end());
  return b.getDictionaryAttr(entries);
}

struct MSVectorizeConvsPass
    : ms::impl::MSVectorizeConvsBase<MSVectorizeConvsPass> {
  using MSVectorizeConvsBase::MSVectorizeConvsBase;

  void runOnOperation() override {
    CpuModel cpu = CpuModel::host();
    if (vectorLanes)
      cpu.vectorLanes = vectorLanes;
    if (vectorRegisters)
      cpu.vectorRegisters = vectorRegisters;
    SmallVector<Im2colConv> convs;
    getOperation()->walk([&](linalg::MatmulOp matmul) {
      if (std::optional<Im2colConv> conv = matchIm2colConv(matmul))
        convs.push_back(*conv);
    });
    IRRewriter rewriter(&getContext());
    for (const Im2colConv &conv : convs)
      if (std::optional<ConvTile> tile = chooseConvTile(
              cpu, conv.channelsOut, conv.outW, conv.strideW))
        rewrite(rewriter, conv, *tile);
  }

  /// A channel-lane tile that holds whole pooling windows pools them.
  void rewrite(RewriterBase &rewriter, const Im2colConv &conv,
               const ConvTile &tile) {
    Operation *anchor = conv.matmul->getParentOp();
    std::optional<PooledEpilogue> fused =
        poolEpilogues && tile.channelLanes ? matchPooledEpilogue(conv)
                                           : std::nullopt;
    int64_t windowsPerTile =
        fused ? choosePooledWindowsPerTile(tile, conv.outW, fused->windowH,
                                           fused->windowW)
              : 0;
    Builder b(&getContext());
    if (windowsPerTile > 0) {
      recordSchedule(
          anchor,
          describe(conv, "pooled", tile,
                   {b.getNamedAttr("window",
                                   b.getDenseI64ArrayAttr(
                                       {fused->windowH, fused->windowW})),
                    b.getNamedAttr("windows_per_tile",
                                   b.getI64IntegerAttr(windowsPerTile))}));
      emitPooledTiles(rewriter, conv, tile, *fused, windowsPerTile);
    } else if (tile.channelLanes) {
      recordSchedule(anchor, describe(conv, "channel-lanes", tile));
      emitChannelLaneTiles(rewriter, conv, tile);
    } else {
      recordSchedule(anchor,
                     describe(conv, tile.flatPixels ? "flat-pixel-lanes"
                                                    : "pixel-lanes",
                              tile));
      emitPixelLaneTiles(rewriter, conv, tile);
    }
  }
};

} // namespace
