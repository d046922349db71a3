//===- VectorizePoolTiles.h - Window-tile generics on row vectors -*- C++ -*-===//
//
// Part of ms-vectorize-pooling (see VectorizePoolTiles.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef MS_CODEGEN_CPU_VECTORIZEPOOLTILES_H
#define MS_CODEGEN_CPU_VECTORIZEPOOLTILES_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace ms {

/// Rewrites `op` if it is an elementwise generic over the window tiles of
/// a pool, loops (p..., i, a, j, b) with a kh x kw window (a, b) per tile
/// (i, j), that reads inputs at a fixed window offset (i, A, j, B), at its
/// own position, or once per tile (i, j): one vector per (p..., i, a) row
/// instead of scalar loops. Returns whether it did.
bool vectorizePoolTiles(mlir::RewriterBase &rewriter, mlir::linalg::GenericOp op);

} // namespace ms

#endif // MS_CODEGEN_CPU_VECTORIZEPOOLTILES_H
