//===- CachingAllocator.cpp - malloc/free for compiled code ---------------===//

#include "ms/Runtime/CachingAllocator.h"

#include <cstdlib>
#include <mutex>
#include <unordered_map>
#include <vector>

using namespace ms::runtime;

namespace {

/// Every block starts with its size; 16 bytes keep malloc's alignment.
constexpr size_t kHeaderBytes = 16;

struct Cache {
  std::mutex mutex;
  std::unordered_map<size_t, std::vector<void *>> freeBlocks;
  CachingAllocatorStats stats;
};

Cache &cache() {
  // Leaked on purpose: compiled code may free during static destruction.
  static Cache *instance = new Cache;
  return *instance;
}

void *toUser(void *block) { return static_cast<char *>(block) + kHeaderBytes; }
void *toBlock(void *pointer) {
  return static_cast<char *>(pointer) - kHeaderBytes;
}

} // namespace

extern "C" void *ms::runtime::msCachedMalloc(size_t size) {
  if (size >= kCachedBlockMinBytes) {
    Cache &c = cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    auto it = c.freeBlocks.find(size);
    if (it != c.freeBlocks.end() && !it->second.empty()) {
      void *block = it->second.back();
      it->second.pop_back();
      c.stats.cachedBytes -= size;
      ++c.stats.hits;
      return toUser(block);
    }
    ++c.stats.misses;
  }
  void *block = std::malloc(size + kHeaderBytes);
  if (!block)
    return nullptr;
  *static_cast<size_t *>(block) = size;
  return toUser(block);
}

extern "C" void ms::runtime::msCachedFree(void *pointer) {
  if (!pointer)
    return;
  void *block = toBlock(pointer);
  size_t size = *static_cast<size_t *>(block);
  if (size >= kCachedBlockMinBytes) {
    Cache &c = cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    if (c.stats.cachedBytes + size <= kCachedBytesLimit) {
      c.freeBlocks[size].push_back(block);
      c.stats.cachedBytes += size;
      return;
    }
  }
  std::free(block);
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
    for (void *block : blocks)
      std::free(block);
  c.freeBlocks.clear();
  c.stats.cachedBytes = 0;
}
