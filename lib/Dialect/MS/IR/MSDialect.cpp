//===- MSDialect.cpp - The ms dialect -------------------------------------===//

#include "ms/Dialect/MS/IR/MSDialect.h"
#include "ms/Dialect/MS/IR/MSOps.h"

#include "Gradients/Gradients.h"

using namespace mlir;
using namespace ms;

#include "ms/Dialect/MS/IR/MSOpsDialect.cpp.inc"

void MSDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "ms/Dialect/MS/IR/MSOps.cpp.inc"
      >();
  grad::attachGradientRules(*getContext());
}

#define GET_OP_CLASSES
#include "ms/Dialect/MS/IR/MSOps.cpp.inc"
