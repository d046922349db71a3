//===- OpenMPSettings.h - How O2's OpenMP threads wait ----------*- C++ -*-===//
//
// Parallel loops run on ms's own parallel runtime (ParallelRuntime.h)
// when their module makes only the calls it supports, which the pipelines'
// modules do; a module that does not runs on libomp (loaded by the JIT for
// multithreaded modules), and these settings are for it. libomp's default
// spin-wait yields the CPU on every spin round
// (KMP_USE_YIELD=1). On a machine whose cores are all in the team (2
// threads on 2 cores) and where one other process is runnable, the yielding
// thread hands its core to that process; the team's next barrier then waits
// for a scheduler time slice, and 2 threads run slower than 1 (measured in
// docs/performance-history.md, "Threads": MLP B=64 0.91 ms at 2 threads against
// 0.55 ms at 1 with one busy process; 0.36 ms with KMP_USE_YIELD=2).
// KMP_USE_YIELD=2 yields only when libomp sees more threads than CPUs it
// may use (a real oversubscription, e.g. under taskset), and costs nothing
// on a quiet machine.
//
// The runtime sets these in the environment before libomp initializes
// (which it does at the first parallel region), and never overrides a
// variable the user set.
//
//===----------------------------------------------------------------------===//

#ifndef MS_RUNTIME_JIT_OPENMPSETTINGS_H
#define MS_RUNTIME_JIT_OPENMPSETTINGS_H

#include "ms/Support/EnvironmentDefaults.h"

namespace ms {
namespace runtime {

using OpenMPSetting = EnvironmentDefault;

/// The libomp environment settings ms runs with by default.
llvm::ArrayRef<OpenMPSetting> openMPDefaults();

/// The defaults that `lookup` (getenv, or a stand-in in tests) does not
/// already set, as (name, value) pairs: what configureOpenMPRuntime sets.
std::vector<std::pair<std::string, std::string>>
missingOpenMPDefaults(llvm::function_ref<const char *(const char *)> lookup);

/// Sets the missing defaults in the process environment, once per process.
/// Call before libomp runs its first parallel region (JitModule does, before
/// it loads libomp); later calls do nothing.
void configureOpenMPRuntime();

} // namespace runtime
} // namespace ms

#endif // MS_RUNTIME_JIT_OPENMPSETTINGS_H
