//===- ParseVerifyFuzzer.cpp - Parse and verify an ms module --------------===//
//
// The parser, the ms ops' verifiers and their shape inference, on arbitrary
// text.
//
//===----------------------------------------------------------------------===//

#include "MLIRFuzzSupport.h"

#include "mlir/IR/Verifier.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ms::fuzz::withParsedModule(data, size, [](mlir::ModuleOp module) {
    // Printing round-trips through every attribute and type printer.
    std::string text;
    llvm::raw_string_ostream os(text);
    module.print(os);
    (void)mlir::verify(module);
  });
  return 0;
}
