//===- FuseTileEpilogues.cpp - Elementwise consumers in the writing tiles -===//
//
// See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "ms/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace ms {
#define GEN_PASS_DEF_MSFUSETILEEPILOGUES
#include "ms/Codegen/CPU/Passes.h.inc"
} // namespace ms

using namespace mlir;

namespace {

/// A full, unmasked write of a vector at the front of a memref's dims.
bool isFullTileWrite(vector::TransferWriteOp write) {
  return !write.getMask() && write.getPermutationMap().isMinorIdentity() &&
         llvm::all_of(write.getInBoundsValues(), [](bool b) { return b; });
}

/// `value` is an argument of the function (not of a block inside it).
bool isFunctionArgument(Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  return arg && arg.getOwner()->isEntryBlock() &&
         isa<FunctionOpInterface>(arg.getOwner()->getParentOp());
}

/// A value the body uses from outside it that dominates every place the
/// body may move to: a constant (cloned there) or an argument of the
/// function.
bool isMovableCapture(Value value) {
  return matchPattern(value, m_Constant()) || isFunctionArgument(value);
}

/// The body is pure elementwise arith on scalars, its captures can move,
/// and it yields only values it computes or reads.
bool hasScalarBody(linalg::GenericOp op) {
  Block *body = op.getBody();
  for (Operation &inner : body->without_terminator()) {
    if (!isa<arith::ArithDialect>(inner.getDialect()) ||
        !isMemoryEffectFree(&inner) ||
        (!inner.hasTrait<OpTrait::Elementwise>() &&
         !isa<arith::ConstantOp>(inner)))
      return false;
    for (Type type : inner.getResultTypes())
      if (!type.isIntOrIndexOrFloat())
        return false;
    for (Value operand : inner.getOperands())
      if (!operand.getType().isIntOrIndexOrFloat() ||
          (operand.getParentBlock() != body && !isMovableCapture(operand)))
        return false;
  }
  return llvm::all_of(body->getTerminator()->getOperands(), [&](Value v) {
    return v.getParentBlock() == body;
  });
}

/// `op`'s body computes each output element from the input elements at the
/// same place (or from rank-0 inputs). i1 buffers are left alone: a vector
/// of them is stored packed, a scalar one a byte each.
bool isPointwise(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() ||
      op.getNumLoops() != op.getNumParallelLoops())
    return false;
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    bool scalar = map.getNumResults() == 0 && op.isDpsInput(&operand);
    if ((!map.isIdentity() && !scalar) ||
        getElementTypeOrSelf(operand.get().getType()).isInteger(1))
      return false;
  }
  for (BlockArgument out : op.getRegionOutputArgs())
    if (!out.use_empty())
      return false;
  return hasScalarBody(op);
}

/// A pointwise generic as one op of the function's body: the generic
/// itself, or a parallel loop whose iterations apply it to chunks of rows
/// that together cover its buffers (ms-parallelize-generics on several
/// threads). `inputs` and `outputs` are the whole buffers it works on.
struct Consumer {
  linalg::GenericOp generic;
  Operation *anchor;
  SmallVector<Value> inputs, outputs;

  bool contains(Operation *op) const { return anchor->isAncestor(op); }
};

/// The buffer `chunk` views, when the chunks of `loop`'s `count`
/// iterations are consecutive blocks of its rows that cover it (iteration
/// i's at row i * rows, with every column).
Value chunkedBuffer(memref::SubViewOp chunk, scf::ForallOp loop,
                    int64_t count) {
  Value whole = chunk.getSource();
  auto type = cast<MemRefType>(whole.getType());
  if (type.getRank() == 0 ||
      loop->isAncestor(whole.getParentBlock()->getParentOp()) ||
      !chunk.hasUnitStride() || !type.hasStaticShape() ||
      chunk.getType().getRank() != type.getRank())
    return nullptr;
  ArrayRef<int64_t> sizes = chunk.getStaticSizes();
  ArrayRef<int64_t> offsets = chunk.getStaticOffsets();
  for (int64_t d = 1; d < type.getRank(); ++d)
    if (offsets[d] != 0 || sizes[d] != type.getDimSize(d))
      return nullptr;
  if (ShapedType::isDynamic(sizes[0]) ||
      sizes[0] * count != type.getDimSize(0) || chunk.getOffsets().size() != 1)
    return nullptr;
  auto first = chunk.getOffsets()[0].getDefiningOp<affine::AffineApplyOp>();
  AffineExpr rows = getAffineDimExpr(0, chunk.getContext()) * sizes[0];
  if (!first || first.getAffineMap().getNumResults() != 1 ||
      first.getAffineMap().getResult(0) != rows ||
      first.getMapOperands() != ValueRange(loop.getInductionVars()))
    return nullptr;
  return whole;
}

/// `op` applied chunk by chunk in the iterations of `loop`, which holds
/// only it and the chunks' views.
std::optional<Consumer> chunkedConsumer(linalg::GenericOp op,
                                        scf::ForallOp loop) {
  if (loop.getRank() != 1 || !loop.getOutputs().empty() ||
      loop.getMapping().has_value() ||
      !isa<FunctionOpInterface>(loop->getParentOp()))
    return std::nullopt;
  int64_t count = loop.getStaticUpperBound()[0];
  if (loop.getStaticLowerBound()[0] != 0 || loop.getStaticStep()[0] != 1 ||
      ShapedType::isDynamic(count))
    return std::nullopt;
  for (Operation &inner : loop.getBody()->without_terminator())
    if (&inner != op.getOperation() &&
        !isa<memref::SubViewOp, affine::AffineApplyOp>(inner))
      return std::nullopt;
  Consumer consumer{op, loop, {}, {}};
  for (OpOperand &operand : op->getOpOperands()) {
    Value whole = operand.get();
    if (auto chunk = whole.getDefiningOp<memref::SubViewOp>())
      whole = chunkedBuffer(chunk, loop, count);
    else if (cast<MemRefType>(whole.getType()).getRank() != 0)
      whole = nullptr;
    if (!whole)
      return std::nullopt;
    (op.isDpsInput(&operand) ? consumer.inputs : consumer.outputs)
        .push_back(whole);
  }
  return consumer;
}

std::optional<Consumer> asConsumer(linalg::GenericOp op) {
  if (!isPointwise(op))
    return std::nullopt;
  if (isa<FunctionOpInterface>(op->getParentOp()))
    return Consumer{op, op, op.getDpsInputs(), op.getDpsInits()};
  if (auto loop = dyn_cast<scf::ForallOp>(op->getParentOp()))
    return chunkedConsumer(op, loop);
  return std::nullopt;
}

/// Something outside `consumer` writes `value` or a view of it.
bool writtenByOthers(Value value, const Consumer &consumer) {
  for (Operation *user : value.getUsers()) {
    if (consumer.contains(user))
      continue;
    if (auto view = dyn_cast<ViewLikeOpInterface>(user)) {
      if (writtenByOthers(view->getResult(0), consumer))
        return true;
      continue;
    }
    auto effects = dyn_cast<MemoryEffectOpInterface>(user);
    if (!effects || effects.getEffectOnValue<MemoryEffects::Write>(value))
      return true;
  }
  return false;
}

/// `value` is a function argument that nothing but `consumer` writes.
bool onlyConsumerWrites(Value value, const Consumer &consumer) {
  return isFunctionArgument(value) && !writtenByOthers(value, consumer);
}

/// Only `consumer` uses `value` at all.
bool onlyConsumerUses(Value value, const Consumer &consumer) {
  return llvm::all_of(value.getUsers(),
                      [&](Operation *user) { return consumer.contains(user); });
}

/// The tile writes into `buffer`, an input of `consumer`: a function-local
/// allocation that, outside `consumer`, only full vector tile writes and
/// reads, all before it, use. Empty when not.
SmallVector<vector::TransferWriteOp> tileWrites(Value buffer,
                                               const Consumer &consumer) {
  SmallVector<vector::TransferWriteOp> writes;
  if (!buffer.getDefiningOp<memref::AllocOp>())
    return {};
  Block *block = consumer.anchor->getBlock();
  for (Operation *user : buffer.getUsers()) {
    if (consumer.contains(user) || isa<memref::DeallocOp>(user))
      continue;
    Operation *outer = block->findAncestorOpInBlock(*user);
    if (!outer || !outer->isBeforeInBlock(consumer.anchor))
      return {};
    if (isa<vector::TransferReadOp>(user))
      continue;
    auto write = dyn_cast<vector::TransferWriteOp>(user);
    if (!write || !isFullTileWrite(write))
      return {};
    writes.push_back(write);
  }
  return writes;
}

/// A read of `buffer` right after a write of the same tile reads what was
/// written (a tile's zero start).
void forwardWrittenTiles(Value buffer) {
  SmallVector<vector::TransferReadOp> reads;
  for (Operation *user : buffer.getUsers())
    if (auto read = dyn_cast<vector::TransferReadOp>(user))
      reads.push_back(read);
  for (vector::TransferReadOp read : reads) {
    auto write =
        dyn_cast_or_null<vector::TransferWriteOp>(read->getPrevNode());
    if (write && write.getBase() == buffer &&
        vector::checkSameValueRAW(write, read) &&
        read.getInBoundsValues() == write.getInBoundsValues()) {
      read.getResult().replaceAllUsesWith(write.getVector());
      read.erase();
    }
  }
}

/// Writes overwritten by a later write of the same tile in their block,
/// with nothing reading `buffer` at all, are dead.
void eraseOverwrittenTiles(Value buffer) {
  for (Operation *user : buffer.getUsers())
    if (isa<vector::TransferReadOp>(user))
      return;
  SmallVector<vector::TransferWriteOp> dead;
  for (Operation *user : buffer.getUsers()) {
    auto write = dyn_cast<vector::TransferWriteOp>(user);
    if (!write)
      continue;
    for (Operation *next = write->getNextNode(); next;
         next = next->getNextNode()) {
      auto later = dyn_cast<vector::TransferWriteOp>(next);
      if (later && later.getBase() == buffer &&
          vector::checkSameValueWAW(later, write)) {
        dead.push_back(write);
        break;
      }
    }
  }
  for (vector::TransferWriteOp write : dead)
    write.erase();
}

/// Input `i` of `consumer` at the tile `write` writes: the tile itself
/// for `tileInput`, a broadcast scalar, or a tile read at the same place.
Value inputTile(OpBuilder &b, vector::TransferWriteOp write,
                const Consumer &consumer, unsigned i, unsigned tileInput) {
  if (i == tileInput)
    return write.getVector();
  Location loc = write.getLoc();
  Value input = consumer.inputs[i];
  linalg::GenericOp generic = consumer.generic;
  VectorType type = write.getVectorType().clone(
      generic.getBody()->getArgument(i).getType());
  if (cast<MemRefType>(input.getType()).getRank() == 0)
    return vector::BroadcastOp::create(b, loc, type,
                                       memref::LoadOp::create(b, loc, input));
  return vector::TransferReadOp::create(b, loc, type, input,
                                        write.getIndices(),
                                        /*padding=*/std::nullopt,
                                        write.getInBoundsValues());
}

/// A value from outside the body in every lane; a constant is cloned here
/// first, so it dominates.
Value splatCapture(OpBuilder &b, Location loc, Value value, VectorType tile) {
  if (Operation *constant = value.getDefiningOp())
    value = b.clone(*constant)->getResult(0);
  return vector::BroadcastOp::create(b, loc, tile.clone(value.getType()),
                                     value);
}

/// Clones `generic`'s body on vectors shaped like `tile`; `map` holds the
/// block arguments' vectors and receives the body's.
void vectorizeBody(OpBuilder &b, Location loc, linalg::GenericOp generic,
                   VectorType tile, IRMapping &map) {
  for (Operation &inner : generic.getBody()->without_terminator()) {
    if (auto constant = dyn_cast<arith::ConstantOp>(inner)) {
      auto splat = DenseElementsAttr::get(
          tile.clone(constant.getType()),
          cast<TypedAttr>(constant.getValue()));
      map.map(constant.getResult(),
              arith::ConstantOp::create(b, loc, splat).getResult());
      continue;
    }
    OperationState state(loc, inner.getName());
    for (Value operand : inner.getOperands()) {
      if (!map.contains(operand))
        map.map(operand, splatCapture(b, loc, operand, tile));
      state.operands.push_back(map.lookup(operand));
    }
    for (Type type : inner.getResultTypes())
      state.types.push_back(tile.clone(type));
    state.attributes = inner.getAttrs();
    map.map(inner.getResults(), b.create(state)->getResults());
  }
}

/// Applies `consumer`'s body to the tile `write` writes and writes the
/// results' tiles into `consumer`'s outputs at the same place.
void emitEpilogue(vector::TransferWriteOp write, const Consumer &consumer,
                  unsigned tileInput) {
  OpBuilder b(write);
  b.setInsertionPointAfter(write);
  linalg::GenericOp generic = consumer.generic;
  Block *body = generic.getBody();
  IRMapping map;
  for (unsigned i = 0; i < consumer.inputs.size(); ++i)
    map.map(body->getArgument(i),
            inputTile(b, write, consumer, i, tileInput));
  vectorizeBody(b, write.getLoc(), generic, write.getVectorType(), map);
  for (auto [value, output] :
       llvm::zip(body->getTerminator()->getOperands(), consumer.outputs))
    vector::TransferWriteOp::create(b, write.getLoc(), map.lookup(value),
                                    output, write.getIndices(),
                                    write.getInBoundsValues());
}

/// Drops `buffer`'s allocation when nothing reads it any more.
void eraseIfUnread(Value buffer) {
  SmallVector<Operation *> users(buffer.getUsers());
  for (Operation *user : users)
    if (!isa<vector::TransferWriteOp, memref::DeallocOp>(user))
      return;
  for (Operation *user : users)
    user->erase();
  buffer.getDefiningOp()->erase();
}

/// Nothing outside `consumer` reads `buffer`.
bool unread(Value buffer, const Consumer &consumer) {
  return llvm::none_of(buffer.getUsers(), [&](Operation *user) {
    return !consumer.contains(user) && isa<vector::TransferReadOp>(user);
  });
}

/// Input `i` is a tile buffer `consumer` can take over: a whole buffer it
/// reads element for element, that only tiles write, and that (once a
/// zero start's read back is forwarded) nothing else reads. Then each
/// element's last write holds its final value, and the epilogue of that
/// write is the last to write the outputs there.
bool isTileInput(const Consumer &consumer, unsigned i) {
  Value input = consumer.inputs[i];
  linalg::GenericOp generic = consumer.generic;
  if (!generic.getMatchingIndexingMap(generic.getDpsInputOperand(i))
           .isIdentity() ||
      cast<MemRefType>(input.getType()).getRank() == 0 ||
      tileWrites(input, consumer).empty())
    return false;
  forwardWrittenTiles(input);
  return unread(input, consumer);
}

/// Fuses `op` into the tiles that write one of its inputs, if one
/// qualifies. The other inputs and the outputs are distinct function
/// arguments (the runtime binds each to a buffer of its own) that nothing
/// else writes, so reading them at the tiles, before `op`'s place, reads
/// the same values.
bool fuseIntoTiles(linalg::GenericOp op) {
  std::optional<Consumer> consumer = asConsumer(op);
  if (!consumer)
    return false;
  for (Value output : consumer->outputs)
    if (!onlyConsumerWrites(output, *consumer) ||
        !onlyConsumerUses(output, *consumer) ||
        llvm::is_contained(consumer->inputs, output))
      return false;
  for (unsigned i = 0; i < consumer->inputs.size(); ++i) {
    if (!isTileInput(*consumer, i))
      continue;
    bool othersReadOnly = llvm::all_of(
        llvm::enumerate(consumer->inputs), [&](auto other) {
          return other.index() == i ||
                 onlyConsumerWrites(other.value(), *consumer);
        });
    if (!othersReadOnly)
      return false;
    Value input = consumer->inputs[i];
    eraseOverwrittenTiles(input);
    // Only reads and dead writes went: the rest are still its tile writes.
    for (vector::TransferWriteOp write : tileWrites(input, *consumer))
      emitEpilogue(write, *consumer, i);
    consumer->anchor->erase();
    eraseIfUnread(input);
    return true;
  }
  return false;
}

struct MSFuseTileEpiloguesPass
    : ms::impl::MSFuseTileEpiloguesBase<MSFuseTileEpiloguesPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> candidates;
    getOperation()->walk(
        [&](linalg::GenericOp op) { candidates.push_back(op); });
    for (linalg::GenericOp op : candidates)
      fuseIntoTiles(op);
  }
};

} // namespace
