//===- MSDialect.cpp - The ms dialect -------------------------------------===//

#include "ms/Dialect/MS/IR/MSDialect.h"
#include "ms/Dialect/MS/IR/MSOps.h"

#include "Gradients/Gradients.h"

#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;
using namespace ms;

#include "ms/Dialect/MS/IR/MSOpsDialect.cpp.inc"

namespace {

/// Every ms op may be inlined: they are pure, and none refers to its
/// enclosing function. (Frontends link gradient functions into the graphs
/// that call them: Runtime/Jit/FunctionLinking.h.)
struct MSInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;

  bool isLegalToInline(Operation *, Region *, bool,
                       IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
};

} // namespace

void MSDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "ms/Dialect/MS/IR/MSOps.cpp.inc"
      >();
  addInterfaces<MSInlinerInterface>();
  grad::attachGradientRules(*getContext());
}

#define GET_OP_CLASSES
#include "ms/Dialect/MS/IR/MSOps.cpp.inc"
