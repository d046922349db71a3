//===- ParallelRuntime.cpp - Slots claimed by the caller and workers ------===//
//
// See the header for why. The pool publishes a region as one 64-bit word:
// its generation, its slot count and the next unclaimed slot. Claiming a
// slot is a compare-and-swap on that word, so a worker that wakes late,
// after its region has ended or its slots were taken, claims nothing.
//
//===----------------------------------------------------------------------===//

#include "ms/Runtime/Jit/ParallelRuntime.h"
#include "ms/Support/CpuRelax.h"

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdarg>
#include <mutex>
#include <thread>
#include <type_traits>

namespace ms {
namespace runtime {
namespace {

/// The region word: generation (40 bits), slots (12), next slot (12).
struct RegionWord {
  static constexpr unsigned kBits = 12;
  static constexpr uint64_t kMask = (uint64_t(1) << kBits) - 1;
  static constexpr unsigned kMaxSlots = kMask;

  static uint64_t pack(uint64_t generation, uint64_t slots, uint64_t next) {
    return generation << (2 * kBits) | slots << kBits | next;
  }
  static uint64_t generation(uint64_t word) { return word >> (2 * kBits); }
  static unsigned slots(uint64_t word) { return (word >> kBits) & kMask; }
  static unsigned next(uint64_t word) { return word & kMask; }
};

/// What the running slot is, for the entry points compiled code calls.
struct SlotContext {
  int32_t slot = 0;
  int32_t team = 1;
  bool inRegion = false;
  int32_t pushedThreads = 0; // from push_num_threads, for the next fork
};
thread_local SlotContext current;

// UBSan's function-type check reads the 8 bytes before an indirect call's
// callee, where clang puts a signature. Compiled tasks have none, and one
// at the start of the JIT's code pages has unmapped memory there.
#if defined(__clang__)
#define MS_NO_SANITIZE_FUNCTION __attribute__((no_sanitize("function")))
#else
#define MS_NO_SANITIZE_FUNCTION
#endif

/// Runs one slot of a task with the slot context set.
MS_NO_SANITIZE_FUNCTION
void runSlot(ParallelTask task, void *captures, unsigned slot,
             unsigned slots) {
  SlotContext saved = current;
  current.slot = static_cast<int32_t>(slot);
  current.team = static_cast<int32_t>(slots);
  current.inRegion = true;
  int32_t id = current.slot;
  int32_t bound = current.slot;
  task(&id, &bound, captures);
  current = saved;
}

/// Runs every slot on the calling thread, in order.
void runHere(unsigned slots, ParallelTask task, void *captures) {
  for (unsigned slot = 0; slot < slots; ++slot)
    runSlot(task, captures, slot, slots);
}

class Pool {
public:
  void run(unsigned slots, ParallelTask task, void *captures);
  unsigned workerCount() {
    std::lock_guard<std::mutex> hold(callers);
    return static_cast<unsigned>(started);
  }
  uint64_t slotsRunByWorkers() const { return byWorkers.load(); }
  void pause(bool paused) { pausedForTesting.store(paused); }

private:
  // Spinning this long after a region keeps the next one of the same call
  // (microseconds away) from waiting for a wake-up; then workers sleep.
  static constexpr auto kSpin = std::chrono::milliseconds(1);
  // How long a worker waits for the slots before its own to be claimed
  // (pauses: a few microseconds).
  static constexpr unsigned kTurnSpins = 256;

  void startWorkers(unsigned count);
  void workerLoop(unsigned home);
  uint64_t waitForRegion(uint64_t seen);
  bool waitForTurn(uint64_t region, unsigned home);
  /// Claims the next of the `slots` of region `generation`; false when
  /// none is left.
  bool claim(uint64_t generation, unsigned &slot, unsigned &slots);
  void runClaimed(uint64_t generation, bool isWorker);
  /// Runs slot `slot` of the current region and counts it finished.
  void runAndCount(unsigned slot, unsigned slots, bool isWorker);

  std::atomic<uint64_t> word{0};
  // The region's task, written before its word is published.
  ParallelTask task = nullptr;
  void *captures = nullptr;
  std::atomic<unsigned> finished{0};
  std::atomic<uint64_t> byWorkers{0};
  std::atomic<bool> pausedForTesting{false};

  std::mutex sleep;
  std::condition_variable wake;
  std::atomic<unsigned> sleepers{0};

  std::mutex callers; // one region at a time; guards `started`
  size_t started = 0;
};

bool Pool::claim(uint64_t region, unsigned &slot, unsigned &slots) {
  uint64_t seen = word.load(std::memory_order_acquire);
  while (RegionWord::generation(seen) == region &&
         RegionWord::next(seen) < RegionWord::slots(seen)) {
    uint64_t taken = seen + 1; // next is the low field
    if (word.compare_exchange_weak(seen, taken, std::memory_order_acq_rel,
                                   std::memory_order_acquire)) {
      slot = RegionWord::next(seen);
      slots = RegionWord::slots(seen);
      return true;
    }
  }
  return false;
}

void Pool::runClaimed(uint64_t region, bool isWorker) {
  unsigned slot, slots;
  // The claim acquired the word this region's task was published with.
  while (claim(region, slot, slots))
    runAndCount(slot, slots, isWorker);
}

void Pool::runAndCount(unsigned slot, unsigned slots, bool isWorker) {
  runSlot(task, captures, slot, slots);
  if (isWorker)
    byWorkers.fetch_add(1, std::memory_order_relaxed);
  finished.fetch_add(1, std::memory_order_release);
}

uint64_t Pool::waitForRegion(uint64_t seen) {
  auto deadline = std::chrono::steady_clock::now() + kSpin;
  for (unsigned i = 1;; ++i) {
    uint64_t now = RegionWord::generation(word.load(std::memory_order_acquire));
    if (now != seen && !pausedForTesting.load(std::memory_order_relaxed))
      return now;
    if (i % 1024 == 0 && std::chrono::steady_clock::now() > deadline)
      break;
    cpuRelax();
  }
  std::unique_lock<std::mutex> hold(sleep);
  sleepers.fetch_add(1);
  wake.wait(hold, [&] {
    return RegionWord::generation(word.load()) != seen &&
           !pausedForTesting.load();
  });
  sleepers.fetch_sub(1);
  return RegionWord::generation(word.load(std::memory_order_acquire));
}

// Slot 0 is the caller's, and the others are claimed in order, so
// waiting until `home` slots are taken makes slot `home` this worker's
// whenever it is on time: a slot's data stays in one core's caches from
// region to region (a batch-1 layer's weight panels in its L2). The wait
// is short: if the workers before this one are late, it claims whatever
// is next, as every worker did before. False when the region has no slot
// for this worker.
bool Pool::waitForTurn(uint64_t region, unsigned home) {
  for (unsigned spins = 0; spins < kTurnSpins; ++spins) {
    uint64_t seen = word.load(std::memory_order_acquire);
    if (RegionWord::generation(seen) != region)
      return false;
    if (home >= RegionWord::slots(seen))
      return false;
    if (RegionWord::next(seen) >= home)
      return true;
    cpuRelax();
  }
  return true;
}

void Pool::workerLoop(unsigned home) {
  uint64_t seen = 0;
  for (;;) {
    seen = waitForRegion(seen);
    if (waitForTurn(seen, home))
      runClaimed(seen, /*isWorker=*/true);
  }
}

void Pool::startWorkers(unsigned count) {
  while (started < count) {
    // Detached and never stopped: compiled code may start a region until
    // the process ends. Worker i's home is slot i (the caller's is 0).
    unsigned home = static_cast<unsigned>(++started);
    std::thread([this, home] { workerLoop(home); }).detach();
  }
}

void Pool::run(unsigned slots, ParallelTask task, void *captures) {
  std::unique_lock<std::mutex> hold(callers, std::try_to_lock);
  if (!hold || slots > RegionWord::kMaxSlots) {
    // Another thread's region holds the pool: run them all here.
    runHere(slots, task, captures);
    return;
  }
  startWorkers(slots - 1);
  this->task = task;
  this->captures = captures;
  finished.store(0, std::memory_order_relaxed);
  // Only a caller holding `callers` changes the generation.
  uint64_t region = RegionWord::generation(word.load()) + 1;
  // Published with slot 0 taken: it is always the caller's (see
  // waitForTurn). The store releases the task.
  word.store(RegionWord::pack(region, slots, 1));
  if (sleepers.load() > 0) {
    std::lock_guard<std::mutex> wakeUp(sleep);
    wake.notify_all();
  }
  runAndCount(0, slots, /*isWorker=*/false);
  runClaimed(region, /*isWorker=*/false);
  // Only slots a worker claimed are left; wait for those.
  while (finished.load(std::memory_order_acquire) != slots)
    cpuRelax();
}

Pool *&processPool() {
  static Pool *pool = [] {
    // A forked child has none of the parent's workers: a new pool.
    pthread_atfork(nullptr, nullptr, [] { processPool() = new Pool; });
    return new Pool;
  }();
  return pool;
}

std::atomic<uint64_t> regionCount{0};

} // namespace

/// libomp's static schedule without chunks: `team` contiguous shares of
/// the iteration space, the first (trip % team) one iteration longer.
template <typename T, typename S>
void parallelStaticInit(void *, int32_t, int32_t, int32_t *last, T *lower,
                        T *upper, S *stride, S incr, S) {
  using U = std::make_unsigned_t<T>;
  *last = 0;
  if (incr <= 0 || *lower > *upper) {
    // A loop that runs no iteration, or a step LLVM does not emit: slot 0
    // takes the whole space.
    *last = current.slot == 0;
    if (current.slot != 0)
      *lower = *upper + 1;
    return;
  }
  U trip = (U(*upper) - U(*lower)) / U(incr) + 1;
  U team = U(std::max<int32_t>(current.team, 1));
  U slot = U(current.slot);
  U small = trip / team, extra = trip % team;
  U begin = slot * small + std::min(slot, extra);
  U count = small + (slot < extra ? 1 : 0);
  *stride = static_cast<S>(trip * U(incr));
  T first = static_cast<T>(U(*lower) + begin * U(incr));
  *lower = first;
  // An empty share ends before it starts: upper - lower + 1 is 0.
  *upper = count ? static_cast<T>(U(first) + (count - 1) * U(incr))
                 : static_cast<T>(U(first) - 1);
  *last = count != 0 && begin + count == trip;
}

// The four loop types of LLVM's OpenMP lowering (`_4`, `_4u`, `_8`, `_8u`).
#define MS_STATIC_INIT(T, S)                                                   \
  template void parallelStaticInit<T, S>(void *, int32_t, int32_t, int32_t *,  \
                                         T *, T *, S *, S, S);
MS_STATIC_INIT(int32_t, int32_t)
MS_STATIC_INIT(uint32_t, int32_t)
MS_STATIC_INIT(int64_t, int64_t)
MS_STATIC_INIT(uint64_t, int64_t)
#undef MS_STATIC_INIT

void runParallel(unsigned slots, ParallelTask task, void *captures) {
  if (slots > 1)
    regionCount.fetch_add(1, std::memory_order_relaxed);
  if (slots <= 1 || current.inRegion) {
    runHere(std::max(slots, 1u), task, captures);
    return;
  }
  processPool()->run(slots, task, captures);
}

unsigned parallelWorkerCount() { return processPool()->workerCount(); }

uint64_t parallelRegionCount() { return regionCount.load(); }

uint64_t parallelSlotsRunByWorkers() {
  return processPool()->slotsRunByWorkers();
}

void pauseParallelWorkersForTesting(bool paused) {
  processPool()->pause(paused);
}

extern "C" {

int32_t ms_parallel_thread_num(void *) { return current.slot; }

void ms_parallel_push_num_threads(void *, int32_t, int32_t threads) {
  current.pushedThreads = threads;
}

void ms_parallel_fork_call(void *, int32_t argc, void *task, ...) {
  void *captures = nullptr;
  if (argc >= 1) {
    va_list args;
    va_start(args, task);
    captures = va_arg(args, void *);
    va_end(args);
  }
  int32_t threads = current.pushedThreads > 0
                        ? current.pushedThreads
                        : int32_t(std::thread::hardware_concurrency());
  current.pushedThreads = 0;
  runParallel(static_cast<unsigned>(std::max(threads, 1)),
              reinterpret_cast<ParallelTask>(task), captures);
}

void ms_parallel_for_static_fini(void *, int32_t) {}

} // extern "C"

} // namespace runtime
} // namespace ms
