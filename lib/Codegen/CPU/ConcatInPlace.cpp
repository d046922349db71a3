//===- ConcatInPlace.cpp - Concatenated buffers computed in their slices --===//
//
// See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "ms/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "llvm/ADT/MapVector.h"

namespace ms {
#define GEN_PASS_DEF_MSCONCATINPLACE
#include "ms/Codegen/CPU/Passes.h.inc"
} // namespace ms

using namespace mlir;

namespace {

/// Elements [begin, end) of a one-dimensional view of a buffer.
struct Interval {
  int64_t begin, end;
  bool overlaps(const Interval &other) const {
    return begin < other.end && other.begin < end;
  }
};

/// A concatenation's piece: `copy` writes all of `piece` (or a reshape of
/// it) into `slice` of `result`.
struct SliceCopy {
  memref::CopyOp copy;
  memref::AllocOp piece, result;
  Interval slice;
};

/// `value` as a memref.alloc in `block` with a static shape, an identity
/// layout, the default memory space and elements of 1, 2, 4, 8... bytes
/// (as LLVM lays them out: an i24 takes 4), if it is one.
memref::AllocOp localAlloc(Value value, Block *block) {
  auto alloc = value.getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getBlock() != block)
    return {};
  MemRefType type = alloc.getType();
  if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
      type.getMemorySpace() || !type.getElementType().isIntOrFloat())
    return {};
  unsigned bits = type.getElementTypeBitWidth();
  if (bits < 8 || !llvm::isPowerOf2_32(bits))
    return {};
  return alloc;
}

/// The buffer a whole-buffer reshape reads, or `value` itself.
Value throughReshape(Value value) {
  if (auto collapse = value.getDefiningOp<memref::CollapseShapeOp>())
    return collapse.getSrc();
  if (auto expand = value.getDefiningOp<memref::ExpandShapeOp>())
    return expand.getSrc();
  return value;
}

/// The elements a contiguous, static subview of `result` covers.
std::optional<Interval> sliceOf(Value view, memref::AllocOp result) {
  auto subview = view.getDefiningOp<memref::SubViewOp>();
  if (!subview || subview.getSource() != result.getResult())
    return std::nullopt;
  MemRefType type = subview.getType();
  if (!memref::isStaticShapeAndContiguousRowMajor(type))
    return std::nullopt;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset))
    return std::nullopt;
  return Interval{offset, offset + type.getNumElements()};
}

/// Calls `visit(user, value)` for each op that uses `buffer`, directly or
/// through view ops (subviews, reshapes, casts; visited too); `value` is
/// the view it uses.
void visitUses(Value buffer,
               llvm::function_ref<void(Operation *, Value)> visit) {
  for (Operation *user : buffer.getUsers()) {
    visit(user, buffer);
    if (isa<ViewLikeOpInterface>(user))
      for (Value view : user->getResults())
        visitUses(view, visit);
  }
}

/// Whether `op` (or the op in `copy`'s block that holds it) runs before
/// `copy`.
bool runsBefore(Operation *op, memref::CopyOp copy) {
  Operation *ancestor = copy->getBlock()->findAncestorOpInBlock(*op);
  return ancestor && ancestor != copy && ancestor->isBeforeInBlock(copy);
}

/// Whether `user` of a buffer (not through a view) may hand the buffer on:
/// its pointer taken, freed, forwarded out of a region, kept by a callee
/// that is not an external (runtime) kernel, or any result that is not a
/// plain value (an alias: `memref.distinct_objects`, `to_tensor`, a
/// cast, a call that returns its argument).
bool mayHandOn(Operation *user) {
  if (isa<memref::ExtractAlignedPointerAsIndexOp, memref::DeallocOp>(user) ||
      user->hasTrait<OpTrait::IsTerminator>())
    return true;
  if (auto call = dyn_cast<CallOpInterface>(user)) {
    auto callee = dyn_cast_or_null<FunctionOpInterface>(
        call.resolveCallable());
    if (!callee || !callee.isExternal())
      return true;
  }
  return llvm::any_of(user->getResultTypes(), [](Type type) {
    return !isa<IntegerType, FloatType, IndexType, VectorType>(type);
  });
}

/// Whether nothing but `copy` uses `piece` after it, and nothing hands it
/// on: its memory may then be the slice's. The runtime's kernels (external
/// functions) keep no pointer to a buffer after they return.
bool pieceEndsAtCopy(SliceCopy c) {
  bool ok = true;
  visitUses(c.piece.getResult(), [&](Operation *user, Value) {
    // A slice may start at any element: no alignment may be assumed.
    if (isa<memref::AssumeAlignmentOp>(user))
      ok = false;
    if (user == c.copy.getOperation() || isa<ViewLikeOpInterface>(user))
      return;
    if (mayHandOn(user) || !runsBefore(user, c.copy))
      ok = false;
  });
  return ok;
}

/// Whether, before `c.copy`, `c.result` is only the target of copies into
/// slices disjoint from `c.slice`: nothing else touches the slice while
/// the piece lives there.
bool sliceIsFreeUntilCopy(SliceCopy c) {
  bool ok = true;
  visitUses(c.result.getResult(), [&](Operation *user, Value value) {
    if (!runsBefore(user, c.copy) || isa<ViewLikeOpInterface>(user))
      return;
    auto copy = dyn_cast<memref::CopyOp>(user);
    std::optional<Interval> other =
        copy && copy.getTarget() == value ? sliceOf(value, c.result)
                                          : std::nullopt;
    if (!other || other->overlaps(c.slice))
      ok = false;
  });
  return ok;
}

std::optional<SliceCopy> matchSliceCopy(memref::CopyOp copy) {
  Block *block = copy->getBlock();
  auto target = copy.getTarget().getDefiningOp<memref::SubViewOp>();
  if (!target)
    return std::nullopt;
  memref::AllocOp result = localAlloc(target.getSource(), block);
  memref::AllocOp piece = localAlloc(throughReshape(copy.getSource()), block);
  if (!result || !piece || result == piece)
    return std::nullopt;
  std::optional<Interval> slice = sliceOf(copy.getTarget(), result);
  if (!slice)
    return std::nullopt;
  SliceCopy c{copy, piece, result, *slice};
  if (!pieceEndsAtCopy(c) || !sliceIsFreeUntilCopy(c))
    return std::nullopt;
  return c;
}

int64_t elementBytes(MemRefType type) {
  return type.getElementTypeBitWidth() / 8;
}

/// `result` as a view of new bytes at the start of its block, which its
/// pieces' views share.
Value allocateAsBytes(memref::AllocOp result) {
  MemRefType type = result.getType();
  OpBuilder builder(result->getBlock(), result->getBlock()->begin());
  Location loc = result.getLoc();
  auto bytesType = MemRefType::get({type.getNumElements() * elementBytes(type)},
                                   builder.getI8Type());
  auto bytes = memref::AllocOp::create(builder, loc, bytesType,
                                       result.getAlignmentAttr());
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value whole = memref::ViewOp::create(builder, loc, type, bytes, zero,
                                       ValueRange());
  result.getResult().replaceAllUsesWith(whole);
  result.erase();
  return bytes;
}

/// `c.piece` as a view of its slice of `bytes`; the copy goes.
void placeInSlice(SliceCopy c, Value bytes) {
  OpBuilder builder(c.piece);
  Location loc = c.piece.getLoc();
  MemRefType type = c.piece.getType();
  Value shift = arith::ConstantIndexOp::create(
      builder, loc, c.slice.begin * elementBytes(type));
  Value view =
      memref::ViewOp::create(builder, loc, type, bytes, shift, ValueRange());
  Value source = c.copy.getSource();
  c.copy.erase();
  if (Operation *reshape = source.getDefiningOp();
      reshape && reshape != c.piece.getOperation() && reshape->use_empty())
    reshape->erase();
  c.piece.getResult().replaceAllUsesWith(view);
  c.piece.erase();
}

struct ConcatInPlacePass
    : ms::impl::MSConcatInPlaceBase<ConcatInPlacePass> {
  void runOnOperation() override {
    // Matched on the IR as it is, then rewritten: each match's conditions
    // concern its own piece and slice, which the others leave alone.
    llvm::MapVector<Operation *, SmallVector<SliceCopy>> byResult;
    getOperation()->walk([&](memref::CopyOp copy) {
      if (std::optional<SliceCopy> c = matchSliceCopy(copy))
        byResult[c->result].push_back(*c);
    });
    for (auto &[result, copies] : byResult) {
      // A buffer that is itself a concatenation stays where it is.
      llvm::erase_if(copies, [&](SliceCopy c) {
        return byResult.count(c.piece);
      });
    }
    for (auto &[result, copies] : byResult) {
      if (copies.empty())
        continue;
      Value bytes = allocateAsBytes(cast<memref::AllocOp>(result));
      for (SliceCopy c : copies)
        placeInSlice(c, bytes);
    }
  }
};

} // namespace
