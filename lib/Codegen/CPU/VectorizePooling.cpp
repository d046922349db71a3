//===- VectorizePooling.cpp - Pooling windows on vectors, row by row ------===//
//
// Max pooling reads the input at ow * stride + kw. LLVM vectorizes that
// stride with masked gathers over short rows (14 wide in LeNet), which made
// pooling about a third of a LeNet conv block. Here each output row becomes
// one vector: per window position, a contiguous read of the input row and a
// shuffle that keeps every stride-th element, then the generic's own body.
// Odd widths (14, 27) are padded to whole registers: LLVM splits a
// vector<27xf32> into four pieces and its shuffles into many. An output
// initialised by a fill starts from the filled value instead of reading it.
//
//===----------------------------------------------------------------------===//

#include "ms/Codegen/CPU/Passes.h"
#include "ms/Codegen/CPU/TileSizeModel.h"
#include "ms/Codegen/CPU/VectorizePoolTiles.h"
#include "ms/Codegen/CPU/VectorizationUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace ms {
#define GEN_PASS_DEF_MSVECTORIZEPOOLING
#include "ms/Codegen/CPU/Passes.h.inc"
} // namespace ms

using namespace mlir;
using namespace ms;

namespace {

/// A pooling-shaped generic: loops (p0, ..., oh, ow, kh, kw), output at
/// (p0, ..., oh, ow), one input at (p0, ..., oh*sh + kh*dh, ow*sw + kw*dw),
/// and a body that reads only that input and the output.
struct PoolingShape {
  unsigned parallel = 0;
  int64_t windowH = 0, windowW = 0, strideH = 0, strideW = 0, dilationH = 0,
          dilationW = 0;
  OpOperand *input = nullptr;
};

/// The vectors of the row emitter (see vectorizePooling), if the window
/// unrolls into a bounded number of taps and each stays under
/// kMaxVectorLanes (TileSizeModel).
std::optional<PoolRowVectors> rowVectors(const PoolingShape &shape,
                                         int64_t outputWidth) {
  return choosePoolRowVectors(outputWidth, shape.windowH, shape.windowW,
                              shape.strideW, shape.dilationW);
}

std::optional<PoolingShape> matchPooling(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
      op->getNumResults() != 1)
    return std::nullopt;
  // Rows are read with the output's element type: a pool that also casts
  // (an f16 pool widened to f32) stays a loop.
  Type elementType = getElementTypeOrSelf(op.getDpsInits()[0].getType());
  for (Value input : op.getDpsInputs())
    if (getElementTypeOrSelf(input.getType()) != elementType &&
        isa<ShapedType>(input.getType()) &&
        cast<ShapedType>(input.getType()).getRank() > 2)
      return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  unsigned loops = ranges.size();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (loops < 4 || llvm::any_of(ranges, ShapedType::isDynamic))
    return std::nullopt;
  PoolingShape shape;
  shape.parallel = loops - 2;
  for (unsigned i = 0; i < loops; ++i)
    if ((i < shape.parallel) !=
        (iterators[i] == utils::IteratorType::parallel))
      return std::nullopt;
  OpOperand *init = op.getDpsInitOperand(0);
  AffineMap outMap = op.getMatchingIndexingMap(init);
  if (outMap.getNumResults() != shape.parallel)
    return std::nullopt;
  for (unsigned i = 0; i < shape.parallel; ++i)
    if (outMap.getResult(i) != getAffineDimExpr(i, op.getContext()))
      return std::nullopt;
  Block *body = op.getBody();
  for (OpOperand *in : op.getDpsInputOperands()) {
    if (body->getArgument(in->getOperandNumber()).use_empty())
      continue;
    if (shape.input)
      return std::nullopt;
    shape.input = in;
  }
  if (!shape.input)
    return std::nullopt;
  AffineMap inMap = op.getMatchingIndexingMap(shape.input);
  if (inMap.getNumResults() != shape.parallel)
    return std::nullopt;
  unsigned oh = shape.parallel - 2, ow = shape.parallel - 1;
  for (unsigned i = 0; i < oh; ++i)
    if (inMap.getResult(i) != getAffineDimExpr(i, op.getContext()))
      return std::nullopt;
  auto rowCoefficients = linearCoefficients(inMap.getResult(oh), loops);
  auto colCoefficients = linearCoefficients(inMap.getResult(ow), loops);
  if (!rowCoefficients || !colCoefficients)
    return std::nullopt;
  for (unsigned i = 0; i < loops; ++i) {
    if ((i != oh && i != loops - 2 && (*rowCoefficients)[i]) ||
        (i != ow && i != loops - 1 && (*colCoefficients)[i]))
      return std::nullopt;
  }
  shape.strideH = (*rowCoefficients)[oh];
  shape.dilationH = (*rowCoefficients)[loops - 2];
  shape.strideW = (*colCoefficients)[ow];
  shape.dilationW = (*colCoefficients)[loops - 1];
  shape.windowH = ranges[loops - 2];
  shape.windowW = ranges[loops - 1];
  if (shape.strideH < 1 || shape.strideW < 1 || shape.dilationH < 1 ||
      shape.dilationW < 1 || ranges[ow] < 2 || !rowVectors(shape, ranges[ow]))
    return std::nullopt;
  // Only scalar elementwise arithmetic in the body, so it works on vectors.
  for (Operation &bodyOp : body->without_terminator())
    if (bodyOp.getNumRegions() || bodyOp.getNumResults() != 1 ||
        !isPure(&bodyOp) ||
        !llvm::all_of(bodyOp.getResultTypes(),
                      [](Type t) { return t.isIntOrFloat(); }))
      return std::nullopt;
  return shape;
}

/// A max (or min) pooling body: out = combine(out, clamp(in)), with
/// combine arith.maximumf or arith.minimumf and clamp a chain of maximumf /
/// minimumf of `in` with values from outside it (a relu fused into the
/// pool), possibly empty. Both are exact selections and clamp is monotone,
/// so the window can be combined in any order and clamped once: the same
/// value, bit for bit.
struct SelectionBody {
  Operation *combine = nullptr;
  SmallVector<Operation *> clamp; // from `in` outwards
  /// The clamp sends -0 and +0 to one value (relu's max with +0), so the
  /// window may be combined without ordering signed zeros.
  bool clampMergesZeros = false;
};

/// Whether `clampOp` (maximumf or minimumf of the window and a value from
/// outside the body) gives -0 and +0 the same result.
bool mergesZeros(Operation *clampOp, Block *body) {
  for (Value operand : clampOp->getOperands())
    if (operand.getParentBlock() != body)
      return clampMergesZeros(operand, isa<arith::MaximumFOp>(clampOp));
  return false;
}

std::optional<SelectionBody> matchSelectionBody(Block *body, Value inArg,
                                                Value outArg) {
  auto isSelection = [](Operation *op) {
    return isa_and_nonnull<arith::MaximumFOp, arith::MinimumFOp>(op);
  };
  SelectionBody selection;
  selection.combine = body->getTerminator()->getOperand(0).getDefiningOp();
  if (!isSelection(selection.combine))
    return std::nullopt;
  Value lhs = selection.combine->getOperand(0),
        rhs = selection.combine->getOperand(1);
  if (lhs != outArg && rhs != outArg)
    return std::nullopt;
  Value chain = lhs == outArg ? rhs : lhs;
  while (chain != inArg) {
    Operation *op = chain.getDefiningOp();
    if (!isSelection(op) || op->getBlock() != body)
      return std::nullopt;
    Value a = op->getOperand(0), b = op->getOperand(1);
    // The other operand must not depend on the window: defined outside
    // the body.
    auto invariant = [&](Value v) { return v.getParentBlock() != body; };
    if (invariant(b))
      chain = a;
    else if (invariant(a))
      chain = b;
    else
      return std::nullopt;
    selection.clamp.insert(selection.clamp.begin(), op);
  }
  // Nothing else in the body, and the window and output used only there.
  if (static_cast<size_t>(std::distance(body->begin(), body->end())) !=
          selection.clamp.size() + 2 ||
      !outArg.hasOneUse() || !inArg.hasOneUse())
    return std::nullopt;
  selection.clampMergesZeros =
      !selection.clamp.empty() && mergesZeros(selection.clamp.front(), body);
  return selection;
}

/// Emits a pooling generic as vectors, one output row at a time (see the
/// file's header): the state the row emitters share.
class PoolRowEmitter {
public:
  PoolRowEmitter(RewriterBase &rewriter, linalg::GenericOp op,
                 const PoolingShape &shape)
      : loc(op.getLoc()), shape(shape), body(op.getBody()),
        ranges(op.getStaticLoopRanges()), width(ranges[shape.parallel - 1]),
        vectors(*rowVectors(shape, width)), lanes(vectors.row),
        inputWidth(
            cast<ShapedType>(shape.input->get().getType()).getShape().back()),
        elementType(getElementTypeOrSelf(op.getDpsInits()[0].getType())),
        rowType(VectorType::get({lanes}, elementType)),
        spanType(VectorType::get({vectors.span}, elementType)),
        input(shape.input->get()),
        inArg(body->getArgument(shape.input->getOperandNumber())),
        outArg(body->getArgument(op.getDpsInitOperand(0)->getOperandNumber())) {
    for (int64_t i = 0; i < lanes; ++i)
      everyStride.push_back(i * shape.strideW);
    // A fill-initialised output starts each row from the filled scalar and
    // is written straight into the fill's destination.
    init = op.getDpsInits()[0];
    fill = init.getDefiningOp();
    filled = init.hasOneUse() ? filledScalar(fill) : nullptr;
    if (filled)
      init = cast<DestinationStyleOpInterface>(fill).getDpsInits()[0];
    rewriter.setInsertionPoint(op);
    padding = arith::ConstantOp::create(rewriter, loc, elementType,
                                        rewriter.getZeroAttr(elementType));
    selection = matchSelectionBody(body, inArg, outArg);
  }

  /// Replaces `op` with the loops over its output rows.
  void emit(RewriterBase &rewriter, linalg::GenericOp op) {
    Value pooled = nest(rewriter, {}, init);
    rewriter.replaceOp(op, pooled);
    if (filled)
      rewriter.eraseOp(fill);
  }

private:
  Value index(OpBuilder &b, int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  }

  /// `bodyOp` on vectors of `n` lanes, its operands mapped through `map`;
  /// scalars from outside the body (or its constants) are splat.
  Value cloneOnVectors(OpBuilder &b, Operation *bodyOp, IRMapping &map,
                       int64_t n) {
    SmallVector<Value> operands;
    for (Value v : bodyOp->getOperands()) {
      Value mapped = map.lookupOrNull(v);
      operands.push_back(
          mapped ? mapped
                 : vector::BroadcastOp::create(
                       b, loc, VectorType::get({n}, v.getType()), v));
    }
    OperationState state(
        loc, bodyOp->getName(), operands,
        TypeRange{VectorType::get({n}, bodyOp->getResult(0).getType())},
        bodyOp->getAttrs());
    Value result = b.create(state)->getResult(0);
    map.map(bodyOp->getResult(0), result);
    return result;
  }

  /// The selection's combine of `x` and `y` on `n` lanes.
  Value combine(OpBuilder &b, Value x, Value y, int64_t n) {
    IRMapping map;
    map.map(selection->combine->getOperand(0), x);
    map.map(selection->combine->getOperand(1), y);
    return cloneOnVectors(b, selection->combine, map, n);
  }

  /// Inside the window, when the clamp merges signed zeros, a max (min)
  /// that needs not order them (the clamp erases the difference).
  Value combineWindow(OpBuilder &b, Value x, Value y, int64_t n) {
    bool isMax = isa<arith::MaximumFOp>(selection->combine);
    return selection->clampMergesZeros
               ? extremeIgnoringZeroSign(b, loc, x, y, isMax)
               : combine(b, x, y, n);
  }

  /// A max/min pool's row: each input row of the window read once across
  /// all of its kw positions and combined with the others, then each kw
  /// position shuffled out and combined, then clamped once.
  Value selectionRow(OpBuilder &b, ValueRange ivs, Value result, Value acc,
                     ArrayRef<Value> outIndices) {
    int64_t windowLanes = vectors.window;
    auto windowType = VectorType::get({windowLanes}, elementType);
    Value ohTimesStride =
        arith::MulIOp::create(b, loc, ivs.back(), index(b, shape.strideH));
    Value rows;
    for (int64_t kh = 0; kh < shape.windowH; ++kh) {
      SmallVector<Value> inIndices(ivs.drop_back());
      inIndices.push_back(arith::AddIOp::create(
          b, loc, ohTimesStride, index(b, kh * shape.dilationH)));
      inIndices.push_back(index(b, 0));
      Value inputRow = readLanes(b, loc, windowType, input, inIndices,
                                 padding, inputWidth);
      rows = rows ? combineWindow(b, rows, inputRow, windowLanes) : inputRow;
    }
    Value window;
    for (int64_t kw = 0; kw < shape.windowW; ++kw) {
      SmallVector<int64_t> positions;
      for (int64_t i = 0; i < lanes; ++i)
        positions.push_back(i * shape.strideW + kw * shape.dilationW);
      Value columns =
          vector::ShuffleOp::create(b, loc, rowType, rows, rows, positions);
      window = window ? combineWindow(b, window, columns, lanes) : columns;
    }
    IRMapping map;
    map.map(inArg, window);
    for (Operation *clampOp : selection->clamp)
      window = cloneOnVectors(b, clampOp, map, lanes);
    return writeLanes(b, loc, combine(b, acc, window, lanes), result,
                      outIndices, width);
  }

  /// Any other pool's row: for each window position in order, acc =
  /// body(in row at that position, acc).
  Value bodyRow(OpBuilder &b, ValueRange ivs, Value result, Value acc,
                ArrayRef<Value> outIndices) {
    Value ohTimesStride = arith::MulIOp::create(b, loc, ivs.back(),
                                                index(b, shape.strideH));
    for (int64_t kh = 0; kh < shape.windowH; ++kh)
      for (int64_t kw = 0; kw < shape.windowW; ++kw) {
        SmallVector<Value> inIndices(ivs.drop_back());
        inIndices.push_back(arith::AddIOp::create(
            b, loc, ohTimesStride, index(b, kh * shape.dilationH)));
        inIndices.push_back(index(b, kw * shape.dilationW));
        Value window = readLanes(b, loc, spanType, input, inIndices, padding,
                                 inputWidth - kw * shape.dilationW);
        if (shape.strideW > 1)
          window = vector::ShuffleOp::create(b, loc, rowType, window, window,
                                             everyStride);
        IRMapping map;
        map.map(inArg, window);
        map.map(outArg, acc);
        for (Operation &bodyOp : body->without_terminator())
          cloneOnVectors(b, &bodyOp, map, lanes);
        acc = map.lookup(body->getTerminator()->getOperand(0));
      }
    return writeLanes(b, loc, acc, result, outIndices, width);
  }

  /// One output row, starting from the output's row (or the filled value).
  Value row(OpBuilder &b, ValueRange ivs, Value result) {
    SmallVector<Value> outIndices(ivs);
    outIndices.push_back(index(b, 0));
    Value acc =
        filled
            ? vector::BroadcastOp::create(b, loc, rowType, filled).getResult()
            : readLanes(b, loc, rowType, result, outIndices, padding, width);
    if (selection)
      return selectionRow(b, ivs, result, acc, outIndices);
    return bodyRow(b, ivs, result, acc, outIndices);
  }

  /// Loops over every output row, carrying the output tensor.
  Value nest(OpBuilder &b, SmallVector<Value> ivs, Value result) {
    if (ivs.size() == shape.parallel - 1) // every loop but ow
      return row(b, ivs, result);
    auto loop = scf::ForOp::create(
        b, loc, index(b, 0), index(b, ranges[ivs.size()]), index(b, 1),
        ValueRange{result},
        [&](OpBuilder &nb, Location, Value iv, ValueRange iterArgs) {
          SmallVector<Value> inner = ivs;
          inner.push_back(iv);
          scf::YieldOp::create(nb, loc, nest(nb, inner, iterArgs[0]));
        });
    return loop.getResult(0);
  }

  Location loc;
  const PoolingShape &shape;
  Block *body;
  SmallVector<int64_t> ranges;
  int64_t width;
  PoolRowVectors vectors;
  int64_t lanes;
  /// Lanes past the input row's end are masked off.
  int64_t inputWidth;
  Type elementType;
  VectorType rowType, spanType;
  SmallVector<int64_t> everyStride;
  Value input, inArg, outArg;
  Value init;
  Operation *fill = nullptr;
  Value filled;
  /// The padding lanes compute on junk, which cannot trap: matched bodies
  /// are pure, so speculatable (no integer division).
  Value padding;
  std::optional<SelectionBody> selection;
};

/// Emits the vectorized pooling in place of `op`.
void vectorizePooling(RewriterBase &rewriter, linalg::GenericOp op,
                      const PoolingShape &shape) {
  PoolRowEmitter(rewriter, op, shape).emit(rewriter, op);
}

struct MSVectorizePoolingPass
    : ms::impl::MSVectorizePoolingBase<MSVectorizePoolingPass> {
  void runOnOperation() override {
    SmallVector<std::pair<linalg::GenericOp, PoolingShape>> pools;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (std::optional<PoolingShape> shape = matchPooling(op))
        pools.push_back({op, *shape});
    });
    IRRewriter rewriter(&getContext());
    for (auto &[op, shape] : pools)
      vectorizePooling(rewriter, op, shape);
    // Then max-pool gradients over windows that tile the input, collected
    // only now: the pools erase the fill generics they start from.
    SmallVector<linalg::GenericOp> generics;
    getOperation()->walk([&](linalg::GenericOp op) { generics.push_back(op); });
    for (linalg::GenericOp op : generics)
      vectorizePoolTiles(rewriter, op);
  }
};

} // namespace
