//===- MSCommOps.cpp - The shape rule of all_reduce -----------------------===//

#include "ShapeRules.h"
#include "ms/Dialect/MS/IR/MSOps.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace ms {

using shape_rules::opError;
using shape_rules::staticTensor;

int32_t AllReduceOp::reduceOpCode(StringRef name) {
  // The codes of runtime::comm::ReduceOp.
  return llvm::StringSwitch<int32_t>(name)
      .Case("sum", 0)
      .Case("max", 1)
      .Case("min", 2)
      .Case("prod", 3)
      .Default(-1);
}

LogicalResult AllReduceOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  // The runtime reduces a buffer of a size known when the graph compiles.
  auto input = staticTensor(name, loc, adaptor.getInput().getType(), "input");
  if (failed(input))
    return failure();
  StringRef reduceOp = adaptor.getReduceOpAttr() ? adaptor.getReduceOp()
                                                 : StringRef("sum");
  if (reduceOpCode(reduceOp) < 0)
    return opError(name, loc, "reduce_op must be \"sum\", \"max\", \"min\" "
                              "or \"prod\", got \"", reduceOp, "\"");
  types.push_back(*input);
  return success();
}

} // namespace ms
