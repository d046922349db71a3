//===- KernelCache.cpp - Compiled single-op kernels, by key ---------------===//

#include "ms/Runtime/Execution/KernelCache.h"

namespace ms {
namespace runtime {

void appendKernelKey(std::string &key, const OpCall &op,
                     llvm::ArrayRef<HostTensor> inputs) {
  key += op.name;
  key += '\x1f';
  key += op.attributes;
  char digits[24];
  for (const HostTensor &input : inputs) {
    key += '\x1f';
    key += static_cast<char>('0' + static_cast<int>(input.dtype()));
    for (int64_t d : input.shape()) {
      // Hand-rolled: this runs on every PyNative dispatch.
      char *end = digits + sizeof(digits), *p = end;
      uint64_t v = static_cast<uint64_t>(d);
      do {
        *--p = static_cast<char>('0' + v % 10);
        v /= 10;
      } while (v);
      key += 'x';
      key.append(p, end);
    }
  }
}

} // namespace runtime
} // namespace ms
