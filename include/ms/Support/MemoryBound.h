//===- MemoryBound.h - How large a buffer can be ----------------*- C++ -*-===//
//
// Sizes that come from users (a shape in IR, a transform's output size, a
// file's header) are checked before anything is allocated: their byte
// count in checked arithmetic, against the machine's physical memory. The
// compiler's tensor-size check and the data pipeline's allocations share
// this, so they refuse the same sizes.
//
//===----------------------------------------------------------------------===//
#ifndef MS_SUPPORT_MEMORYBOUND_H
#define MS_SUPPORT_MEMORYBOUND_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <cstdint>
#include <optional>

#include <unistd.h>

namespace ms {

/// The machine's physical memory in bytes (INT64_MAX if it cannot be read).
inline int64_t physicalMemoryBytes() {
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || pageSize <= 0)
    return INT64_MAX;
  return llvm::checkedMul<int64_t>(pages, pageSize).value_or(INT64_MAX);
}

/// elementBytes times the product of `shape`, or nullopt when a dim is
/// negative or the product overflows int64.
inline std::optional<int64_t> checkedByteSize(int64_t elementBytes,
                                              llvm::ArrayRef<int64_t> shape) {
  std::optional<int64_t> bytes = elementBytes;
  for (int64_t dim : shape) {
    if (dim < 0)
      return std::nullopt;
    if (bytes)
      bytes = llvm::checkedMul(*bytes, dim);
  }
  return bytes;
}

} // namespace ms

#endif // MS_SUPPORT_MEMORYBOUND_H
