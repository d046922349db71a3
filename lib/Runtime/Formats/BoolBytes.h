//===- BoolBytes.h - A file's bool elements are 0 or 1 ----------*- C++ -*-===//
//
// A bool is stored as one byte, 0 or 1. Any other byte would read as True
// in numpy while compiled ops test bit 0 only, so the readers refuse it.
//
//===----------------------------------------------------------------------===//
#ifndef LIB_RUNTIME_FORMATS_BOOLBYTES_H
#define LIB_RUNTIME_FORMATS_BOOLBYTES_H

#include "ms/Support/Error.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

namespace ms {
namespace runtime {

/// An error naming `path`, `what` and the first element of `bytes` that is
/// neither 0 nor 1; success when there is none.
inline llvm::Error checkBoolBytes(llvm::StringRef path, llvm::StringRef what,
                                  const uint8_t *bytes, uint64_t count) {
  for (uint64_t i = 0; i < count; ++i) {
    if (bytes[i] > 1) {
      std::string message;
      llvm::raw_string_ostream os(message);
      os << what << ": bool element " << i << " is the byte "
         << llvm::format_hex(bytes[i], 4) << "; a bool is 0 or 1";
      return fileError(path, message);
    }
  }
  return llvm::Error::success();
}

} // namespace runtime
} // namespace ms

#endif // LIB_RUNTIME_FORMATS_BOOLBYTES_H
