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

// The families whose ops take integers or bools (MS_NumericTensor,
// MS_AllTensor) get the storage type converter (addStorageConversions).

/// add sub mul div maximum minimum, the unary math ops, dropout.
void populateElementwiseToLinalgPatterns(mlir::RewritePatternSet &patterns,
                                         const mlir::TypeConverter &converter);
/// matmul, dense.
void populateLinearToLinalgPatterns(mlir::RewritePatternSet &patterns,
                                    const mlir::TypeConverter &converter);
/// conv2d; `convAsMatmul` selects im2col + linalg.matmul for group-1 convs.
void populateConvolutionToLinalgPatterns(mlir::RewritePatternSet &patterns,
                                         bool convAsMatmul);
/// max_pool2d, avg_pool2d and their gradient ops (max_pool2d_grad,
/// max_pool2d_grad_grad, avg_pool2d_grad).
void populatePoolingToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// batch_norm, layer_norm.
void populateNormalizationToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// reduce_sum/mean/max, softmax, log_softmax.
void populateReductionToLinalgPatterns(mlir::RewritePatternSet &patterns,
                                       const mlir::TypeConverter &converter);
/// flatten, reshape, transpose, concat, slice, pad, broadcast_to.
void populateDataMovementToLinalgPatterns(mlir::RewritePatternSet &patterns,
                                          const mlir::TypeConverter &converter);
/// gather.
void populateIndirectDataMovementToLinalgPatterns(
    mlir::RewritePatternSet &patterns, const mlir::TypeConverter &converter);
/// one_hot, argmax, argmin.
void populateIndexingToLinalgPatterns(mlir::RewritePatternSet &patterns,
                                      const mlir::TypeConverter &converter);
/// dropout in training mode (Philox4x32-10 masks).
void populateRandomToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// The comparisons, logical ops, select and cast.
void populateLogicalToLinalgPatterns(mlir::RewritePatternSet &patterns,
                                     const mlir::TypeConverter &converter);
/// Bool and ui8 constants in their stored form (StorageTypes.cpp).
void populateStoredConstantPatterns(mlir::RewritePatternSet &patterns,
                                    const mlir::TypeConverter &converter);
/// pow, floor_div, floor_mod, fmod (every numeric dtype).
void populateArithToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// cumsum, argsort, gather_elements, gather_elements_grad.
void populateScanSortToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// interpolate (nearest, bilinear).
void populateResizeToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// all_reduce (a call into the runtime's MPI layer).
void populateCommunicationToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// Gives each entry function a trailing argument per gradient bucket it
/// all-reduces (a sum of a private concatenation): the other rank's bucket,
/// which the runtime passes (Communication.cpp). Before the conversion,
/// which lowers those all_reduces onto them.
void addSharedBucketArguments(mlir::Operation *root);
/// After the conversion: each slice of a shared bucket's sum becomes the
/// sum of the buffers' slices, which fuses with the slice's reader.
void splitBucketSumSlices(mlir::Operation *root);
/// Makes `converter` store i1 tensors as i8 (0 or 1), one byte per bool as
/// the runtime holds them, and ui8 tensors as i8 (arith is signless; the
/// patterns chose unsigned ops from the ms types), and leave every other
/// type alone. The families taking a converter build their results with it.
void addStorageConversions(mlir::TypeConverter &converter);
/// True when `op` has no i1 or unsigned tensor operand or result.
bool isStorageLegal(mlir::Operation *op);

} // namespace ms

#endif // MS_CONVERSION_MSTOLINALG_MSTOLINALG_H
