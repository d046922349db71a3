//===- FuseTileEpilogues.cpp - Elementwise consumers in the writing tiles -===//
//
// See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "ms/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
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

/// Something other than `consumer` writes `value` or a view of it.
bool writtenByOthers(Value value, Operation *consumer) {
  for (Operation *user : value.getUsers()) {
    if (user == consumer)
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
bool onlyConsumerWrites(Value value, linalg::GenericOp consumer) {
  auto arg = dyn_cast<BlockArgument>(value);
  return arg &&
         isa<FunctionOpInterface>(arg.getOwner()->getParentOp()) &&
         !writtenByOthers(value, consumer);
}

/// The tile writes into `buffer`, the input `consumer` reads as its
/// `tileInput`: a function-local allocation that only full vector tile
/// writes and reads, all before `consumer`, fill. Empty when not.
SmallVector<vector::TransferWriteOp> tileWrites(Value buffer,
                                               linalg::GenericOp consumer) {
  SmallVector<vector::TransferWriteOp> writes;
  if (!buffer.getDefiningOp<memref::AllocOp>())
    return {};
  Block *block = consumer->getBlock();
  for (Operation *user : buffer.getUsers()) {
    if (user == consumer.getOperation() || isa<memref::DeallocOp>(user))
      continue;
    Operation *outer = block->findAncestorOpInBlock(*user);
    if (!outer || !outer->isBeforeInBlock(consumer))
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
void emitEpilogue(vector::TransferWriteOp write, linalg::GenericOp consumer,
                  unsigned tileInput) {
  OpBuilder b(write->getContext());
  b.setInsertionPointAfter(write);
  Location loc = write.getLoc();
  VectorType tile = write.getVectorType();
  auto vectorOf = [&](Type scalar) { return tile.clone(scalar); };
  IRMapping map;
  for (auto [i, input] : llvm::enumerate(consumer.getDpsInputs())) {
    BlockArgument element = consumer.getBody()->getArgument(i);
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
  for (Operation &inner : consumer.getBody()->without_terminator()) {
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
  auto yield = cast<linalg::YieldOp>(consumer.getBody()->getTerminator());
  for (auto [value, output] :
       llvm::zip(yield.getValues(), consumer.getDpsInits()))
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

/// Fuses `consumer` into the tiles that write one of its inputs, if one
/// qualifies.
bool fuseIntoTiles(linalg::GenericOp consumer) {
  if (!isPointwise(consumer))
    return false;
  for (Value output : consumer.getDpsInits())
    if (!onlyConsumerWrites(output, consumer) ||
        !llvm::hasSingleElement(output.getUsers()))
      return false;
  for (auto [i, input] : llvm::enumerate(consumer.getDpsInputs())) {
    SmallVector<vector::TransferWriteOp> writes = tileWrites(input, consumer);
    if (writes.empty())
      continue;
    bool othersReadOnly = llvm::all_of(
        llvm::enumerate(consumer.getDpsInputs()), [&](auto other) {
          return other.index() == i ||
                 onlyConsumerWrites(other.value(), consumer);
        });
    if (!othersReadOnly)
      return false;
    forwardWrittenTiles(input);
    eraseOverwrittenTiles(input);
    for (vector::TransferWriteOp write : tileWrites(input, consumer))
      emitEpilogue(write, consumer, i);
    consumer.erase();
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
