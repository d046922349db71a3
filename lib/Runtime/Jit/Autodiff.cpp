//===- Autodiff.cpp - Gradient functions of ms source text ----------------===//

#include "ms/Runtime/Jit/Autodiff.h"

#include "ms/Dialect/MS/Transforms/Autodiff.h"
#include "ms/Pipelines/Pipelines.h"
#include "ms/Runtime/Jit/Diagnostics.h"
#include "ms/Runtime/Jit/ModuleText.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"

#include <memory>

using namespace mlir;

namespace ms {
namespace runtime {

namespace {

/// Parses `source`, adds the gradient function of `func` and returns it
/// (the module holds it).
llvm::Expected<func::FuncOp>
addGradient(MLIRContext &context, DiagnosticCollector &diagnostics,
            OwningOpRef<ModuleOp> &module, llvm::StringRef source,
            llvm::StringRef func, llvm::ArrayRef<unsigned> wrt,
            llvm::StringRef gradName, bool savedForward) {
  auto parsed = parseModuleText(context, diagnostics, source, "<autodiff>",
                                "the module to differentiate");
  if (!parsed)
    return parsed.takeError();
  module = std::move(*parsed);
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
  FailureOr<func::FuncOp> gradFn =
      buildGradientFunc(fn, indices, name, savedForward);
  if (failed(gradFn))
    return diagnostics.takeError("ms-autodiff failed");
  return *gradFn;
}

} // namespace

namespace {

/// Builds the gradient function in a context of its own (the text is all
/// that comes back, and a call costs far less than the compile that follows
/// it) and hands the module and the function to `finish`.
template <typename Result, typename Finish>
llvm::Expected<Result> differentiate(llvm::StringRef source,
                                     llvm::StringRef func,
                                     llvm::ArrayRef<unsigned> wrt,
                                     llvm::StringRef gradName,
                                     bool savedForward, Finish finish) {
  MLIRContext context(MLIRContext::Threading::DISABLED);
  prepareContext(context);
  DiagnosticCollector diagnostics(&context);
  OwningOpRef<ModuleOp> module;
  auto gradFn = addGradient(context, diagnostics, module, source, func, wrt,
                            gradName, savedForward);
  if (!gradFn)
    return gradFn.takeError();
  return finish(*module, *gradFn);
}

} // namespace

llvm::Expected<std::string> differentiateSource(llvm::StringRef source,
                                                llvm::StringRef func,
                                                llvm::ArrayRef<unsigned> wrt,
                                                llvm::StringRef gradName) {
  return differentiate<std::string>(
      source, func, wrt, gradName, /*savedForward=*/false,
      [](ModuleOp module, func::FuncOp) { return printModuleText(module); });
}

llvm::Expected<SavedForwardGradient>
differentiateSourceSaved(llvm::StringRef source, llvm::StringRef func,
                         llvm::ArrayRef<unsigned> wrt,
                         llvm::StringRef gradName) {
  return differentiate<SavedForwardGradient>(
      source, func, wrt, gradName, /*savedForward=*/true,
      [](ModuleOp module, func::FuncOp gradFn) {
        SavedForwardGradient result;
        for (unsigned i = 0, e = gradFn.getNumArguments(); i < e; ++i)
          if (auto where = gradFn.getArgAttrOfType<DenseI64ArrayAttr>(
                  i, kSavedAttrName))
            result.saved.emplace_back(where[0], where[1]);
        result.text = printModuleText(module);
        return result;
      });
}

} // namespace runtime
} // namespace ms
