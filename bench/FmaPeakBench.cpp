//===- FmaPeakBench.cpp - This core's peak f32 FMA rate -------------------===//
//
// The ceiling every GF/s figure in docs/performance.md is compared with:
// twelve independent chains of 8-wide (AVX2) or 16-wide (AVX-512) FMAs,
// enough to hide the FMA latency on two pipes. Reports FLOP/s (2 per lane).
// On CPUs without the instruction set the benchmark is skipped.
//
//===----------------------------------------------------------------------===//

#include <benchmark/benchmark.h>

#include <immintrin.h>

namespace {

constexpr int64_t kFmasPerIteration = 12;

#define MS_FMA12(INSN, CONSTRAINT)                                             \
  asm volatile(INSN " %[c], %[b], %[a0]\n\t" INSN " %[c], %[b], %[a1]\n\t"     \
               INSN " %[c], %[b], %[a2]\n\t" INSN " %[c], %[b], %[a3]\n\t"     \
               INSN " %[c], %[b], %[a4]\n\t" INSN " %[c], %[b], %[a5]\n\t"     \
               INSN " %[c], %[b], %[a6]\n\t" INSN " %[c], %[b], %[a7]\n\t"     \
               INSN " %[c], %[b], %[a8]\n\t" INSN " %[c], %[b], %[a9]\n\t"     \
               INSN " %[c], %[b], %[a10]\n\t" INSN " %[c], %[b], %[a11]"       \
               : [a0] "+" CONSTRAINT(a0), [a1] "+" CONSTRAINT(a1),             \
                 [a2] "+" CONSTRAINT(a2), [a3] "+" CONSTRAINT(a3),             \
                 [a4] "+" CONSTRAINT(a4), [a5] "+" CONSTRAINT(a5),             \
                 [a6] "+" CONSTRAINT(a6), [a7] "+" CONSTRAINT(a7),             \
                 [a8] "+" CONSTRAINT(a8), [a9] "+" CONSTRAINT(a9),             \
                 [a10] "+" CONSTRAINT(a10), [a11] "+" CONSTRAINT(a11)          \
               : [b] CONSTRAINT(b), [c] CONSTRAINT(c))

__attribute__((target("avx2,fma"))) void BM_FmaPeakAvx2(benchmark::State &state) {
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma"))
    return state.SkipWithError("no AVX2/FMA on this CPU");
  // Separate variables, not an array: an array would live in memory and
  // the store-to-load latency, not the FMA pipes, would set the rate.
  __m256 a0 = _mm256_set1_ps(0.5f), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0,
         a6 = a0, a7 = a0, a8 = a0, a9 = a0, a10 = a0, a11 = a0;
  __m256 b = _mm256_set1_ps(0.999f), c = _mm256_set1_ps(0.001f);
  for (auto _ : state)
    MS_FMA12("vfmadd213ps", "x");
  for (__m256 v : {a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11})
    benchmark::DoNotOptimize(v);
  state.counters["FLOP/s"] = benchmark::Counter(
      double(state.iterations()) * kFmasPerIteration * 8 * 2,
      benchmark::Counter::kIsRate);
}
BENCHMARK(BM_FmaPeakAvx2);

__attribute__((target("avx512f"))) void
BM_FmaPeakAvx512(benchmark::State &state) {
  if (!__builtin_cpu_supports("avx512f"))
    return state.SkipWithError("no AVX-512 on this CPU");
  // Separate variables, not an array: an array would live in memory and
  // the store-to-load latency, not the FMA pipes, would set the rate.
  __m512 a0 = _mm512_set1_ps(0.5f), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0,
         a6 = a0, a7 = a0, a8 = a0, a9 = a0, a10 = a0, a11 = a0;
  __m512 b = _mm512_set1_ps(0.999f), c = _mm512_set1_ps(0.001f);
  for (auto _ : state)
    MS_FMA12("vfmadd213ps", "v");
  for (__m512 v : {a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11})
    benchmark::DoNotOptimize(v);
  state.counters["FLOP/s"] = benchmark::Counter(
      double(state.iterations()) * kFmasPerIteration * 16 * 2,
      benchmark::Counter::kIsRate);
}
BENCHMARK(BM_FmaPeakAvx512);

} // namespace

BENCHMARK_MAIN();
