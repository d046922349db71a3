//===- ShareGradientBuckets.cpp - Shared buckets as entry arguments -------===//
//
// See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "ms/Codegen/CPU/BucketAddress.h"
#include "ms/Codegen/CPU/Passes.h"
#include "ms/Support/ArgumentAttributes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace ms {
#define GEN_PASS_DEF_MSSHAREGRADIENTBUCKETS
#include "ms/Codegen/CPU/Passes.h.inc"
} // namespace ms

using namespace mlir;

namespace {

using ms::kCommBucketAttr;
using ms::kCommPeerAttr;

/// Whether `alloc` can be an argument of `func`: in its entry block, with
/// a static shape, an identity layout and the default memory space.
bool canBeArgument(memref::AllocOp alloc, func::FuncOp func) {
  MemRefType type = alloc.getType();
  return alloc->getBlock() == &func.getBody().front() &&
         type.hasStaticShape() && type.getLayout().isIdentity() &&
         !type.getMemorySpace();
}

/// The position after `func`'s last gradient bucket argument.
unsigned afterBucketArguments(func::FuncOp func) {
  unsigned last = 0;
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    if (func.getArgAttr(i, kCommPeerAttr) ||
        func.getArgAttr(i, kCommBucketAttr))
      last = i + 1;
  return last;
}

void shareBuckets(func::FuncOp func) {
  SmallVector<std::pair<func::CallOp, memref::AllocOp>> buckets;
  func.walk([&](func::CallOp call) {
    Value buffer = call->hasAttr(kCommBucketAttr) && call.getNumOperands() > 0
                       ? ms::bucketBufferAt(call.getOperand(0))
                       : Value();
    auto alloc = buffer ? buffer.getDefiningOp<memref::AllocOp>() : nullptr;
    if (alloc && canBeArgument(alloc, func))
      buckets.emplace_back(call, alloc);
  });
  for (auto [call, alloc] : buckets) {
    unsigned position = afterBucketArguments(func);
    Builder b(func.getContext());
    auto tag = b.getDictionaryAttr(
        b.getNamedAttr(kCommBucketAttr, call->getAttr(kCommBucketAttr)));
    if (failed(func.insertArgument(position, alloc.getType(), tag,
                                   alloc.getLoc())))
      continue;
    alloc.getResult().replaceAllUsesWith(func.getArgument(position));
    alloc.erase();
  }
}

struct MSShareGradientBucketsPass
    : ms::impl::MSShareGradientBucketsBase<MSShareGradientBucketsPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (!func.isExternal())
        shareBuckets(func);
  }
};

} // namespace
