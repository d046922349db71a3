//===- Pipelines.h - The O0/O1/O2 compilation pipelines ---------*- C++ -*-===//
//
// The single place that decides which passes take ms IR on tensors down to
// the LLVM dialect. Graph mode, PyNative kernels and ms-opt all build their
// pipelines here, so the modes cannot drift apart.
//
//===----------------------------------------------------------------------===//
#ifndef MS_PIPELINES_PIPELINES_H
#define MS_PIPELINES_PIPELINES_H

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

#include "llvm/Support/LogicalResult.h"

namespace mlir {
class DialectRegistry;
class MLIRContext;
class OpPassManager;
} // namespace mlir

namespace ms {

/// How hard the compiler works (MindSpore's JitConfig.jit_level).
enum class JitLevel { O0, O1, O2 };

/// Parses "O0", "O1" or "O2".
std::optional<JitLevel> parseJitLevel(llvm::StringRef text);
llvm::StringRef jitLevelName(JitLevel level);

struct PipelineOptions {
  JitLevel jitLevel = JitLevel::O0;
  /// Threads for O2's parallel loops; 0 means the host's core count.
  unsigned numThreads = 0;
};

/// The thread count O2 uses for `options` (1 below O2).
unsigned effectiveThreads(const PipelineOptions &options);

/// The passes from ms on tensors to the LLVM dialect, as textual stages. Each
/// stage is a (name, pipeline) pair; --dump-ir-after-all writes one file per
/// stage.
struct PipelineStage {
  std::string name;
  std::string pipeline;
};
std::vector<PipelineStage> getPipelineStages(const PipelineOptions &options);

/// Appends the whole pipeline to a module-level pass manager.
llvm::LogicalResult buildMSPipeline(mlir::OpPassManager &pm,
                                    const PipelineOptions &options);

/// Registers the dialects and translations every ms tool needs.
void registerMSDialects(mlir::DialectRegistry &registry);

/// Makes `context` ready to parse, verify and compile ms IR: registers the
/// passes the pipelines name (once per process) and loads every dialect.
void prepareContext(mlir::MLIRContext &context);

/// Registers ms's own passes and the `ms-pipeline-O<N>` pipelines.
void registerMSPasses();

/// Registers the upstream passes the pipelines are made of. Tools that are
/// not mlir-opt itself (ms-opt, ms-run) need them; the plugin must not
/// register them twice.
void registerUpstreamPassesForMS();

} // namespace ms

#endif // MS_PIPELINES_PIPELINES_H
