//===- MSDialect.h - The ms dialect -----------------------------*- C++ -*-===//
#ifndef MS_DIALECT_MS_IR_MSDIALECT_H
#define MS_DIALECT_MS_IR_MSDIALECT_H

#include "mlir/IR/Dialect.h"

#include "ms/Dialect/MS/IR/MSOpsDialect.h.inc"

#endif // MS_DIALECT_MS_IR_MSDIALECT_H
