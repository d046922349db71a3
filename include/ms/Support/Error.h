//===- Error.h - The runtime's one-line errors ------------------*- C++ -*-===//
//
// Every runtime error is one line of text in an llvm::Error; file readers
// start it with the file's path. Shared by every layer, so that no reader
// grows its own copy.
//
//===----------------------------------------------------------------------===//
#ifndef MS_SUPPORT_ERROR_H
#define MS_SUPPORT_ERROR_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <algorithm>
#include <string>

namespace ms {

/// An llvm::Error holding `message` (the runtime's one-line errors).
inline llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// "<path>: <message>" on one line, whatever the message says (a parser's
/// own message may hold newlines).
inline llvm::Error fileError(llvm::StringRef path,
                             const llvm::Twine &message) {
  std::string text = (path + ": " + message).str();
  std::replace(text.begin(), text.end(), '\n', ' ');
  return llvm::createStringError(llvm::inconvertibleErrorCode(), text);
}

} // namespace ms

#endif // MS_SUPPORT_ERROR_H
