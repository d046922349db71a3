//===- VectorizePoolTiles.cpp - Window-tile generics on row vectors -------===//
//
// The gradient of a max pool whose windows tile the input (LeNet's 2x2 / 2)
// is one elementwise generic on the [..., H/kh, kh, W/kw, kw] view of the
// input: each element compares its window's kh * kw elements (one operand
// per tap) and routes the pooled gradient to the first maximum. As scalar
// loops, the innermost loop runs kw (2) times and LLVM leaves it scalar.
// Here each (..., i, a) row is vectors: every input row is read once,
// contiguously, and split by shuffles into the kw columns of its windows;
// the generic's body runs on those vectors, once per column b; the kw
// results are interleaved back into the output row. The same scalar ops run
// on the same elements, so the values do not change.
//
//===----------------------------------------------------------------------===//

#include "ms/Codegen/CPU/VectorizePoolTiles.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

namespace ms {
namespace {

/// How the generic reads one input, in loops (p..., i, a, j, b).
enum class TileRead {
  Tap,  // (p..., i, A, j, B): the element at window offset (A, B)
  Own,  // (p..., i, a, j, b): the element itself
  Tile, // (p..., i, j): one value per window
};

struct TileInput {
  TileRead kind;
  int64_t tapRow = 0, tapColumn = 0;
};

struct TileShape {
  unsigned loops = 0;
  int64_t windowH = 0, windowW = 0, tiles = 0; // kh, kw, W / kw
  SmallVector<TileInput> inputs;
};

std::optional<TileInput> classifyRead(AffineMap map, unsigned loops) {
  MLIRContext *ctx = map.getContext();
  auto dim = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  unsigned i = loops - 4, a = loops - 3, j = loops - 2, b = loops - 1;
  auto leadingMatch = [&](unsigned n) {
    for (unsigned k = 0; k < n; ++k)
      if (map.getResult(k) != dim(k))
        return false;
    return true;
  };
  if (map.getNumResults() == loops - 2 && leadingMatch(i + 1) &&
      map.getResult(i + 1) == dim(j))
    return TileInput{TileRead::Tile};
  if (map.getNumResults() != loops || !leadingMatch(i + 1) ||
      map.getResult(j) != dim(j))
    return std::nullopt;
  if (map.getResult(a) == dim(a) && map.getResult(b) == dim(b))
    return TileInput{TileRead::Own};
  auto row = dyn_cast<AffineConstantExpr>(map.getResult(a));
  auto column = dyn_cast<AffineConstantExpr>(map.getResult(b));
  if (!row || !column)
    return std::nullopt;
  return TileInput{TileRead::Tap, row.getValue(), column.getValue()};
}

/// Scalar, pure, single-result ops, and linalg.index only of the loops
/// other than j (a vector of j would be needed).
bool bodyVectorizes(linalg::GenericOp op, unsigned loops) {
  for (Operation &bodyOp : op.getBody()->without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(bodyOp)) {
      if (index.getDim() == loops - 2)
        return false;
      continue;
    }
    if (bodyOp.getNumRegions() || bodyOp.getNumResults() != 1 ||
        !isPure(&bodyOp) ||
        !bodyOp.getResult(0).getType().isIntOrIndexOrFloat())
      return false;
  }
  return true;
}

std::optional<TileShape> matchTiles(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumResults() != 1 || op.getNumReductionLoops() != 0)
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  unsigned loops = ranges.size();
  if (loops < 4 || llvm::any_of(ranges, ShapedType::isDynamic))
    return std::nullopt;
  if (!op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity())
    return std::nullopt;
  TileShape shape;
  shape.loops = loops;
  shape.windowH = ranges[loops - 3];
  shape.windowW = ranges[loops - 1];
  shape.tiles = ranges[loops - 2];
  // Single-column windows have nothing to split; wide rows would need
  // more registers than the body has.
  if (shape.windowW < 2 || shape.windowW * shape.tiles > 64)
    return std::nullopt;
  bool taps = false;
  for (OpOperand *in : op.getDpsInputOperands()) {
    std::optional<TileInput> read =
        classifyRead(op.getMatchingIndexingMap(in), loops);
    if (!read)
      return std::nullopt;
    taps |= read->kind == TileRead::Tap;
    shape.inputs.push_back(*read);
  }
  if (!taps || !bodyVectorizes(op, loops))
    return std::nullopt;
  return shape;
}

/// `t` ([..., X, Y]) with its last two dims merged: rows are then 1-D reads.
Value mergeLastDims(OpBuilder &b, Location loc, Value t) {
  auto type = cast<RankedTensorType>(t.getType());
  unsigned rank = type.getRank();
  SmallVector<ReassociationIndices> groups;
  for (unsigned k = 0; k + 2 < rank; ++k)
    groups.push_back({static_cast<int64_t>(k)});
  groups.push_back({rank - 2, rank - 1});
  return tensor::CollapseShapeOp::create(b, loc, t, groups);
}

struct TileEmitter {
  mutable linalg::GenericOp op;
  const TileShape &shape;
  Location loc;
  Type elementType;
  SmallVector<Value> rowsOf; // each input with its last two dims merged

  Value index(OpBuilder &b, int64_t v) const {
    return arith::ConstantIndexOp::create(b, loc, v);
  }

  /// The lanes j * kw + column of `row` (kw * tiles lanes).
  Value column(OpBuilder &b, Value row, int64_t col) const {
    SmallVector<int64_t> positions;
    for (int64_t j = 0; j < shape.tiles; ++j)
      positions.push_back(j * shape.windowW + col);
    auto type = VectorType::get({shape.tiles},
                                cast<VectorType>(row.getType()).getElementType());
    return vector::ShuffleOp::create(b, loc, type, row, row, positions);
  }

  Value readRow(OpBuilder &b, Value source, ValueRange prefix,
                int64_t lanes) const {
    auto type = cast<RankedTensorType>(source.getType());
    SmallVector<Value> indices(prefix);
    indices.push_back(index(b, 0));
    auto vectorType = VectorType::get({lanes}, type.getElementType());
    return vector::TransferReadOp::create(
        b, loc, vectorType, source, indices,
        arith::ConstantOp::create(b, loc, type.getElementType(),
                                  b.getZeroAttr(type.getElementType())),
        ArrayRef<bool>{true});
  }

  /// The body on vectors of `tiles` lanes for window column `col`.
  Value body(OpBuilder &b, IRMapping map, ValueRange ivs, int64_t col) const {
    Block *block = op.getBody();
    auto splat = [&](Value scalar) -> Value {
      return vector::BroadcastOp::create(
          b, loc, VectorType::get({shape.tiles}, scalar.getType()), scalar);
    };
    for (Operation &bodyOp : block->without_terminator()) {
      if (auto idx = dyn_cast<linalg::IndexOp>(bodyOp)) {
        unsigned d = idx.getDim();
        Value value = d == shape.loops - 1 ? index(b, col) : ivs[d];
        map.map(idx.getResult(), splat(value));
        continue;
      }
      if (bodyOp.getNumOperands() == 0) { // a constant
        map.map(bodyOp.getResult(0), splat(b.clone(bodyOp)->getResult(0)));
        continue;
      }
      SmallVector<Value> operands;
      for (Value v : bodyOp.getOperands()) {
        Value mapped = map.lookupOrNull(v);
        operands.push_back(mapped ? mapped : splat(v));
      }
      OperationState state(
          loc, bodyOp.getName(), operands,
          TypeRange{VectorType::get({shape.tiles},
                                    bodyOp.getResult(0).getType())},
          bodyOp.getAttrs());
      map.map(bodyOp.getResult(0), b.create(state)->getResult(0));
    }
    return map.lookup(block->getTerminator()->getOperand(0));
  }

  /// Output row (p..., i, a): each column's body, interleaved.
  Value row(OpBuilder &b, ValueRange ivs, Value result) const {
    int64_t lanes = shape.windowW * shape.tiles;
    Value a = ivs.back();
    SmallVector<Value> prefix(ivs.drop_back());
    Block *block = op.getBody();
    // Rows read once: tap rows by their window row, own rows at a.
    llvm::DenseMap<std::pair<unsigned, int64_t>, Value> rows;
    auto rowAt = [&](unsigned input, std::optional<int64_t> windowRow) {
      auto key = std::make_pair(input, windowRow.value_or(-1));
      auto it = rows.find(key);
      if (it != rows.end())
        return it->second;
      SmallVector<Value> at(prefix);
      at.push_back(windowRow ? index(b, *windowRow) : a);
      Value v = readRow(b, rowsOf[input], at, lanes);
      rows[key] = v;
      return v;
    };
    SmallVector<Value> columns;
    for (int64_t col = 0; col < shape.windowW; ++col) {
      IRMapping map;
      for (auto [input, read] : llvm::enumerate(shape.inputs)) {
        Value arg = block->getArgument(input);
        switch (read.kind) {
        case TileRead::Tap:
          map.map(arg, column(b, rowAt(input, read.tapRow), read.tapColumn));
          break;
        case TileRead::Own:
          map.map(arg, column(b, rowAt(input, std::nullopt), col));
          break;
        case TileRead::Tile:
          map.map(arg, readRow(b, op.getDpsInputs()[input], prefix,
                               shape.tiles));
          break;
        }
      }
      columns.push_back(body(b, map, ivs, col));
    }
    // Concatenate the columns, then put lane j * kw + col in place.
    Value all = columns.front();
    for (size_t k = 1; k < columns.size(); ++k) {
      int64_t n = cast<VectorType>(all.getType()).getNumElements();
      SmallVector<int64_t> concat;
      for (int64_t l = 0; l < n + shape.tiles; ++l)
        concat.push_back(l);
      all = vector::ShuffleOp::create(
          b, loc,
          VectorType::get({n + shape.tiles}, elementType), all, columns[k],
          concat);
    }
    SmallVector<int64_t> interleave;
    for (int64_t j = 0; j < shape.tiles; ++j)
      for (int64_t col = 0; col < shape.windowW; ++col)
        interleave.push_back(col * shape.tiles + j);
    Value out = vector::ShuffleOp::create(
        b, loc, VectorType::get({lanes}, elementType), all, all, interleave);
    SmallVector<Value> at(ivs);
    at.push_back(index(b, 0));
    return vector::TransferWriteOp::create(b, loc, out, result, at,
                                           ArrayRef<bool>{true})
        .getResult();
  }
};

} // namespace

bool vectorizePoolTiles(RewriterBase &rewriter, linalg::GenericOp op) {
  std::optional<TileShape> shape = matchTiles(op);
  if (!shape)
    return false;
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  TileEmitter emitter{op, *shape, loc,
                      getElementTypeOrSelf(op.getDpsInits()[0].getType()),
                      {}};
  for (auto [input, read] : llvm::enumerate(shape->inputs))
    emitter.rowsOf.push_back(
        read.kind == TileRead::Tile
            ? Value()
            : mergeLastDims(rewriter, loc, op.getDpsInputs()[input]));
  Value init = mergeLastDims(rewriter, loc, op.getDpsInits()[0]);
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  unsigned outer = shape->loops - 2; // (p..., i, a)
  std::function<Value(OpBuilder &, SmallVector<Value>, Value)> nest =
      [&](OpBuilder &b, SmallVector<Value> ivs, Value result) -> Value {
    if (ivs.size() == outer)
      return emitter.row(b, ivs, result);
    auto loop = scf::ForOp::create(
        b, loc, emitter.index(b, 0), emitter.index(b, ranges[ivs.size()]),
        emitter.index(b, 1), ValueRange{result},
        [&](OpBuilder &nb, Location, Value iv, ValueRange iterArgs) {
          SmallVector<Value> inner = ivs;
          inner.push_back(iv);
          scf::YieldOp::create(nb, loc, nest(nb, inner, iterArgs[0]));
        });
    return loop.getResult(0);
  };
  Value rowsResult = nest(rewriter, {}, init);
  auto resultType = cast<RankedTensorType>(op.getResult(0).getType());
  unsigned rank = resultType.getRank();
  SmallVector<ReassociationIndices> groups;
  for (unsigned k = 0; k + 2 < rank; ++k)
    groups.push_back({static_cast<int64_t>(k)});
  groups.push_back({rank - 2, rank - 1});
  rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(op, resultType,
                                                     rowsResult, groups);
  return true;
}

} // namespace ms
