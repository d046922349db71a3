//===- GraphCompiler.cpp - Compile ms source text into a JitModule --------===//

#include "ms/Runtime/GraphCompiler.h"

#include "ms/Runtime/Diagnostics.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

namespace ms {
namespace runtime {

struct GraphCompiler::Impl {
  Impl() { prepareContext(context); }
  MLIRContext context;
};

GraphCompiler::GraphCompiler() : impl(std::make_unique<Impl>()) {}
GraphCompiler::~GraphCompiler() = default;

llvm::Expected<std::unique_ptr<JitModule>>
GraphCompiler::compile(llvm::StringRef source, llvm::StringRef entry,
                       const CompileOptions &options,
                       llvm::StringRef bufferName) {
  DiagnosticCollector diagnostics(&impl->context);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, bufferName), llvm::SMLoc());
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, &impl->context);
  if (!module)
    return diagnostics.takeError("cannot parse the graph");
  return JitModule::compile(*module, entry, options);
}

} // namespace runtime
} // namespace ms
