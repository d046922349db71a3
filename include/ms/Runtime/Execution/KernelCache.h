//===- KernelCache.h - Compiled single-op kernels, by key -------*- C++ -*-===//
#ifndef MS_RUNTIME_EXECUTION_KERNELCACHE_H
#define MS_RUNTIME_EXECUTION_KERNELCACHE_H

#include "ms/Runtime/Execution/OpCall.h"
#include "ms/Runtime/Jit/JitModule.h"

#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <cstdint>
#include <list>
#include <memory>
#include <string>

namespace ms {
namespace runtime {

/// Appends the cache key of `op` applied to `inputs` to `key`: the op name,
/// its attributes, and each operand's dtype and shape. Two calls share a
/// kernel exactly when their keys are equal.
void appendKernelKey(std::string &key, const OpCall &op,
                     llvm::ArrayRef<HostTensor> inputs);

/// Owns at most `capacity` values by string key and evicts the least
/// recently used one to make room. Every distinct shape a PyNative program
/// meets compiles a kernel (native code plus an ExecutionEngine, about a
/// megabyte), so an unbounded cache grows without limit. A lookup is one
/// hash of the key plus a list splice; nothing is allocated on a hit.
template <typename T> class LRUCache {
public:
  explicit LRUCache(size_t capacity) : limit(std::max<size_t>(capacity, 1)) {}

  /// The value for `key` (now the most recently used), or nullptr.
  T *lookup(llvm::StringRef key) {
    auto it = slots.find(key);
    if (it == slots.end()) {
      ++missCount;
      return nullptr;
    }
    ++hitCount;
    order.splice(order.begin(), order, it->second.position);
    return it->second.value.get();
  }

  /// Stores `value` for `key` as the most recently used entry, first
  /// evicting the least recently used ones beyond the capacity. The
  /// returned pointer stays valid until `key` is evicted or replaced.
  T *insert(llvm::StringRef key, std::unique_ptr<T> value) {
    auto it = slots.find(key);
    if (it != slots.end()) {
      order.splice(order.begin(), order, it->second.position);
      it->second.value = std::move(value);
      return it->second.value.get();
    }
    shrinkTo(limit - 1);
    order.push_front(key.str());
    Slot &slot = slots[key];
    slot.value = std::move(value);
    slot.position = order.begin();
    return slot.value.get();
  }

  /// Sets the capacity (at least 1: the value just inserted must survive)
  /// and evicts down to it.
  void setCapacity(size_t capacity) {
    limit = std::max<size_t>(capacity, 1);
    shrinkTo(limit);
  }

  size_t capacity() const { return limit; }
  size_t size() const { return slots.size(); }
  uint64_t hits() const { return hitCount; }
  uint64_t misses() const { return missCount; }
  uint64_t evictions() const { return evictionCount; }
  /// The keys from most to least recently used (for tests and debugging).
  const std::list<std::string> &keysByRecency() const { return order; }

private:
  struct Slot {
    std::unique_ptr<T> value;
    std::list<std::string>::iterator position;
  };

  void shrinkTo(size_t count) {
    while (slots.size() > count) {
      // Destroying the value frees what it owns (a kernel's native code).
      slots.erase(order.back());
      order.pop_back();
      ++evictionCount;
    }
  }

  llvm::StringMap<Slot> slots;
  std::list<std::string> order; // most recently used first
  size_t limit;
  uint64_t hitCount = 0, missCount = 0, evictionCount = 0;
};

/// Compiled PyNative kernels by appendKernelKey's key.
using KernelCache = LRUCache<JitModule>;

} // namespace runtime
} // namespace ms

#endif // MS_RUNTIME_EXECUTION_KERNELCACHE_H
