//===- DistinctResults.cpp - One value per public function result --------===//
//
// See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "ms/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseSet.h"

namespace ms {
#define GEN_PASS_DEF_MSDISTINCTRESULTS
#include "ms/Codegen/CPU/Passes.h.inc"
} // namespace ms

using namespace mlir;

namespace {

/// Replaces each repeated tensor operand of `ret` with a copy of it.
void copyRepeatedResults(func::ReturnOp ret) {
  llvm::DenseSet<Value> seen;
  OpBuilder b(ret);
  for (OpOperand &operand : ret->getOpOperands()) {
    Value value = operand.get();
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type || seen.insert(value).second)
      continue;
    // The copy's shape is the value's, ? dims included.
    auto copy = bufferization::AllocTensorOp::create(
        b, value.getLoc(), type, /*dynamicSizes=*/ValueRange(), value);
    operand.set(copy);
  }
}

struct MSDistinctResultsPass
    : ms::impl::MSDistinctResultsBase<MSDistinctResultsPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (func.isPublic() && !func.isExternal())
        func.walk([](func::ReturnOp ret) { copyRepeatedResults(ret); });
  }
};

} // namespace
