//===- FuzzSupport.h - Shared pieces of the libFuzzer targets ---*- C++ -*-===//
//
// Each fuzz target is one short .cpp file. What the file-format readers
// share lives here (scratch files for the readers that only take a path);
// MLIRFuzzSupport.h adds what the IR targets share.
//
//===----------------------------------------------------------------------===//
#ifndef MS_FUZZ_FUZZSUPPORT_H
#define MS_FUZZ_FUZZSUPPORT_H

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <unistd.h>

namespace ms {
namespace fuzz {

/// The readers under test take a path, so each input goes through one
/// scratch file per process (under $TMPDIR, /tmp by default).
inline const std::string &writeScratchFile(const uint8_t *data, size_t size,
                                           const char *suffix) {
  static std::string path = [suffix] {
    const char *dir = std::getenv("TMPDIR");
    return std::string(dir && *dir ? dir : "/tmp") + "/ms-fuzz-" +
           std::to_string(::getpid()) + suffix;
  }();
  std::error_code ec;
  llvm::raw_fd_ostream out(path, ec);
  if (ec) {
    llvm::errs() << "fuzz: cannot write " << path << ": " << ec.message()
                 << "\n";
    std::abort();
  }
  out.write(reinterpret_cast<const char *>(data), size);
  return path;
}

/// Rejected input is fine; only crashes and sanitizer reports are findings.
inline void ignore(llvm::Error err) { llvm::consumeError(std::move(err)); }

/// Opens `path` as a `File` (SafeTensorsFile, CheckpointFile: open, names,
/// load) and loads every tensor it lists.
template <typename File> void openAndLoadAll(const std::string &path) {
  auto file = File::open(path);
  if (!file) {
    ignore(file.takeError());
    return;
  }
  for (const std::string &name : file->names()) {
    auto tensor = file->load(name);
    if (!tensor)
      ignore(tensor.takeError());
  }
}

} // namespace fuzz
} // namespace ms

#endif // MS_FUZZ_FUZZSUPPORT_H
