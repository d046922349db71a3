//===- VectorizationUtils.h - Helpers of the vectorizers --------*- C++ -*-===//
//
// Small queries and builders the CPU codegen passes share (the pooling,
// convolution and matmul vectorizers, ms-pack-parameters) about linalg
// ops, tensor slices and vector shapes.
//
//===----------------------------------------------------------------------===//
#ifndef MS_CODEGEN_CPU_VECTORIZATIONUTILS_H
#define MS_CODEGEN_CPU_VECTORIZATIONUTILS_H

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

#include <optional>

namespace ms {

/// The coefficients of `expr` over `numDims` dims, if it is a sum of dims
/// times constants with no constant term.
std::optional<llvm::SmallVector<int64_t>>
linearCoefficients(mlir::AffineExpr expr, unsigned numDims);

/// `width` columns of the rank-2 tensor `matrix` from column `col` (a
/// tensor.extract_slice).
mlir::Value sliceColumns(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value matrix, int64_t col, int64_t width);

/// The scalar a fill-like op writes everywhere: linalg.fill, or a generic
/// with no inputs that yields a value from outside its body. Null otherwise.
mlir::Value filledScalar(mlir::Operation *op);

/// A read of a `type` vector along the last dim of `source` at `indices`
/// whose first `active` lanes are needed: the other lanes are masked off,
/// so they never touch memory past the row.
mlir::Value readLanes(mlir::OpBuilder &b, mlir::Location loc,
                      mlir::VectorType type, mlir::Value source,
                      mlir::ValueRange indices, mlir::Value padding,
                      int64_t active);

/// Writes the first `active` lanes of `vector` along the last dim of the
/// tensor `dest` at `indices`; returns the updated tensor.
mlir::Value writeLanes(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Value vector, mlir::Value dest,
                       mlir::ValueRange indices, int64_t active);

/// Transposes the square matrix whose rows are `rows` (n vectors of n
/// lanes, n a power of two) with n*log2(n) two-source shuffles, one
/// vpermt2ps each on AVX-512: extracting and storing lanes one by one
/// costs n*n of each.
llvm::SmallVector<mlir::Value> transposeRows(mlir::OpBuilder &b,
                                             mlir::Location loc,
                                             llvm::ArrayRef<mlir::Value> rows);

/// Whether a clamp max(x, c) (`isMax`) or min(x, c) gives -0 and +0 the
/// same result: c is +0 or above for a max (relu), -0 or below for a min.
bool clampMergesZeros(mlir::Value c, bool isMax);

/// arith.maximumf (`isMax`) or minimumf of x and y with the nsz fast-math
/// flag: a NaN still wins, but -0 and +0 may come out either way. LLVM then
/// lowers it to a max and a NaN fix-up (3 instructions on x86) instead of
/// the 6 that order signed zeros. Use it where a clamp that merges zeros
/// follows, so the sign cannot show.
mlir::Value extremeIgnoringZeroSign(mlir::OpBuilder &b, mlir::Location loc,
                                    mlir::Value x, mlir::Value y, bool isMax);

/// The discardable function attribute in which the codegen passes record
/// the schedules they chose: an array of dictionaries, one per op they
/// rewrote, in the order they rewrote them, such as
///   {op = "conv", out = array<i64: 16, 10, 10>, strategy = "pooled", ...}
/// It is for readers and lit tests; no pass reads it.
constexpr llvm::StringLiteral kSchedulesAttr = "ms.schedules";

/// Appends `schedule` to the ms.schedules of the function around `op`.
void recordSchedule(mlir::Operation *op, mlir::DictionaryAttr schedule);

/// An f32 scalar or a fixed-size vector of f32.
bool isF32OrF32Vector(mlir::Type t);

} // namespace ms

#endif // MS_CODEGEN_CPU_VECTORIZATIONUTILS_H
