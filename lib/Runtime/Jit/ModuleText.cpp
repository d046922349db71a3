//===- ModuleText.cpp - ms modules to and from text -----------------------===//

#include "ms/Runtime/Jit/ModuleText.h"

#include "mlir/IR/OperationSupport.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace ms {
namespace runtime {

llvm::Expected<OwningOpRef<ModuleOp>>
parseModuleText(MLIRContext &context, DiagnosticCollector &diagnostics,
                llvm::StringRef source, llvm::StringRef bufferName,
                llvm::StringRef what) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, bufferName), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return diagnostics.takeError(("cannot parse " + what).str());
  return std::move(module);
}

std::string printModuleText(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, OpPrintingFlags().enableDebugInfo(/*enable=*/true,
                                                      /*prettyForm=*/false));
  return text;
}

} // namespace runtime
} // namespace ms
