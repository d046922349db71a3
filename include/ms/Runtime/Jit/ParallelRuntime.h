//===- ParallelRuntime.h - Threads for compiled parallel loops --*- C++ -*-===//
//
// Compiled code's parallel loops lower through OpenMP (scf.parallel ->
// omp.parallel + omp.wsloop), and LLVM's OpenMP lowering calls libomp's
// entry points (__kmpc_fork_call, __kmpc_for_static_init_8u, ...). When a
// module calls only the ones below, with the arguments they support, NativeJit
// renames its calls to these instead (see useParallelRuntime there), and
// its regions run here rather than on libomp's team.
//
// Why: libomp's join waits for every thread of the team. On a shared
// machine the other core is sometimes away for tens of microseconds (lent
// to another process), and each region then waited for it: two threads ran
// the MLP slower than one (docs/performance-history.md, "Threads"). Here a region
// is `n` slots, one per requested thread. The caller and the workers claim
// slots; the caller runs what it claims, then waits only for the slots a
// worker has claimed. A worker that is not running when a region starts
// delays nothing: the caller runs its slot as well. The caller always runs
// slot 0, the others go in order, and worker i waits (briefly) until i
// slots are taken before it claims, so on time it runs slot i: what a slot
// reads stays in one core's caches from region to region.
//
// What a slot computes depends only on its number, never on the thread that
// runs it, so results are the same bits whoever runs which slot.
//
//===----------------------------------------------------------------------===//

#ifndef MS_RUNTIME_JIT_PARALLELRUNTIME_H
#define MS_RUNTIME_JIT_PARALLELRUNTIME_H

#include <cstdint>

namespace ms {
namespace runtime {

/// What a region runs for each slot: OpenMP's outlined function with its
/// one argument, the struct of the values the region uses.
using ParallelTask = void (*)(int32_t *slot, int32_t *boundSlot,
                              void *captures);

/// Runs task(&slot, &slot, captures) once for each slot in [0, slots), on
/// the caller and the pool's workers, and returns when all have finished.
/// Inside a task (a nested region), or while another thread's region is
/// running, the caller runs every slot itself.
void runParallel(unsigned slots, ParallelTask task, void *captures);

/// Workers the pool has started (they start on first need: slots - 1).
unsigned parallelWorkerCount();

/// Regions of more than one slot run so far.
uint64_t parallelRegionCount();

/// Slots of past regions run by a thread other than their caller (a test's
/// view that workers take part).
uint64_t parallelSlotsRunByWorkers();

/// For tests: the next regions find no worker running, as when the
/// machine's other cores are busy, while `paused` holds.
void pauseParallelWorkersForTesting(bool paused);

/// The libomp entry points NativeJit renames a module's calls to. `ident`
/// (a source location) is ignored; `gtid` is the caller's slot.
extern "C" {
int32_t ms_parallel_thread_num(void *ident);
void ms_parallel_push_num_threads(void *ident, int32_t gtid, int32_t threads);
/// `argc` must be 1 (LLVM passes the captures as one struct).
void ms_parallel_fork_call(void *ident, int32_t argc, void *task, ...);
void ms_parallel_for_static_fini(void *ident, int32_t gtid);
}

/// __kmpc_for_static_init_{4,4u,8,8u} for a loop of type T (S: its signed
/// counterpart): static schedule (34) without chunks, the calling slot's
/// contiguous share of [*lower, *upper] (inclusive, step `incr` > 0), as
/// libomp computes it. Defined for the four.
template <typename T, typename S>
void parallelStaticInit(void *ident, int32_t gtid, int32_t schedule,
                        int32_t *last, T *lower, T *upper, S *stride, S incr,
                        S chunk);

} // namespace runtime
} // namespace ms

#endif // MS_RUNTIME_JIT_PARALLELRUNTIME_H
