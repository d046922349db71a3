//===- VectorizeConvs.cpp - Convolution straight from the image -----------===//
//
// convert-ms-to-linalg{conv-as-matmul} lowers a conv to an im2col copy of
// each image and a matmul. For a conv with unit stride along the width, a
// row of the im2col matrix restricted to one output row is a contiguous
// run of the image itself, so the matmul's register tile can read the image
// directly: no copy, and the image stays in L1. This pass does that when
// the output rows fill the vector lanes well (LeNet's first conv: 28 of 32).
//
//===----------------------------------------------------------------------===//

#include "ms/Dialect/MS/Transforms/Passes.h"
#include "ms/Dialect/MS/Transforms/TileSizeModel.h"
#include "ms/Dialect/MS/Transforms/VectorizationUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

namespace ms {
#define GEN_PASS_DEF_MSVECTORIZECONVS
#include "ms/Dialect/MS/Transforms/Passes.h.inc"
} // namespace ms

using namespace mlir;
using namespace ms;

namespace {

/// product[O, OH*OW] = weights[O, C*KH*KW] x collapse(windows), where
/// windows[c, kh, kw, oh, ow] = image[c, oh*sh + kh*dh, ow + kw*dw].
struct Im2colMatmul {
  linalg::MatmulOp matmul;
  linalg::GenericOp windows;
  tensor::CollapseShapeOp columns;
  int64_t channels = 0, kernelH = 0, kernelW = 0, outH = 0, outW = 0;
  int64_t strideH = 0, dilationH = 0, dilationW = 0;
};

std::optional<Im2colMatmul> matchIm2colMatmul(linalg::MatmulOp matmul) {
  if (!matmul.hasPureTensorSemantics() || matmul.hasUserDefinedMaps())
    return std::nullopt;
  Im2colMatmul conv;
  conv.matmul = matmul;
  conv.columns = matmul.getDpsInputs()[1].getDefiningOp<tensor::CollapseShapeOp>();
  if (!conv.columns ||
      conv.columns.getReassociationIndices() !=
          SmallVector<ReassociationIndices>{{0, 1, 2}, {3, 4}})
    return std::nullopt;
  conv.windows = conv.columns.getSrc().getDefiningOp<linalg::GenericOp>();
  linalg::GenericOp windows = conv.windows;
  if (!windows || !windows.hasPureTensorSemantics() ||
      windows.getNumDpsInputs() != 1 || windows.getNumDpsInits() != 1 ||
      windows.getNumParallelLoops() != 5 || windows.getNumLoops() != 5)
    return std::nullopt;
  Block *body = windows.getBody();
  if (!body->without_terminator().empty() ||
      body->getTerminator()->getOperand(0) != body->getArgument(0))
    return std::nullopt;
  auto imageType = dyn_cast<RankedTensorType>(windows.getDpsInputs()[0].getType());
  auto windowsType = cast<RankedTensorType>(windows.getResult(0).getType());
  if (!imageType || imageType.getRank() != 3 ||
      !imageType.hasStaticShape() || !windowsType.hasStaticShape() ||
      !isa<FloatType>(imageType.getElementType()))
    return std::nullopt;
  AffineMap imageMap = windows.getIndexingMapsArray()[0];
  if (!windows.getIndexingMapsArray()[1].isIdentity() ||
      imageMap.getResult(0) != getAffineDimExpr(0, matmul.getContext()))
    return std::nullopt;
  auto rows = linearCoefficients(imageMap.getResult(1), 5);
  auto cols = linearCoefficients(imageMap.getResult(2), 5);
  // Loops (c, kh, kw, oh, ow): rows at oh*sh + kh*dh, columns at
  // ow + kw*dw (unit stride: each output row is a contiguous image run).
  if (!rows || !cols || (*rows)[0] || (*rows)[2] || (*rows)[4] ||
      (*cols)[0] || (*cols)[1] || (*cols)[3] || (*cols)[4] != 1 ||
      (*rows)[3] < 1 || (*rows)[1] < 1 || (*cols)[2] < 1)
    return std::nullopt;
  ArrayRef<int64_t> shape = windowsType.getShape();
  conv.channels = shape[0];
  conv.kernelH = shape[1];
  conv.kernelW = shape[2];
  conv.outH = shape[3];
  conv.outW = shape[4];
  conv.strideH = (*rows)[3];
  conv.dilationH = (*rows)[1];
  conv.dilationW = (*cols)[2];
  auto weightsType =
      dyn_cast<RankedTensorType>(matmul.getDpsInputs()[0].getType());
  if (!weightsType || !weightsType.hasStaticShape() ||
      weightsType.getElementType() != imageType.getElementType() ||
      cast<ShapedType>(matmul.getResult(0).getType()).getElementType() !=
          imageType.getElementType())
    return std::nullopt;
  return conv;
}

/// The register tile: `rows` output channels by `lanes` pixels of an output
/// row, the same budget as the matmul micro-tile (two vectors of columns,
/// the registers left after a broadcast and loads hold accumulators).
struct ConvTile {
  int64_t rows = 0, lanes = 0;
};

ConvTile chooseTile(const CpuModel &cpu, int64_t outW, int64_t channelsOut) {
  ConvTile tile;
  tile.lanes = std::min<int64_t>(2 * cpu.vectorLanes, paddedLength(outW));
  int64_t registersPerRow =
      std::max<int64_t>(1, tile.lanes / cpu.vectorLanes);
  tile.rows = std::min<int64_t>(
      channelsOut,
      std::max<int64_t>(1, (cpu.vectorRegisters - 4) / registersPerRow));
  return tile;
}

/// Worth it only when the output rows fill most lanes: the lanes past a
/// row's end compute nothing useful, while im2col wastes none.
bool fillsLanes(int64_t outW, const ConvTile &tile) {
  int64_t tiles = (outW + tile.lanes - 1) / tile.lanes;
  return 8 * outW >= 7 * tiles * tile.lanes;
}

class ConvEmitter {
public:
  ConvEmitter(RewriterBase &rewriter, Im2colMatmul conv,
              const ConvTile &tile)
      : b(rewriter), conv(conv), tile(tile), loc(conv.matmul.getLoc()) {
    image = conv.windows.getDpsInputs()[0];
    weights = conv.matmul.getDpsInputs()[0];
    elementType = getElementTypeOrSelf(image.getType());
    imageWidth = cast<ShapedType>(image.getType()).getShape().back();
  }

  void run() {
    b.setInsertionPoint(conv.matmul);
    padding = arith::ConstantOp::create(b, loc, elementType,
                                        b.getZeroAttr(elementType));
    // A zero-filled product starts from the filled scalar and is written
    // straight into the fill's destination.
    Value init = conv.matmul.getDpsInits()[0];
    Operation *fill = init.getDefiningOp();
    filled = init.hasOneUse() ? filledScalar(fill) : nullptr;
    if (filled)
      init = cast<DestinationStyleOpInterface>(fill).getDpsInits()[0];
    auto productType = cast<RankedTensorType>(init.getType());
    int64_t channelsOut = productType.getDimSize(0);
    SmallVector<ReassociationIndices> pixels = {{0}, {1, 2}};
    Value outRows = tensor::ExpandShapeOp::create(
        b, loc,
        RankedTensorType::get({channelsOut, conv.outH, conv.outW},
                              elementType),
        init, pixels);
    // Whole tiles in a loop, then the remainder tile, on both axes.
    outRows = split(b, outRows, channelsOut, tile.rows,
                    [&](OpBuilder &nb, Value out, Value o0, int64_t rows) {
                      return forEachRow(nb, out, o0, rows);
                    });
    Value product = tensor::CollapseShapeOp::create(b, loc, productType,
                                                    outRows, pixels);
    rewriter().replaceOp(conv.matmul, product);
    if (filled && fill->use_empty())
      rewriter().eraseOp(fill);
    if (conv.columns->use_empty())
      rewriter().eraseOp(conv.columns);
    if (conv.windows->use_empty())
      rewriter().eraseOp(conv.windows);
  }

private:
  using TileBody =
      llvm::function_ref<Value(OpBuilder &, Value, Value, int64_t)>;

  RewriterBase &rewriter() { return b; }

  Value index(OpBuilder &nb, int64_t v) {
    return arith::ConstantIndexOp::create(nb, loc, v);
  }

  /// Runs `body(out, start, size)` over [0, extent) in steps of `step`: a
  /// loop over the whole steps, then one call for the remainder.
  Value split(OpBuilder &nb, Value out, int64_t extent, int64_t step,
              TileBody body) {
    int64_t whole = extent / step * step;
    if (whole > 0) {
      auto loop = scf::ForOp::create(
          nb, loc, index(nb, 0), index(nb, whole), index(nb, step),
          ValueRange{out},
          [&](OpBuilder &lb, Location, Value iv, ValueRange args) {
            scf::YieldOp::create(lb, loc, body(lb, args[0], iv, step));
          });
      out = loop.getResult(0);
    }
    if (whole < extent)
      out = body(nb, out, index(nb, whole), extent - whole);
    return out;
  }

  Value forEachRow(OpBuilder &nb, Value out, Value o0, int64_t rows) {
    auto loop = scf::ForOp::create(
        nb, loc, index(nb, 0), index(nb, conv.outH), index(nb, 1),
        ValueRange{out},
        [&](OpBuilder &lb, Location, Value oh, ValueRange args) {
          Value rowOut = split(
              lb, args[0], conv.outW, tile.lanes,
              [&](OpBuilder &tb, Value tileOut, Value ow0, int64_t active) {
                return registerTile(tb, tileOut, o0, rows, oh, ow0, active);
              });
          scf::YieldOp::create(lb, loc, rowOut);
        });
    return loop.getResult(0);
  }

  /// out[o0 : o0+rows, oh, ow0 : ow0+active] = sum over (c, kh, kw) in
  /// order of weight * image, one FMA per term, as the matmul summed it.
  Value registerTile(OpBuilder &tb, Value out, Value o0, int64_t rows,
                     Value oh, Value ow0, int64_t active) {
    auto vectorType = VectorType::get({tile.lanes}, elementType);
    SmallVector<Value> channel;
    for (int64_t r = 0; r < rows; ++r)
      channel.push_back(arith::AddIOp::create(tb, loc, o0, index(tb, r)));
    SmallVector<Value> accumulators;
    for (int64_t r = 0; r < rows; ++r)
      accumulators.push_back(
          filled ? vector::BroadcastOp::create(tb, loc, vectorType, filled)
                       .getResult()
                 : readLanes(tb, loc, vectorType, out, {channel[r], oh, ow0},
                             padding, active));
    Value rowBase =
        arith::MulIOp::create(tb, loc, oh, index(tb, conv.strideH));
    auto overChannels = scf::ForOp::create(
        tb, loc, index(tb, 0), index(tb, conv.channels), index(tb, 1),
        accumulators,
        [&](OpBuilder &cb, Location, Value c, ValueRange byChannel) {
          auto overRows = scf::ForOp::create(
              cb, loc, index(cb, 0), index(cb, conv.kernelH), index(cb, 1),
              byChannel,
              [&](OpBuilder &kb, Location, Value kh, ValueRange byRow) {
                SmallVector<Value> acc(byRow);
                Value row = arith::AddIOp::create(
                    kb, loc, rowBase,
                    arith::MulIOp::create(kb, loc, kh,
                                          index(kb, conv.dilationH)));
                // k = (c * KH + kh) * KW + kw, the im2col row.
                Value kRow = arith::MulIOp::create(
                    kb, loc,
                    arith::AddIOp::create(
                        kb, loc,
                        arith::MulIOp::create(kb, loc, c,
                                              index(kb, conv.kernelH)),
                        kh),
                    index(kb, conv.kernelW));
                for (int64_t kw = 0; kw < conv.kernelW; ++kw)
                  accumulateTap(kb, acc, channel, c, row, kRow, ow0, kw,
                                active);
                scf::YieldOp::create(kb, loc, acc);
              });
          scf::YieldOp::create(cb, loc, overRows.getResults());
        });
    for (int64_t r = 0; r < rows; ++r)
      out = writeLanes(tb, loc, overChannels.getResult(r), out,
                       {channel[r], oh, ow0}, active);
    return out;
  }

  void accumulateTap(OpBuilder &kb, SmallVector<Value> &acc,
                     ArrayRef<Value> channel, Value c, Value row, Value kRow,
                     Value ow0, int64_t kw, int64_t active) {
    auto vectorType = VectorType::get({tile.lanes}, elementType);
    // Folded, so the remainder tile's constant start is visible below.
    Value column = kb.createOrFold<arith::AddIOp>(
        loc, ow0, index(kb, kw * conv.dilationW));
    // Lanes past the output row are junk; only those past the image row
    // must not be read. With a constant start, read as far as the row goes.
    int64_t readable = active;
    if (std::optional<int64_t> start = getConstantIntValue(column))
      readable = std::max(active, imageWidth - *start);
    Value pixels = readLanes(kb, loc, vectorType, image, {c, row, column},
                             padding, readable);
    Value k = arith::AddIOp::create(kb, loc, kRow, index(kb, kw));
    for (size_t r = 0; r < acc.size(); ++r) {
      Value weight = tensor::ExtractOp::create(kb, loc, weights,
                                               ValueRange{channel[r], k});
      Value splat = vector::BroadcastOp::create(kb, loc, vectorType, weight);
      acc[r] = math::FmaOp::create(kb, loc, splat, pixels, acc[r]);
    }
  }

  RewriterBase &b;
  Im2colMatmul conv;
  ConvTile tile;
  Location loc;
  Value image, weights, padding, filled;
  Type elementType;
  int64_t imageWidth = 0;
};

struct MSVectorizeConvsPass
    : ms::impl::MSVectorizeConvsBase<MSVectorizeConvsPass> {
  using MSVectorizeConvsBase::MSVectorizeConvsBase;

  void runOnOperation() override {
    CpuModel cpu = CpuModel::host();
    if (vectorLanes)
      cpu.vectorLanes = vectorLanes;
    SmallVector<Im2colMatmul> convs;
    getOperation()->walk([&](linalg::MatmulOp matmul) {
      if (std::optional<Im2colMatmul> conv = matchIm2colMatmul(matmul))
        convs.push_back(*conv);
    });
    IRRewriter rewriter(&getContext());
    for (Im2colMatmul conv : convs) {
      int64_t channelsOut =
          cast<ShapedType>(conv.matmul.getResult(0).getType()).getDimSize(0);
      ConvTile tile = chooseTile(cpu, conv.outW, channelsOut);
      if (fillsLanes(conv.outW, tile))
        ConvEmitter(rewriter, conv, tile).run();
    }
  }
};

} // namespace
