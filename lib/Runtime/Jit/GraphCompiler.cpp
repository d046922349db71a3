//===- GraphCompiler.cpp - Compile ms source text into a JitModule --------===//

#include "ms/Runtime/Jit/GraphCompiler.h"

#include "ms/Runtime/Jit/Diagnostics.h"
#include "ms/Support/Error.h"

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
  // Parsed once, by whichever needs it first: the cache's signature check
  // on a hit, or the compile on a miss.
  OwningOpRef<ModuleOp> module;
  auto parse = [&]() -> llvm::Error {
    if (module)
      return llvm::Error::success();
    DiagnosticCollector diagnostics(&impl->context);
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(source, bufferName),
        llvm::SMLoc());
    module = parseSourceFile<ModuleOp>(sourceMgr, &impl->context);
    return module ? llvm::Error::success()
                  : diagnostics.takeError("cannot parse the graph");
  };
  auto signature = [&]() -> llvm::Expected<EntrySignature> {
    if (llvm::Error err = parse())
      return std::move(err);
    Operation *func = module->lookupSymbol(entry);
    if (!func)
      return makeError("no function named @" + entry + " in the module");
    return readSignature(func);
  };
  return compileCached(
      cache, source, entry, options, signature,
      [&](std::string *objectCode)
          -> llvm::Expected<std::unique_ptr<JitModule>> {
        if (llvm::Error err = parse())
          return std::move(err);
        return JitModule::compile(*module, entry, options, objectCode,
                                  &impl->passManagers);
      });
}

/// Why the cache's entry `hit` cannot serve this call ("" when it can): its
/// recorded signature must be the caller's, and its code must load.
static std::string
loadHit(CacheEntry &hit, const CompileOptions &options,
        llvm::function_ref<llvm::Expected<EntrySignature>()> callerSignature,
        std::unique_ptr<JitModule> &loaded) {
  llvm::Expected<EntrySignature> caller = callerSignature();
  if (!caller)
    return "cannot read the graph's signature: " +
           llvm::toString(caller.takeError());
  std::string mismatch = signatureMismatch(hit.signature, *caller);
  if (!mismatch.empty())
    return "the entry's signature is not the graph's: " + mismatch;
  auto module = JitModule::load(std::move(hit.signature), hit.object, options);
  if (!module)
    // Intact but unloadable (such as an entry for another build).
    return "cannot load: " + llvm::toString(module.takeError());
  loaded = std::move(*module);
  return "";
}

llvm::Expected<std::unique_ptr<JitModule>> compileCached(
    CompileCache *cache, llvm::StringRef source, llvm::StringRef entry,
    const CompileOptions &options,
    llvm::function_ref<llvm::Expected<EntrySignature>()> callerSignature,
    llvm::function_ref<llvm::Expected<std::unique_ptr<JitModule>>(
        std::string *objectCode)>
        compile) {
  if (!cache || !options.dumpIRDir.empty())
    return compile(nullptr);
  auto start = std::chrono::steady_clock::now();
  std::string key = cache->key(source, entry, options);
  std::string rejection;
  if (std::optional<CacheEntry> hit = cache->load(key, &rejection)) {
    std::unique_ptr<JitModule> loaded;
    rejection = loadHit(*hit, options, callerSignature, loaded);
    if (loaded) {
      CompileTimes &times = loaded->compileTimes();
      times.cache = CacheStatus::Hit;
      times.codegen = std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - start)
                          .count();
      return std::move(loaded);
    }
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
