//===- ConvPooledTiles.cpp - Conv, elementwise chain and max pool in tiles ===//
//
// A channel-lane conv followed by a non-overlapping max pool, through
// per-channel elementwise ops or not (LeNet's conv2: relu), pools in its
// tiles: each covers whole windows, runs the chain on its accumulators,
// pools them (before a final relu, ignoring the sign of zero, then the relu
// once, exact as in ms-vectorize-pooling) and writes only the pooled
// pixels, so the conv image is never written.
//
//===----------------------------------------------------------------------===//

#include "ConvTiles.h"

#include "ms/Codegen/CPU/VectorizationUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

namespace ms::conv {
namespace {

class PooledTiles : ConvTileBuilder {
public:
  PooledTiles(const Im2colConv &conv, const ConvTile &tile,
              const PooledEpilogue &fused, int64_t windowsPerTile)
      : ConvTileBuilder(conv, tile), fused(fused),
        windowsPerTile(windowsPerTile) {}

  /// One loop over the images in place of the conv's, the chain and the
  /// pool; each iteration writes the image's pooled slot.
  void run(RewriterBase &b) {
    weights = transposeWeights(b);
    linalg::GenericOp pool = fused.pool;
    b.setInsertionPoint(pool);
    // Made anew: the old loop, where the product's fill was, goes.
    filled = arith::ConstantOp::create(b, loc, fused.productStart);
    padding = zero(b);
    // The links each accumulator runs; a final relu runs once per window.
    chain = fused.chain;
    if (fused.clampValue) {
      chain.pop_back();
      clampBound = arith::ConstantOp::create(b, loc, fused.clampValue);
    }
    Value dest =
        cast<DestinationStyleOpInterface>(fused.poolFill).getDpsInits()[0];
    auto loop = scf::ForallOp::create(
        b, loc, ArrayRef<OpFoldResult>{b.getIndexAttr(pooledShape()[0])},
        ValueRange{dest}, std::nullopt);
    {
      OpBuilder::InsertionGuard guard(b);
      emitImage(b, loop);
    }
    b.replaceOp(pool, loop.getResults());
    if (fused.poolFill->use_empty())
      b.eraseOp(fused.poolFill);
    for (linalg::GenericOp link : llvm::reverse(fused.chain))
      b.eraseOp(link);
    b.eraseOp(fused.loop);
  }

private:
  ArrayRef<int64_t> pooledShape() const {
    return cast<RankedTensorType>(fused.pool->getResult(0).getType())
        .getShape();
  }

  /// The body of `loop`: image iv's slice of the batch, its pooled slot
  /// [1, O, PH, PW] written tile by tile, inserted at [iv, 0, 0, 0].
  void emitImage(RewriterBase &b, scf::ForallOp loop) {
    ArrayRef<int64_t> shape = pooledShape();
    b.setInsertionPoint(loop.getTerminator());
    Value iv = loop.getInductionVar(0);
    IRMapping ivOfLoop;
    scf::ForallOp convLoop = fused.loop;
    ivOfLoop.map(convLoop.getInductionVar(0), iv);
    image = b.clone(*fused.imageSlice, ivOfLoop)->getResult(0);
    OpFoldResult zeroIndex = b.getIndexAttr(0), one = b.getIndexAttr(1);
    SmallVector<OpFoldResult> offsets = {iv, zeroIndex, zeroIndex, zeroIndex};
    SmallVector<OpFoldResult> sizes = {one};
    for (int64_t d : shape.drop_front())
      sizes.push_back(b.getIndexAttr(d));
    SmallVector<OpFoldResult> strides(4, one);
    auto slotType = RankedTensorType::get({1, shape[1], shape[2], shape[3]},
                                          elementType);
    Value slot = tensor::ExtractSliceOp::create(
        b, loc, slotType, loop.getRegionIterArgs()[0], offsets, sizes,
        strides);
    SmallVector<ReassociationIndices> imageDims = {{0, 1}, {2}, {3}};
    Value pooled = tensor::CollapseShapeOp::create(b, loc, slot, imageDims);
    pooled = overPooledTiles(b, pooled);
    Value pooledImage =
        tensor::ExpandShapeOp::create(b, loc, slotType, pooled, imageDims);
    b.setInsertionPointToEnd(loop.getTerminator().getBody());
    tensor::ParallelInsertSliceOp::create(b, loc, pooledImage,
                                          loop.getRegionIterArgs()[0],
                                          offsets, sizes, strides);
  }

  /// The [O, PH, PW] pooled image in tiles of `lanes` channels x one pooled
  /// row x `windowsPerTile` pooled pixels.
  Value overPooledTiles(OpBuilder &b, Value pooled) {
    ArrayRef<int64_t> shape = pooledShape();
    return split(
        b, pooled, shape[1], tile.lanes,
        [&](OpBuilder &cb, Value out, Value o0, int64_t) {
          auto overRows = scf::ForOp::create(
              cb, loc, index(cb, 0), index(cb, shape[2]), index(cb, 1),
              ValueRange{out},
              [&](OpBuilder &rb, Location, Value row, ValueRange args) {
                scf::YieldOp::create(
                    rb, loc,
                    split(rb, args[0], shape[3], windowsPerTile,
                          [&](OpBuilder &tb, Value tileOut, Value column0,
                              int64_t columns) {
                            return pooledTile(tb, tileOut, o0, row, column0,
                                              columns);
                          }));
              });
          return overRows.getResult(0);
        });
  }

  /// pooled[o0 : o0+lanes, row, column0 : column0+columns]: a tile of
  /// windowH conv rows x columns*windowW conv pixels, summed as the
  /// channel-lane tiles sum, each accumulator run through the chain, each
  /// window combined by max, then a final relu once.
  Value pooledTile(OpBuilder &tb, Value out, Value o0, Value row,
                   Value column0, int64_t columns) {
    SmallVector<Value> sums = sumTile(tb, o0, row, column0, columns);
    // Each pixel through the chain as its own element would go.
    SmallVector<Value> channelVectors = readChannelVectors(tb, o0);
    for (Value &sum : sums)
      sum = applyChain(tb, sum, channelVectors);
    SmallVector<Value> pooled = poolWindows(tb, sums, columns);
    return writeTransposed(tb, padding, pooled, out, o0, row, column0);
  }

  /// The conv sums of a pooled tile, one per conv pixel, window row by
  /// window row.
  SmallVector<Value> sumTile(OpBuilder &tb, Value o0, Value row,
                             Value column0, int64_t columns) {
    int64_t pixelsPerRow = columns * fused.windowW;
    Value firstRow =
        arith::MulIOp::create(tb, loc, row, index(tb, fused.windowH));
    Value firstColumn =
        arith::MulIOp::create(tb, loc, column0, index(tb, fused.windowW));
    SmallVector<Value> rowBase, column;
    for (int64_t i = 0; i < fused.windowH; ++i) {
      Value convRow =
          tb.createOrFold<arith::AddIOp>(loc, firstRow, index(tb, i));
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
    return sumOverTaps(
        tb, accumulators,
        [&](OpBuilder &kb, Value c, Value kh, int64_t kw, Value k,
            SmallVector<Value> &acc) {
          Value tapRow =
              arith::MulIOp::create(kb, loc, kh, index(kb, conv.dilationH));
          SmallVector<Value> rows;
          for (Value base : rowBase)
            rows.push_back(kb.createOrFold<arith::AddIOp>(loc, base, tapRow));
          channelLanesTap(kb, image, weights, padding, acc, rows, column, c,
                          k, o0, kw);
        });
  }

  /// Each window's max: ignoring the sign of zero when a relu follows (it
  /// erases it), then that relu; exact otherwise.
  SmallVector<Value> poolWindows(OpBuilder &tb, ArrayRef<Value> sums,
                                 int64_t columns) {
    int64_t pixelsPerRow = columns * fused.windowW;
    Value bound = clampBound ? vector::BroadcastOp::create(
                                   tb, loc, vectorType, clampBound)
                                   .getResult()
                             : Value();
    SmallVector<Value> pooled;
    for (int64_t q = 0; q < columns; ++q) {
      Value window;
      for (int64_t i = 0; i < fused.windowH; ++i)
        for (int64_t j = 0; j < fused.windowW; ++j) {
          Value x = sums[i * pixelsPerRow + q * fused.windowW + j];
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
    return pooled;
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
      for (Operation &op : body->without_terminator())
        map.map(op.getResult(0), applyOnVectors(tb, op, map));
      value = map.lookup(body->getTerminator()->getOperand(0));
    }
    return value;
  }

  /// A chain link's body op on vectors of the tile's lanes: constants and
  /// values from outside the body broadcast.
  Value applyOnVectors(OpBuilder &tb, Operation &op, const IRMapping &map) {
    auto vectorOf = [&](Type t) {
      return VectorType::get(vectorType.getShape(), t);
    };
    if (op.hasTrait<OpTrait::ConstantLike>()) {
      Value scalar = tb.clone(op)->getResult(0);
      return vector::BroadcastOp::create(tb, loc, vectorOf(scalar.getType()),
                                         scalar);
    }
    SmallVector<Value> operands;
    for (Value v : op.getOperands()) {
      Value mapped = map.lookupOrNull(v);
      operands.push_back(
          mapped ? mapped
                 : vector::BroadcastOp::create(tb, loc, vectorOf(v.getType()),
                                               v)
                       .getResult());
    }
    OperationState state(loc, op.getName(), operands,
                         TypeRange{vectorOf(op.getResult(0).getType())},
                         op.getAttrs());
    return tb.create(state)->getResult(0);
  }

  const PooledEpilogue &fused;
  const int64_t windowsPerTile;
  Value image, weights, padding, filled, clampBound;
  SmallVector<linalg::GenericOp> chain;
};

} // namespace

void emitPooledTiles(RewriterBase &rewriter, const Im2colConv &conv,
                     const ConvTile &tile, const PooledEpilogue &fused,
                     int64_t windowsPerTile) {
  PooledTiles(conv, tile, fused, windowsPerTile).run(rewriter);
}

} // namespace ms::conv
