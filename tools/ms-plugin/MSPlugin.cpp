//===- MSPlugin.cpp - ms as a plugin for stock MLIR tools -----------------===//
//
// `mlir-opt --load-dialect-plugin=MSPlugin.so` parses and verifies ms IR;
// `--load-pass-plugin=MSPlugin.so` adds ms's passes and pipelines.
//
//===----------------------------------------------------------------------===//

#include "ms/Dialect/MS/IR/MSDialect.h"
#include "ms/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "MS", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            registry->insert<ms::MSDialect>();
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "MSPasses", LLVM_VERSION_STRING,
          []() { ms::registerMSPasses(); }};
}
