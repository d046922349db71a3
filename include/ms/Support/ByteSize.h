//===- ByteSize.h - Byte counts as people read them -------------*- C++ -*-===//
//
// Shared by the compiler's size checks and the runtime's allocation errors,
// so both speak of sizes the same way.
//
//===----------------------------------------------------------------------===//
#ifndef MS_SUPPORT_BYTESIZE_H
#define MS_SUPPORT_BYTESIZE_H

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <iterator>
#include <string>

namespace ms {

/// Formats a byte count for messages: "512 B", "1.5 KiB", "32 GiB".
inline std::string formatByteSize(uint64_t bytes) {
  static const char *const units[] = {"B",   "KiB", "MiB", "GiB",
                                      "TiB", "PiB", "EiB"};
  unsigned unit = 0;
  double value = static_cast<double>(bytes);
  while (value >= 1024 && unit + 1 < std::size(units)) {
    value /= 1024;
    ++unit;
  }
  std::string result;
  llvm::raw_string_ostream os(result);
  // Whole numbers read better without a decimal ("32 GiB", not "32.0 GiB").
  if (value == static_cast<double>(static_cast<uint64_t>(value)))
    os << static_cast<uint64_t>(value);
  else
    os << llvm::format("%.1f", value);
  os << ' ' << units[unit];
  return result;
}

} // namespace ms

#endif // MS_SUPPORT_BYTESIZE_H
