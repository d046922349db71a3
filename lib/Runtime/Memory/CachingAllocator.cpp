//===- CachingAllocator.cpp - malloc/free for compiled code ---------------===//

#include "ms/Runtime/Memory/CachingAllocator.h"

#include "ms/Support/Error.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <algorithm>
#include <csetjmp>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <atomic>
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

/// Freed blocks by size, as the malloc blocks they live in: one set per
/// thread, so that a block freed on a thread is handed out again on it,
/// from its core's caches, and threads never wait for each other. With one
/// set for all, LeNet-5's conv stack at 2 threads (buffers allocated per
/// image in a parallel loop) ran 0.19-0.22 ms a call instead of 0.14: the
/// lock, and blocks whose lines moved to the other core with them.
struct FreeLists {
  /// Held by its thread for each use, and by releaseCachedBlocks: never
  /// contended in a run.
  std::mutex mutex;
  std::unordered_map<size_t, std::vector<void *>> blocks;
};

/// The counters of CachingAllocatorStats, shared by every thread.
struct Counters {
  std::atomic<uint64_t> hits{0}, misses{0};
  std::atomic<size_t> cachedBytes{0}, allocatedBytes{0};
  std::atomic<size_t> maxAllocatedBytes{0}, maxReservedBytes{0};
};

/// Every thread's free lists, for releaseCachedBlocks.
struct Registry {
  std::mutex mutex;
  std::vector<FreeLists *> threads;
  Counters counters;
};

Registry &registry() {
  // Leaked on purpose: compiled code may free during static destruction.
  static Registry *instance = new Registry;
  return *instance;
}

/// Frees every block of `lists` (its mutex held), uncounting them.
void freeAll(FreeLists &lists) {
  size_t bytes = 0;
  for (auto &[size, blocks] : lists.blocks) {
    for (void *raw : blocks)
      std::free(raw);
    bytes += size * blocks.size();
  }
  lists.blocks.clear();
  registry().counters.cachedBytes -= bytes;
}

/// Whether this thread's free lists were freed as it ended (trivially
/// destructible, so still readable after: compiled code's buffers may be
/// freed by static destructors, after the main thread's thread_local
/// objects).
thread_local bool listsEnded = false;

/// This thread's free lists, registered on first use; a thread that ends
/// frees its cached blocks.
class ThreadLists {
public:
  ThreadLists() {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    r.threads.push_back(&lists);
  }
  ~ThreadLists() {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    llvm::erase(r.threads, &lists);
    std::lock_guard<std::mutex> own(lists.mutex);
    freeAll(lists);
    listsEnded = true;
  }
  FreeLists lists;
};

/// This thread's free lists; null once the thread has ended them.
FreeLists *threadLists() {
  if (listsEnded)
    return nullptr;
  thread_local ThreadLists instance;
  return &instance.lists;
}

Header *headerOf(void *pointer) { return static_cast<Header *>(pointer) - 1; }

/// Raises `peak` to `value` if it is below.
void raise(std::atomic<size_t> &peak, size_t value) {
  size_t seen = peak.load(std::memory_order_relaxed);
  while (value > seen &&
         !peak.compare_exchange_weak(seen, value, std::memory_order_relaxed))
    ;
}

/// Books `size` bytes handed out, `fromCache` if a cached block served them.
void noteAllocated(size_t size, bool fromCache) {
  Counters &c = registry().counters;
  size_t cached = fromCache ? c.cachedBytes.fetch_sub(size) - size
                            : c.cachedBytes.load();
  size_t allocated = c.allocatedBytes.fetch_add(size) + size;
  (fromCache ? c.hits : c.misses).fetch_add(1, std::memory_order_relaxed);
  raise(c.maxAllocatedBytes, allocated);
  raise(c.maxReservedBytes, allocated + cached);
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
/// least alignof(Header)), with its header; null if malloc has none.
void *allocateAligned(size_t size, size_t alignment) {
  std::optional<size_t> total =
      llvm::checkedAddUnsigned(size, alignment + sizeof(Header));
  void *raw = total ? std::malloc(*total) : nullptr;
  if (!raw)
    return nullptr;
  void *pointer = userPointer(raw, alignment);
  *headerOf(pointer) = Header{raw, size};
  return pointer;
}

/// A block of `size` bytes, from this thread's cache if it has one; null
/// if the memory is exhausted.
void *tryAllocate(size_t size, size_t alignment) {
  if (alignment < alignof(Header))
    alignment = alignof(Header);
  if (size < kCachedBlockMinBytes)
    return allocateAligned(size, alignment);
  // Over-aligned blocks are counted too: msCachedFree takes them back.
  FreeLists *lists = threadLists();
  if (lists && alignment <= kCachedAlignment) {
    std::lock_guard<std::mutex> lock(lists->mutex);
    auto it = lists->blocks.find(size);
    if (it != lists->blocks.end() && !it->second.empty()) {
      void *raw = it->second.back();
      it->second.pop_back();
      noteAllocated(size, /*fromCache=*/true);
      return userPointer(raw, kCachedAlignment);
    }
  }
  void *pointer = allocateAligned(size, std::max(alignment, kCachedAlignment));
  if (pointer)
    noteAllocated(size, /*fromCache=*/false);
  return pointer;
}

void *allocate(size_t size, size_t alignment) {
  void *pointer = tryAllocate(size, alignment);
  if (!pointer)
    allocationFailed(size);
  return pointer;
}

} // namespace

extern "C" void *ms::runtime::msCachedMalloc(size_t size) {
  return allocate(size, alignof(std::max_align_t));
}

extern "C" void *ms::runtime::msCachedAlignedAlloc(size_t alignment,
                                                   size_t size) {
  return allocate(size, alignment);
}

void *ms::runtime::tryCachedAlloc(size_t size) {
  return tryAllocate(size, kCachedAlignment);
}

llvm::Expected<HostTensor>
ms::runtime::allocateCachedTensor(DType dtype, llvm::ArrayRef<int64_t> shape) {
  return HostTensor::allocateFrom(dtype, shape, [](uint64_t bytes) {
    void *data = tryCachedAlloc(bytes);
    return data ? std::shared_ptr<void>(data, msCachedFree)
                : std::shared_ptr<void>();
  });
}

extern "C" void ms::runtime::msCachedFree(void *pointer) {
  if (!pointer)
    return;
  Header header = *headerOf(pointer);
  // Blocks that came from the cache path are kCachedAlignment-aligned.
  bool cacheable = header.size >= kCachedBlockMinBytes &&
                   reinterpret_cast<uintptr_t>(pointer) % kCachedAlignment == 0;
  if (cacheable) {
    Counters &c = registry().counters;
    c.allocatedBytes -= header.size;
    FreeLists *lists = threadLists();
    if (lists && c.cachedBytes.load() + header.size <= kCachedBytesLimit) {
      std::lock_guard<std::mutex> lock(lists->mutex);
      // The malloc block itself, so leak checkers see it as reachable.
      lists->blocks[header.size].push_back(header.raw);
      c.cachedBytes += header.size;
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
  const Counters &c = registry().counters;
  CachingAllocatorStats stats;
  stats.hits = c.hits.load();
  stats.misses = c.misses.load();
  stats.cachedBytes = c.cachedBytes.load();
  stats.allocatedBytes = c.allocatedBytes.load();
  stats.maxAllocatedBytes = c.maxAllocatedBytes.load();
  stats.maxReservedBytes = c.maxReservedBytes.load();
  return stats;
}

void ms::runtime::resetPeakStats() {
  Counters &c = registry().counters;
  size_t allocated = c.allocatedBytes.load();
  c.maxAllocatedBytes.store(allocated);
  c.maxReservedBytes.store(allocated + c.cachedBytes.load());
}

void ms::runtime::releaseCachedBlocks() {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (FreeLists *lists : r.threads) {
    std::lock_guard<std::mutex> own(lists->mutex);
    freeAll(*lists);
  }
}
