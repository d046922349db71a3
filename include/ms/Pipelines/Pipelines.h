//===- Pipelines.h - The O0/O1/O2 compilation pipelines ---------*- C++ -*-===//
//
// The single place that decides which passes take ms IR on tensors down to
// the LLVM dialect. Graph mode, PyNative kernels and ms-opt all build their
// pipelines here, so the modes cannot drift apart.
//
//===----------------------------------------------------------------------===//
#ifndef MS_PIPELINES_PIPELINES_H
#define MS_PIPELINES_PIPELINES_H

#include "ms/Pipelines/CompileOptions.h"

#include <memory>
#include <string>
#include <vector>

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/LogicalResult.h"

namespace mlir {
class DialectRegistry;
class MLIRContext;
class OpPassManager;
class PassManager;
} // namespace mlir

namespace ms {

/// The passes from ms on tensors to the LLVM dialect, as textual stages. Each
/// stage is a (name, pipeline) pair; --dump-ir-after-all writes one file per
/// stage.
struct PipelineStage {
  std::string name;
  std::string pipeline;
};
std::vector<PipelineStage> getPipelineStages(const CompileOptions &options);

/// One pass manager per stage pipeline, parsed and initialized once and
/// reused by every compile in `context`. Parsing a stage and initializing
/// its passes (the canonicalizer's pattern sets above all) is a fixed cost
/// of each compile, about 3 of a PyNative kernel's 20 ms. The managers do
/// not verify after each pass: the caller verifies once per stage (the
/// verifier after every pass was a quarter of the MLIR lowering). Not
/// thread-safe: one compile at a time, as for the context itself.
class StagePassManagers {
public:
  explicit StagePassManagers(mlir::MLIRContext &context);
  ~StagePassManagers();
  StagePassManagers(const StagePassManagers &) = delete;
  StagePassManagers &operator=(const StagePassManagers &) = delete;

  /// The manager for `stage`; null if its pipeline does not parse (the
  /// context's diagnostic handler has the reason).
  mlir::PassManager *get(const PipelineStage &stage);

private:
  mlir::MLIRContext &context;
  llvm::StringMap<std::unique_ptr<mlir::PassManager>> managers;
};

/// Each level's pipeline (`ms-pipeline-O<N>` in ms-opt), whatever
/// options.jitLevel says. Every level compiles the same register-tiled,
/// vectorized kernels; the levels differ in graph-level work only:
/// O0 runs each op as its own kernel (no fusion across ops), O1 adds fusion
/// (elementwise chains, epilogues in matmul and conv tiles, conv + relu +
/// pool, batch loops), O2 adds whole-graph decisions.
llvm::LogicalResult buildO0Pipeline(mlir::OpPassManager &pm,
                                    const CompileOptions &options);
llvm::LogicalResult buildO1Pipeline(mlir::OpPassManager &pm,
                                    const CompileOptions &options);
llvm::LogicalResult buildO2Pipeline(mlir::OpPassManager &pm,
                                    const CompileOptions &options);

/// Appends the pipeline of options.jitLevel to a module-level pass manager.
llvm::LogicalResult buildMSPipeline(mlir::OpPassManager &pm,
                                    const CompileOptions &options);

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
