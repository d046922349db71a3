//===- LoweringUtils.h - Helpers shared by the ms -> linalg families -*- C++ -*-===//
//
// The building blocks every op family's lowering uses: filled tensors,
// numpy-broadcasting linalg.generics, in-order reductions. Keeping them in
// one place keeps the arithmetic order identical across families.
//
//===----------------------------------------------------------------------===//

#ifndef MS_LIB_CONVERSION_MSTOLINALG_LOWERINGUTILS_H
#define MS_LIB_CONVERSION_MSTOLINALG_LOWERINGUTILS_H

#include "ms/Conversion/MSToLinalg/MSToLinalg.h"
#include "ms/Dialect/MS/IR/MSOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/Transforms/DialectConversion.h"

namespace ms::lowering {

enum class ReduceKind { Sum, Max };
using BodyFn =
    llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                   mlir::ValueRange)>;

/// A tensor.empty of `type`.
mlir::Value emptyLike(mlir::OpBuilder &b, mlir::Location loc,
                      mlir::RankedTensorType type);
/// A copy of `value` in a new tensor (bufferization.alloc_tensor copy: a
/// fresh buffer, never `value`'s, which may be a kernel's argument).
mlir::Value copyOf(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value);
/// A scalar float constant of `type`.
mlir::Value floatConst(mlir::OpBuilder &b, mlir::Location loc, mlir::Type type,
                       double value);
/// A tensor of `type` filled with `value`.
mlir::Value filled(mlir::OpBuilder &b, mlir::Location loc,
                   mlir::RankedTensorType type, double value);
/// The indexing map of an operand of `operandShape` broadcast like numpy into
/// `resultShape`.
mlir::AffineMap broadcastMap(mlir::MLIRContext *ctx,
                             llvm::ArrayRef<int64_t> operandShape,
                             llvm::ArrayRef<int64_t> resultShape);
/// An elementwise linalg.generic over `resultType`; inputs broadcast into it.
mlir::Value elementwise(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::RankedTensorType resultType,
                        mlir::ValueRange inputs, BodyFn body);
/// A per-channel parameter [C] reshaped to line up with dimension 1.
mlir::Value channelColumn(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value param, int64_t rank);
/// `value` + `bias`, the bias broadcast like numpy.
mlir::Value addBias(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                    mlir::Value bias);
/// `input` reduced over the sorted `axes` (dropped) with linalg.reduce.
mlir::Value reduce(mlir::OpBuilder &b, mlir::Location loc, mlir::Value input,
                   llvm::ArrayRef<int64_t> axes, ReduceKind kind);
/// `reduced` with size-1 dims re-inserted at `axes`, as keep_dims asks.
mlir::Value keepDims(mlir::OpBuilder &b, mlir::Location loc,
                     mlir::Value reduced, mlir::RankedTensorType keptType,
                     llvm::ArrayRef<int64_t> axes);
/// `value` / `count`, elementwise.
mlir::Value divideByCount(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value value, int64_t count);

/// Pads dims 2 and 3 of an NCHW tensor by the padding of `h` and `w` with
/// `value` (no op without padding).
mlir::Value padSpatialDims(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value input, ConvDim h, ConvDim w,
                           double value);
/// The gradient kernels' gather layout: `value` [N, C, OH, OW] placed with
/// strides `stride` at (before[0], before[1]) of an [N, C, size[0], size[1]]
/// tensor filled with `fill`. A window sum over it then reads, for each
/// input position, exactly the windows that covered it (the others read
/// `fill`), in an affine map.
mlir::Value spreadSpatialDims(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::Value value, llvm::ArrayRef<int64_t> stride,
                              llvm::ArrayRef<int64_t> before,
                              llvm::ArrayRef<int64_t> size, double fill);

} // namespace ms::lowering

#endif // MS_LIB_CONVERSION_MSTOLINALG_LOWERINGUTILS_H
