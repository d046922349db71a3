//===- KernelCache.h - Compiled single-op kernels, by key -------*- C++ -*-===//
#ifndef MS_RUNTIME_KERNELCACHE_H
#define MS_RUNTIME_KERNELCACHE_H

#include "ms/Runtime/JitModule.h"

#include "llvm/ADT/StringMap.h"

#include <memory>
#include <string>

namespace ms {
namespace runtime {

struct OpCall;

/// Appends the cache key of `op` applied to `inputs` to `key`: the op name,
/// its attributes, and each operand's dtype and shape. Two calls share a
/// kernel exactly when their keys are equal.
void appendKernelKey(std::string &key, const OpCall &op,
                     llvm::ArrayRef<HostTensor> inputs);

/// Owns compiled kernels. Lookups are one hash of the key.
class KernelCache {
public:
  /// The kernel for `key`, or nullptr.
  JitModule *lookup(llvm::StringRef key) const {
    auto it = kernels.find(key);
    return it == kernels.end() ? nullptr : it->second.get();
  }
  JitModule *insert(llvm::StringRef key, std::unique_ptr<JitModule> kernel) {
    auto &slot = kernels[key];
    slot = std::move(kernel);
    return slot.get();
  }
  size_t size() const { return kernels.size(); }

private:
  llvm::StringMap<std::unique_ptr<JitModule>> kernels;
};

} // namespace runtime
} // namespace ms

#endif // MS_RUNTIME_KERNELCACHE_H
