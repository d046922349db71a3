//===- ReadBandwidthBench.cpp - How fast one or two cores read N bytes ----===//
//
// The floor for a batch-1 dense layer, which reads each weight once: a
// STREAM-like read of the same bytes, summed with vector loads into eight
// independent accumulators (so neither the add latency nor the loop sets
// the rate). The buffer is read again on every iteration, so it sits in
// whatever cache level holds it, as the MLP's weights do when the network
// runs call after call. Reports bytes per second (the `bytes_per_second`
// counter, as GB/s in the table). With two threads each reads its half.
//
//   ms-bench-read-bandwidth --benchmark_filter=Mlp
//   ms-bench-read-bandwidth --benchmark_filter='Avx512/Mlp|GemvLayout'
//
//===----------------------------------------------------------------------===//

#include <benchmark/benchmark.h>

#include <immintrin.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

// The seed MLP's weights: 784x512, 512x512 and 512x10 f32, plus the biases.
constexpr int64_t kMlpWeightBytes =
    4 * (784 * 512 + 512 + 512 * 512 + 512 + 512 * 10 + 10);

constexpr int64_t kMaxBytes = 128 << 20;

/// One buffer for every size, filled once (so its pages are mapped before
/// timing); a static local, so the threads of a benchmark share it safely.
const float *buffer() {
  static float *data = [] {
    auto *p = static_cast<float *>(std::aligned_alloc(4096, kMaxBytes));
    std::memset(p, 0, kMaxBytes);
    return p;
  }();
  return data;
}

__attribute__((target("avx512f"))) float sumAvx512(const float *p,
                                                    int64_t n) {
  __m512 a0 = _mm512_setzero_ps(), a1 = a0, a2 = a0, a3 = a0, a4 = a0,
         a5 = a0, a6 = a0, a7 = a0;
  int64_t i = 0;
  for (; i + 128 <= n; i += 128) {
    a0 = _mm512_add_ps(a0, _mm512_load_ps(p + i));
    a1 = _mm512_add_ps(a1, _mm512_load_ps(p + i + 16));
    a2 = _mm512_add_ps(a2, _mm512_load_ps(p + i + 32));
    a3 = _mm512_add_ps(a3, _mm512_load_ps(p + i + 48));
    a4 = _mm512_add_ps(a4, _mm512_load_ps(p + i + 64));
    a5 = _mm512_add_ps(a5, _mm512_load_ps(p + i + 80));
    a6 = _mm512_add_ps(a6, _mm512_load_ps(p + i + 96));
    a7 = _mm512_add_ps(a7, _mm512_load_ps(p + i + 112));
  }
  float tail = 0;
  for (; i < n; ++i)
    tail += p[i];
  __m512 s = _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(a0, a1),
                                         _mm512_add_ps(a2, a3)),
                           _mm512_add_ps(_mm512_add_ps(a4, a5),
                                         _mm512_add_ps(a6, a7)));
  return _mm512_reduce_add_ps(s) + tail;
}

__attribute__((target("avx2"))) float sumAvx2(const float *p, int64_t n) {
  __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0, a4 = a0,
         a5 = a0, a6 = a0, a7 = a0;
  int64_t i = 0;
  for (; i + 64 <= n; i += 64) {
    a0 = _mm256_add_ps(a0, _mm256_load_ps(p + i));
    a1 = _mm256_add_ps(a1, _mm256_load_ps(p + i + 8));
    a2 = _mm256_add_ps(a2, _mm256_load_ps(p + i + 16));
    a3 = _mm256_add_ps(a3, _mm256_load_ps(p + i + 24));
    a4 = _mm256_add_ps(a4, _mm256_load_ps(p + i + 32));
    a5 = _mm256_add_ps(a5, _mm256_load_ps(p + i + 40));
    a6 = _mm256_add_ps(a6, _mm256_load_ps(p + i + 48));
    a7 = _mm256_add_ps(a7, _mm256_load_ps(p + i + 56));
  }
  float tail = 0;
  for (; i < n; ++i)
    tail += p[i];
  __m256 s = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(a0, a1),
                                         _mm256_add_ps(a2, a3)),
                           _mm256_add_ps(_mm256_add_ps(a4, a5),
                                         _mm256_add_ps(a6, a7)));
  float lanes[8];
  _mm256_storeu_ps(lanes, s);
  float total = tail;
  for (float v : lanes)
    total += v;
  return total;
}

/// Reads state.range(0) bytes per iteration, split evenly over the threads
/// in 64-byte lines.
template <float (*Sum)(const float *, int64_t)>
void readBytes(benchmark::State &state, const char *feature, bool supported) {
  if (!supported)
    return state.SkipWithError((std::string("no ") + feature).c_str());
  int64_t bytes = state.range(0);
  const float *data = buffer();
  int64_t lines = bytes / 64, threads = state.threads();
  int64_t first = lines * state.thread_index() / threads;
  int64_t last = lines * (state.thread_index() + 1) / threads;
  const float *p = data + first * 16;
  int64_t n = (last - first) * 16;
  for (auto _ : state)
    benchmark::DoNotOptimize(Sum(p, n));
  state.SetBytesProcessed(state.iterations() * n * 4);
}

void BM_ReadAvx512(benchmark::State &state) {
  readBytes<sumAvx512>(state, "avx512f", __builtin_cpu_supports("avx512f"));
}
void BM_ReadAvx2(benchmark::State &state) {
  readBytes<sumAvx2>(state, "avx2", __builtin_cpu_supports("avx2"));
}

// The MLP's weight bytes (the batch-1 floor), at one and two threads; then
// sizes from L1 to beyond the last-level cache, for context.
#define MS_READ_SIZES(BM)                                                      \
  BENCHMARK(BM)->Name(#BM "/Mlp")->Arg(kMlpWeightBytes)->UseRealTime();        \
  BENCHMARK(BM)                                                                \
      ->Name(#BM "/Mlp")                                                       \
      ->Arg(kMlpWeightBytes)                                                   \
      ->Threads(2)                                                             \
      ->UseRealTime();                                                         \
  BENCHMARK(BM)->RangeMultiplier(8)->Range(32 << 10, 128 << 20)->UseRealTime()

MS_READ_SIZES(BM_ReadAvx512);
MS_READ_SIZES(BM_ReadAvx2);

//===----------------------------------------------------------------------===//
// What the weight layout does to a batch-1 dense layer
//===----------------------------------------------------------------------===//
//
// The MLP's first two layers at batch 1 (784 -> 512 -> 512) with O2's
// register tile: 256 outputs in 16 AVX-512 accumulators, K in order.
// "rowmajor" reads the weight as ms-pack-parameters packs it on one thread,
// [in, out], so each K step reads 1 KB of a 2 KB row; "padded" as it packs
// it for more threads, [in, 528] (ms::paddedRowLength); "panels" as
// [out / 256][in][256], so each tile streams one contiguous panel. With
// two threads each computes its 256 of the 512 outputs, as the compiled
// GEMV splits them, and reads the same half of every row on every call.
// "panels_alternating" runs the panels from the last on every other call,
// as ms-pack-parameters has one thread do (alternate-panels): the panels
// the previous call read last are still in L2.
// Compare their bytes_per_second with BM_ReadAvx512/Mlp in the same run.

constexpr int64_t kTile = 256;

enum class GemvLayout { RowMajor, Padded, Panels, PanelsAlternating };

/// y[j, j + 256) for each 256-tile j in [first, last) of a k x n GEMV,
/// the last tile first when `reversed`.
template <GemvLayout Layout>
__attribute__((target("avx512f"))) void
gemvTiles(const float *x, const float *w, float *y, int64_t k, int64_t n,
          int64_t first, int64_t last, bool reversed) {
  constexpr bool panels = Layout == GemvLayout::Panels ||
                          Layout == GemvLayout::PanelsAlternating;
  int64_t rowLength = Layout == GemvLayout::Padded ? n + 16 : n;
  for (int64_t t = first; t < last; t += kTile) {
    int64_t j = reversed ? first + last - kTile - t : t;
    __m512 acc[kTile / 16];
    for (__m512 &a : acc)
      a = _mm512_setzero_ps();
    const float *base = panels ? w + j * k : w + j;
    int64_t stride = panels ? kTile : rowLength;
    for (int64_t i = 0; i < k; ++i) {
      __m512 xi = _mm512_set1_ps(x[i]);
      const float *row = base + i * stride;
      for (int64_t t = 0; t < kTile / 16; ++t)
        acc[t] = _mm512_fmadd_ps(xi, _mm512_loadu_ps(row + 16 * t), acc[t]);
    }
    for (int64_t t = 0; t < kTile / 16; ++t)
      _mm512_storeu_ps(y + j + 16 * t, acc[t]);
  }
}

template <GemvLayout Layout>
void BM_GemvLayout(benchmark::State &state) {
  if (!__builtin_cpu_supports("avx512f"))
    return state.SkipWithError("no avx512f");
  constexpr int64_t in = 784, hidden = 512, rowLength = hidden + 16;
  // Each weight page-aligned, as the runtime allocates the packed copies
  // (an offset second weight would use the sets the first leaves free).
  constexpr int64_t kPageFloats = 4096 / 4;
  const float *w = buffer();
  const float *w2 =
      w + (in * rowLength + kPageFloats - 1) / kPageFloats * kPageFloats;
  int64_t threads = state.threads(), index = state.thread_index();
  int64_t first = hidden / kTile * index / threads * kTile;
  int64_t last = hidden / kTile * (index + 1) / threads * kTile;
  // Each thread's outputs of the first layer stand in for the whole
  // hidden vector the second reads (the threads do not synchronize).
  std::vector<float> x(in, 0.5f), h(hidden, 0.5f), y(hidden);
  bool reversed = false;
  for (auto _ : state) {
    gemvTiles<Layout>(x.data(), w, h.data(), in, hidden, first, last,
                      reversed);
    gemvTiles<Layout>(h.data(), w2, y.data(), hidden, hidden, first, last,
                      reversed);
    benchmark::DoNotOptimize(y.data());
    reversed = Layout == GemvLayout::PanelsAlternating && !reversed;
  }
  state.SetBytesProcessed(state.iterations() * 4 * (last - first) *
                          (in + hidden));
}
#define MS_GEMV_LAYOUT(LAYOUT, NAME)                                           \
  BENCHMARK(BM_GemvLayout<GemvLayout::LAYOUT>)                                 \
      ->Name("BM_GemvLayout/" NAME)                                            \
      ->UseRealTime();                                                         \
  BENCHMARK(BM_GemvLayout<GemvLayout::LAYOUT>)                                 \
      ->Name("BM_GemvLayout/" NAME)                                            \
      ->Threads(2)                                                             \
      ->UseRealTime()

MS_GEMV_LAYOUT(RowMajor, "rowmajor");
MS_GEMV_LAYOUT(Padded, "padded");
MS_GEMV_LAYOUT(Panels, "panels");
MS_GEMV_LAYOUT(PanelsAlternating, "panels_alternating");

} // namespace

BENCHMARK_MAIN();
