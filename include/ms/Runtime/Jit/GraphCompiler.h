//===- GraphCompiler.h - Compile ms source text into a JitModule -*- C++ -*-===//
//
// For frontends that build graphs as text (the Python package's capture):
// owns an MLIRContext with every dialect ms needs, parses, verifies and
// compiles. Frontends need no MLIR headers of their own.
//
//===----------------------------------------------------------------------===//
#ifndef MS_RUNTIME_JIT_GRAPHCOMPILER_H
#define MS_RUNTIME_JIT_GRAPHCOMPILER_H

#include "ms/Runtime/Jit/JitModule.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <memory>

namespace ms {
namespace runtime {

class GraphCompiler {
public:
  GraphCompiler();
  ~GraphCompiler();

  /// Parses `source` (a module of ms functions), verifies it and compiles
  /// `entry`. Errors are located, one line per diagnostic. With `cache`
  /// set, a hit skips the pipeline; the source is still parsed, once, for
  /// the signature the entry must record (see compileCached).
  llvm::Expected<std::unique_ptr<JitModule>>
  compile(llvm::StringRef source, llvm::StringRef entry,
          const CompileOptions &options,
          llvm::StringRef bufferName = "<graph>",
          CompileCache *cache = nullptr);

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

/// Compiles `entry` of `source` (IR text) through the persistent compile
/// cache: a hit whose recorded signature is `callerSignature` (the entry's
/// signature read from the caller's graph, never trusted from the cache)
/// loads the stored object code; a miss, a bad entry or another signature
/// runs
/// `compile` (which parses `source` and compiles, keeping the object code)
/// and stores the result. Without a cache, or with options.dumpIRDir set
/// (a dump needs the pipeline to run), it just compiles. Failing to store
/// is not an error: the module works, compileTimes().cacheNote says why.
llvm::Expected<std::unique_ptr<JitModule>> compileCached(
    CompileCache *cache, llvm::StringRef source, llvm::StringRef entry,
    const CompileOptions &options,
    llvm::function_ref<llvm::Expected<EntrySignature>()> callerSignature,
    llvm::function_ref<llvm::Expected<std::unique_ptr<JitModule>>(
        std::string *objectCode)>
        compile);

} // namespace runtime
} // namespace ms

#endif // MS_RUNTIME_JIT_GRAPHCOMPILER_H
