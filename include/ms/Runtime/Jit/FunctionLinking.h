//===- FunctionLinking.h - Bodies for ms source text's calls --*- C++ -*-===//
//
// For frontends that build graphs as text (the Python package): a captured
// graph calls functions it got as separate modules (a gradient function
// from ms-autodiff, a nested capture) through private declarations. This
// gives each declaration its body and inlines the calls with MLIR's
// inliner, so the frontend never edits IR text.
//
//===----------------------------------------------------------------------===//
#ifndef MS_RUNTIME_JIT_FUNCTIONLINKING_H
#define MS_RUNTIME_JIT_FUNCTIONLINKING_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace ms {
namespace runtime {

/// The body of the private declaration `symbol`: function `function` of the
/// module text `module`.
struct FunctionDefinition {
  std::string module;
  std::string function;
  std::string symbol;
};

/// Parses `source`, gives each declaration named by `definitions` the body
/// of its definition (the types must match), inlines every call of them and
/// removes them, then prints the module with its locations. Errors are one
/// located line.
llvm::Expected<std::string>
linkFunctions(llvm::StringRef source,
              llvm::ArrayRef<FunctionDefinition> definitions);

} // namespace runtime
} // namespace ms

#endif // MS_RUNTIME_JIT_FUNCTIONLINKING_H
