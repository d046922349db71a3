//===- CanonicalizeFuzzer.cpp - Parse, verify and canonicalize ------------===//
//
// ms's folders and canonicalization patterns (with upstream's) on any module
// that verifies.
//
//===----------------------------------------------------------------------===//

#include "MLIRFuzzSupport.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ms::fuzz::withParsedModule(data, size, [](mlir::ModuleOp module) {
    mlir::PassManager pm(module.getContext(),
                         mlir::ModuleOp::getOperationName());
    pm.addPass(mlir::createCanonicalizerPass());
    pm.addPass(mlir::createCSEPass());
    // The pass manager verifies after each pass: a pattern that leaves
    // invalid IR fails here, and that is worth a look too.
    (void)pm.run(module);
  });
  return 0;
}
