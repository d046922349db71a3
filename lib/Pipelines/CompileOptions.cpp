//===- CompileOptions.cpp - What a compile of ms IR is asked for ----------===//

#include "ms/Pipelines/CompileOptions.h"

#include <algorithm>
#include <thread>

namespace ms {

std::optional<JitLevel> parseJitLevel(llvm::StringRef text) {
  if (text == "O0")
    return JitLevel::O0;
  if (text == "O1")
    return JitLevel::O1;
  if (text == "O2")
    return JitLevel::O2;
  return std::nullopt;
}

llvm::StringRef jitLevelName(JitLevel level) {
  switch (level) {
  case JitLevel::O0:
    return "O0";
  case JitLevel::O1:
    return "O1";
  case JitLevel::O2:
    return "O2";
  }
  return "O0";
}

std::optional<ExecMode> parseExecMode(llvm::StringRef text) {
  if (text == "auto")
    return ExecMode::Auto;
  if (text == "sink")
    return ExecMode::Sink;
  if (text == "no_sink")
    return ExecMode::NoSink;
  return std::nullopt;
}

llvm::StringRef execModeName(ExecMode mode) {
  switch (mode) {
  case ExecMode::Auto:
    return "auto";
  case ExecMode::Sink:
    return "sink";
  case ExecMode::NoSink:
    return "no_sink";
  }
  return "auto";
}

ExecMode resolveExecMode(const CompileOptions &options) {
  if (options.execMode != ExecMode::Auto)
    return options.execMode;
  // MindSpore: KernelByKernel at O0, the whole graph sunk at O1/O2.
  return options.jitLevel == JitLevel::O0 ? ExecMode::NoSink : ExecMode::Sink;
}

unsigned effectiveThreads(const CompileOptions &options) {
  if (options.numThreads)
    return options.numThreads;
  return std::max(1u, std::thread::hardware_concurrency());
}

} // namespace ms
