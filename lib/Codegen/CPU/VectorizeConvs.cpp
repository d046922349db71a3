//===- VectorizeConvs.cpp - Convolution straight from the image -----------===//
//
// convert-ms-to-linalg{conv-as-matmul} lowers a conv to an im2col copy of
// each image and a matmul. The matmul's register tile can read the image
// directly instead: no copy, and the image stays in L1. Two tile shapes:
// - output channels in the vector lanes (when they fill whole vectors, as
//   16 do): a weight vector per tap, each pixel's image value broadcast;
// - pixels in the lanes (unit stride along the width): a contiguous image
//   run per tap, each channel's weight broadcast. Rows longer than a vector
//   that it does not divide are tiled over the flattened pixels, a tile
//   reading a run from each of the two rows it may span (LeNet's 28); a
//   shorter row is one masked tile if it fills at least 7/8 of the lanes.
// A channel-lane conv followed by a non-overlapping max pool, through
// per-channel elementwise ops or not (LeNet's conv2: relu), pools in its
// tiles: each covers whole windows, so the conv image is never written.
//
//===----------------------------------------------------------------------===//

#include "ms/Codegen/CPU/Passes.h"
#include "ms/Codegen/CPU/TileSizeModel.h"
#include "ms/Codegen/CPU/VectorizationUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace ms {
#define GEN_PASS_DEF_MSVECTORIZECONVS
#include "ms/Codegen/CPU/Passes.h.inc"
} // namespace ms

using namespace mlir;
using namespace ms;

namespace {

/// product[O, OH*OW] = weights[O, C*KH*KW] x collapse(windows), where
/// windows[c, kh, kw, oh, ow] = image[c, oh*sh + kh*dh, ow*sw + kw*dw].
struct Im2colMatmul {
  linalg::MatmulOp matmul;
  linalg::GenericOp windows;
  tensor::CollapseShapeOp columns;
  int64_t channels = 0, kernelH = 0, kernelW = 0, outH = 0, outW = 0;
  int64_t strideH = 0, strideW = 0, dilationH = 0, dilationW = 0;
};

std::optional<Im2colMatmul> matchIm2colMatmul(linalg::MatmulOp matmul) {
  if (!matmul.hasPureTensorSemantics() || matmul.hasUserDefinedMaps())
    return std::nullopt;
  Im2colMatmul conv;
  conv.matmul = matmul;
  conv.columns =
      matmul.getDpsInputs()[1].getDefiningOp<tensor::CollapseShapeOp>();
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
  auto imageType =
      dyn_cast<RankedTensorType>(windows.getDpsInputs()[0].getType());
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
  // ow*sw + kw*dw.
  if (!rows || !cols || (*rows)[0] || (*rows)[2] || (*rows)[4] ||
      (*cols)[0] || (*cols)[1] || (*cols)[3] || (*cols)[4] < 1 ||
      (*rows)[3] < 1 || (*rows)[1] < 1 || (*cols)[2] < 1)
    return std::nullopt;
  ArrayRef<int64_t> shape = windowsType.getShape();
  conv.channels = shape[0];
  conv.kernelH = shape[1];
  conv.kernelW = shape[2];
  conv.outH = shape[3];
  conv.outW = shape[4];
  conv.strideH = (*rows)[3];
  conv.strideW = (*cols)[4];
  conv.dilationH = (*rows)[1];
  conv.dilationW = (*cols)[2];
  // Each kw of the kernel is unrolled into the tile's straight-line code.
  if (conv.kernelW > kMaxUnrolledTaps)
    return std::nullopt;
  // [O, C*KH*KW] x [C*KH*KW, OH*OW] -> [O, OH*OW], all static, one type.
  auto weightsType =
      dyn_cast<RankedTensorType>(matmul.getDpsInputs()[0].getType());
  auto productType = dyn_cast<RankedTensorType>(matmul.getResult(0).getType());
  if (!weightsType || !productType || !weightsType.hasStaticShape() ||
      !productType.hasStaticShape() ||
      weightsType.getElementType() != imageType.getElementType() ||
      productType.getElementType() != imageType.getElementType() ||
      weightsType.getDimSize(1) !=
          conv.channels * conv.kernelH * conv.kernelW ||
      productType.getDimSize(0) != weightsType.getDimSize(0) ||
      productType.getDimSize(1) != conv.outH * conv.outW)
    return std::nullopt;
  return conv;
}

/// The register tile: `accumulators` vectors of `lanes` elements. With
/// channels in the lanes, each accumulator is one pixel of an output row;
/// with pixels in the lanes, each is one output channel. The budget is the
/// matmul micro-tile's: two vectors of lanes, and the registers left after
/// a broadcast and loads hold accumulators.
struct ConvTile {
  bool channelLanes = false;
  // Pixels in the lanes, run over the flattened (oh, ow) pixels: a tile's
  // lanes may continue on the next output row, so no lane is wasted.
  bool flatPixels = false;
  int64_t lanes = 0, accumulators = 0;
  // How many accumulators the registers hold.
  int64_t budget = 0;
};

std::optional<ConvTile> chooseTile(const CpuModel &cpu,
                                   const Im2colMatmul &conv,
                                   int64_t channelsOut) {
  auto budget = [&](int64_t lanes) {
    int64_t registersPerVector =
        std::max<int64_t>(1, lanes / cpu.vectorLanes);
    return std::max<int64_t>(1, (cpu.vectorRegisters - 4) /
                                    registersPerVector);
  };
  ConvTile tile;
  for (int64_t lanes : {2 * cpu.vectorLanes, cpu.vectorLanes}) {
    if (channelsOut % lanes == 0) {
      tile.channelLanes = true;
      tile.lanes = lanes;
      tile.budget = budget(lanes);
      tile.accumulators = std::min<int64_t>(conv.outW, tile.budget);
      return tile;
    }
  }
  // Pixels in the lanes need contiguous image runs, and rows that fill the
  // lanes: the lanes past a row's end compute nothing, im2col wastes none.
  if (conv.strideW != 1)
    return std::nullopt;
  tile.lanes = std::min<int64_t>(2 * cpu.vectorLanes, paddedLength(conv.outW));
  int64_t tiles = (conv.outW + tile.lanes - 1) / tile.lanes;
  // Rows at least a vector long that it does not divide: flattened tiles
  // span at most two rows and waste nothing.
  tile.flatPixels = conv.outW >= tile.lanes && conv.outW % tile.lanes != 0;
  if (!tile.flatPixels && 8 * conv.outW < 7 * tiles * tile.lanes)
    return std::nullopt;
  tile.budget = budget(tile.lanes);
  tile.accumulators = std::min<int64_t>(channelsOut, tile.budget);
  return tile;
}

/// A conv max-pooled in non-overlapping windows, with elementwise ops per
/// output channel between them (bias, batch_norm, relu), the conv run image
/// by image in a loop whose one result feeds only that chain:
///   %conv = scf.forall (%n) ... { image %n of a batch; im2col matmul;
///                                 insert the image's product at [%n] }
///   %y = linalg.generic ins(%conv, per-channel vectors...)   (0 or more)
///   %pool = linalg.generic {max(out, in)} ins(%y) outs(fill -inf)
///           over PH x PW windows at stride PH x PW that tile the image.
/// The tiles can then run the chain on their accumulators, pool them and
/// write only the pooled image.
struct PooledEpilogue {
  scf::ForallOp loop;
  tensor::ExtractSliceOp imageSlice;
  /// The elementwise generics from the conv to the pool, in order.
  SmallVector<linalg::GenericOp> chain;
  /// Set when the chain ends in max(x, c) with c +0 or above (a relu): the
  /// window is then combined before that clamp, which runs once.
  FloatAttr clampValue;
  linalg::GenericOp pool;
  FloatAttr productStart;
  Operation *poolFill = nullptr;
  int64_t windowH = 0, windowW = 0;
};

/// The dim of `vector` (statically [.., O, ..], unit dims elsewhere) that
/// `map` reads at the output channel d1, if it reads nothing else.
std::optional<unsigned> channelDim(AffineMap map, Value vector,
                                   int64_t channels) {
  auto type = dyn_cast<RankedTensorType>(vector.getType());
  if (!type || !type.hasStaticShape() ||
      map.getNumResults() != type.getRank())
    return std::nullopt;
  std::optional<unsigned> found;
  for (unsigned i = 0; i < map.getNumResults(); ++i) {
    AffineExpr e = map.getResult(i);
    if (e == getAffineDimExpr(1, map.getContext()) && !found &&
        type.getDimSize(i) == channels)
      found = i;
    else if (!(isa<AffineConstantExpr>(e) &&
               cast<AffineConstantExpr>(e).getValue() == 0 &&
               type.getDimSize(i) == 1))
      return std::nullopt;
  }
  return found;
}

/// Whether `generic` maps [N, O, H, W] elementwise from `data` (read at the
/// same point) and vectors along O (read at [o] of a [.., O, ..] tensor of
/// unit dims otherwise), all of `data`'s element type, with a body of arith
/// ops and square roots only: the ops every mode runs the same way on
/// vectors (exp and the like are libm calls, DESIGN §7).
bool isChannelwise(linalg::GenericOp generic, Value data, int64_t channels) {
  Type elementType = getElementTypeOrSelf(data.getType());
  if (!generic.hasPureTensorSemantics() || generic.getNumDpsInits() != 1 ||
      generic.getNumLoops() != 4 ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      !generic.getIndexingMapsArray().back().isIdentity() ||
      !generic->getResult(0).hasOneUse() ||
      !llvm::all_of(generic->getOperandTypes(), [&](Type t) {
        return getElementTypeOrSelf(t) == elementType;
      }))
    return false;
  Block *body = generic.getBody();
  if (!body->getArgument(generic.getNumDpsInputs()).use_empty())
    return false;
  bool readsData = false;
  for (OpOperand *input : generic.getDpsInputOperands()) {
    AffineMap map = generic.getMatchingIndexingMap(input);
    if (input->get() == data && map.isIdentity()) {
      readsData = true;
      continue;
    }
    if (!channelDim(map, input->get(), channels))
      return false;
  }
  for (Operation &op : body->without_terminator())
    if (op.getNumRegions() || op.getNumResults() != 1 || !isPure(&op) ||
        !op.getResult(0).getType().isIntOrFloat() ||
        !(isa<arith::ArithDialect>(op.getDialect()) || isa<math::SqrtOp>(op)))
      return false;
  return readsData;
}

/// The one op of `generic`'s body besides constants, if it is an OpTy and
/// the body yields it.
template <typename OpTy> OpTy soleBodyOp(linalg::GenericOp generic) {
  Block *body = generic.getBody();
  OpTy sole;
  for (Operation &op : body->without_terminator()) {
    if (isa<arith::ConstantOp>(op))
      continue;
    if (sole || !isa<OpTy>(op))
      return nullptr;
    sole = cast<OpTy>(op);
  }
  if (!sole || body->getTerminator()->getOperand(0) != sole.getResult())
    return nullptr;
  return sole;
}

std::optional<PooledEpilogue> matchPooledEpilogue(Im2colMatmul conv) {
  PooledEpilogue fused;
  scf::ForallOp loop =
      dyn_cast_or_null<scf::ForallOp>(conv.matmul->getParentOp());
  if (!loop || loop.getRank() != 1 || loop.getMapping() ||
      loop->getNumResults() != 1 || !loop->getResult(0).hasOneUse())
    return std::nullopt;
  fused.loop = loop;
  Value iv = loop.getInductionVar(0);
  // The image: a slice of something outside the loop, placed by the iv.
  fused.imageSlice =
      conv.windows.getDpsInputs()[0].getDefiningOp<tensor::ExtractSliceOp>();
  if (!fused.imageSlice || fused.imageSlice->getParentOp() != loop ||
      !llvm::all_of(fused.imageSlice->getOperands(), [&](Value v) {
        return v == iv || loop.isDefinedOutsideOfLoop(v);
      }))
    return std::nullopt;
  // The image's product, and nothing else, goes to the loop's result at
  // [iv, 0, 0, 0].
  auto yielding = loop.getTerminator().getYieldingOps();
  if (!llvm::hasSingleElement(yielding) || !conv.matmul->hasOneUse())
    return std::nullopt;
  auto insert = dyn_cast<tensor::ParallelInsertSliceOp>(*yielding.begin());
  auto expand = insert ? insert.getSource().getDefiningOp<tensor::ExpandShapeOp>()
                       : nullptr;
  auto convType = cast<RankedTensorType>(loop->getResult(0).getType());
  if (!expand || expand.getSrc() != conv.matmul.getResult(0) ||
      convType.getRank() != 4 || convType.getDimSize(2) != conv.outH ||
      convType.getDimSize(3) != conv.outW ||
      dyn_cast<Value>(insert.getMixedOffsets()[0]) != iv ||
      !llvm::all_of(ArrayRef(insert.getMixedOffsets()).drop_front(),
                    [](OpFoldResult v) { return isConstantIntValue(v, 0); }) ||
      !areAllConstantIntValue(insert.getMixedStrides(), 1) ||
      insert.getSourceType().getShape() !=
          ArrayRef<int64_t>{1, convType.getDimSize(1), conv.outH, conv.outW})
    return std::nullopt;
  // The elementwise chain, then the pool.
  int64_t channels = convType.getDimSize(1);
  Value value = loop->getResult(0);
  linalg::GenericOp next =
      dyn_cast<linalg::GenericOp>(*value.user_begin());
  while (next && isChannelwise(next, value, channels)) {
    fused.chain.push_back(next);
    value = next->getResult(0);
    next = dyn_cast<linalg::GenericOp>(*value.user_begin());
  }
  // A last link that is exactly max(x, c), c +0 or above, clamps once.
  if (!fused.chain.empty()) {
    linalg::GenericOp last = fused.chain.back();
    auto relu = soleBodyOp<arith::MaximumFOp>(last);
    Value in = last.getBody()->getArgument(0);
    if (relu && last.getNumDpsInputs() == 1 &&
        (relu.getLhs() == in || relu.getRhs() == in)) {
      Value bound = relu.getLhs() == in ? relu.getRhs() : relu.getLhs();
      FloatAttr c;
      if (clampMergesZeros(bound, /*isMax=*/true) &&
          matchPattern(bound, m_Constant(&c)))
        fused.clampValue = c;
    }
  }
  fused.pool = next;
  linalg::GenericOp pool = fused.pool;
  if (!pool || !pool.hasPureTensorSemantics() || pool.getNumDpsInits() != 1 ||
      pool.getNumLoops() != 6 || pool.getNumParallelLoops() != 4 ||
      pool.getDpsInputs()[0] != value)
    return std::nullopt;
  SmallVector<int64_t> ranges = pool.getStaticLoopRanges();
  fused.windowH = ranges[4];
  fused.windowW = ranges[5];
  SmallVector<AffineMap> maps = pool.getIndexingMapsArray();
  MLIRContext *ctx = pool.getContext();
  AffineMap inMap = maps[0];
  auto rows = linearCoefficients(inMap.getResult(2), 6);
  auto cols = linearCoefficients(inMap.getResult(3), 6);
  SmallVector<AffineExpr> pooledDims;
  for (unsigned i = 0; i < 4; ++i)
    pooledDims.push_back(getAffineDimExpr(i, ctx));
  if (inMap.getNumResults() != 4 ||
      maps.back() != AffineMap::get(6, 0, pooledDims, ctx) ||
      inMap.getResult(0) != getAffineDimExpr(0, ctx) ||
      inMap.getResult(1) != getAffineDimExpr(1, ctx) || !rows || !cols ||
      *rows != SmallVector<int64_t>{0, 0, fused.windowH, 0, 1, 0} ||
      *cols != SmallVector<int64_t>{0, 0, 0, fused.windowW, 0, 1} ||
      conv.outH % fused.windowH || conv.outW % fused.windowW ||
      ranges[2] != conv.outH / fused.windowH ||
      ranges[3] != conv.outW / fused.windowW ||
      // The window is unrolled in the tile; it divides the conv's output,
      // whose element count fits in int64, so the product does too.
      fused.windowH * fused.windowW > kMaxUnrolledTaps)
    return std::nullopt;
  Block *poolBody = pool.getBody();
  for (unsigned i = 1, e = pool.getNumDpsInputs(); i < e; ++i)
    if (!poolBody->getArgument(i).use_empty())
      return std::nullopt;
  auto combine = soleBodyOp<arith::MaximumFOp>(pool);
  Value window = poolBody->getArgument(0);
  Value acc = poolBody->getArgument(pool.getNumDpsInputs());
  if (!combine ||
      !((combine.getLhs() == window && combine.getRhs() == acc) ||
        (combine.getLhs() == acc && combine.getRhs() == window)))
    return std::nullopt;
  fused.poolFill = pool.getDpsInits()[0].getDefiningOp();
  FloatAttr fill;
  Value filledValue = fused.poolFill ? filledScalar(fused.poolFill) : nullptr;
  if (!filledValue || !pool.getDpsInits()[0].hasOneUse() ||
      !matchPattern(filledValue, m_Constant(&fill)) ||
      !fill.getValue().isInfinity() || !fill.getValue().isNegative())
    return std::nullopt;
  // The product starts from a filled constant (zeros).
  Operation *productFill = conv.matmul.getDpsInits()[0].getDefiningOp();
  Value start = productFill ? filledScalar(productFill) : nullptr;
  if (!start || !matchPattern(start, m_Constant(&fused.productStart)))
    return std::nullopt;
  return fused;
}

class ConvEmitter {
public:
  ConvEmitter(RewriterBase &rewriter, Im2colMatmul conv, ConvTile tile)
      : b(rewriter), conv(conv), tile(tile), loc(conv.matmul.getLoc()) {
    image = conv.windows.getDpsInputs()[0];
    weights = conv.matmul.getDpsInputs()[0];
    elementType = getElementTypeOrSelf(image.getType());
    imageWidth = cast<ShapedType>(image.getType()).getShape().back();
    vectorType = VectorType::get({tile.lanes}, elementType);
  }

  void run() {
    if (tile.channelLanes)
      transposeWeights();
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
    if (tile.flatPixels) {
      // The image as [C, H*W]: a tile's runs are offsets into a channel.
      int64_t imageH = cast<ShapedType>(image.getType()).getDimSize(1);
      flatImage = tensor::CollapseShapeOp::create(
          b, loc,
          RankedTensorType::get({conv.channels, imageH * imageWidth},
                                elementType),
          image, SmallVector<ReassociationIndices>{{0}, {1, 2}});
      Value product = split(
          b, init, channelsOut, tile.accumulators,
          [&](OpBuilder &cb, Value out, Value o0, int64_t channels) {
            return split(cb, out, conv.outH * conv.outW, tile.lanes,
                         [&](OpBuilder &pb, Value tileOut, Value p0,
                             int64_t active) {
                           return flatTile(pb, tileOut, o0, channels, p0,
                                           active);
                         });
          });
      finish(product, fill);
      return;
    }
    // Whole tiles in a loop, then the remainder tile, on both axes.
    int64_t channelStep = tile.channelLanes ? tile.lanes : tile.accumulators;
    int64_t pixelStep = tile.channelLanes ? tile.accumulators : tile.lanes;
    outRows = split(
        b, outRows, channelsOut, channelStep,
        [&](OpBuilder &cb, Value out, Value o0, int64_t channels) {
          auto overRows = scf::ForOp::create(
              cb, loc, index(cb, 0), index(cb, conv.outH), index(cb, 1),
              ValueRange{out},
              [&](OpBuilder &rb, Location, Value oh, ValueRange args) {
                Value rowOut = split(
                    rb, args[0], conv.outW, pixelStep,
                    [&](OpBuilder &tb, Value tileOut, Value ow0,
                        int64_t pixelCount) {
                      return registerTile(tb, tileOut, o0, channels, oh, ow0,
                                          pixelCount);
                    });
                scf::YieldOp::create(rb, loc, rowOut);
              });
          return overRows.getResult(0);
        });
    finish(tensor::CollapseShapeOp::create(b, loc, productType, outRows,
                                           pixels),
           fill);
  }

  /// The conv, elementwise chain and pool of `fused` as one loop over the
  /// images whose tiles cover whole pooling windows: each runs the chain on
  /// its accumulators, pools them (before a final relu, ignoring the sign of
  /// zero, then the relu once, exact as in ms-vectorize-pooling) and writes
  /// only the pooled pixels. Channel-lane tiles only.
  void runPooled(PooledEpilogue fused, int64_t pooledPerTile) {
    transposeWeights();
    linalg::GenericOp pool = fused.pool;
    b.setInsertionPoint(pool);
    // Made anew: the old loop, where the product's fill was, goes.
    filled = arith::ConstantOp::create(b, loc, fused.productStart);
    padding = arith::ConstantOp::create(b, loc, elementType,
                                        b.getZeroAttr(elementType));
    // The links each accumulator runs; a final relu runs once per window.
    chain = fused.chain;
    clampBound = nullptr;
    if (fused.clampValue) {
      chain.pop_back();
      clampBound = arith::ConstantOp::create(b, loc, fused.clampValue);
    }
    windowH = fused.windowH;
    windowW = fused.windowW;
    auto pooledType = cast<RankedTensorType>(pool.getResult(0).getType());
    ArrayRef<int64_t> pooledShape = pooledType.getShape();
    Value dest =
        cast<DestinationStyleOpInterface>(fused.poolFill).getDpsInits()[0];
    auto loop = scf::ForallOp::create(
        b, loc, ArrayRef<OpFoldResult>{b.getIndexAttr(pooledShape[0])},
        ValueRange{dest}, std::nullopt);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(loop.getTerminator());
      Value iv = loop.getInductionVar(0);
      IRMapping ivOfLoop;
      ivOfLoop.map(fused.loop.getInductionVar(0), iv);
      image = b.clone(*fused.imageSlice, ivOfLoop)->getResult(0);
      OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
      SmallVector<OpFoldResult> offsets = {iv, zero, zero, zero};
      SmallVector<OpFoldResult> sizes = {one};
      for (int64_t d : pooledShape.drop_front())
        sizes.push_back(b.getIndexAttr(d));
      SmallVector<OpFoldResult> strides(4, one);
      auto slotType = RankedTensorType::get(
          {1, pooledShape[1], pooledShape[2], pooledShape[3]}, elementType);
      Value slot = tensor::ExtractSliceOp::create(
          b, loc, slotType, loop.getRegionIterArgs()[0], offsets, sizes,
          strides);
      SmallVector<ReassociationIndices> imageDims = {{0, 1}, {2}, {3}};
      Value pooled = tensor::CollapseShapeOp::create(b, loc, slot, imageDims);
      pooled = split(
          b, pooled, pooledShape[1], tile.lanes,
          [&](OpBuilder &cb, Value out, Value o0, int64_t) {
            auto overRows = scf::ForOp::create(
                cb, loc, index(cb, 0), index(cb, pooledShape[2]),
                index(cb, 1), ValueRange{out},
                [&](OpBuilder &rb, Location, Value row, ValueRange args) {
                  scf::YieldOp::create(
                      rb, loc,
                      split(rb, args[0], pooledShape[3], pooledPerTile,
                            [&](OpBuilder &tb, Value tileOut, Value column0,
                                int64_t columns) {
                              return pooledTile(tb, tileOut, o0, row, column0,
                                                columns);
                            }));
                });
            return overRows.getResult(0);
          });
      Value pooledImage =
          tensor::ExpandShapeOp::create(b, loc, slotType, pooled, imageDims);
      b.setInsertionPointToEnd(loop.getTerminator().getBody());
      tensor::ParallelInsertSliceOp::create(b, loc, pooledImage,
                                            loop.getRegionIterArgs()[0],
                                            offsets, sizes, strides);
    }
    b.replaceOp(pool, loop.getResults());
    if (fused.poolFill->use_empty())
      b.eraseOp(fused.poolFill);
    for (linalg::GenericOp link : llvm::reverse(fused.chain))
      b.eraseOp(link);
    b.eraseOp(fused.loop);
  }

private:
  void finish(Value product, Operation *fill) {
    b.replaceOp(conv.matmul, product);
    if (filled && fill->use_empty())
      b.eraseOp(fill);
    if (conv.columns->use_empty())
      b.eraseOp(conv.columns);
    if (conv.windows->use_empty())
      b.eraseOp(conv.windows);
  }

  using TileBody =
      llvm::function_ref<Value(OpBuilder &, Value, Value, int64_t)>;

  Value index(OpBuilder &nb, int64_t v) {
    return arith::ConstantIndexOp::create(nb, loc, v);
  }

  /// [O, K] weights as [K, O], so a tap's output channels are one vector:
  /// once per call, where the weights are defined (outside the batch loop).
  void transposeWeights() {
    OpBuilder::InsertionGuard guard(b);
    if (Operation *def = weights.getDefiningOp())
      b.setInsertionPointAfter(def);
    else
      b.setInsertionPointToStart(weights.getParentBlock());
    auto type = cast<RankedTensorType>(weights.getType());
    Value empty = tensor::EmptyOp::create(
        b, loc, ArrayRef<int64_t>{type.getDimSize(1), type.getDimSize(0)},
        elementType);
    weights = linalg::TransposeOp::create(b, loc, weights, empty,
                                          ArrayRef<int64_t>{1, 0})
                  ->getResult(0);
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

  /// out[o0 : o0+channels, oh, ow0 : ow0+pixels] = the sum over (c, kh, kw)
  /// in order of weight * image, one FMA per term, as the matmul summed it.
  Value registerTile(OpBuilder &tb, Value out, Value o0, int64_t channels,
                     Value oh, Value ow0, int64_t pixels) {
    // The accumulators' output coordinates, and how many lanes are real.
    int64_t count = tile.channelLanes ? pixels : channels;
    int64_t active = tile.channelLanes ? channels : pixels;
    SmallVector<Value> channel, column;
    for (int64_t r = 0; r < count; ++r) {
      channel.push_back(tile.channelLanes ? o0 : tb.createOrFold<arith::AddIOp>(
                                                     loc, o0, index(tb, r)));
      column.push_back(tile.channelLanes ? tb.createOrFold<arith::AddIOp>(
                                               loc, ow0, index(tb, r))
                                         : ow0);
    }
    SmallVector<Value> accumulators;
    for (int64_t r = 0; r < count; ++r)
      accumulators.push_back(
          filled ? vector::BroadcastOp::create(tb, loc, vectorType, filled)
                       .getResult()
                 : readOut(tb, out, channel[r], oh, column[r], active));
    Value rowBase =
        arith::MulIOp::create(tb, loc, oh, index(tb, conv.strideH));
    SmallVector<Value> sums = sumOverTaps(
        tb, accumulators,
        [&](OpBuilder &kb, Value c, Value kh, int64_t kw, Value k,
            SmallVector<Value> &acc) {
          Value row = arith::AddIOp::create(
              kb, loc, rowBase,
              arith::MulIOp::create(kb, loc, kh, index(kb, conv.dilationH)));
          if (tile.channelLanes)
            channelLanesTap(kb, acc, SmallVector<Value>(acc.size(), row),
                            column, c, k, o0, kw);
          else
            pixelLanesTap(kb, acc, channel, c, row, k, ow0, kw, active);
        });
    if (tile.channelLanes)
      return writeTransposed(tb, sums, out, o0, oh, ow0);
    for (int64_t r = 0; r < count; ++r)
      out = writeLanes(tb, loc, sums[r], out, {channel[r], oh, column[r]},
                       active);
    return out;
  }

  /// pooled[o0 : o0+lanes, row, column0 : column0+columns]: a tile of
  /// windowH conv rows x columns*windowW conv pixels, summed as in
  /// registerTile, each accumulator run through the chain, each window
  /// combined by max (ignoring the sign of zero when a relu follows, which
  /// erases it), then that relu once.
  Value pooledTile(OpBuilder &tb, Value out, Value o0, Value row,
                   Value column0, int64_t columns) {
    int64_t pixelsPerRow = columns * windowW;
    Value firstRow = arith::MulIOp::create(tb, loc, row, index(tb, windowH));
    Value firstColumn =
        arith::MulIOp::create(tb, loc, column0, index(tb, windowW));
    SmallVector<Value> rowBase, column;
    for (int64_t i = 0; i < windowH; ++i) {
      Value convRow = tb.createOrFold<arith::AddIOp>(loc, firstRow,
                                                     index(tb, i));
      Value base =
          arith::MulIOp::create(tb, loc, convRow, index(tb, conv.strideH));
      for (int64_t j = 0; j < pixelsPerRow; ++j) {
        rowBase.push_back(base);
        column.push_back(
            tb.createOrFold<arith::AddIOp>(loc, firstColumn, index(tb, j)));
      }
    }
    SmallVector<Value> accumulators(
        rowBase.size(),
        vector::BroadcastOp::create(tb, loc, vectorType, filled));
    SmallVector<Value> sums = sumOverTaps(
        tb, accumulators,
        [&](OpBuilder &kb, Value c, Value kh, int64_t kw, Value k,
            SmallVector<Value> &acc) {
          Value tapRow =
              arith::MulIOp::create(kb, loc, kh, index(kb, conv.dilationH));
          SmallVector<Value> rows;
          for (Value base : rowBase)
            rows.push_back(kb.createOrFold<arith::AddIOp>(loc, base, tapRow));
          channelLanesTap(kb, acc, rows, column, c, k, o0, kw);
        });
    // Each pixel through the chain as its own element would go, then the
    // window's max: ignoring the sign of zero when a relu follows (it
    // erases it), exact otherwise.
    SmallVector<Value> channelVectors = readChannelVectors(tb, o0);
    for (Value &sum : sums)
      sum = applyChain(tb, sum, channelVectors);
    Value bound = clampBound ? vector::BroadcastOp::create(
                                   tb, loc, vectorType, clampBound)
                                   .getResult()
                             : Value();
    SmallVector<Value> pooled;
    for (int64_t q = 0; q < columns; ++q) {
      Value window;
      for (int64_t i = 0; i < windowH; ++i)
        for (int64_t j = 0; j < windowW; ++j) {
          Value x = sums[i * pixelsPerRow + q * windowW + j];
          if (!window)
            window = x;
          else if (bound)
            window = extremeIgnoringZeroSign(tb, loc, window, x, true);
          else
            window = arith::MaximumFOp::create(tb, loc, window, x);
        }
      pooled.push_back(
          bound ? arith::MaximumFOp::create(tb, loc, window, bound).getResult()
                : window);
    }
    return writeTransposed(tb, pooled, out, o0, row, column0);
  }

  /// Per link of `chain`, its per-channel inputs for channels o0.. as
  /// vectors, in input order (data inputs skipped).
  SmallVector<Value> readChannelVectors(OpBuilder &tb, Value o0) {
    SmallVector<Value> vectors;
    for (linalg::GenericOp link : chain)
      for (OpOperand *input : link.getDpsInputOperands()) {
        AffineMap map = link.getMatchingIndexingMap(input);
        if (map.isIdentity())
          continue;
        int64_t channels =
            cast<ShapedType>(link->getResult(0).getType()).getDimSize(1);
        unsigned dim = *channelDim(map, input->get(), channels);
        SmallVector<Value> indices(map.getNumResults(), index(tb, 0));
        indices[dim] = o0;
        vectors.push_back(vector::TransferReadOp::create(
            tb, loc, vectorType, input->get(), indices, padding,
            AffineMap::get(map.getNumResults(), 0,
                           {tb.getAffineDimExpr(dim)}, tb.getContext()),
            ArrayRef<bool>{true}));
      }
    return vectors;
  }

  /// `value` (one pixel, channels in the lanes) through each link's body,
  /// op by op on vectors: the same arithmetic as the generics.
  Value applyChain(OpBuilder &tb, Value value, ArrayRef<Value> channelVectors) {
    size_t next = 0;
    for (linalg::GenericOp link : chain) {
      Block *body = link.getBody();
      IRMapping map;
      for (OpOperand *input : link.getDpsInputOperands()) {
        Value arg = body->getArgument(input->getOperandNumber());
        map.map(arg, link.getMatchingIndexingMap(input).isIdentity()
                         ? value
                         : channelVectors[next++]);
      }
      for (Operation &op : body->without_terminator()) {
        if (op.hasTrait<OpTrait::ConstantLike>()) {
          Value scalar = tb.clone(op)->getResult(0);
          map.map(op.getResult(0),
                  vector::BroadcastOp::create(
                      tb, loc,
                      VectorType::get(vectorType.getShape(), scalar.getType()),
                      scalar));
          continue;
        }
        SmallVector<Value> operands;
        for (Value v : op.getOperands()) {
          Value mapped = map.lookupOrNull(v);
          operands.push_back(
              mapped ? mapped
                     : vector::BroadcastOp::create(
                           tb, loc,
                           VectorType::get(vectorType.getShape(), v.getType()),
                           v)
                           .getResult());
        }
        OperationState state(
            loc, op.getName(), operands,
            TypeRange{VectorType::get(vectorType.getShape(),
                                      op.getResult(0).getType())},
            op.getAttrs());
        map.map(op.getResult(0), tb.create(state)->getResult(0));
      }
      value = map.lookup(body->getTerminator()->getOperand(0));
    }
    return value;
  }

  /// One tap with channels in the lanes: the tap's weights for o0.. as one
  /// vector, times each pixel's image value.
  void channelLanesTap(OpBuilder &kb, SmallVector<Value> &acc,
                       ArrayRef<Value> row, ArrayRef<Value> column, Value c,
                       Value k, Value o0, int64_t kw) {
    Value weightVector = vector::TransferReadOp::create(
        kb, loc, vectorType, weights, ValueRange{k, o0}, padding,
        ArrayRef<bool>{true});
    for (size_t r = 0; r < acc.size(); ++r) {
      Value imageColumn = arith::AddIOp::create(
          kb, loc,
          arith::MulIOp::create(kb, loc, column[r],
                                index(kb, conv.strideW)),
          index(kb, kw * conv.dilationW));
      Value pixel = tensor::ExtractOp::create(
          kb, loc, image, ValueRange{c, row[r], imageColumn});
      Value splat = vector::BroadcastOp::create(kb, loc, vectorType, pixel);
      acc[r] = math::FmaOp::create(kb, loc, weightVector, splat, acc[r]);
    }
  }

  /// One tap with pixels in the lanes: a contiguous run of the image row,
  /// times each channel's weight.
  void pixelLanesTap(OpBuilder &kb, SmallVector<Value> &acc,
                     ArrayRef<Value> channel, Value c, Value row, Value k,
                     Value ow0, int64_t kw, int64_t active) {
    // Folded, so the remainder tile's constant start is visible below.
    Value imageColumn = kb.createOrFold<arith::AddIOp>(
        loc, ow0, index(kb, kw * conv.dilationW));
    // Lanes past the output row are junk; only those past the image row
    // must not be read. With a constant start, read as far as the row goes.
    int64_t readable = active;
    if (std::optional<int64_t> start = getConstantIntValue(imageColumn))
      readable = std::max(active, imageWidth - *start);
    Value pixels = readLanes(kb, loc, vectorType, image, {c, row, imageColumn},
                             padding, readable);
    accumulateByChannel(kb, acc, channel, k, pixels);
  }

  /// acc[i] += weight[channel[i], k] * pixels, one FMA each.
  void accumulateByChannel(OpBuilder &kb, SmallVector<Value> &acc,
                           ArrayRef<Value> channel, Value k, Value pixels) {
    for (size_t i = 0; i < acc.size(); ++i) {
      Value weight = tensor::ExtractOp::create(kb, loc, weights,
                                               ValueRange{channel[i], k});
      Value splat = vector::BroadcastOp::create(kb, loc, vectorType, weight);
      acc[i] = math::FmaOp::create(kb, loc, splat, pixels, acc[i]);
    }
  }

  using TapBody = llvm::function_ref<void(OpBuilder &, Value c, Value kh,
                                          int64_t kw, Value k,
                                          SmallVector<Value> &acc)>;

  /// The sum over (c, kh, kw) in the im2col matmul's order: loops over c
  /// and kh carrying `accumulators`, and `tap` for each kw in turn, where
  /// k = (c * KH + kh) * KW + kw is the im2col row.
  SmallVector<Value> sumOverTaps(OpBuilder &b, ValueRange accumulators,
                                 TapBody tap) {
    auto overChannels = scf::ForOp::create(
        b, loc, index(b, 0), index(b, conv.channels), index(b, 1),
        accumulators,
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

  /// The output vector of one accumulator: along the channels at one pixel,
  /// or along the pixels of one channel's row.
  /// An accumulator's start when the product was not zero-filled: along
  /// the channels at one pixel, or along the pixels of one channel's row.
  Value readOut(OpBuilder &tb, Value out, Value o, Value oh, Value ow,
                int64_t active) {
    if (tile.channelLanes)
      return vector::TransferReadOp::create(
          tb, loc, vectorType, out, ValueRange{o, oh, ow}, padding,
          AffineMap::get(3, 0, {tb.getAffineDimExpr(0)}, tb.getContext()),
          ArrayRef<bool>{true});
    return readLanes(tb, loc, vectorType, out, {o, oh, ow}, padding, active);
  }

  /// product[o0 : o0+channels, p0 : p0+active] over the flattened pixels:
  /// the first `head` lanes are output row r from column c0, the rest
  /// row r+1 from column 0. Per tap, a masked read of each row's run.
  Value flatTile(OpBuilder &tb, Value out, Value o0, int64_t channels,
                 Value p0, int64_t active) {
    auto vectorOfLanes = [&](int64_t n) {
      return VectorType::get({n}, tb.getI1Type());
    };
    Value outW = index(tb, conv.outW);
    Value r = arith::DivUIOp::create(tb, loc, p0, outW);
    Value c0 = arith::RemUIOp::create(tb, loc, p0, outW);
    Value head = arith::MinUIOp::create(
        tb, loc, index(tb, tile.lanes),
        arith::SubIOp::create(tb, loc, outW, c0));
    // Lanes past the last pixel (in the remainder tile) are in neither run.
    Value inTile = vector::CreateMaskOp::create(
        tb, loc, vectorOfLanes(tile.lanes), ValueRange{index(tb, active)});
    Value inHead = vector::CreateMaskOp::create(
        tb, loc, vectorOfLanes(tile.lanes),
        ValueRange{arith::MinUIOp::create(tb, loc, head, index(tb, active))});
    Value inTail = arith::XOrIOp::create(tb, loc, inHead, inTile);
    int64_t imageH = cast<ShapedType>(image.getType()).getDimSize(1);
    Value width = index(tb, imageWidth);
    // Image offsets of each run's first pixel at tap (0, 0): row r from
    // column c0; row r+1 shifted left by `head` so that lane `head` reads
    // its column 0.
    Value headBase = arith::AddIOp::create(
        tb, loc,
        arith::MulIOp::create(
            tb, loc, arith::MulIOp::create(tb, loc, r, index(tb, conv.strideH)),
            width),
        c0);
    // A tile within one row reads no tail, and its tail start may then lie
    // past the image: keep every tap's start inside. A tail that is read
    // never starts later than this bound, so the bound changes nothing.
    int64_t lastTap = (conv.kernelH - 1) * conv.dilationH * imageWidth +
                      (conv.kernelW - 1) * conv.dilationW;
    Value tailBase = arith::MinUIOp::create(
        tb, loc,
        arith::SubIOp::create(
            tb, loc,
            arith::MulIOp::create(
                tb, loc,
                arith::MulIOp::create(
                    tb, loc, arith::AddIOp::create(tb, loc, r, index(tb, 1)),
                    index(tb, conv.strideH)),
                width),
            head),
        index(tb, imageH * imageWidth - 1 - lastTap));
    SmallVector<Value> channel;
    for (int64_t i = 0; i < channels; ++i)
      channel.push_back(tb.createOrFold<arith::AddIOp>(loc, o0, index(tb, i)));
    SmallVector<Value> accumulators;
    for (int64_t i = 0; i < channels; ++i)
      accumulators.push_back(
          filled ? vector::BroadcastOp::create(tb, loc, vectorType, filled)
                       .getResult()
                 : readLanes(tb, loc, vectorType, out, {channel[i], p0},
                             padding, active));
    AffineMap lastDim = AffineMap::getMinorIdentityMap(2, 1, tb.getContext());
    // Tiles within one output row (4 of every 7 for 28-pixel rows and 16
    // lanes) read one run per tap; the others read both runs and select.
    auto emit = [&](OpBuilder &eb, bool twoRuns) -> Value {
      Value result = out;
      SmallVector<Value> sums = sumOverTaps(
          eb, accumulators,
          [&](OpBuilder &kb, Value c, Value kh, int64_t kw, Value k,
              SmallVector<Value> &acc) {
            Value tap = arith::AddIOp::create(
                kb, loc,
                arith::MulIOp::create(
                    kb, loc,
                    arith::MulIOp::create(kb, loc, kh,
                                          index(kb, conv.dilationH)),
                    width),
                index(kb, kw * conv.dilationW));
            Value headStart = arith::AddIOp::create(kb, loc, headBase, tap);
            Value pixels;
            if (!twoRuns) {
              pixels = readLanes(kb, loc, vectorType, flatImage,
                                 {c, headStart}, padding, active);
            } else {
              Value headRun = vector::TransferReadOp::create(
                  kb, loc, vectorType, flatImage, ValueRange{c, headStart},
                  lastDim, padding, inHead, kb.getBoolArrayAttr({true}));
              Value tailRun = vector::TransferReadOp::create(
                  kb, loc, vectorType, flatImage,
                  ValueRange{c, arith::AddIOp::create(kb, loc, tailBase, tap)},
                  lastDim, padding, inTail, kb.getBoolArrayAttr({true}));
              pixels =
                  arith::SelectOp::create(kb, loc, inHead, headRun, tailRun);
            }
            accumulateByChannel(kb, acc, channel, k, pixels);
          });
      for (int64_t i = 0; i < channels; ++i)
        result = writeLanes(eb, loc, sums[i], result,
                            {channel[i], p0}, active);
      return result;
    };
    Value oneRun = arith::CmpIOp::create(tb, loc, arith::CmpIPredicate::uge,
                                         head, index(tb, active));
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

  /// Channel-lane accumulators (one per pixel) as channel rows: `lanes`
  /// pixels at a time, padded with zeros to a square and transposed by
  /// shuffles, then each channel's row of pixels written at once.
  Value writeTransposed(OpBuilder &tb, ValueRange accumulators, Value out,
                        Value o0, Value oh, Value ow0) {
    Value zeros = vector::BroadcastOp::create(tb, loc, vectorType, padding);
    int64_t pixels = accumulators.size();
    for (int64_t first = 0; first < pixels; first += tile.lanes) {
      SmallVector<Value> square;
      for (int64_t r = first; r < first + tile.lanes; ++r)
        square.push_back(r < pixels ? accumulators[r] : zeros);
      SmallVector<Value> channelRows = transposeRows(tb, loc, square);
      Value column = tb.createOrFold<arith::AddIOp>(loc, ow0, index(tb, first));
      for (int64_t o = 0; o < tile.lanes; ++o) {
        Value channel =
            tb.createOrFold<arith::AddIOp>(loc, o0, index(tb, o));
        out = writeLanes(tb, loc, channelRows[o], out, {channel, oh, column},
                         std::min(tile.lanes, pixels - first));
      }
    }
    return out;
  }


  RewriterBase &b;
  Im2colMatmul conv;
  ConvTile tile;
  Location loc;
  Value image, flatImage, weights, padding, filled, clampBound;
  SmallVector<linalg::GenericOp> chain;
  int64_t windowH = 1, windowW = 1;
  Type elementType;
  VectorType vectorType;
  int64_t imageWidth = 0;
};

struct MSVectorizeConvsPass
    : ms::impl::MSVectorizeConvsBase<MSVectorizeConvsPass> {
  using MSVectorizeConvsBase::MSVectorizeConvsBase;

  void runOnOperation() override {
    CpuModel cpu = CpuModel::host();
    if (vectorLanes)
      cpu.vectorLanes = vectorLanes;
    if (vectorRegisters)
      cpu.vectorRegisters = vectorRegisters;
    SmallVector<Im2colMatmul> convs;
    getOperation()->walk([&](linalg::MatmulOp matmul) {
      if (std::optional<Im2colMatmul> conv = matchIm2colMatmul(matmul))
        convs.push_back(*conv);
    });
    IRRewriter rewriter(&getContext());
    for (Im2colMatmul conv : convs) {
      int64_t channelsOut =
          cast<ShapedType>(conv.matmul.getResult(0).getType()).getDimSize(0);
      std::optional<ConvTile> tile = chooseTile(cpu, conv, channelsOut);
      if (!tile)
        continue;
      // A channel-lane tile that holds whole pooling windows pools them.
      std::optional<PooledEpilogue> fused =
          tile->channelLanes && poolEpilogues ? matchPooledEpilogue(conv)
                                              : std::nullopt;
      int64_t pooledPerTile =
          fused ? std::min(conv.outW / fused->windowW,
                           tile->budget / (fused->windowH * fused->windowW))
                : 0;
      if (pooledPerTile > 0)
        ConvEmitter(rewriter, conv, *tile).runPooled(*fused, pooledPerTile);
      else
        ConvEmitter(rewriter, conv, *tile).run();
    }
  }
};

} // namespace
