//===- JitModule.h - A compiled ms module, ready to call --------*- C++ -*-===//
//
// Compiles a module of ms functions with the pipeline for a jit_level,
// hands the LLVM dialect to NativeJit (LLVM -O3 and codegen for the host
// CPU, linked into the process's JIT), and calls the entry with host
// tensors. Every call checks the caller's tensors against the entry's
// signature first; results are buffers the runtime allocates (the compiled
// code writes into out-params).
//
//===----------------------------------------------------------------------===//
#ifndef MS_RUNTIME_JIT_JITMODULE_H
#define MS_RUNTIME_JIT_JITMODULE_H

#include "ms/Pipelines/Pipelines.h"
#include "ms/Runtime/Jit/CompileCache.h"
#include "ms/Runtime/Jit/NativeJit.h"
#include "ms/Runtime/Jit/Signature.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace ms {
namespace runtime {

/// Seconds spent in each part of a compile.
struct CompileTimes {
  double lowering = 0; // MLIR pipeline
  double codegen = 0;  // LLVM -O3 and JIT; on a cache hit, loading the object
  /// The persistent compile cache's part (CompileCache.h): off, hit, miss or
  /// rebuilt (a bad entry was found and replaced; `cacheNote` says why).
  CacheStatus cache = CacheStatus::Off;
  std::string cacheNote;
};

class JitModule {
public:
  /// Compiles `entry` of `module`. The module is lowered in place; pass a
  /// clone to keep the original. Errors carry the diagnostics, located.
  /// With `objectCode` set, the object file the JIT linked goes there (for
  /// the persistent compile cache). `passManagers` (for the module's
  /// context) keeps the parsed pipeline stages between compiles; without
  /// it, each compile parses its own.
  static llvm::Expected<std::unique_ptr<JitModule>>
  compile(mlir::ModuleOp module, llvm::StringRef entry,
          const CompileOptions &options, std::string *objectCode = nullptr,
          StagePassManagers *passManagers = nullptr);

  /// A module from an object file that `compile` produced for this host
  /// (a compile cache hit): links it into a JIT without running the MLIR
  /// pipeline. `options` must be the ones it was compiled with.
  static llvm::Expected<std::unique_ptr<JitModule>>
  load(EntrySignature signature, llvm::StringRef objectCode,
       const CompileOptions &options);
  ~JitModule();

  const EntrySignature &signature() const { return sig; }
  const CompileTimes &compileTimes() const { return times; }
  CompileTimes &compileTimes() { return times; }
  /// Packed copies of parameters the compiled code reads in another layout.
  const PackedParamCache &packedParams() const { return *packed; }

  /// Checks `args` against the signature, allocates the results, and calls.
  /// The arguments do not change: a parameter the code updates in place is
  /// copied first (bindInPlaceResults).
  llvm::Expected<std::vector<HostTensor>> run(llvm::ArrayRef<HostTensor> args);

  /// Which caller arguments the caller gives up to an in-place update.
  using DonatedArgs = llvm::function_ref<bool(size_t)>;

  /// Like run, for arguments the caller has checked; a parameter the code
  /// updates in place is the caller's own buffer where `donated` says so
  /// (bindInPlaceResults).
  llvm::Expected<std::vector<HostTensor>>
  runChecked(llvm::ArrayRef<HostTensor> args, DonatedArgs donated);

  /// Calls with caller-checked arguments and caller-allocated results. The
  /// PyNative hot path uses it after its own cache lookup did the checking.
  /// Fails only when the compiled code runs out of memory.
  llvm::Error runUnchecked(llvm::ArrayRef<HostTensor> args,
                           llvm::ArrayRef<HostTensor> results);

  /// Allocates result tensors of the entry's result types, their ? batch
  /// dims `batch` (EntrySignature::batchOf); a size that overflows or does
  /// not fit in memory is an error naming the result. A result the code
  /// writes into a parameter (TensorSpec::inPlaceOf) stays empty until
  /// bindInPlaceResults.
  llvm::Expected<std::vector<HostTensor>>
  allocateResults(int64_t batch = 0) const;

  /// Gives each result the code writes into a parameter its buffer: the
  /// argument's own when `donated` says the caller gives it up (nothing
  /// else reads that buffer; every packed copy is then invalidated, as
  /// the buffer keeps its identity), otherwise a copy of it, which then
  /// also takes the argument's place in `args`. So a caller that keeps its
  /// arguments never sees them change.
  llvm::Error bindInPlaceResults(llvm::SmallVectorImpl<HostTensor> &args,
                                 llvm::MutableArrayRef<HostTensor> results,
                                 DonatedArgs donated) const;

private:
  JitModule() = default;
  /// Links the entry's object code into the process's JIT.
  llvm::Error link(llvm::ArrayRef<std::string> objects,
                   const CompileOptions &options);

  EntrySignature sig;
  CompileTimes times;
  std::unique_ptr<NativeCode> code;
  std::unique_ptr<PackedParamCache> packed;
};

} // namespace runtime
} // namespace ms

#endif // MS_RUNTIME_JIT_JITMODULE_H
