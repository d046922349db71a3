//===- CachingAllocator.cpp - malloc/free for compiled code ---------------===//

#include "ms/Runtime/CachingAllocator.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
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

/// Where the block handed out from the malloc block `raw` starts.
void *userPointer(void *raw, size_t alignment) {
  uintptr_t start = reinterpret_cast<uintptr_t>(raw) + sizeof(Header);
  return reinterpret_cast<void *>((start + alignment - 1) &
                                  ~(uintptr_t(alignment) - 1));
}

/// A fresh block of `size` bytes aligned to `alignment` (a power of two, at
/// least alignof(Header)), with its header.
void *allocateAligned(size_t size, size_t alignment) {
  void *raw = std::malloc(size + alignment + sizeof(Header));
  if (!raw)
    return nullptr;
  void *pointer = userPointer(raw, alignment);
  *headerOf(pointer) = Header{raw, size};
  return pointer;
}

void *allocate(size_t size, size_t alignment) {
  if (alignment < alignof(Header))
    alignment = alignof(Header);
  if (size < kCachedBlockMinBytes || alignment > kCachedAlignment)
    return allocateAligned(size, alignment);
  Cache &c = cache();
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    auto it = c.freeBlocks.find(size);
    if (it != c.freeBlocks.end() && !it->second.empty()) {
      void *raw = it->second.back();
      it->second.pop_back();
      c.stats.cachedBytes -= size;
      ++c.stats.hits;
      return userPointer(raw, kCachedAlignment);
    }
    ++c.stats.misses;
  }
  return allocateAligned(size, kCachedAlignment);
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
    if (c.stats.cachedBytes + header.size <= kCachedBytesLimit) {
      // The malloc block itself, so leak checkers see it as reachable.
      c.freeBlocks[header.size].push_back(header.raw);
      c.stats.cachedBytes += header.size;
      return;
    }
  }
  std::free(header.raw);
}

CachingAllocatorStats ms::runtime::cachingAllocatorStats() {
  Cache &c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  return c.stats;
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
