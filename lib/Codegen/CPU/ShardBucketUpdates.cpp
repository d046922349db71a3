//===- ShardBucketUpdates.cpp - Each rank computes part of the updates ----===//
//
// See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "ms/Codegen/CPU/Passes.h"
#include "ms/Support/ArgumentAttributes.h"
#include "ms/Support/RuntimeFunctions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include <limits>

namespace ms {
#define GEN_PASS_DEF_MSSHARDBUCKETUPDATES
#include "ms/Codegen/CPU/Passes.h.inc"
} // namespace ms

using namespace mlir;

namespace {

/// Smaller updates are computed whole on each rank: for a few lines, the
/// split's views and copies cost more than they save.
constexpr int64_t kMinShardElements = 4096;

/// Elements [first, second) of a bucket.
using Range = std::pair<int64_t, int64_t>;
constexpr Range kWholeBucket = {0, std::numeric_limits<int64_t>::max()};

bool overlap(Range a, Range b) {
  return a.first < b.second && b.first < a.second;
}

/// The buffer `value` views (through subviews, reshapes, memref.view), or
/// `value` itself.
Value rootOf(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  return value;
}

/// An op that reads or writes bucket elements, and which ones.
struct Access {
  Operation *op;
  Range range;
};

/// The elements of a 1-D buffer holding `within` that `view`, a view of
/// it, covers: a static unit-stride subview narrows them; a memref.view
/// that does not start at the buffer's first byte counts from elsewhere.
Range narrowedBy(Operation *view, Value source, Range within) {
  if (auto bytes = dyn_cast<memref::ViewOp>(view)) {
    std::optional<int64_t> shift = getConstantIntValue(bytes.getByteShift());
    return shift && *shift == 0 ? within : kWholeBucket;
  }
  auto subview = dyn_cast<memref::SubViewOp>(view);
  if (!subview || cast<MemRefType>(source.getType()).getRank() != 1 ||
      subview.getStaticOffsets()[0] == ShapedType::kDynamic ||
      subview.getStaticSizes()[0] == ShapedType::kDynamic ||
      subview.getStaticStrides()[0] != 1)
    return within;
  int64_t begin = within.first + subview.getStaticOffsets()[0];
  return {begin, begin + subview.getStaticSizes()[0]};
}

/// The elements of a 1-D buffer holding `within` that `op` reads, when it
/// loads at a constant index; `within` otherwise.
Range loadedBy(Operation *op, Value source, Range within) {
  if (cast<MemRefType>(source.getType()).getRank() != 1)
    return within;
  std::optional<int64_t> index;
  int64_t count = 1;
  if (auto load = dyn_cast<vector::LoadOp>(op)) {
    index = getConstantIntValue(load.getIndices()[0]);
    count = load.getVectorType().getNumElements();
  } else if (auto load = dyn_cast<memref::LoadOp>(op)) {
    index = getConstantIntValue(load.getIndices()[0]);
  }
  if (!index)
    return within;
  return {within.first + *index, within.first + *index + count};
}

/// Every op that uses `buffer` (through views) and is not a view itself,
/// with the elements it covers, where `buffer` holds `within`.
void collectAccesses(Value buffer, Range within,
                     SmallVectorImpl<Access> &out) {
  for (Operation *user : buffer.getUsers()) {
    auto view = dyn_cast<ViewLikeOpInterface>(user);
    if (view && view.getViewSource() == buffer) {
      for (Value result : user->getResults())
        collectAccesses(result, narrowedBy(user, buffer, within), out);
      continue;
    }
    out.push_back({user, loadedBy(user, buffer, within)});
  }
}

/// The accesses to `bucket` that run after `call` (or are not in its
/// block, to be safe).
SmallVector<Access> accessesAfter(Value bucket, Operation *call) {
  SmallVector<Access> all, after;
  collectAccesses(bucket, kWholeBucket, all);
  for (const Access &access : all) {
    Operation *top = call->getBlock()->findAncestorOpInBlock(*access.op);
    if (!top || call->isBeforeInBlock(top))
      after.push_back(access);
  }
  return after;
}

/// An update to split: it writes `output` whole from the own bucket's
/// region `own` and the other rank's same region `peer`.
struct ShardedUpdate {
  linalg::GenericOp op;
  OpOperand *own;
  OpOperand *peer;
  Range range;
};

/// `op`'s access among `accesses`; null if it has none.
const Access *accessBy(ArrayRef<Access> accesses, Operation *op) {
  for (const Access &access : accesses)
    if (access.op == op)
      return &access;
  return nullptr;
}

/// Whether each of `generic`'s operands is read at its own indices or
/// without the first loop's index, so that splitting the first loop
/// splits it or leaves it whole.
bool splitsByFirstLoop(linalg::GenericOp generic) {
  for (AffineMap map : generic.getIndexingMapsArray())
    if (!map.isIdentity() && map.isFunctionOfDim(0))
      return false;
  return true;
}

/// `op` as an update to split: elementwise, one output written whole (a
/// block argument), at least kMinShardElements elements, and exactly one
/// read of each bucket, of the same region, at the output's indices.
std::optional<ShardedUpdate> asShardedUpdate(Operation *op, Value own,
                                             Value peer,
                                             ArrayRef<Access> ownAccesses,
                                             ArrayRef<Access> peerAccesses) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || !generic.hasPureBufferSemantics() ||
      generic.getNumDpsInits() != 1 || generic.getNumLoops() == 0 ||
      generic.getNumLoops() != generic.getNumParallelLoops() ||
      !splitsByFirstLoop(generic))
    return std::nullopt;
  OpOperand *init = generic.getDpsInitOperand(0);
  auto type = cast<MemRefType>(init->get().getType());
  if (!isa<BlockArgument>(rootOf(init->get())) || !type.hasStaticShape() ||
      type.getNumElements() < kMinShardElements ||
      !generic.getMatchingIndexingMap(init).isIdentity())
    return std::nullopt;
  Value written = rootOf(init->get());
  OpOperand *ownRead = nullptr, *peerRead = nullptr;
  for (OpOperand &operand : generic->getOpOperands()) {
    Value root = rootOf(operand.get());
    // Another rank writes the output's other rows: only the rows this op
    // writes may be read.
    if (root == written &&
        !generic.getMatchingIndexingMap(&operand).isIdentity())
      return std::nullopt;
    OpOperand **slot = root == own ? &ownRead : root == peer ? &peerRead
                                                             : nullptr;
    if (!slot)
      continue;
    if (*slot || generic.isDpsInit(&operand))
      return std::nullopt;
    *slot = &operand;
  }
  const Access *ownAccess = accessBy(ownAccesses, generic);
  const Access *peerAccess = accessBy(peerAccesses, generic);
  if (!ownRead || !peerRead || !ownAccess || !peerAccess ||
      ownAccess->range != peerAccess->range ||
      ownAccess->range == kWholeBucket ||
      ownRead->get().getType() != peerRead->get().getType() ||
      cast<MemRefType>(ownRead->get().getType()).getShape() !=
          type.getShape() ||
      !generic.getMatchingIndexingMap(ownRead).isIdentity() ||
      !generic.getMatchingIndexingMap(peerRead).isIdentity())
    return std::nullopt;
  return ShardedUpdate{generic, ownRead, peerRead, ownAccess->range};
}

/// Whether `op` or an op inside it uses a buffer rooted in `roots`.
bool touches(Operation *op, const llvm::SmallPtrSetImpl<Value> &roots) {
  bool found = false;
  op->walk([&](Operation *inner) {
    for (Value operand : inner->getOperands())
      found |= roots.contains(rootOf(operand));
  });
  return found;
}

/// The updates after `call` to split: a run of them, ended by the first op
/// that touches an output of one already taken (the copies come there).
SmallVector<ShardedUpdate> collectUpdates(func::CallOp call, Value own,
                                          Value peer) {
  SmallVector<Access> ownAccesses = accessesAfter(own, call);
  SmallVector<Access> peerAccesses = accessesAfter(peer, call);
  SmallVector<ShardedUpdate> updates;
  llvm::SmallPtrSet<Value, 8> outputs;
  for (Operation *op = call->getNextNode(); op; op = op->getNextNode()) {
    std::optional<ShardedUpdate> update =
        asShardedUpdate(op, own, peer, ownAccesses, peerAccesses);
    if (update && !touches(op, outputs)) {
      outputs.insert(rootOf(update->op.getDpsInitOperand(0)->get()));
      updates.push_back(*update);
    } else if (touches(op, outputs)) {
      break;
    }
  }
  return updates;
}

/// Whether nothing after the call but `updates` themselves reads a region
/// of a bucket that one of them covers: the rank writes its part of each
/// over its own bucket's region, and the other rank writes its part.
bool regionsAreTheirsAlone(ArrayRef<ShardedUpdate> updates,
                           ArrayRef<Access> accesses) {
  for (const Access &access : accesses)
    for (ShardedUpdate update : updates)
      if (access.op != update.op.getOperation() &&
          overlap(access.range, update.range))
        return false;
  return true;
}

/// Rows [begin, end) of a first dimension; `size` is end - begin.
struct RowSplit {
  Value begin, end, size;
};

RowSplit rowsFromTo(OpBuilder &b, Location loc, Value begin, Value end) {
  return {begin, end, arith::SubIOp::create(b, loc, end, begin)};
}

/// This rank's part of a first dimension of `rows`: part `index` of
/// `count`, split as evenly as whole rows allow.
RowSplit partOf(OpBuilder &b, Location loc, int64_t rows, Value index,
                Value count) {
  Value total = arith::ConstantIndexOp::create(b, loc, rows);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value next = arith::AddIOp::create(b, loc, index, one);
  Value begin = arith::DivUIOp::create(
      b, loc, arith::MulIOp::create(b, loc, total, index), count);
  Value end = arith::DivUIOp::create(
      b, loc, arith::MulIOp::create(b, loc, total, next), count);
  return rowsFromTo(b, loc, begin, end);
}

/// `rows` of `buffer`, whole in every other dimension.
Value rowsOf(OpBuilder &b, Location loc, Value buffer, RowSplit rows) {
  auto type = cast<MemRefType>(buffer.getType());
  SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes, strides(type.getRank(),
                                           b.getIndexAttr(1));
  offsets[0] = rows.begin;
  sizes.push_back(rows.size);
  for (int64_t size : type.getShape().drop_front())
    sizes.push_back(b.getIndexAttr(size));
  return memref::SubViewOp::create(b, loc, buffer, offsets, sizes, strides);
}

/// `update`'s op on rows `part` only, which also writes its results over
/// the own bucket's region it reads.
void computePart(OpBuilder &b, const ShardedUpdate &update, RowSplit part) {
  linalg::GenericOp op = update.op;
  Location loc = op.getLoc();
  b.setInsertionPoint(op);
  auto rows = [&](Value buffer, AffineMap map) {
    return map.isIdentity() ? rowsOf(b, loc, buffer, part) : buffer;
  };
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  SmallVector<Value> inputs;
  for (OpOperand *input : op.getDpsInputOperands())
    inputs.push_back(rows(input->get(), maps[input->getOperandNumber()]));
  Value output = op.getDpsInitOperand(0)->get();
  Value ownRows = rows(update.own->get(), maps.back());
  SmallVector<Value> outputs = {rows(output, maps.back()), ownRows};
  maps.push_back(maps.back());
  auto piece = linalg::GenericOp::create(b, loc, TypeRange(), inputs,
                                         outputs, maps,
                                         op.getIteratorTypesArray());
  Region &body = piece.getRegion();
  body.takeBody(op.getRegion());
  Type element = cast<MemRefType>(output.getType()).getElementType();
  body.front().addArgument(element, loc);
  auto yield = cast<linalg::YieldOp>(body.front().getTerminator());
  Value result = yield.getOperand(0);
  yield->setOperands({result, result});
  op.erase();
}

/// Copies rows outside `part` of each update's output from the other
/// rank's bucket, which holds the other rank's part once the call before
/// has returned.
void copyOtherParts(OpBuilder &b, const ShardedUpdate &update,
                    Value output, RowSplit part) {
  Location loc = output.getLoc();
  int64_t rows = cast<MemRefType>(output.getType()).getDimSize(0);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value total = arith::ConstantIndexOp::create(b, loc, rows);
  Value peer = update.peer->get();
  for (RowSplit other : {rowsFromTo(b, loc, zero, part.begin),
                         rowsFromTo(b, loc, part.end, total)}) {
    Value from = rowsOf(b, loc, peer, other);
    Value to = rowsOf(b, loc, output, other);
    linalg::CopyOp::create(b, loc, from, to);
  }
}

/// The own bucket `call` shares, when it is the argument tagged
/// `ms.comm_bucket = id` (or a view of its bytes at offset 0).
Value ownBucketArgument(func::FuncOp func, func::CallOp call, int64_t id) {
  auto address = call.getOperand(0)
                     .getDefiningOp<LLVM::IntToPtrOp>();
  auto cast = address ? address.getArg().getDefiningOp<arith::IndexCastOp>()
                      : nullptr;
  auto pointer =
      cast ? cast.getIn().getDefiningOp<memref::ExtractAlignedPointerAsIndexOp>()
           : nullptr;
  auto arg = pointer ? dyn_cast<BlockArgument>(rootOf(pointer.getSource()))
                     : nullptr;
  auto tag = arg && arg.getOwner() == &func.getBody().front()
                 ? func.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(),
                                                      ms::kCommBucketAttr)
                 : nullptr;
  return tag && tag.getInt() == id ? Value(arg) : Value();
}

/// The runtime's answer to `name`() as an index.
Value askRuntime(OpBuilder &b, Location loc, ModuleOp module,
                 StringRef name) {
  func::FuncOp function = ms::lookupOrDeclareRuntimeFunction(
      b, module, name, {}, {b.getI64Type()});
  Value answer = func::CallOp::create(b, loc, function, ValueRange{})
                     .getResult(0);
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), answer);
}

void shardBucket(func::FuncOp func, func::CallOp call, int64_t id) {
  Value own = ownBucketArgument(func, call, id);
  Value peer = ms::taggedArgument(func, ms::kCommPeerAttr, id);
  if (!own || !peer)
    return;
  SmallVector<ShardedUpdate> updates = collectUpdates(call, own, peer);
  if (updates.empty() ||
      !regionsAreTheirsAlone(updates, accessesAfter(own, call)) ||
      !regionsAreTheirsAlone(updates, accessesAfter(peer, call)))
    return;
  OpBuilder b(call);
  b.setInsertionPointAfter(call);
  auto module = func->getParentOfType<ModuleOp>();
  Location loc = call.getLoc();
  Value count = askRuntime(b, loc, module, "ms_comm_shard_count");
  Value index = askRuntime(b, loc, module, "ms_comm_shard_index");
  Operation *last = updates.back().op;
  b.setInsertionPointAfter(last);
  func::FuncOp share = ms::lookupOrDeclareRuntimeFunction(
      b, module, "ms_comm_share_shards", {b.getI64Type()});
  Value bucket = arith::ConstantIntOp::create(b, loc, id, 64);
  auto shared = func::CallOp::create(b, loc, share, ValueRange{bucket});
  shared->setAttr(ms::kCommBucketAttr, b.getI64IntegerAttr(id));
  for (ShardedUpdate update : llvm::reverse(updates)) {
    Value output = update.op.getDpsInitOperand(0)->get();
    int64_t rows = cast<MemRefType>(output.getType()).getDimSize(0);
    b.setInsertionPoint(update.op);
    RowSplit part = partOf(b, update.op.getLoc(), rows, index, count);
    OpBuilder after(shared->getBlock(), std::next(shared->getIterator()));
    copyOtherParts(after, update, output, part);
    computePart(b, update, part);
  }
}

void shardBucketUpdates(func::FuncOp func) {
  SmallVector<std::pair<func::CallOp, int64_t>> shares;
  func.walk([&](func::CallOp call) {
    auto id = call->getAttrOfType<IntegerAttr>(ms::kCommBucketAttr);
    if (id && call.getCallee().starts_with("ms_comm_share_bucket_") &&
        call->getBlock() == &func.getBody().front())
      shares.emplace_back(call, id.getInt());
  });
  for (auto [call, id] : shares)
    shardBucket(func, call, id);
}

struct MSShardBucketUpdatesPass
    : ms::impl::MSShardBucketUpdatesBase<MSShardBucketUpdatesPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (!func.isExternal())
        shardBucketUpdates(func);
  }
};

} // namespace
