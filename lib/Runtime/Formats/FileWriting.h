//===- FileWriting.h - Writing a file, with one-line errors -----*- C++ -*-===//
//
// What the .npy and safetensors writers share: write the file atomically
// (ms/Support/FileAccess.h) and say on one line, naming the path, what
// failed.
//
//===----------------------------------------------------------------------===//
#ifndef LIB_RUNTIME_FORMATS_FILEWRITING_H
#define LIB_RUNTIME_FORMATS_FILEWRITING_H

#include "ms/Support/FileAccess.h"

namespace ms {
namespace runtime {

/// Writes the file at `path` with `write`: the old file stays whole until
/// the new one is complete on disk.
inline llvm::Error
writeFile(llvm::StringRef path,
          llvm::function_ref<void(llvm::raw_ostream &)> write) {
  return writeFileAtomically(path, write);
}

} // namespace runtime
} // namespace ms

#endif // LIB_RUNTIME_FORMATS_FILEWRITING_H
