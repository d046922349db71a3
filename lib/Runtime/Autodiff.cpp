//===- Autodiff.cpp - Gradient functions of ms source text ----------------===//

#include "ms/Runtime/Autodiff.h"

#include "ms/Dialect/MS/Transforms/Autodiff.h"
#include "ms/Pipelines/Pipelines.h"
#include "ms/Runtime/Diagnostics.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

using namespace mlir;

namespace ms {
namespace runtime {

llvm::Expected<std::string> differentiateSource(llvm::StringRef source,
                                                llvm::StringRef func,
                                                llvm::ArrayRef<unsigned> wrt,
                                                llvm::StringRef gradName) {
  // A context per call: the text is all that comes back, and a call costs
  // far less than the compile that follows it.
  MLIRContext context(MLIRContext::Threading::DISABLED);
  prepareContext(context);
  DiagnosticCollector diagnostics(&context);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, "<autodiff>"),
      llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return diagnostics.takeError("cannot parse the module to differentiate");
  auto fn = module->lookupSymbol<func::FuncOp>(func);
  if (!fn)
    return makeError("ms-autodiff: no function named '@" + func + "'");
  llvm::SmallVector<unsigned> indices(wrt.begin(), wrt.end());
  if (indices.empty())
    for (auto [i, type] : llvm::enumerate(fn.getArgumentTypes())) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (tensor && isa<FloatType>(tensor.getElementType()))
        indices.push_back(i);
    }
  std::string name = gradName.empty() ? (func + "_grad").str() : gradName.str();
  if (failed(buildGradientFunc(fn, indices, name)))
    return diagnostics.takeError("ms-autodiff failed");
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, OpPrintingFlags().enableDebugInfo(/*enable=*/true,
                                                      /*prettyForm=*/false));
  return text;
}

} // namespace runtime
} // namespace ms
