//===- ConvMatcher.h - The im2col conv and its pooled epilogue --*- C++ -*-===//
//
// Private to ms-vectorize-convs. Recognizes the im2col conv that
// convert-ms-to-linalg{conv-as-matmul} emits and the elementwise + max-pool
// epilogue that may follow it, and describes them in structs that the tile
// strategies (ConvTiles.h) only read.
//
//===----------------------------------------------------------------------===//
#ifndef MS_LIB_CODEGEN_CPU_CONVMATCHER_H
#define MS_LIB_CODEGEN_CPU_CONVMATCHER_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <optional>

namespace ms::conv {

/// product[O, OH*OW] = weights[O, C*KH*KW] x collapse(windows), where
/// windows[c, kh, kw, oh, ow] = image[c, oh*sh + kh*dh, ow*sw + kw*dw].
struct Im2colConv {
  mlir::linalg::MatmulOp matmul;
  mlir::linalg::GenericOp windows;
  mlir::tensor::CollapseShapeOp columns;
  /// The [C, H, W] image the windows copy and the [O, C*KH*KW] weights.
  mlir::Value image, weights;
  int64_t channels = 0, channelsOut = 0, kernelH = 0, kernelW = 0;
  int64_t outH = 0, outW = 0;
  int64_t strideH = 0, strideW = 0, dilationH = 0, dilationW = 0;
};

/// The im2col conv whose matmul is `matmul`: static shapes, one float type,
/// at most kMaxUnrolledTaps kernel columns.
std::optional<Im2colConv> matchIm2colConv(mlir::linalg::MatmulOp matmul);

/// A conv max-pooled in non-overlapping windows, with elementwise ops per
/// output channel between them (bias, batch_norm, relu), the conv run image
/// by image in a loop whose one result feeds only that chain:
///   %conv = scf.forall (%n) ... { image %n of a batch; im2col matmul;
///                                 insert the image's product at [%n] }
///   %y = linalg.generic ins(%conv, per-channel vectors...)   (0 or more)
///   %pool = linalg.generic {max(out, in)} ins(%y) outs(fill -inf)
///           over PH x PW windows at stride PH x PW that tile the image.
/// The tiles can then run the chain on their accumulators, pool them and
/// write only the pooled image.
struct PooledEpilogue {
  mlir::scf::ForallOp loop;
  mlir::tensor::ExtractSliceOp imageSlice;
  /// The elementwise generics from the conv to the pool, in order.
  llvm::SmallVector<mlir::linalg::GenericOp> chain;
  /// Set when the chain ends in max(x, c) with c +0 or above (a relu): the
  /// window is then combined before that clamp, which runs once.
  mlir::FloatAttr clampValue;
  mlir::linalg::GenericOp pool;
  mlir::FloatAttr productStart;
  mlir::Operation *poolFill = nullptr;
  int64_t windowH = 0, windowW = 0;
};

/// The pooled epilogue of `conv`, if it has one.
std::optional<PooledEpilogue> matchPooledEpilogue(const Im2colConv &conv);

/// The dim of `vector` (statically [.., O, ..], unit dims elsewhere) that
/// `map` reads at the output channel d1, if it reads nothing else.
std::optional<unsigned> channelDim(mlir::AffineMap map, mlir::Value vector,
                                   int64_t channels);

} // namespace ms::conv

#endif // MS_LIB_CODEGEN_CPU_CONVMATCHER_H
