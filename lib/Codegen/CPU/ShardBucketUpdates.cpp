//===- ShardBucketUpdates.cpp - Each rank computes part of the updates ----===//
//
// See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "ms/Codegen/CPU/BucketAddress.h"
#include "ms/Codegen/CPU/BufferUses.h"
#include "ms/Codegen/CPU/Passes.h"
#include "ms/Support/ArgumentAttributes.h"
#include "ms/Support/RuntimeFunctions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
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

/// The buffer `value` views (through subviews, reshapes, memref.view), or
/// `value` itself.
Value rootOf(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  return value;
}

/// The bytes of a bucket a buffer or an access lies within: [begin, end)
/// from the bucket's start. `tight`: the buffer covers exactly these bytes.
/// `exact`: also, it is 1-D and its elements follow one another from
/// `begin`, so that a subview or a load narrows it.
struct Range {
  int64_t begin = 0;
  int64_t end = std::numeric_limits<int64_t>::max();
  bool tight = false;
  bool exact = false;
  bool operator==(const Range &other) const {
    return begin == other.begin && end == other.end &&
           tight == other.tight && exact == other.exact;
  }
  /// The same bytes, known less well.
  Range loosened(bool keepTight) const {
    return {begin, end, tight && keepTight, false};
  }
};

bool overlap(Range a, Range b) {
  return a.begin < b.end && b.begin < a.end;
}

int64_t elementBytes(MemRefType type) {
  return (type.getElementType().getIntOrFloatBitWidth() + 7) / 8;
}

/// `count` elements of `buffer` from its element `first`, when `buffer`
/// is 1-D and `within` exact.
Range elementsOf(Value buffer, Range within, int64_t first, int64_t count) {
  auto type = cast<MemRefType>(buffer.getType());
  if (!within.exact || type.getRank() != 1)
    return within.loosened(false);
  int64_t bytes = elementBytes(type);
  return {within.begin + first * bytes,
          within.begin + (first + count) * bytes, true, true};
}

/// A whole 1-D buffer of static size that starts `begin` bytes into the
/// bucket; only its start is known otherwise.
Range wholeBufferAt(Value buffer, int64_t begin) {
  auto type = cast<MemRefType>(buffer.getType());
  if (type.getRank() != 1 || !type.hasStaticShape() ||
      !type.getLayout().isIdentity())
    return Range{begin}.loosened(false);
  return {begin, begin + type.getNumElements() * elementBytes(type), true,
          true};
}

/// The bytes `view`'s result lies within, `source` lying within `within`;
/// nullopt for a view this pass does not follow (it is then an access of
/// the whole bucket).
std::optional<Range> viewedBy(Operation *view, Value source, Range within) {
  if (auto bytes = dyn_cast<memref::ViewOp>(view)) {
    std::optional<int64_t> shift = getConstantIntValue(bytes.getByteShift());
    if (!shift || !within.exact)
      return Range{};
    return wholeBufferAt(bytes.getResult(), within.begin + *shift);
  }
  if (auto subview = dyn_cast<memref::SubViewOp>(view)) {
    if (subview.getStaticOffsets()[0] == ShapedType::kDynamic ||
        subview.getStaticSizes()[0] == ShapedType::kDynamic ||
        subview.getStaticStrides()[0] != 1)
      return within.loosened(false);
    return elementsOf(source, within, subview.getStaticOffsets()[0],
                      subview.getStaticSizes()[0]);
  }
  // The same bytes, in another shape or order.
  if (isa<memref::ExpandShapeOp, memref::CollapseShapeOp, memref::CastOp,
          memref::TransposeOp>(view))
    return within.loosened(true);
  return std::nullopt;
}

/// The bytes `op`, which uses `buffer` (within `within`), reads or writes:
/// a load at a constant index narrows them.
Range accessedBy(Operation *op, Value buffer, Range within) {
  if (auto load = dyn_cast<vector::LoadOp>(op))
    if (!load.getIndices().empty())
      if (std::optional<int64_t> index =
              getConstantIntValue(load.getIndices().front()))
        return elementsOf(buffer, within, *index,
                          load.getVectorType().getNumElements());
  if (auto load = dyn_cast<memref::LoadOp>(op))
    if (!load.getIndices().empty())
      if (std::optional<int64_t> index =
              getConstantIntValue(load.getIndices().front()))
        return elementsOf(buffer, within, *index, 1);
  return within.loosened(true);
}

/// An op that uses a bucket and is not a view of it: what it reads or
/// writes.
struct Access {
  Operation *op;
  Range range;
};

/// Whether `op` makes a new way to address the buffer it uses (a view
/// viewedBy does not follow, a pointer, metadata), which may reach any of
/// the bucket's bytes.
bool readdresses(Operation *op) {
  return isa<ViewLikeOpInterface, memref::ExtractAlignedPointerAsIndexOp,
             memref::ExtractStridedMetadataOp>(op) ||
         llvm::any_of(op->getResultTypes(), llvm::IsaPred<BaseMemRefType>);
}

/// Every op that uses `buffer` (through the views viewedBy follows) and
/// is not such a view, with the bytes it covers, `buffer` covering
/// `within`.
void collectAccesses(Value buffer, Range within,
                     SmallVectorImpl<Access> &out) {
  for (Operation *user : buffer.getUsers()) {
    std::optional<Range> viewed = viewedBy(user, buffer, within);
    if (!viewed) {
      out.push_back({user, readdresses(user)
                               ? Range{}
                               : accessedBy(user, buffer, within)});
      continue;
    }
    for (Value result : user->getResults())
      collectAccesses(result, *viewed, out);
  }
}

/// The accesses to `bucket` that run after `call` (or are not in its
/// block, to be safe).
SmallVector<Access> accessesAfter(Value bucket, Operation *call) {
  SmallVector<Access> all, after;
  collectAccesses(bucket, wholeBufferAt(bucket, 0), all);
  for (const Access &access : all) {
    Operation *top = call->getBlock()->findAncestorOpInBlock(*access.op);
    if (!top || call->isBeforeInBlock(top))
      after.push_back(access);
  }
  return after;
}

/// `op`'s access among `accesses`; null if it has none.
const Access *accessBy(ArrayRef<Access> accesses, Operation *op) {
  for (const Access &access : accesses)
    if (access.op == op)
      return &access;
  return nullptr;
}

/// A shared bucket after its call: its own and other rank's buffers, and
/// the ops that access them after the call.
struct Bucket {
  Value own, peer;
  SmallVector<Access> ownAccesses, peerAccesses;
};

/// An update to split: `op` writes its output whole from a region of the
/// own bucket (`own`) and the same region of the other rank's (`peer`).
struct ShardedUpdate {
  linalg::GenericOp op;
  OpOperand *own;
  OpOperand *peer;
  Range range;
};

/// Whether each of `generic`'s operands is read at its own indices or
/// without the first loop's index, so that splitting the first loop
/// splits it or leaves it whole; and whether its body only computes
/// (no linalg.index, which would count from the part's first row).
bool splitsByFirstLoop(linalg::GenericOp generic) {
  for (AffineMap map : generic.getIndexingMapsArray())
    if (!map.isIdentity() && map.isFunctionOfDim(0))
      return false;
  return !generic.hasIndexSemantics() &&
         llvm::all_of(generic.getBody()->without_terminator(),
                      [](Operation &op) { return isPure(&op); });
}

/// Whether `type` has a layout with no dynamic stride or offset.
bool hasStaticLayout(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset = 0;
  return succeeded(type.getStridesAndOffset(strides, offset)) &&
         !ShapedType::isDynamic(offset) &&
         llvm::none_of(strides, ShapedType::isDynamic);
}

/// `generic`'s single read of the own bucket and of the other rank's, or
/// nullopt when it reads either twice, writes either, or reads its output
/// other than as the very value it writes (in place).
std::optional<std::pair<OpOperand *, OpOperand *>>
bucketReads(linalg::GenericOp generic, const Bucket &bucket) {
  OpOperand *init = generic.getDpsInitOperand(0);
  Value written = rootOf(init->get());
  OpOperand *own = nullptr, *peer = nullptr;
  for (OpOperand &operand : generic->getOpOperands()) {
    Value root = rootOf(operand.get());
    // The other rank writes the output's other rows.
    if (root == written && &operand != init && operand.get() != init->get())
      return std::nullopt;
    OpOperand **slot = root == bucket.own    ? &own
                       : root == bucket.peer ? &peer
                                             : nullptr;
    if (!slot)
      continue;
    if (*slot || generic.isDpsInit(&operand))
      return std::nullopt;
    *slot = &operand;
  }
  if (!own || !peer)
    return std::nullopt;
  return std::make_pair(own, peer);
}

/// Whether the reads `own` and `peer` of `generic` cover the same exact
/// region of each bucket, at the output's indices, with the output's
/// element type and a static layout: the same addresses from each
/// bucket's start, so that the other rank's part is where this rank
/// copies it from.
std::optional<Range> sameRegion(linalg::GenericOp generic, OpOperand *own,
                                OpOperand *peer, const Bucket &bucket) {
  const Access *ownAccess = accessBy(bucket.ownAccesses, generic);
  const Access *peerAccess = accessBy(bucket.peerAccesses, generic);
  auto type = cast<MemRefType>(own->get().getType());
  auto output =
      cast<MemRefType>(generic.getDpsInitOperand(0)->get().getType());
  if (!ownAccess || !peerAccess || !ownAccess->range.tight ||
      !(ownAccess->range == peerAccess->range) ||
      type != peer->get().getType() || !hasStaticLayout(type) ||
      type.getShape() != output.getShape() ||
      type.getElementType() != output.getElementType() ||
      !generic.getMatchingIndexingMap(own).isIdentity() ||
      !generic.getMatchingIndexingMap(peer).isIdentity())
    return std::nullopt;
  return ownAccess->range;
}

/// `op` as an update to split: elementwise, one output of at least
/// kMinShardElements elements and two rows or more, written whole (a
/// function argument or a view of one), and one read of each bucket, of
/// the same region, at the output's indices.
std::optional<ShardedUpdate> asShardedUpdate(Operation *op,
                                             const Bucket &bucket) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || !generic.hasPureBufferSemantics() ||
      generic.getNumDpsInits() != 1 || generic.getNumLoops() == 0 ||
      generic.getNumLoops() != generic.getNumParallelLoops() ||
      !splitsByFirstLoop(generic))
    return std::nullopt;
  OpOperand *init = generic.getDpsInitOperand(0);
  auto type = cast<MemRefType>(init->get().getType());
  if (!isa<BlockArgument>(rootOf(init->get())) || !type.hasStaticShape() ||
      type.getNumElements() < kMinShardElements || type.getDimSize(0) < 2 ||
      !generic.getMatchingIndexingMap(init).isIdentity())
    return std::nullopt;
  auto reads = bucketReads(generic, bucket);
  std::optional<Range> range =
      reads ? sameRegion(generic, reads->first, reads->second, bucket)
            : std::nullopt;
  if (!range)
    return std::nullopt;
  return ShardedUpdate{generic, reads->first, reads->second, *range};
}

/// Whether `op` or an op inside it is one of `uses`.
bool touches(Operation *op, const llvm::SmallPtrSetImpl<Operation *> &uses) {
  bool found = false;
  op->walk([&](Operation *inner) { found |= uses.contains(inner); });
  return found;
}

/// The updates after `call` to split: a run of them, ended by the first op
/// that may reach an output of one already taken, under any name (the
/// copies come there).
SmallVector<ShardedUpdate> collectUpdates(func::CallOp call,
                                          const Bucket &bucket) {
  SmallVector<ShardedUpdate> updates;
  llvm::SmallPtrSet<Operation *, 32> outputUses;
  for (Operation *op = call->getNextNode(); op; op = op->getNextNode()) {
    if (touches(op, outputUses))
      break;
    std::optional<ShardedUpdate> update = asShardedUpdate(op, bucket);
    if (!update)
      continue;
    SmallVector<std::pair<Operation *, bool>> uses;
    ms::collectDerivedUses(rootOf(update->op.getDpsInitOperand(0)->get()),
                           uses);
    for (auto [use, direct] : uses)
      if (use != op)
        outputUses.insert(use);
    updates.push_back(*update);
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

/// Copies the rows outside `part` of `update`'s output from the other
/// rank's bucket, which holds the other rank's part once the wait before
/// has returned. The window joins two ranks, so every row outside this
/// rank's part is that one rank's.
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

/// The buffers of the bucket `call` shares: the own one when it is the
/// argument tagged `ms.comm_bucket = id` (the window's memory; any other
/// buffer is copied into the window), and the other rank's.
std::optional<Bucket> sharedBucket(func::FuncOp func, func::CallOp call,
                                   int64_t id) {
  Value buffer = ms::bucketBufferAt(call.getOperand(0));
  auto own = dyn_cast_or_null<BlockArgument>(buffer);
  Value peer = ms::taggedArgument(func, ms::kCommPeerAttr, id);
  if (!own || own != ms::taggedArgument(func, ms::kCommBucketAttr, id) ||
      !peer)
    return std::nullopt;
  return Bucket{own, peer, accessesAfter(own, call),
                accessesAfter(peer, call)};
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

/// Splits the updates from the bucket `call` shares, if there are any and
/// nothing else after the call reads their regions of either bucket.
void shardBucket(func::FuncOp func, func::CallOp call, int64_t id) {
  std::optional<Bucket> bucket = sharedBucket(func, call, id);
  if (!bucket)
    return;
  SmallVector<ShardedUpdate> updates = collectUpdates(call, *bucket);
  if (updates.empty() ||
      !regionsAreTheirsAlone(updates, bucket->ownAccesses) ||
      !regionsAreTheirsAlone(updates, bucket->peerAccesses))
    return;
  OpBuilder b(call);
  b.setInsertionPointAfter(call);
  auto module = func->getParentOfType<ModuleOp>();
  Location loc = call.getLoc();
  Value count = askRuntime(b, loc, module, "ms_comm_shard_count");
  Value index = askRuntime(b, loc, module, "ms_comm_shard_index");
  b.setInsertionPointAfter(updates.back().op);
  func::FuncOp share = ms::lookupOrDeclareRuntimeFunction(
      b, module, "ms_comm_share_shards", {b.getI64Type()});
  Value idValue = arith::ConstantIntOp::create(b, loc, id, 64);
  auto shared = func::CallOp::create(b, loc, share, ValueRange{idValue});
  shared->setAttr(ms::kCommBucketAttr, b.getI64IntegerAttr(id));
  OpBuilder afterShared(shared->getBlock(),
                        std::next(shared->getIterator()));
  // In reverse, so that the copies, each inserted right after the wait,
  // end up in the updates' order.
  for (ShardedUpdate update : llvm::reverse(updates)) {
    Value output = update.op.getDpsInitOperand(0)->get();
    int64_t rows = cast<MemRefType>(output.getType()).getDimSize(0);
    b.setInsertionPoint(update.op);
    RowSplit part = partOf(b, update.op.getLoc(), rows, index, count);
    afterShared.setInsertionPointAfter(shared);
    copyOtherParts(afterShared, update, output, part);
    computePart(b, update, part);
  }
}

/// Splits the updates after each shared bucket's call in `func`'s body.
void shardBucketUpdates(func::FuncOp func) {
  SmallVector<std::pair<func::CallOp, int64_t>> shares;
  func.walk([&](func::CallOp call) {
    auto id = call->getAttrOfType<IntegerAttr>(ms::kCommBucketAttr);
    if (id && call.getCallee().starts_with("ms_comm_share_bucket_") &&
        call.getNumOperands() > 0 &&
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
