//===- GraphCompiler.cpp - Compile ms source text into a JitModule --------===//

#include "ms/Runtime/Jit/GraphCompiler.h"

#include "ms/Runtime/Jit/Diagnostics.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <chrono>

using namespace mlir;

namespace ms {
namespace runtime {

struct GraphCompiler::Impl {
  Impl() { prepareContext(context); }
  MLIRContext context;
  StagePassManagers passManagers{context};
};

GraphCompiler::GraphCompiler() : impl(std::make_unique<Impl>()) {}
GraphCompiler::~GraphCompiler() = default;

llvm::Expected<std::unique_ptr<JitModule>>
GraphCompiler::compile(llvm::StringRef source, llvm::StringRef entry,
                       const CompileOptions &options,
                       llvm::StringRef bufferName, CompileCache *cache) {
  return compileCached(
      cache, source, entry, options,
      [&](std::string *objectCode)
          -> llvm::Expected<std::unique_ptr<JitModule>> {
        DiagnosticCollector diagnostics(&impl->context);
        llvm::SourceMgr sourceMgr;
        sourceMgr.AddNewSourceBuffer(
            llvm::MemoryBuffer::getMemBufferCopy(source, bufferName),
            llvm::SMLoc());
        OwningOpRef<ModuleOp> module =
            parseSourceFile<ModuleOp>(sourceMgr, &impl->context);
        if (!module)
          return diagnostics.takeError("cannot parse the graph");
        return JitModule::compile(*module, entry, options, objectCode,
                                  &impl->passManagers);
      });
}

llvm::Expected<std::unique_ptr<JitModule>> compileCached(
    CompileCache *cache, llvm::StringRef source, llvm::StringRef entry,
    const CompileOptions &options,
    llvm::function_ref<llvm::Expected<std::unique_ptr<JitModule>>(
        std::string *objectCode)>
        compile) {
  if (!cache || !options.dumpIRDir.empty())
    return compile(nullptr);
  auto start = std::chrono::steady_clock::now();
  std::string key = cache->key(source, entry, options);
  std::string rejection;
  if (std::optional<CacheEntry> hit = cache->load(key, &rejection)) {
    auto loaded =
        JitModule::load(std::move(hit->signature), hit->object, options);
    if (loaded) {
      CompileTimes &times = (*loaded)->compileTimes();
      times.cache = CacheStatus::Hit;
      times.codegen = std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - start)
                          .count();
      return loaded;
    }
    // Intact but unloadable (such as an entry for another build): rebuild.
    rejection = "cannot load: " + llvm::toString(loaded.takeError());
  }
  std::string objectCode;
  auto compiled = compile(&objectCode);
  if (!compiled)
    return compiled.takeError();
  CompileTimes &times = (*compiled)->compileTimes();
  times.cache = rejection.empty() ? CacheStatus::Miss : CacheStatus::Rebuilt;
  times.cacheNote = rejection;
  if (auto err = cache->store(key, {(*compiled)->signature(), objectCode}))
    times.cacheNote += (times.cacheNote.empty() ? "" : "; ") +
                       ("not stored: " + llvm::toString(std::move(err)));
  return compiled;
}

} // namespace runtime
} // namespace ms
