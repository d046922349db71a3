//===- Microkernels.cpp - Precompiled routines compiled code calls --------===//

#include "ms/Runtime/Jit/Microkernels.h"

#include <algorithm>
#include <type_traits>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace ms {
namespace runtime {
namespace {

/// Tiles of this side keep a tile's source rows and destination rows in L1
/// while it is copied (the scalar path).
constexpr int64_t kTile = 32;

/// The AVX2 path's tiles: 64 source rows by 16 source columns, so 16
/// destination rows. Rows a power of two of lines apart share a few L1
/// sets; 32 x 32 tiles wrote 32 such rows at once when the destination's
/// rows were long ([512, 64] to [64, 512]: 14.6 us against 2.9 here; the
/// other way 2.6 against 3.2, docs/performance-history.md).
constexpr int64_t kTileRows = 64, kTileCols = 16;

template <typename T>
struct Matrix {
  T *data;
  int64_t rows, cols, rowStride, colStride;
  T &at(int64_t i, int64_t j) const {
    return data[i * rowStride + j * colStride];
  }
};

template <typename T>
Matrix<T> matrixOf(const MemRef2D<T> &m) {
  return {m.aligned + m.offset, m.sizes[0], m.sizes[1], m.strides[0],
          m.strides[1]};
}

/// out[j][i] = in[i][j] for i in [i0, i1), j in [j0, j1).
template <typename T>
void transposeScalar(const Matrix<T> &in, const Matrix<T> &out, int64_t i0,
                     int64_t i1, int64_t j0, int64_t j1) {
  for (int64_t i = i0; i < i1; ++i)
    for (int64_t j = j0; j < j1; ++j)
      out.at(j, i) = in.at(i, j);
}

#if defined(__x86_64__)
/// An 8 x 8 f32 block through AVX registers: 8 row loads, 24 shuffles, 8
/// row stores. Rows are contiguous (unit column strides).
__attribute__((target("avx2"), always_inline)) inline void
transpose8x8(const float *in, int64_t inStride, float *out,
             int64_t outStride) {
  __m256 r[8], t[8];
  for (int k = 0; k < 8; ++k)
    r[k] = _mm256_loadu_ps(in + k * inStride);
  for (int k = 0; k < 8; k += 2) {
    t[k] = _mm256_unpacklo_ps(r[k], r[k + 1]);
    t[k + 1] = _mm256_unpackhi_ps(r[k], r[k + 1]);
  }
  for (int k = 0; k < 8; k += 4) {
    r[k] = _mm256_shuffle_ps(t[k], t[k + 2], 0x44);
    r[k + 1] = _mm256_shuffle_ps(t[k], t[k + 2], 0xEE);
    r[k + 2] = _mm256_shuffle_ps(t[k + 1], t[k + 3], 0x44);
    r[k + 3] = _mm256_shuffle_ps(t[k + 1], t[k + 3], 0xEE);
  }
  for (int k = 0; k < 4; ++k) {
    _mm256_storeu_ps(out + k * outStride,
                     _mm256_permute2f128_ps(r[k], r[k + 4], 0x20));
    _mm256_storeu_ps(out + (k + 4) * outStride,
                     _mm256_permute2f128_ps(r[k], r[k + 4], 0x31));
  }
}

/// A matrix with contiguous rows, tile by tile: 8 x 8 blocks, then the
/// tile's edges element by element. Compiled for AVX2 as a whole, so the
/// blocks inline.
__attribute__((target("avx2"))) void
transposeRowsAVX2(const Matrix<float> &in, const Matrix<float> &out) {
  for (int64_t i0 = 0; i0 < in.rows; i0 += kTileRows) {
    int64_t i1 = std::min(i0 + kTileRows, in.rows);
    int64_t iBlocks = i0 + (i1 - i0) / 8 * 8;
    for (int64_t j0 = 0; j0 < in.cols; j0 += kTileCols) {
      int64_t j1 = std::min(j0 + kTileCols, in.cols);
      int64_t jBlocks = j0 + (j1 - j0) / 8 * 8;
      for (int64_t i = i0; i < iBlocks; i += 8)
        for (int64_t j = j0; j < jBlocks; j += 8)
          transpose8x8(&in.at(i, j), in.rowStride, &out.at(j, i),
                       out.rowStride);
      transposeScalar(in, out, i0, iBlocks, jBlocks, j1);
      transposeScalar(in, out, iBlocks, i1, j0, j1);
    }
  }
}

bool hasAVX2() {
  static const bool avx2 = __builtin_cpu_supports("avx2");
  return avx2;
}
#endif

template <typename T>
void transpose(const MemRef2D<T> &inRef, const MemRef2D<T> &outRef) {
  Matrix<T> in = matrixOf(inRef), out = matrixOf(outRef);
#if defined(__x86_64__)
  if constexpr (std::is_same_v<T, float>)
    if (in.colStride == 1 && out.colStride == 1 && hasAVX2())
      return transposeRowsAVX2(in, out);
#endif
  for (int64_t i = 0; i < in.rows; i += kTile)
    for (int64_t j = 0; j < in.cols; j += kTile)
      transposeScalar(in, out, i, std::min(i + kTile, in.rows), j,
                      std::min(j + kTile, in.cols));
}

} // namespace

extern "C" void _mlir_ciface_ms_transpose_f32(MemRef2D<float> *in,
                                              MemRef2D<float> *out) {
  transpose(*in, *out);
}

extern "C" void _mlir_ciface_ms_transpose_f64(MemRef2D<double> *in,
                                              MemRef2D<double> *out) {
  transpose(*in, *out);
}

} // namespace runtime
} // namespace ms
