//===- ms-opt.cpp - The ms optimizer driver -------------------------------===//
//
// mlir-opt with the ms dialect, ms's passes and pipelines, and the upstream
// dialects and passes those pipelines use.
//
//===----------------------------------------------------------------------===//

#include "ms/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  ms::registerMSDialects(registry);
  ms::registerMSPasses();
  ms::registerUpstreamPassesForMS();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "ms optimizer driver: ms dialect passes and pipelines\n",
      registry));
}
