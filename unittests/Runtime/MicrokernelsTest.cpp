//===- MicrokernelsTest.cpp - The runtime's precompiled kernels -----------===//
//
// The transpose kernel against the definition (out[j][i] = in[i][j]) on
// shapes that exercise its 8 x 8 blocks, the tiles' edges and views with
// offsets and strides. Every element of the output is checked, and the
// buffers are filled so that a swapped or shifted element is a mismatch.
//
//===----------------------------------------------------------------------===//

#include "ms/Runtime/Jit/Microkernels.h"

#include "gtest/gtest.h"

#include <vector>

namespace {

using ms::runtime::MemRef2D;

template <typename T>
MemRef2D<T> view(std::vector<T> &buffer, int64_t offset, int64_t rows,
                 int64_t cols, int64_t rowStride, int64_t colStride) {
  return {buffer.data(), buffer.data(), offset, {rows, cols},
          {rowStride, colStride}};
}

template <typename T>
T &at(MemRef2D<T> &m, int64_t i, int64_t j) {
  return m.aligned[m.offset + i * m.strides[0] + j * m.strides[1]];
}

void transpose(MemRef2D<float> &in, MemRef2D<float> &out) {
  _mlir_ciface_ms_transpose_f32(&in, &out);
}
void transpose(MemRef2D<double> &in, MemRef2D<double> &out) {
  _mlir_ciface_ms_transpose_f64(&in, &out);
}

/// Transposes a rows x cols view of a buffer (input row stride rows +
/// inPad, offset inOffset) into a fresh contiguous output surrounded by
/// sentinels, and checks every element and that no sentinel was written.
template <typename T>
void checkTranspose(int64_t rows, int64_t cols, int64_t inPad = 0,
                    int64_t inOffset = 0) {
  SCOPED_TRACE(testing::Message() << rows << " x " << cols << ", pad "
                                  << inPad << ", offset " << inOffset);
  int64_t inStride = cols + inPad;
  std::vector<T> inBuffer(inOffset + rows * inStride);
  for (size_t k = 0; k < inBuffer.size(); ++k)
    inBuffer[k] = static_cast<T>(k) + T(0.5);
  constexpr T kSentinel = T(-7);
  const int64_t guard = 16;
  std::vector<T> outBuffer(2 * guard + cols * rows, kSentinel);
  MemRef2D<T> in = view(inBuffer, inOffset, rows, cols, inStride, 1);
  MemRef2D<T> out = view(outBuffer, guard, cols, rows, rows, 1);
  transpose(in, out);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      ASSERT_EQ(at(out, j, i), at(in, i, j)) << "at (" << i << ", " << j << ")";
  for (int64_t k = 0; k < guard; ++k) {
    ASSERT_EQ(outBuffer[k], kSentinel);
    ASSERT_EQ(outBuffer[outBuffer.size() - 1 - k], kSentinel);
  }
}

TEST(MicrokernelsTest, TransposesF32OfEveryShape) {
  // Whole 8 x 8 blocks; a dense layer's x^T and its result back; edges in
  // one or both dims; one row and one column; more than one 64 x 16 tile
  // with edges, both ways.
  for (auto [rows, cols] :
       std::vector<std::pair<int64_t, int64_t>>{
           {8, 8}, {64, 784}, {512, 64}, {3, 5}, {17, 33}, {1, 40},
           {40, 1}, {70, 45}, {130, 21}, {21, 130}, {10, 64}})
    checkTranspose<float>(rows, cols);
}

TEST(MicrokernelsTest, TransposesF32Views) {
  checkTranspose<float>(16, 24, /*inPad=*/5, /*inOffset=*/3);
  checkTranspose<float>(9, 13, /*inPad=*/1, /*inOffset=*/7);
}

TEST(MicrokernelsTest, TransposesF64) {
  checkTranspose<double>(8, 8);
  checkTranspose<double>(33, 17, /*inPad=*/2, /*inOffset=*/1);
}

TEST(MicrokernelsTest, TransposesColumnStridedViews) {
  // The input is itself a transposed view (unit row stride): no 8 x 8
  // blocks apply, and the result is still the transpose of the view.
  std::vector<float> buffer(12 * 20);
  for (size_t k = 0; k < buffer.size(); ++k)
    buffer[k] = static_cast<float>(k);
  MemRef2D<float> in = view(buffer, 0, 20, 12, 1, 20);
  std::vector<float> outBuffer(12 * 20, -1.0f);
  MemRef2D<float> out = view(outBuffer, 0, 12, 20, 20, 1);
  transpose(in, out);
  for (int64_t i = 0; i < 20; ++i)
    for (int64_t j = 0; j < 12; ++j)
      ASSERT_EQ(at(out, j, i), at(in, i, j));
}

} // namespace
