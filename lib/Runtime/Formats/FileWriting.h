//===- FileWriting.h - Writing a file, with one-line errors -----*- C++ -*-===//
//
// What the .npy and safetensors writers share: open the file, write it,
// close it, and say on one line, naming the path, what failed.
//
//===----------------------------------------------------------------------===//
#ifndef LIB_RUNTIME_FORMATS_FILEWRITING_H
#define LIB_RUNTIME_FORMATS_FILEWRITING_H

#include "ms/Support/Error.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace ms {
namespace runtime {

/// Writes the file at `path` with `write`.
inline llvm::Error
writeFile(llvm::StringRef path,
          llvm::function_ref<void(llvm::raw_ostream &)> write) {
  std::error_code ec;
  llvm::raw_fd_ostream out(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return fileError(path, "cannot open file for writing: " + ec.message());
  write(out);
  out.close();
  if (out.has_error()) {
    std::string message = out.error().message();
    out.clear_error();
    return fileError(path, "write failed: " + message);
  }
  return llvm::Error::success();
}

} // namespace runtime
} // namespace ms

#endif // LIB_RUNTIME_FORMATS_FILEWRITING_H
