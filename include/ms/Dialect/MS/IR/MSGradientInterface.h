//===- MSGradientInterface.h - Reverse-mode gradient rules ------*- C++ -*-===//
//
// GradientOpInterface (ODS: MSGradientInterface.td) and the small builders the
// per-family rules share. The rules live in lib/Dialect/MS/IR/Gradients/ and
// are attached to the ops as external models when the dialect initializes.
//
//===----------------------------------------------------------------------===//
#ifndef MS_DIALECT_MS_IR_MSGRADIENTINTERFACE_H
#define MS_DIALECT_MS_IR_MSGRADIENTINTERFACE_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"

#include "ms/Dialect/MS/IR/MSGradientInterface.h.inc"

namespace ms {
namespace grad {

/// A constant tensor of `type` whose elements are all `value`.
mlir::Value splat(mlir::OpBuilder &b, mlir::Location loc,
                  mlir::RankedTensorType type, double value);

/// A rank-0 constant of `elementType` (broadcasts against anything).
mlir::Value scalar(mlir::OpBuilder &b, mlir::Location loc,
                   mlir::Type elementType, double value);

/// `value` reshaped to `shape` (no op when it already has that shape).
mlir::Value reshape(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                    llvm::ArrayRef<int64_t> shape);

/// The cotangent of an operand of type `target` that numpy-broadcast to
/// `grad`'s shape: `grad` summed over the broadcast dims (leading dims and
/// size-1 dims that stretched), then reshaped to `target`.
mlir::Value sumToShape(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Value grad, mlir::RankedTensorType target);

/// `value` broadcast like numpy to `target` (exact: it adds zeros).
mlir::Value broadcastTo(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::Value value, mlir::RankedTensorType target);

/// The reduced `value` (reduced over `axes` without keep_dims) given back
/// its reduced dims as size 1, then broadcast to `target`.
mlir::Value unreduce(mlir::OpBuilder &b, mlir::Location loc,
                     mlir::Value value, llvm::ArrayRef<int64_t> axes,
                     mlir::RankedTensorType target);

/// Emits "ms-autodiff: '<op>' <message>" at the op.
mlir::InFlightDiagnostic error(mlir::Operation *op);

} // namespace grad
} // namespace ms

#endif // MS_DIALECT_MS_IR_MSGRADIENTINTERFACE_H
