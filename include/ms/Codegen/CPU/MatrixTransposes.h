//===- MatrixTransposes.h - 2-D transposes on tensors -----------*- C++ -*-===//
//
// The [1, 0] `linalg.transpose` that ms-transpose-matmul-operands puts
// around a dense layer's matmul and ms-sink-transposes moves below its
// epilogue, built the same way by both.
//
//===----------------------------------------------------------------------===//
#ifndef MS_CODEGEN_CPU_MATRIXTRANSPOSES_H
#define MS_CODEGEN_CPU_MATRIXTRANSPOSES_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

namespace ms {

/// A `tensor.empty` of the static 2-D `matrix`'s type with its sizes
/// swapped.
mlir::Value emptyTransposeOf(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Value matrix);

/// `matrix` transposed: a [1, 0] `linalg.transpose` into an empty tensor.
mlir::Value transposeOf(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::Value matrix);

} // namespace ms

#endif // MS_CODEGEN_CPU_MATRIXTRANSPOSES_H
