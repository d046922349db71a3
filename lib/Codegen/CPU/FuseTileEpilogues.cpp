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

/// `op`'s body computes each output element from the input elements at the
/// same place (or from rank-0 inputs) with pure elementwise scalar ops.
bool isPointwise(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() ||
      op.getNumLoops() != op.getNumParallelLoops())
    return false;
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    bool scalar = map.getNumResults() == 0 && op.isDpsInput(&operand);
    if (!map.isIdentity() && !scalar)
      return false;
  }
  for (BlockArgument out : op.getRegionOutputArgs())
    if (!out.use_empty())
      return false;
  for (Operation &inner : op.getBody()->without_terminator()) {
    for (Value operand : inner.getOperands())
      if (!operand.getType().isIntOrIndexOrFloat())
        return false;
    if (!isa<arith::ArithDialect>(inner.getDialect()) ||
        !isMemoryEffectFree(&inner) ||
        (!inner.hasTrait<OpTrait::Elementwise>() &&
         !isa<arith::ConstantOp>(inner)))
      return false;
  }
  return true;
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
  if (sizes[0] * count != type.getDimSize(0) || chunk.getOffsets().size() != 1)
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
  auto arg = dyn_cast<BlockArgument>(value);
  return arg &&
         isa<FunctionOpInterface>(arg.getOwner()->getParentOp()) &&
         !writtenByOthers(value, consumer);
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
        write.getIndices() == read.getIndices() &&
        write.getVectorType() == read.getVectorType() && !read.getMask()) {
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
          later.getIndices() == write.getIndices() &&
          later.getVectorType() == write.getVectorType()) {
        dead.push_back(write);
        break;
      }
    }
  }
  for (vector::TransferWriteOp write : dead)
    write.erase();
}

/// Applies `consumer`'s body to the tile `write` writes, reading the other
/// inputs' elements at the same place, and writes the results' tiles into
/// `consumer`'s outputs.
void emitEpilogue(vector::TransferWriteOp write, const Consumer &consumer,
                  unsigned tileInput) {
  linalg::GenericOp generic = consumer.generic;
  OpBuilder b(write->getContext());
  b.setInsertionPointAfter(write);
  Location loc = write.getLoc();
  VectorType tile = write.getVectorType();
  auto vectorOf = [&](Type scalar) { return tile.clone(scalar); };
  IRMapping map;
  for (auto [i, input] : llvm::enumerate(consumer.inputs)) {
    BlockArgument element = generic.getBody()->getArgument(i);
    Value value;
    if (i == tileInput) {
      value = write.getVector();
    } else if (cast<MemRefType>(input.getType()).getRank() == 0) {
      Value scalar = memref::LoadOp::create(b, loc, input);
      value = vector::BroadcastOp::create(b, loc, vectorOf(element.getType()),
                                          scalar);
    } else {
      value = vector::TransferReadOp::create(
          b, loc, vectorOf(element.getType()), input, write.getIndices(),
          /*padding=*/std::nullopt, write.getInBoundsValues());
    }
    map.map(element, value);
  }
  for (Operation &inner : generic.getBody()->without_terminator()) {
    if (auto constant = dyn_cast<arith::ConstantOp>(inner)) {
      auto splat = DenseElementsAttr::get(
          vectorOf(constant.getType()),
          cast<TypedAttr>(constant.getValue()));
      map.map(constant.getResult(),
              arith::ConstantOp::create(b, loc, splat).getResult());
      continue;
    }
    OperationState state(loc, inner.getName());
    for (Value operand : inner.getOperands()) {
      // A scalar from outside the body (a hoisted constant) is the same
      // in every lane.
      if (!map.contains(operand))
        map.map(operand, vector::BroadcastOp::create(
                             b, loc, vectorOf(operand.getType()), operand));
      state.operands.push_back(map.lookup(operand));
    }
    for (Type type : inner.getResultTypes())
      state.types.push_back(vectorOf(type));
    state.attributes = inner.getAttrs();
    Operation *vectorized = b.create(state);
    map.map(inner.getResults(), vectorized->getResults());
  }
  auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
  for (auto [value, output] : llvm::zip(yield.getValues(), consumer.outputs))
    vector::TransferWriteOp::create(b, loc, map.lookup(value), output,
                                    write.getIndices(),
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

/// Fuses `op` into the tiles that write one of its inputs, if one
/// qualifies.
bool fuseIntoTiles(linalg::GenericOp op) {
  std::optional<Consumer> consumer = asConsumer(op);
  if (!consumer)
    return false;
  for (Value output : consumer->outputs)
    if (!onlyConsumerWrites(output, *consumer) ||
        !onlyConsumerUses(output, *consumer))
      return false;
  for (auto [i, input] : llvm::enumerate(consumer->inputs)) {
    if (tileWrites(input, *consumer).empty())
      continue;
    bool othersReadOnly = llvm::all_of(
        llvm::enumerate(consumer->inputs), [&](auto other) {
          return other.index() == i ||
                 onlyConsumerWrites(other.value(), *consumer);
        });
    if (!othersReadOnly)
      return false;
    forwardWrittenTiles(input);
    eraseOverwrittenTiles(input);
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
