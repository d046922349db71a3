//===- CachingAllocator.h - malloc/free for compiled code -------*- C++ -*-===//
//
// Compiled networks allocate their intermediate buffers on every run. glibc
// hands large blocks back to the kernel when they are freed, so each run
// page-faults them in again (measured: LeNet at batch 64 spent more than half
// of its time in page faults). Compiled code therefore calls these instead of
// malloc/free: freed large blocks are kept, by exact size, and reused, like
// PyTorch's caching CPU allocator. Each thread keeps the blocks it frees and
// reuses them first, so a parallel loop's per-iteration buffers neither
// wait for a lock nor move between cores.
//
//===----------------------------------------------------------------------===//

#ifndef MS_RUNTIME_MEMORY_CACHINGALLOCATOR_H
#define MS_RUNTIME_MEMORY_CACHINGALLOCATOR_H

#include "ms/Runtime/Memory/HostTensor.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>

namespace ms {
namespace runtime {

/// Blocks smaller than this go straight to malloc/free.
constexpr size_t kCachedBlockMinBytes = 4096;
/// Freed blocks beyond this many bytes in total are released at once.
constexpr size_t kCachedBytesLimit = size_t(1) << 30;

/// malloc, aligned_alloc and free as compiled code calls them (thread-safe).
/// A pointer from either allocation function must be released by
/// msCachedFree, and only by it.
extern "C" void *msCachedMalloc(size_t size);
extern "C" void *msCachedAlignedAlloc(size_t alignment, size_t size);
extern "C" void msCachedFree(void *pointer);

/// A 64-byte-aligned block from the same caches, to be released by
/// msCachedFree. Unlike the functions above, it returns null when the memory
/// is exhausted.
void *tryCachedAlloc(size_t size);

/// A tensor that a kernel writes whole (its results), from the caches and
/// not zeroed. HostTensor::allocate's calloc hands a large tensor back to
/// the kernel on free, so a PyNative step in a fresh process page-faulted
/// each op's result in again (LeNet-5's train step took 13-19 ms, not 3).
/// Errors are HostTensor::allocate's.
llvm::Expected<HostTensor> allocateCachedTensor(DType dtype,
                                                llvm::ArrayRef<int64_t> shape);

/// Calls `entry`, a call into compiled code, so that an allocation the code
/// cannot get (the memory is exhausted) ends the call with an error instead
/// of handing the code a null buffer to write through. The failed call's
/// earlier allocations are not freed. An allocation that fails inside an
/// OpenMP parallel region has no way back to the caller: it reports the
/// error on stderr and exits the process with status 1.
llvm::Error callCatchingAllocationFailure(llvm::function_ref<void()> entry);

/// Counts of the large blocks (kCachedBlockMinBytes and up), which hold
/// every tensor-sized buffer; smaller ones go to malloc uncounted.
struct CachingAllocatorStats {
  uint64_t hits = 0;   // Large allocations served from the cache.
  uint64_t misses = 0; // Large allocations that went to malloc.
  size_t cachedBytes = 0;       // Freed and kept for reuse.
  size_t allocatedBytes = 0;    // Handed out and not yet freed.
  size_t maxAllocatedBytes = 0; // Peak of allocatedBytes.
  size_t maxReservedBytes = 0;  // Peak of allocatedBytes + cachedBytes.
};
CachingAllocatorStats cachingAllocatorStats();

/// Restarts both peaks from the current values (MindSpore's
/// reset_max_memory_allocated / reset_max_memory_reserved).
void resetPeakStats();

/// Frees every cached block of every thread (they are otherwise kept until
/// their thread ends or the process exits).
void releaseCachedBlocks();

} // namespace runtime
} // namespace ms

#endif // MS_RUNTIME_MEMORY_CACHINGALLOCATOR_H
