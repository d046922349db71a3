//===- TileSizeModel.h - Tile sizes from the target and the shape -*- C++ -*-===//
//
// The small cost model behind the O2 matmul schedule. Nothing here is tuned
// to one benchmark shape: the micro-tile comes from the vector width and the
// register count, the cache tiles from the L1/L2 sizes, and remainders get
// their own exact tiles.
//
//===----------------------------------------------------------------------===//
#ifndef MS_CODEGEN_CPU_TILESIZEMODEL_H
#define MS_CODEGEN_CPU_TILESIZEMODEL_H

#include <cstdint>

namespace ms {

struct CpuModel {
  unsigned vectorLanes = 8;     // f32 lanes per vector register
  unsigned vectorRegisters = 16;
  unsigned l1Bytes = 32 * 1024;
  unsigned l2Bytes = 512 * 1024;

  /// The host's vector width and register count (AVX-512, AVX2 or SSE)
  /// and cache sizes.
  static CpuModel host();
};

struct MatmulTiles {
  int64_t microRows;  // rows of the register tile: broadcast operand
  int64_t microCols;  // columns of the register tile: vector operand
  int64_t cacheK;     // K block that keeps the micro-panels in L1
  int64_t cacheCols;  // column block that keeps the K x cols panel in L2
  int64_t unrollK;    // unroll of the K loop
};

/// Bounds on the straight-line code the vectorizers emit. Kernel windows
/// are unrolled tap by tap and rows become single vectors; past these
/// bounds compile time and code size would grow with the kernel or the
/// image, so such ops stay in loops on the generic path instead.
constexpr int64_t kMaxUnrolledTaps = 64;   // window positions per output
constexpr int64_t kMaxVectorLanes = 256;   // elements in one vector value

/// Tiles for a [rows x k] * [k x cols] matmul on `cpu`.
MatmulTiles chooseMatmulTiles(const CpuModel &cpu, int64_t rows, int64_t cols,
                              int64_t k);

} // namespace ms

#endif // MS_CODEGEN_CPU_TILESIZEMODEL_H
