//===- CompileOptions.h - What a compile of ms IR is asked for --*- C++ -*-===//
//
// One struct, used by ms-run, the eager executor, the graph compiler and the
// Python module alike (MindSpore's JitConfig plus the context's thread
// count), so that every front end means the same thing by a jit_level.
//
//===----------------------------------------------------------------------===//
#ifndef MS_PIPELINES_COMPILEOPTIONS_H
#define MS_PIPELINES_COMPILEOPTIONS_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace ms {

/// Which graph-level work the compiler does (MindSpore's
/// JitConfig.jit_level). Kernels are the same optimized code at every level.
enum class JitLevel { O0, O1, O2 };

/// How a graph runs (MindSpore's JitConfig.exc_mode): the whole graph as one
/// native entry (Sink) or kernel by kernel from the host (NoSink). Auto is
/// resolved by resolveExecMode.
enum class ExecMode { Auto, Sink, NoSink };

/// Parses "O0", "O1" or "O2".
std::optional<JitLevel> parseJitLevel(llvm::StringRef text);
llvm::StringRef jitLevelName(JitLevel level);

/// Parses "auto", "sink" or "no_sink".
std::optional<ExecMode> parseExecMode(llvm::StringRef text);
llvm::StringRef execModeName(ExecMode mode);

struct CompileOptions {
  /// GRAPH_MODE's and ms-run's default is the fastest level, as in
  /// MindSpore's CPU backend.
  JitLevel jitLevel = JitLevel::O2;
  ExecMode execMode = ExecMode::Auto;
  /// Threads for parallel loops at every level; 0 means the core count.
  unsigned numThreads = 0;
  /// When set, the IR after each pipeline stage goes to
  /// <dir>/<NN>_<stage>.mlir (like MindSpore's save_graphs).
  std::string dumpIRDir;
};

/// Sink or NoSink, never Auto: auto runs O0 kernel by kernel and sinks the
/// whole graph at O1/O2, as MindSpore does.
ExecMode resolveExecMode(const CompileOptions &options);

/// The thread count the pipeline compiles for: numThreads, or the host's
/// core count when it is 0.
unsigned effectiveThreads(const CompileOptions &options);

} // namespace ms

#endif // MS_PIPELINES_COMPILEOPTIONS_H
