//===- MSToLinalg.h - ms -> linalg patterns, one set per op family -*- C++ -*-===//
//
// convert-ms-to-linalg is the union of these pattern sets. Each family lives
// in its own file under lib/Conversion/MSToLinalg/ (docs/adding-an-op.md).
//
//===----------------------------------------------------------------------===//

#ifndef MS_CONVERSION_MSTOLINALG_MSTOLINALG_H
#define MS_CONVERSION_MSTOLINALG_MSTOLINALG_H

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"

namespace ms {

/// add sub mul div maximum minimum, the unary math ops, dropout.
void populateElementwiseToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// matmul, dense.
void populateLinearToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// conv2d; `convAsMatmul` selects im2col + linalg.matmul for group-1 convs.
void populateConvolutionToLinalgPatterns(mlir::RewritePatternSet &patterns,
                                         bool convAsMatmul);
/// max_pool2d, avg_pool2d.
void populatePoolingToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// batch_norm, layer_norm.
void populateNormalizationToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// reduce_sum/mean/max, softmax, log_softmax.
void populateReductionToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// flatten, reshape, transpose, concat, slice, pad, broadcast_to.
void populateDataMovementToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// gather.
void populateIndirectDataMovementToLinalgPatterns(
    mlir::RewritePatternSet &patterns);
/// one_hot, argmax, argmin.
void populateIndexingToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// dropout in training mode (Philox4x32-10 masks).
void populateRandomToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// The comparisons, logical ops, select and cast, and bool constants; bool
/// tensors are stored as i8 through `converter` (addBoolStorageConversions).
void populateLogicalToLinalgPatterns(mlir::RewritePatternSet &patterns,
                                     const mlir::TypeConverter &converter);
/// pow, floor_div, floor_mod, fmod (every numeric dtype).
void populateArithToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// cumsum, argsort, gather_elements, gather_elements_grad.
void populateScanSortToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// interpolate (nearest, bilinear).
void populateResizeToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// Makes `converter` store i1 tensors as i8 (0 or 1), one byte per bool as
/// the runtime holds them, and leave every other type alone.
void addBoolStorageConversions(mlir::TypeConverter &converter);
/// True when `op` has no bool (i1) tensor operand or result.
bool isBoolStorageLegal(mlir::Operation *op);

} // namespace ms

#endif // MS_CONVERSION_MSTOLINALG_MSTOLINALG_H
