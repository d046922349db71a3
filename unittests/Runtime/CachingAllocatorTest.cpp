//===- CachingAllocatorTest.cpp - Reuse of compiled code's buffers --------===//

#include "ms/Runtime/Jit/JitModule.h"
#include "ms/Runtime/Memory/CachingAllocator.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>

using namespace ms;
using namespace ms::runtime;

namespace {

TEST(CachingAllocatorTest, ReusesFreedBlocksOfTheSameSize) {
  releaseCachedBlocks();
  CachingAllocatorStats before = cachingAllocatorStats();
  void *a = msCachedMalloc(100000);
  ASSERT_NE(a, nullptr);
  std::memset(a, 1, 100000); // The whole block is usable.
  msCachedFree(a);
  EXPECT_EQ(cachingAllocatorStats().cachedBytes, 100000u);
  void *b = msCachedMalloc(100000);
  EXPECT_EQ(b, a);
  void *c = msCachedMalloc(200000); // Another size: a new block.
  CachingAllocatorStats after = cachingAllocatorStats();
  EXPECT_EQ(after.hits - before.hits, 1u);
  EXPECT_EQ(after.misses - before.misses, 2u);
  EXPECT_EQ(after.cachedBytes, 0u);
  msCachedFree(b);
  msCachedFree(c);
  releaseCachedBlocks();
  EXPECT_EQ(cachingAllocatorStats().cachedBytes, 0u);
}

TEST(CachingAllocatorTest, CountsLiveAndPeakBytes) {
  releaseCachedBlocks();
  resetPeakStats();
  size_t base = cachingAllocatorStats().allocatedBytes;
  void *a = msCachedMalloc(100000);
  void *b = msCachedAlignedAlloc(256, 50000); // Over-aligned: counted too.
  CachingAllocatorStats both = cachingAllocatorStats();
  EXPECT_EQ(both.allocatedBytes - base, 150000u);
  EXPECT_EQ(both.maxAllocatedBytes - base, 150000u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b) % 256, 0u);
  msCachedFree(b);
  msCachedFree(a);
  CachingAllocatorStats freed = cachingAllocatorStats();
  EXPECT_EQ(freed.allocatedBytes, base);
  EXPECT_EQ(freed.maxAllocatedBytes - base, 150000u); // The peak stays...
  EXPECT_EQ(freed.maxReservedBytes - base, 150000u);
  resetPeakStats(); // ...until reset.
  CachingAllocatorStats reset = cachingAllocatorStats();
  EXPECT_EQ(reset.maxAllocatedBytes, base);
  EXPECT_EQ(reset.maxReservedBytes, base + reset.cachedBytes);
  releaseCachedBlocks();
}

// Each thread reuses the blocks it freed: a block freed on another thread
// stays there, so its lines do not move between cores with it.
TEST(CachingAllocatorTest, EachThreadReusesTheBlocksItFreed) {
  releaseCachedBlocks();
  void *mine = msCachedMalloc(100000);
  void *theirs = nullptr;
  std::thread([&] {
    theirs = msCachedMalloc(100000);
    msCachedFree(theirs);
    // Freed here, so the next one here is it.
    EXPECT_EQ(msCachedMalloc(100000), theirs);
    msCachedFree(theirs);
  }).join();
  // The other thread ended: its cached block went with it.
  EXPECT_EQ(cachingAllocatorStats().cachedBytes, 0u);
  msCachedFree(mine);
  EXPECT_EQ(cachingAllocatorStats().cachedBytes, 100000u);
  EXPECT_EQ(msCachedMalloc(100000), mine);
  msCachedFree(mine);
  releaseCachedBlocks();
}

// releaseCachedBlocks frees what every living thread keeps.
TEST(CachingAllocatorTest, ReleaseFreesEveryThreadsBlocks) {
  releaseCachedBlocks();
  std::mutex mutex;
  std::condition_variable changed;
  int stage = 0; // 1: the thread has cached a block; 2: released
  std::thread worker([&] {
    msCachedFree(msCachedMalloc(300000));
    std::unique_lock<std::mutex> lock(mutex);
    stage = 1;
    changed.notify_all();
    changed.wait(lock, [&] { return stage == 2; });
  });
  {
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [&] { return stage == 1; });
  }
  EXPECT_EQ(cachingAllocatorStats().cachedBytes, 300000u);
  releaseCachedBlocks();
  EXPECT_EQ(cachingAllocatorStats().cachedBytes, 0u);
  {
    std::lock_guard<std::mutex> lock(mutex);
    stage = 2;
  }
  changed.notify_all();
  worker.join();
}

TEST(CachingAllocatorTest, SmallBlocksAndNullPassThrough) {
  CachingAllocatorStats before = cachingAllocatorStats();
  void *small = msCachedMalloc(16);
  ASSERT_NE(small, nullptr);
  msCachedFree(small);
  msCachedFree(nullptr);
  CachingAllocatorStats after = cachingAllocatorStats();
  EXPECT_EQ(after.hits, before.hits);
  EXPECT_EQ(after.misses, before.misses);
  EXPECT_EQ(after.cachedBytes, before.cachedBytes);
  EXPECT_EQ(after.allocatedBytes, before.allocatedBytes);
}

// Kernel results (PyNative's every op) come from the caches: a result of a
// size seen before reuses the freed block, and is counted while it lives.
TEST(CachingAllocatorTest, ResultTensorsReuseFreedBlocks) {
  releaseCachedBlocks();
  size_t base = cachingAllocatorStats().allocatedBytes;
  const void *first;
  {
    llvm::Expected<HostTensor> t = allocateCachedTensor(DType::F32, {64, 512});
    ASSERT_TRUE(bool(t)) << llvm::toString(t.takeError());
    EXPECT_EQ(cachingAllocatorStats().allocatedBytes - base, 64u * 512 * 4);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(t->data()) %
                  HostTensor::kAlignment,
              0u);
    first = t->data();
  }
  EXPECT_EQ(cachingAllocatorStats().allocatedBytes, base);
  uint64_t hits = cachingAllocatorStats().hits;
  llvm::Expected<HostTensor> again =
      allocateCachedTensor(DType::F32, {512, 64});
  ASSERT_TRUE(bool(again)) << llvm::toString(again.takeError());
  EXPECT_EQ(again->data(), first);
  EXPECT_EQ(cachingAllocatorStats().hits, hits + 1);
  EXPECT_EQ(again->typeString(), "tensor<512x64xf32>");
  llvm::Expected<HostTensor> empty = allocateCachedTensor(DType::F32, {0, 3});
  ASSERT_TRUE(bool(empty)) << llvm::toString(empty.takeError());
  EXPECT_NE(empty->data(), nullptr);
  releaseCachedBlocks();
}

// Sizes that cannot be had are errors in HostTensor::allocate's words, not
// the exit that compiled code's failed allocations take.
TEST(CachingAllocatorTest, ResultTensorsReportImpossibleSizes) {
  auto message = [](llvm::ArrayRef<int64_t> shape) {
    llvm::Expected<HostTensor> t = allocateCachedTensor(DType::F32, shape);
    return t ? std::string("allocated") : llvm::toString(t.takeError());
  };
  EXPECT_EQ(message({-1, 4}), "negative dimension");
  EXPECT_EQ(message({int64_t(1) << 40, int64_t(1) << 40}), "size overflows");
  EXPECT_EQ(message({int64_t(1) << 50}), "needs 4 PiB, allocation failed");
}

// A conv lowered at O2 allocates scratch buffers inside its loop over the
// batch. Once the first run has filled the cache, later runs must get their
// buffers back from it (nothing leaks, nothing is page-faulted in again).
TEST(CachingAllocatorTest, RepeatedRunsOfACompiledConvAllocateNothingNew) {
  mlir::MLIRContext context;
  prepareContext(context);
  const char *source = R"mlir(
func.func @construct(%x: tensor<8x3x20x20xf32>,
                     %w: tensor<8x3x5x5xf32> {ms.param = "conv.weight"})
    -> tensor<8x8x16x16xf32> {
  %0 = ms.conv2d %x, %w pad_mode "valid" : tensor<8x3x20x20xf32>, tensor<8x3x5x5xf32>
  %1 = ms.relu %0 : tensor<8x8x16x16xf32>
  return %1 : tensor<8x8x16x16xf32>
}
)mlir";
  for (unsigned threads : {1u, 2u}) {
    // Compiling lowers the module in place: parse it for each compile.
    auto module = mlir::parseSourceString<mlir::ModuleOp>(source, &context);
    ASSERT_TRUE(module);
    CompileOptions options;
    options.jitLevel = JitLevel::O2;
    options.numThreads = threads;
    auto jit = JitModule::compile(*module, "construct", options);
    ASSERT_TRUE(static_cast<bool>(jit)) << llvm::toString(jit.takeError());
    std::vector<HostTensor> args = {HostTensor(DType::F32, {8, 3, 20, 20}),
                                    HostTensor(DType::F32, {8, 3, 5, 5})};
    ASSERT_TRUE(static_cast<bool>((*jit)->run(args)));
    CachingAllocatorStats warm = cachingAllocatorStats();
    for (int i = 0; i < 10; ++i)
      ASSERT_TRUE(static_cast<bool>((*jit)->run(args)));
    CachingAllocatorStats after = cachingAllocatorStats();
    EXPECT_GT(after.hits, warm.hits) << threads << " thread(s)";
    if (threads == 1) {
      EXPECT_EQ(after.misses, warm.misses);
    } else {
      // Images run two at a time, so a run may first need two scratch
      // buffers of a size where an earlier run needed one; a leak would
      // miss 16 times per run (two buffers for each of 8 images).
      EXPECT_LE(after.misses - warm.misses, 4u);
    }
  }
}

} // namespace
