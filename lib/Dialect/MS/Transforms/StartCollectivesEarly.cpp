//===- StartCollectivesEarly.cpp - All-reduces where their input is ready -===//
//
// See the pass description in Passes.td. The moving set is the all_reduce
// and its feeders; the anchor is the last op before it that the set must
// follow. Everything between the anchor and the all_reduce neither defines
// what the set reads nor has side effects, so the set moves up past it.
//
//===----------------------------------------------------------------------===//

#include "ms/Dialect/MS/IR/MSOps.h"
#include "ms/Dialect/MS/Transforms/Passes.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace ms {
#define GEN_PASS_DEF_MSSTARTCOLLECTIVESEARLY
#include "ms/Dialect/MS/Transforms/Passes.h.inc"
} // namespace ms

using namespace mlir;

namespace {

/// Whether every use of `op`'s results is by an op in `readers`.
bool onlyFeeds(Operation *op, const llvm::SetVector<Operation *> &readers) {
  for (Operation *user : op->getUsers())
    if (!readers.contains(user))
      return false;
  return true;
}

/// The all_reduce and the pure ops of its block that only feed it, directly
/// or through each other (a bucket's reshapes and concat).
llvm::SetVector<Operation *> movingSet(ms::AllReduceOp reduce) {
  llvm::SetVector<Operation *> set;
  set.insert(reduce);
  for (size_t next = 0; next < set.size(); ++next)
    for (Value operand : set[next]->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (def && def->getBlock() == reduce->getBlock() &&
          def->getNumRegions() == 0 && isMemoryEffectFree(def) &&
          !set.contains(def) && onlyFeeds(def, set))
        set.insert(def);
    }
  return set;
}

/// The last op before `reduce` that the moving set must stay after: one
/// that defines a value the set reads, or has side effects. Null: none,
/// the set may go to the start of the block.
Operation *anchorOf(ms::AllReduceOp reduce,
                    const llvm::SetVector<Operation *> &set) {
  for (Operation *op = reduce->getPrevNode(); op; op = op->getPrevNode()) {
    if (set.contains(op))
      continue;
    if (!isMemoryEffectFree(op))
      return op;
    for (Operation *user : op->getUsers())
      if (set.contains(user))
        return op;
  }
  return nullptr;
}

void startEarly(ms::AllReduceOp reduce) {
  llvm::SetVector<Operation *> set = movingSet(reduce);
  Operation *anchor = anchorOf(reduce, set);
  SmallVector<Operation *> moving(set.begin(), set.end());
  llvm::sort(moving, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });
  Block *block = reduce->getBlock();
  for (Operation *op : moving) {
    Operation *place = anchor ? anchor->getNextNode() : &block->front();
    if (place != op)
      op->moveBefore(place);
    anchor = op;
  }
}

struct MSStartCollectivesEarlyPass
    : ms::impl::MSStartCollectivesEarlyBase<MSStartCollectivesEarlyPass> {
  void runOnOperation() override {
    SmallVector<ms::AllReduceOp> reduces;
    getOperation()->walk([&](ms::AllReduceOp op) { reduces.push_back(op); });
    for (ms::AllReduceOp reduce : reduces)
      startEarly(reduce);
  }
};

} // namespace
