//===- GraphCompiler.h - Compile ms source text into a JitModule -*- C++ -*-===//
//
// For frontends that build graphs as text (the Python package's capture):
// owns an MLIRContext with every dialect ms needs, parses, verifies and
// compiles. Frontends need no MLIR headers of their own.
//
//===----------------------------------------------------------------------===//
#ifndef MS_RUNTIME_GRAPHCOMPILER_H
#define MS_RUNTIME_GRAPHCOMPILER_H

#include "ms/Runtime/JitModule.h"

#include <memory>

namespace ms {
namespace runtime {

class GraphCompiler {
public:
  GraphCompiler();
  ~GraphCompiler();

  /// Parses `source` (a module of ms functions), verifies it and compiles
  /// `entry`. Errors are located, one line per diagnostic.
  llvm::Expected<std::unique_ptr<JitModule>>
  compile(llvm::StringRef source, llvm::StringRef entry,
          const CompileOptions &options,
          llvm::StringRef bufferName = "<graph>");

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

} // namespace runtime
} // namespace ms

#endif // MS_RUNTIME_GRAPHCOMPILER_H
