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
  ms::fuzz::withParsedModule(data, size, [](mlir::ModuleOp module) {
    ms::CompileOptions options;
    options.jitLevel = *ms::parseJitLevel(MS_FUZZ_JIT_LEVEL);
    // Two threads: the OpenMP lowering is part of what is fuzzed.
    options.numThreads = 2;
    mlir::PassManager pm(module.getContext(),
                         mlir::ModuleOp::getOperationName());
    if (mlir::failed(ms::buildMSPipeline(pm, options))) {
      llvm::errs() << "fuzz: the " MS_FUZZ_JIT_LEVEL
                      " pipeline does not parse\n";
      std::abort();
    }
    (void)pm.run(module);
  });
  return 0;
}
