//===- CpuRelax.h - The pause hint for spin-wait loops ----------*- C++ -*-===//
//
// One iteration's hint to the core that the thread is spinning (x86's
// pause), shared by the thread pool's waits and the shared gradient
// buckets' hand-back. Elsewhere it does nothing.
//
//===----------------------------------------------------------------------===//

#ifndef MS_SUPPORT_CPURELAX_H
#define MS_SUPPORT_CPURELAX_H

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace ms {
namespace runtime {

inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#endif
}

} // namespace runtime
} // namespace ms

#endif // MS_SUPPORT_CPURELAX_H
