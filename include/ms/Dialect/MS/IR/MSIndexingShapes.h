//===- MSIndexingShapes.h - Shape rules of the non-f32 ops ------*- C++ -*-===//
//
// The result-type rules shared by the comparison, logical and arg-reduce op
// families (MSIndexingOps.td, MSLogicalOps.td). Each emits an error naming
// the op and the offending dimension or type, or appends the result type.
//
//===----------------------------------------------------------------------===//
#ifndef MS_DIALECT_MS_IR_MSINDEXINGSHAPES_H
#define MS_DIALECT_MS_IR_MSINDEXINGSHAPES_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace ms {

/// A comparison or logical op: operands of one element type (bool when
/// `boolOperands`) that broadcast; the result is bool of the broadcast shape.
llvm::LogicalResult inferCompareType(llvm::StringRef opName,
                                     std::optional<mlir::Location> loc,
                                     mlir::Type lhs, mlir::Type rhs,
                                     bool boolOperands,
                                     llvm::SmallVectorImpl<mlir::Type> &types);

/// argmax/argmin: `input` loses `axis` (or keeps it as 1); the result's
/// element type is `outputType` (i32 or i64).
llvm::LogicalResult inferArgReduceType(llvm::StringRef opName,
                                       std::optional<mlir::Location> loc,
                                       mlir::Type input, int64_t axis,
                                       bool keepDims,
                                       mlir::TypeAttr outputType,
                                       llvm::SmallVectorImpl<mlir::Type> &types);

} // namespace ms

#endif // MS_DIALECT_MS_IR_MSINDEXINGSHAPES_H
