//===- MSToLinalg.h - ms -> linalg patterns, one set per op family -*- C++ -*-===//
//
// convert-ms-to-linalg is the union of these pattern sets. Each family lives
// in its own file under lib/Conversion/MSToLinalg/ (docs/adding-an-op.md).
//
//===----------------------------------------------------------------------===//

#ifndef MS_CONVERSION_MSTOLINALG_MSTOLINALG_H
#define MS_CONVERSION_MSTOLINALG_MSTOLINALG_H

#include "mlir/IR/PatternMatch.h"

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
/// flatten, reshape, transpose, concat.
void populateDataMovementToLinalgPatterns(mlir::RewritePatternSet &patterns);

} // namespace ms

#endif // MS_CONVERSION_MSTOLINALG_MSTOLINALG_H
