//===- FunctionLinking.cpp - Bodies for ms source text's calls ------------===//
//
// A declaration gets its definition's body moved in (one context, so the
// ops move without a copy), then MLIR's inliner (inlineRegion, with the
// dialects' inliner interfaces) replaces each call with that body, and the
// declaration, now unused, is erased. The inlined ops keep their own
// locations (their Cell paths and file:line), as if the frontend had
// captured them in place: no call-site wrapping.
//
//===----------------------------------------------------------------------===//

#include "ms/Runtime/Jit/FunctionLinking.h"

#include "ms/Pipelines/Pipelines.h"
#include "ms/Runtime/Jit/Diagnostics.h"
#include "ms/Runtime/Jit/ModuleText.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Transforms/Inliner.h"
#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;

namespace ms {
namespace runtime {

namespace {

/// Moves the body of `definition`'s function into the declaration it names
/// in `module`, after checking that the two have the same type.
llvm::Error defineDeclaration(ModuleOp module, ModuleOp definitionModule,
                              const FunctionDefinition &definition) {
  auto declaration = module.lookupSymbol<func::FuncOp>(definition.symbol);
  if (!declaration || !declaration.isDeclaration())
    return makeError("link: no declaration of @" + definition.symbol +
                     " to give a body");
  auto body = definitionModule.lookupSymbol<func::FuncOp>(definition.function);
  if (!body || body.isDeclaration())
    return makeError("link: the module for @" + definition.symbol +
                     " has no function @" + definition.function);
  if (body.getFunctionType() != declaration.getFunctionType()) {
    std::string message;
    llvm::raw_string_ostream os(message);
    os << "link: @" << definition.function << " has type "
       << body.getFunctionType() << " but @" << definition.symbol
       << " is declared " << declaration.getFunctionType();
    return makeError(message);
  }
  declaration.getBody().takeBody(body.getBody());
  return llvm::Error::success();
}

/// Inlines every call of `callee` in `module`, then erases it.
llvm::Error inlineCallsOf(ModuleOp module, func::FuncOp callee) {
  SmallVector<func::CallOp> calls;
  module.walk([&](func::CallOp call) {
    if (call.getCallee() == callee.getSymName())
      calls.push_back(call);
  });
  InlinerInterface interface(module.getContext());
  InlinerConfig config;
  for (func::CallOp call : calls) {
    if (failed(inlineRegion(interface, config.getCloneCallback(),
                            &callee.getBody(), call,
                            ValueRange(call.getOperands()),
                            ValueRange(call.getResults()),
                            /*inlineLoc=*/std::nullopt)))
      return makeError("link: cannot inline the call of @" +
                       callee.getSymName());
    call.erase();
  }
  callee.erase();
  return llvm::Error::success();
}

llvm::Error link(MLIRContext &context, DiagnosticCollector &diagnostics,
                 ModuleOp module,
                 llvm::ArrayRef<FunctionDefinition> definitions) {
  for (const FunctionDefinition &definition : definitions) {
    auto parsed = parseModuleText(context, diagnostics, definition.module,
                                  "<link " + definition.symbol + ">",
                                  "the body of @" + definition.symbol);
    if (!parsed)
      return parsed.takeError();
    if (llvm::Error err = defineDeclaration(module, **parsed, definition))
      return err;
    auto callee = module.lookupSymbol<func::FuncOp>(definition.symbol);
    if (llvm::Error err = inlineCallsOf(module, callee))
      return err;
  }
  if (failed(verify(module)))
    return diagnostics.takeError("link: the linked module does not verify");
  return llvm::Error::success();
}

} // namespace

llvm::Expected<std::string>
linkFunctions(llvm::StringRef source,
              llvm::ArrayRef<FunctionDefinition> definitions) {
  MLIRContext context(MLIRContext::Threading::DISABLED);
  prepareContext(context);
  DiagnosticCollector diagnostics(&context);
  auto module = parseModuleText(context, diagnostics, source, "<graph>",
                                "the graph to link");
  if (!module)
    return module.takeError();
  if (llvm::Error err = link(context, diagnostics, **module, definitions))
    return std::move(err);
  return printModuleText(**module);
}

} // namespace runtime
} // namespace ms
