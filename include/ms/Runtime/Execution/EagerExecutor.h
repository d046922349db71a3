//===- EagerExecutor.h - PyNative: run ms ops one at a time -----*- C++ -*-===//
//
// The PyNative executor. Each op runs as soon as it is reached, on real
// buffers. Its kernel comes from a KernelCache keyed by (op name, attributes,
// operand types); a miss wraps the single op in a function and compiles it
// with the same pipeline as Graph mode, so the two modes cannot drift apart.
//
//===----------------------------------------------------------------------===//
#ifndef MS_RUNTIME_EXECUTION_EAGEREXECUTOR_H
#define MS_RUNTIME_EXECUTION_EAGEREXECUTOR_H

#include "ms/Pipelines/Pipelines.h"
#include "ms/Runtime/Execution/OpCall.h"
#include "ms/Runtime/Jit/Signature.h"
#include "ms/Runtime/Memory/HostTensor.h"

#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace mlir {
namespace func {
class FuncOp;
} // namespace func
} // namespace mlir

namespace ms {
namespace runtime {

/// The options PyNative compiles its kernels with: O0 (each op its own
/// kernel; they are the same vectorized kernels as every level's).
inline CompileOptions pynativeCompileOptions() {
  CompileOptions options;
  options.jitLevel = JitLevel::O0;
  return options;
}

struct EagerOptions {
  /// How each op's kernel is compiled (jit_level, threads). PyNative's
  /// kernels are O0's: one op each.
  CompileOptions compile = pynativeCompileOptions();
  /// Kernels kept compiled; beyond it the least recently used is freed.
  size_t kernelCacheSize = kDefaultKernelCacheSize;
  static constexpr size_t kDefaultKernelCacheSize = 1024;
};

/// What --print-intermediates shows for each op.
struct EagerStep {
  std::string cellPath; // from the op's location; may be empty
  std::string opName;
  const HostTensor *result = nullptr;
};
using EagerTrace = std::function<void(const EagerStep &)>;
std::string formatEagerStep(const EagerStep &step);

struct EagerStats {
  uint64_t hits = 0;
  uint64_t misses = 0;
  uint64_t evictions = 0; // kernels freed to stay within the cache size
  double compileSeconds = 0;
  double runSeconds = 0;
};
std::string formatStats(const EagerStats &stats);

class EagerExecutor;

/// A graph run kernel by kernel from the host (exc_mode no_sink): its ms ops
/// one at a time on an executor's cached kernels. It must not outlive the
/// executor that loaded it.
class KernelGraph {
public:
  ~KernelGraph();
  const EntrySignature &signature() const;
  /// Checks `args` against the signature, then runs the ops.
  llvm::Expected<std::vector<HostTensor>> run(llvm::ArrayRef<HostTensor> args);

private:
  friend class EagerExecutor;
  KernelGraph();
  struct Impl;
  std::unique_ptr<Impl> impl;
};

class EagerExecutor {
public:
  explicit EagerExecutor(EagerOptions options = {});
  ~EagerExecutor();
  EagerExecutor(const EagerExecutor &) = delete;
  EagerExecutor &operator=(const EagerExecutor &) = delete;

  /// Runs one op on `inputs` and returns its results. A failed compile or a
  /// shape error is returned as an error and leaves the executor usable.
  llvm::Expected<std::vector<HostTensor>> run(const OpCall &op,
                                              llvm::ArrayRef<HostTensor> inputs);

  /// The results `op` would produce on inputs of these types, found by the
  /// op's own shape inference; nothing is compiled. Graph capture uses it to
  /// give symbolic tensors their shapes.
  llvm::Expected<std::vector<TensorSpec>>
  inferResults(const OpCall &op, llvm::ArrayRef<TensorSpec> inputs);

  /// Runs the ms ops of `func` one at a time on `args`, calling `trace` after
  /// each op.
  llvm::Expected<std::vector<HostTensor>>
  runFunction(mlir::func::FuncOp func, llvm::ArrayRef<HostTensor> args,
              const EagerTrace &trace = {});

  /// Parses and verifies `source` (a module of ms functions) in this
  /// executor's context, to run `entry` kernel by kernel. Errors are
  /// located, one line per diagnostic.
  llvm::Expected<std::unique_ptr<KernelGraph>>
  loadGraph(llvm::StringRef source, llvm::StringRef entry,
            llvm::StringRef bufferName = "<graph>");

  const EagerStats &stats() const;
  /// Number of distinct kernels compiled and cached.
  size_t numKernels() const;
  /// How many kernels the cache keeps (at least 1); lowering it frees the
  /// least recently used ones at once.
  void setKernelCacheSize(size_t size);
  size_t kernelCacheSize() const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

} // namespace runtime
} // namespace ms

#endif // MS_RUNTIME_EXECUTION_EAGEREXECUTOR_H
