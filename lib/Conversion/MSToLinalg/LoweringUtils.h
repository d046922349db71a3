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

/// The element type a tensor of `type` is stored with after MSToLinalg: arith
/// takes signless integers only, so ui8 becomes i8 (its ops chose unsigned
/// arithmetic from the ms types) and bool (i1) becomes i8, one byte per bool.
mlir::Type storageElementType(mlir::Type type);
/// `type` (a ranked tensor) with its storage element type.
mlir::RankedTensorType storedType(mlir::Type type);
/// True when the element type of `type` (a tensor or a scalar) is unsigned.
bool isUnsignedElement(mlir::Type type);
/// `value` (a ranked tensor) with an unsigned element type bit-cast to the
/// signless one, for the kernels that take stored integers as they are.
mlir::Value signless(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value);

/// A stored bool (i8, 0 or 1) as an i1, or an i1 as a stored bool.
mlir::Value boolFromByte(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value byte);
mlir::Value byteFromBool(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value bit);

/// A tensor.empty of `type`.
mlir::Value emptyLike(mlir::OpBuilder &b, mlir::Location loc,
                      mlir::RankedTensorType type);
/// A copy of `value` in a new tensor (bufferization.alloc_tensor copy: a
/// fresh buffer, never `value`'s, which may be a kernel's argument).
mlir::Value copyOf(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value);
/// A scalar float constant of `type`.
mlir::Value floatConst(mlir::OpBuilder &b, mlir::Location loc, mlir::Type type,
                       double value);
/// A scalar constant of the float or (signless) integer `type`; an integer
/// gets `value` truncated toward zero.
mlir::Value scalarConst(mlir::OpBuilder &b, mlir::Location loc, mlir::Type type,
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
/// lhs + rhs for floats or (wrapping) integers.
mlir::Value addScalars(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lhs,
                       mlir::Value rhs);
/// lhs * rhs for floats or (wrapping) integers.
mlir::Value mulScalars(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lhs,
                       mlir::Value rhs);
/// max(lhs, rhs): NaN-propagating for floats, unsigned when `isUnsigned`.
mlir::Value maxScalars(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lhs,
                       mlir::Value rhs, bool isUnsigned);
/// The lowest value of `type` (-inf, INT_MIN, or 0 when `isUnsigned`).
mlir::Value lowestValue(mlir::OpBuilder &b, mlir::Location loc, mlir::Type type,
                        bool isUnsigned);

/// `value` + `bias`, the bias broadcast like numpy.
mlir::Value addBias(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                    mlir::Value bias);
/// `input` reduced over the sorted `axes` (dropped) with linalg.reduce;
/// `isUnsigned` says how an integer max compares.
mlir::Value reduce(mlir::OpBuilder &b, mlir::Location loc, mlir::Value input,
                   llvm::ArrayRef<int64_t> axes, ReduceKind kind,
                   bool isUnsigned = false);
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

/// Reads through an index tensor (gather, gather_elements, scatter_update)
/// check the index first. `inBounds`: `index` (of index type) lies in [0,
/// `size`). `boundedIndex` also gives `safe`: the index, or 0 when out of
/// bounds, which is always a valid position to read; `zeroUnless` then
/// replaces what was read there with zero. So no index makes a kernel read
/// outside its input.
struct BoundedIndex {
  mlir::Value inRange, safe;
};
mlir::Value inBounds(mlir::OpBuilder &b, mlir::Location loc, mlir::Value index,
                     mlir::Value size);
BoundedIndex boundedIndex(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value index, int64_t size);
mlir::Value zeroUnless(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Value inRange, mlir::Value element);

} // namespace ms::lowering

#endif // MS_LIB_CONVERSION_MSTOLINALG_LOWERINGUTILS_H
