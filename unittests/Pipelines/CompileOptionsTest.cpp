//===- CompileOptionsTest.cpp - jit_level, exc_mode and threads ----------===//

#include "ms/Pipelines/CompileOptions.h"
#include "ms/Pipelines/Pipelines.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace ms;

namespace {

CompileOptions at(JitLevel level, ExecMode mode) {
  CompileOptions options;
  options.jitLevel = level;
  options.execMode = mode;
  return options;
}

TEST(CompileOptionsTest, DefaultsToTheFastestLevelAndAuto) {
  CompileOptions options;
  EXPECT_EQ(options.jitLevel, JitLevel::O2);
  EXPECT_EQ(options.execMode, ExecMode::Auto);
  EXPECT_EQ(options.numThreads, 0u);
  EXPECT_TRUE(options.dumpIRDir.empty());
}

TEST(CompileOptionsTest, AutoRunsO0KernelByKernelAndSinksO1AndO2) {
  EXPECT_EQ(resolveExecMode(at(JitLevel::O0, ExecMode::Auto)),
            ExecMode::NoSink);
  EXPECT_EQ(resolveExecMode(at(JitLevel::O1, ExecMode::Auto)),
            ExecMode::Sink);
  EXPECT_EQ(resolveExecMode(at(JitLevel::O2, ExecMode::Auto)),
            ExecMode::Sink);
}

TEST(CompileOptionsTest, AnExplicitExecModeWinsAtEveryLevel) {
  for (JitLevel level : {JitLevel::O0, JitLevel::O1, JitLevel::O2}) {
    EXPECT_EQ(resolveExecMode(at(level, ExecMode::Sink)), ExecMode::Sink);
    EXPECT_EQ(resolveExecMode(at(level, ExecMode::NoSink)),
              ExecMode::NoSink);
  }
}

TEST(CompileOptionsTest, ParsesAndNamesLevelsAndModes) {
  for (llvm::StringRef name : {"O0", "O1", "O2"})
    EXPECT_EQ(jitLevelName(*parseJitLevel(name)), name);
  for (llvm::StringRef name : {"auto", "sink", "no_sink"})
    EXPECT_EQ(execModeName(*parseExecMode(name)), name);
  EXPECT_FALSE(parseJitLevel("O3"));
  EXPECT_FALSE(parseJitLevel("o2"));
  EXPECT_FALSE(parseExecMode("nosink"));
  EXPECT_FALSE(parseExecMode(""));
}

TEST(CompileOptionsTest, ThreadsServeEveryLevel) {
  for (JitLevel level : {JitLevel::O0, JitLevel::O1, JitLevel::O2}) {
    CompileOptions options = at(level, ExecMode::Auto);
    options.numThreads = 3;
    EXPECT_EQ(effectiveThreads(options), 3u);
    options.numThreads = 0;
    EXPECT_GE(effectiveThreads(options), 1u);
  }
}

/// Whether any stage of `options`' pipeline names `pass`.
bool runs(const CompileOptions &options, llvm::StringRef pass) {
  std::vector<PipelineStage> stages = getPipelineStages(options);
  return std::any_of(stages.begin(), stages.end(),
                     [&](const PipelineStage &stage) {
                       return llvm::StringRef(stage.pipeline).contains(pass);
                     });
}

TEST(CompileOptionsTest, EveryLevelVectorizesOnlyO1AndUpFuse) {
  for (JitLevel level : {JitLevel::O0, JitLevel::O1, JitLevel::O2}) {
    CompileOptions options = at(level, ExecMode::Auto);
    options.numThreads = 1;
    EXPECT_TRUE(runs(options, "ms-vectorize-matmuls"));
    EXPECT_TRUE(runs(options, "ms-vectorize-convs"));
    EXPECT_TRUE(runs(options, "ms-lower-vectors"));
    bool fuses = level != JitLevel::O0;
    EXPECT_EQ(runs(options, "ms-fuse-elementwise"), fuses);
    EXPECT_FALSE(runs(options, "linalg-fuse-elementwise-ops"));
    EXPECT_EQ(runs(options, "ms-fuse-batch-loops"), fuses);
    EXPECT_EQ(runs(options, "pool-epilogues=false"), !fuses);
    EXPECT_FALSE(runs(options, "openmp"));
    options.numThreads = 2;
    EXPECT_TRUE(runs(options, "convert-scf-to-openmp"));
  }
}

} // namespace
