//===- ParallelRuntimeTest.cpp - Slots, workers and static shares ---------===//

#include "ms/Runtime/Jit/JitModule.h"
#include "ms/Runtime/Jit/ParallelRuntime.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

using namespace ms;
using namespace ms::runtime;

namespace {

struct SlotLog {
  std::vector<std::atomic<int>> runs;
  std::vector<std::thread::id> threads;
  explicit SlotLog(unsigned slots) : runs(slots), threads(slots) {}
};

void logSlot(int32_t *slot, int32_t *, void *captures) {
  auto *log = static_cast<SlotLog *>(captures);
  log->runs[*slot].fetch_add(1);
  log->threads[*slot] = std::this_thread::get_id();
  // Long enough that a spinning worker claims a slot while the caller runs
  // its own.
  auto end = std::chrono::steady_clock::now() + std::chrono::microseconds(20);
  while (std::chrono::steady_clock::now() < end) {
  }
}

TEST(ParallelRuntimeTest, EveryRegionRunsEachSlotOnce) {
  for (unsigned slots = 1; slots <= 4; ++slots) {
    SlotLog log(slots);
    for (int region = 0; region < 200; ++region)
      runParallel(slots, logSlot, &log);
    for (unsigned slot = 0; slot < slots; ++slot)
      EXPECT_EQ(log.runs[slot].load(), 200) << slots << " slots, " << slot;
  }
  EXPECT_GE(parallelWorkerCount(), 3u);
}

TEST(ParallelRuntimeTest, WorkersTakeSlots) {
  uint64_t before = parallelSlotsRunByWorkers();
  SlotLog log(2);
  for (int region = 0; region < 2000; ++region)
    runParallel(2, logSlot, &log);
  EXPECT_GT(parallelSlotsRunByWorkers(), before);
}

/// Records which thread ran slot 0 of each region; each slot takes a few
/// microseconds, so a spinning worker claims one while the caller runs.
void logSlotZero(int32_t *slot, int32_t *, void *captures) {
  if (*slot == 0)
    *static_cast<std::thread::id *>(captures) = std::this_thread::get_id();
  auto end = std::chrono::steady_clock::now() + std::chrono::microseconds(5);
  while (std::chrono::steady_clock::now() < end) {
  }
}

TEST(ParallelRuntimeTest, SlotZeroStaysWithTheCaller) {
  // Workers claim after the caller, so a slot's data stays in one core's
  // caches from region to region; the workers still take the other slot.
  uint64_t before = parallelSlotsRunByWorkers();
  int elsewhere = 0;
  for (int region = 0; region < 4000; ++region) {
    std::thread::id ran;
    runParallel(2, logSlotZero, &ran);
    elsewhere += ran != std::this_thread::get_id();
  }
  EXPECT_EQ(elsewhere, 0);
  EXPECT_GT(parallelSlotsRunByWorkers(), before);
}

TEST(ParallelRuntimeTest, AbsentWorkersDelayNothing) {
  // As when the other cores are lent elsewhere: no worker is running, and
  // the caller runs every slot instead of waiting for one.
  pauseParallelWorkersForTesting(true);
  // Workers spinning from earlier regions must notice the pause first.
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  uint64_t before = parallelSlotsRunByWorkers();
  SlotLog log(3);
  for (int region = 0; region < 50; ++region)
    runParallel(3, logSlot, &log);
  pauseParallelWorkersForTesting(false);
  EXPECT_EQ(parallelSlotsRunByWorkers(), before);
  for (unsigned slot = 0; slot < 3; ++slot) {
    EXPECT_EQ(log.runs[slot].load(), 50);
    EXPECT_EQ(log.threads[slot], std::this_thread::get_id());
  }
}

void nested(int32_t *, int32_t *, void *captures) {
  auto *logs = static_cast<std::vector<SlotLog> *>(captures);
  int32_t outer = ms_parallel_thread_num(nullptr);
  SlotLog &inner = (*logs)[outer];
  runParallel(2, logSlot, &inner);
  // The inner region ran on this thread, and the slot is the outer one's
  // again after it.
  EXPECT_EQ(inner.threads[0], std::this_thread::get_id());
  EXPECT_EQ(inner.threads[1], std::this_thread::get_id());
  EXPECT_EQ(ms_parallel_thread_num(nullptr), outer);
}

TEST(ParallelRuntimeTest, NestedRegionsRunOnTheirSlotsThread) {
  std::vector<SlotLog> logs;
  logs.emplace_back(2);
  logs.emplace_back(2);
  runParallel(2, nested, &logs);
  for (SlotLog &inner : logs)
    EXPECT_EQ(inner.runs[0].load() + inner.runs[1].load(), 2);
}

/// Each slot's static share of [0, trip - 1], as a region records them.
struct Shares {
  uint64_t trip;
  std::vector<uint64_t> lower, upper;
  std::vector<int32_t> last;
};

void recordShare(int32_t *, int32_t *, void *captures) {
  auto *shares = static_cast<Shares *>(captures);
  int32_t slot = ms_parallel_thread_num(nullptr);
  uint64_t lower = 0, upper = shares->trip - 1;
  int64_t stride = 0;
  int32_t last = -1;
  parallelStaticInit<uint64_t, int64_t>(nullptr, slot, 34, &last, &lower,
                                        &upper, &stride, 1, 0);
  ms_parallel_for_static_fini(nullptr, slot);
  shares->lower[slot] = lower;
  shares->upper[slot] = upper;
  shares->last[slot] = last;
}

TEST(ParallelRuntimeTest, StaticSharesCoverTheLoopOnceInOrder) {
  for (int32_t team = 1; team <= 4; ++team) {
    for (uint64_t trip = 1; trip <= 9; ++trip) {
      Shares shares{trip, std::vector<uint64_t>(team),
                    std::vector<uint64_t>(team), std::vector<int32_t>(team)};
      ms_parallel_push_num_threads(nullptr, 0, team);
      ms_parallel_fork_call(nullptr, 1, reinterpret_cast<void *>(recordShare),
                            &shares);
      // As the lowered loop counts: upper - lower + 1 iterations (unsigned).
      uint64_t next = 0, lasts = 0;
      for (int32_t slot = 0; slot < team; ++slot) {
        uint64_t count = shares.upper[slot] - shares.lower[slot] + 1;
        if (count != 0)
          EXPECT_EQ(shares.lower[slot], next) << team << " " << trip;
        next += count;
        lasts += shares.last[slot];
        if (shares.last[slot])
          EXPECT_EQ(next, trip);
      }
      EXPECT_EQ(next, trip) << team << " threads, " << trip << " iterations";
      EXPECT_EQ(lasts, 1u);
      // libomp's split: sizes differ by at most one, larger ones first.
      EXPECT_EQ(shares.upper[0] - shares.lower[0] + 1,
                (trip + team - 1) / team);
    }
  }
}

/// A 2-thread graph whose loops run on this runtime: a relu over 64 K
/// elements, split over the threads.
const char *kWideRelu = R"mlir(
func.func @construct(%x: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %y = ms.relu %x : tensor<256x256xf32>
  return %y : tensor<256x256xf32>
}
)mlir";

TEST(ParallelRuntimeTest, CompiledRegionsRunOnIt) {
  mlir::MLIRContext context;
  prepareContext(context);
  auto module = mlir::parseSourceString<mlir::ModuleOp>(kWideRelu, &context);
  ASSERT_TRUE(module);
  CompileOptions options;
  options.numThreads = 2;
  auto jit = JitModule::compile(*module, "construct", options);
  ASSERT_TRUE(static_cast<bool>(jit)) << llvm::toString(jit.takeError());
  HostTensor x(DType::F32, {256, 256});
  for (int i = 0; i < 256 * 256; ++i)
    x.dataAs<float>()[i] = static_cast<float>(i % 7) - 3.0f;
  uint64_t before = parallelRegionCount();
  for (int run = 0; run < 200; ++run) {
    auto out = (*jit)->run({x});
    ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
    const float *y = out->front().dataAs<float>();
    for (int i = 0; i < 256 * 256; i += 4099)
      ASSERT_EQ(y[i], std::max(static_cast<float>(i % 7) - 3.0f, 0.0f)) << i;
  }
  // Its regions went through this runtime, not libomp's.
  EXPECT_GE(parallelRegionCount(), before + 200);
}

} // namespace
