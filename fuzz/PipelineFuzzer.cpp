//===- PipelineFuzzer.cpp - Lower a module through an O<N> pipeline -------===//
//
// Built once per jit_level (MS_FUZZ_JIT_LEVEL is O0 or O2): parse, verify,
// and run the whole pipeline down to the LLVM dialect. Nothing is JIT-
// compiled or executed; that would fuzz LLVM and the host's memory instead.
//
//===----------------------------------------------------------------------===//

#include "MLIRFuzzSupport.h"

#include "mlir/Pass/PassManager.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  auto context = ms::fuzz::makeContext();
  ms::fuzz::QuietDiagnostics quiet(*context);
  auto module = ms::fuzz::parseModule(*context, data, size);
  if (!module)
    return 0;
  ms::PipelineOptions options;
  options.jitLevel = *ms::parseJitLevel(MS_FUZZ_JIT_LEVEL);
  // Two threads: O2's OpenMP lowering is part of what is fuzzed.
  options.numThreads = 2;
  mlir::PassManager pm(context.get(), mlir::ModuleOp::getOperationName());
  if (mlir::failed(ms::buildMSPipeline(pm, options))) {
    llvm::errs() << "fuzz: the " MS_FUZZ_JIT_LEVEL " pipeline does not parse\n";
    std::abort();
  }
  (void)pm.run(*module);
  return 0;
}
