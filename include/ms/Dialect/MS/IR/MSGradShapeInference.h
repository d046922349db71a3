//===- MSGradShapeInference.h - Shape rules of the gradient ops -*- C++ -*-===//
//
// Result types of the ops in MSGradOps.td whose rules are shared by two ops
// (the pool gradients, the conv gradients) or build on a pool's rule
// (max_pool2d_grad_grad). Like MSShapeInference.h, each emits an error
// naming the op and the offending dims.
//
//===----------------------------------------------------------------------===//
#ifndef MS_DIALECT_MS_IR_MSGRADSHAPEINFERENCE_H
#define MS_DIALECT_MS_IR_MSGRADSHAPEINFERENCE_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace ms {

/// A pool gradient: dy must be the pool of x's shape; the result is x's type.
llvm::LogicalResult inferPoolGradType(llvm::StringRef opName,
                                      std::optional<mlir::Location> loc,
                                      mlir::Type x, mlir::Type dy,
                                      llvm::ArrayRef<int64_t> kernelSize,
                                      llvm::ArrayRef<int64_t> stride,
                                      llvm::StringRef padMode,
                                      llvm::SmallVectorImpl<mlir::Type> &types);

/// max_pool2d_grad_grad: grad must have x's type; the result is the pool
/// of x's shape.
llvm::LogicalResult
inferPoolGradGradType(llvm::StringRef opName, std::optional<mlir::Location> loc,
                      mlir::Type x, mlir::Type grad,
                      llvm::ArrayRef<int64_t> kernelSize,
                      llvm::ArrayRef<int64_t> stride, llvm::StringRef padMode,
                      llvm::SmallVectorImpl<mlir::Type> &types);

/// A conv gradient: the conv2d of input and weight (one of them `shape`,
/// the other `other`) must have dy's shape; the result has `shape`.
llvm::LogicalResult inferConvGradType(
    llvm::StringRef opName, std::optional<mlir::Location> loc, bool filterGrad,
    mlir::Type dy, mlir::Type other, llvm::ArrayRef<int64_t> shape,
    llvm::StringRef padMode, llvm::ArrayRef<int64_t> padding,
    llvm::ArrayRef<int64_t> stride, llvm::ArrayRef<int64_t> dilation,
    int64_t group, llvm::SmallVectorImpl<mlir::Type> &types);

} // namespace ms

#endif // MS_DIALECT_MS_IR_MSGRADSHAPEINFERENCE_H
