//===- CachingAllocator.cpp - malloc/free for compiled code ---------------===//

#include "ms/Runtime/CachingAllocator.h"

#include "ms/Runtime/Diagnostics.h"

#include "llvm/Support/CheckedArithmetic.h"

#include <algorithm>
#include <csetjmp>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <mutex>
#include <unordered_map>
#include <vector>

using namespace ms::runtime;

namespace {

/// Sits right before every block handed out: where the underlying malloc
/// block starts, and the size asked for.
struct Header {
  void *raw;
  size_t size;
};

/// Cached blocks are aligned for any request up to this.
constexpr size_t kCachedAlignment = 64;

struct Cache {
  std::mutex mutex;
  /// Freed blocks by size, as the malloc blocks they live in.
  std::unordered_map<size_t, std::vector<void *>> freeBlocks;
  CachingAllocatorStats stats;
};

Cache &cache() {
  // Leaked on purpose: compiled code may free during static destruction.
  static Cache *instance = new Cache;
  return *instance;
}

Header *headerOf(void *pointer) { return static_cast<Header *>(pointer) - 1; }

/// Books `size` bytes handed out (the caller holds the cache's mutex).
void noteAllocated(CachingAllocatorStats &stats, size_t size) {
  stats.allocatedBytes += size;
  stats.maxAllocatedBytes = std::max(stats.maxAllocatedBytes,
                                     stats.allocatedBytes);
  stats.maxReservedBytes = std::max(stats.maxReservedBytes,
                                    stats.allocatedBytes + stats.cachedBytes);
}

/// Where the block handed out from the malloc block `raw` starts.
void *userPointer(void *raw, size_t alignment) {
  uintptr_t start = reinterpret_cast<uintptr_t>(raw) + sizeof(Header);
  return reinterpret_cast<void *>((start + alignment - 1) &
                                  ~(uintptr_t(alignment) - 1));
}

/// The call into compiled code running on this thread, where a failed
/// allocation jumps back to (see callCatchingAllocationFailure).
struct CompiledCall {
  std::jmp_buf target;
  size_t failedBytes = 0;
};
thread_local CompiledCall *currentCall = nullptr;

/// Whether this thread runs inside an OpenMP parallel region. libomp is
/// loaded by the JIT only for multithreaded code, so it is looked up.
bool inOpenMPParallelRegion() {
  using Query = int (*)();
  static Query query =
      reinterpret_cast<Query>(dlsym(RTLD_DEFAULT, "omp_in_parallel"));
  return query && query();
}

/// Compiled code never checks what malloc returns: leave it instead.
[[noreturn]] void allocationFailed(size_t size) {
  CompiledCall *call = currentCall;
  if (call && !inOpenMPParallelRegion()) {
    call->failedBytes = size;
    std::longjmp(call->target, 1);
  }
  // Unwinding out of a parallel region would leave libomp's team waiting.
  std::fprintf(stderr,
               "ms: error: out of memory: compiled code could not allocate "
               "%zu bytes in a parallel region\n",
               size);
  std::_Exit(1);
}

/// A fresh block of `size` bytes aligned to `alignment` (a power of two, at
/// least alignof(Header)), with its header.
void *allocateAligned(size_t size, size_t alignment) {
  std::optional<size_t> total =
      llvm::checkedAddUnsigned(size, alignment + sizeof(Header));
  void *raw = total ? std::malloc(*total) : nullptr;
  if (!raw)
    allocationFailed(size);
  void *pointer = userPointer(raw, alignment);
  *headerOf(pointer) = Header{raw, size};
  return pointer;
}

void *allocate(size_t size, size_t alignment) {
  if (alignment < alignof(Header))
    alignment = alignof(Header);
  if (size < kCachedBlockMinBytes)
    return allocateAligned(size, alignment);
  Cache &c = cache();
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    // Over-aligned blocks are counted too: msCachedFree takes them back.
    auto it = alignment > kCachedAlignment ? c.freeBlocks.end()
                                           : c.freeBlocks.find(size);
    if (it != c.freeBlocks.end() && !it->second.empty()) {
      void *raw = it->second.back();
      it->second.pop_back();
      c.stats.cachedBytes -= size;
      ++c.stats.hits;
      noteAllocated(c.stats, size);
      return userPointer(raw, kCachedAlignment);
    }
    ++c.stats.misses;
    noteAllocated(c.stats, size);
  }
  return allocateAligned(size, std::max(alignment, kCachedAlignment));
}

} // namespace

extern "C" void *ms::runtime::msCachedMalloc(size_t size) {
  return allocate(size, alignof(std::max_align_t));
}

extern "C" void *ms::runtime::msCachedAlignedAlloc(size_t alignment,
                                                   size_t size) {
  return allocate(size, alignment);
}

extern "C" void ms::runtime::msCachedFree(void *pointer) {
  if (!pointer)
    return;
  Header header = *headerOf(pointer);
  // Blocks that came from the cache path are kCachedAlignment-aligned.
  bool cacheable = header.size >= kCachedBlockMinBytes &&
                   reinterpret_cast<uintptr_t>(pointer) % kCachedAlignment == 0;
  if (cacheable) {
    Cache &c = cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    c.stats.allocatedBytes -= header.size;
    if (c.stats.cachedBytes + header.size <= kCachedBytesLimit) {
      // The malloc block itself, so leak checkers see it as reachable.
      c.freeBlocks[header.size].push_back(header.raw);
      c.stats.cachedBytes += header.size;
      return;
    }
  }
  std::free(header.raw);
}

llvm::Error
ms::runtime::callCatchingAllocationFailure(llvm::function_ref<void()> entry) {
  CompiledCall call;
  CompiledCall *outer = currentCall;
  currentCall = &call;
  // Nothing with a destructor lives between here and the longjmp.
  if (setjmp(call.target) == 0) {
    entry();
    currentCall = outer;
    return llvm::Error::success();
  }
  currentCall = outer;
  return makeError("out of memory: compiled code could not allocate " +
                   llvm::Twine(call.failedBytes) + " bytes");
}

CachingAllocatorStats ms::runtime::cachingAllocatorStats() {
  Cache &c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  return c.stats;
}

void ms::runtime::resetPeakStats() {
  Cache &c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  c.stats.maxAllocatedBytes = c.stats.allocatedBytes;
  c.stats.maxReservedBytes = c.stats.allocatedBytes + c.stats.cachedBytes;
}

void ms::runtime::releaseCachedBlocks() {
  Cache &c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  for (auto &[size, blocks] : c.freeBlocks)
    for (void *raw : blocks)
      std::free(raw);
  c.freeBlocks.clear();
  c.stats.cachedBytes = 0;
}
