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

// One benchmark per instruction set. Separate variables, not an array: an
// array would live in memory and the store-to-load latency, not the FMA
// pipes, would set the rate.
#define MS_FMA_PEAK_BENCHMARK(NAME, TARGET, SUPPORTED, VECTOR, SET1,           \
                              CONSTRAINT, LANES)                               \
  __attribute__((target(TARGET))) void NAME(benchmark::State &state) {         \
    if (!(SUPPORTED))                                                          \
      return state.SkipWithError("no " TARGET " on this CPU");                 \
    VECTOR a0 = SET1(0.5f), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0,       \
           a6 = a0, a7 = a0, a8 = a0, a9 = a0, a10 = a0, a11 = a0;             \
    VECTOR b = SET1(0.999f), c = SET1(0.001f);                                 \
    for (auto _ : state)                                                       \
      MS_FMA12("vfmadd213ps", CONSTRAINT);                                     \
    for (VECTOR v : {a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11})        \
      benchmark::DoNotOptimize(v);                                             \
    state.counters["FLOP/s"] = benchmark::Counter(                             \
        double(state.iterations()) * kFmasPerIteration * (LANES) * 2,          \
        benchmark::Counter::kIsRate);                                          \
  }                                                                            \
  BENCHMARK(NAME)

MS_FMA_PEAK_BENCHMARK(BM_FmaPeakAvx2, "avx2,fma",
                      __builtin_cpu_supports("avx2") &&
                          __builtin_cpu_supports("fma"),
                      __m256, _mm256_set1_ps, "x", 8);
MS_FMA_PEAK_BENCHMARK(BM_FmaPeakAvx512, "avx512f",
                      __builtin_cpu_supports("avx512f"), __m512,
                      _mm512_set1_ps, "v", 16);

} // namespace

BENCHMARK_MAIN();
