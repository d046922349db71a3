//===- JitModule.cpp - A compiled ms module, ready to call ----------------===//

#include "ms/Runtime/JitModule.h"
#include "ms/Runtime/CachingAllocator.h"
#include "ms/Runtime/Communication.h"

#include "ms/Runtime/Diagnostics.h"
#include "ms/Runtime/OpenMPSettings.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/RTDyldObjectLinkingLayer.h"
#include "llvm/ExecutionEngine/SectionMemoryManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"

#include <chrono>
#include <cstdlib>
#include <mutex>

using namespace mlir;

namespace ms {
namespace runtime {
namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                       start)
      .count();
}

void initializeNativeTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
}

llvm::Error writeModule(ModuleOp module, llvm::StringRef dir, unsigned index,
                        llvm::StringRef stage) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return makeError("--dump-ir-after-all: cannot create '" + dir +
                 "': " + ec.message());
  llvm::SmallString<128> path(dir);
  llvm::sys::path::append(path, (index < 10 ? "0" : "") + llvm::Twine(index) +
                                    "_" + stage + ".mlir");
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return makeError("--dump-ir-after-all: cannot write '" + path +
                 "': " + ec.message());
  module.print(os);
  return llvm::Error::success();
}

/// One memref descriptor per tensor, laid out as the C interface expects:
/// {allocated, aligned, offset, sizes[rank], strides[rank]}.
void appendDescriptor(llvm::SmallVectorImpl<int64_t> &storage,
                      const HostTensor &tensor) {
  auto ptr = reinterpret_cast<int64_t>(tensor.data());
  storage.push_back(ptr);
  storage.push_back(ptr);
  storage.push_back(0);
  llvm::ArrayRef<int64_t> shape = tensor.shape();
  storage.append(shape.begin(), shape.end());
  int64_t stride = 1;
  size_t first = storage.size();
  storage.resize(first + shape.size());
  for (size_t i = shape.size(); i-- > 0;) {
    storage[first + i] = stride;
    stride *= shape[i];
  }
}

/// Symbols the compiled code calls into the runtime for. Intermediate
/// buffers come from the caching allocator (see there why).
llvm::orc::SymbolMap runtimeSymbols(llvm::orc::MangleAndInterner interner) {
  llvm::orc::SymbolMap symbols;
  auto define = [&](llvm::StringRef name, auto *function) {
    symbols[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(function),
                               llvm::JITSymbolFlags::Exported};
  };
  define("malloc", &msCachedMalloc);
  define("aligned_alloc", &msCachedAlignedAlloc);
  define("free", &msCachedFree);
  // ms.all_reduce lowers to calls into the communication layer.
  define("ms_comm_all_reduce_f32", &ms_comm_all_reduce_f32);
  define("ms_comm_all_reduce_f64", &ms_comm_all_reduce_f64);
  return symbols;
}

/// The object file `engine` linked (it was created with enableObjectDump).
/// The ExecutionEngine only writes it to a file, so it goes through one.
llvm::Error takeObjectCode(ExecutionEngine &engine, std::string &out) {
  llvm::SmallString<128> path;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("ms-object", "o", path))
    return makeError("compile cache: cannot create a temporary file: " +
                     ec.message());
  engine.dumpToObjectFile(path);
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  llvm::sys::fs::remove(path);
  if (!buffer)
    return makeError("compile cache: cannot read the object code back: " +
                     buffer.getError().message());
  out = (*buffer)->getBuffer().str();
  if (out.empty())
    return makeError("compile cache: the JIT produced no object code");
  return llvm::Error::success();
}

/// The packed copies the entry reads, in place of arguments or after them.
std::unique_ptr<PackedParamCache>
makePackedParamCache(const EntrySignature &sig) {
  llvm::SmallVector<PackedLayout> layouts;
  for (const TensorSpec &spec : sig.args)
    layouts.push_back(spec.packed);
  return std::make_unique<PackedParamCache>(layouts, sig.packedCopies);
}

} // namespace

JitModule::~JitModule() = default;

llvm::Expected<std::unique_ptr<JitModule>>
JitModule::compile(ModuleOp module, llvm::StringRef entry,
                   const CompileOptions &options, std::string *objectCode) {
  MLIRContext *ctx = module.getContext();
  auto func = module.lookupSymbol<func::FuncOp>(entry);
  if (!func) {
    std::string available;
    for (auto f : module.getOps<func::FuncOp>())
      available += (available.empty() ? "" : ", ") + ("@" + f.getSymName()).str();
    return makeError("no function named @" + entry + " in the module" +
                 (available.empty() ? "" : " (it has " + available + ")"));
  }
  auto sig = readSignature(func);
  if (!sig)
    return sig.takeError();

  std::unique_ptr<JitModule> jit(new JitModule());
  jit->sig = std::move(*sig);

  // Lower stage by stage, so a failure names its stage and dumps are per
  // stage.
  auto start = std::chrono::steady_clock::now();
  DiagnosticCollector diagnostics(ctx);
  if (!options.dumpIRDir.empty())
    if (auto err = writeModule(module, options.dumpIRDir, 0, "input"))
      return std::move(err);
  unsigned index = 1;
  for (const PipelineStage &stage : getPipelineStages(options)) {
    PassManager pm(ctx, ModuleOp::getOperationName());
    if (failed(parsePassPipeline(stage.pipeline, pm)))
      return diagnostics.takeError("internal error: cannot parse pipeline "
                                   "stage '" + stage.name + "'");
    if (failed(pm.run(module)))
      return diagnostics.takeError("compilation failed in stage '" +
                                   stage.name + "'");
    if (!options.dumpIRDir.empty())
      if (auto err = writeModule(module, options.dumpIRDir, index, stage.name))
        return std::move(err);
    // The layouts the code reads parameters in, while the entry is still a
    // func.func with argument attributes.
    if (auto lowered = module.lookupSymbol<func::FuncOp>(entry))
      if (auto err = readPackedLayouts(lowered, jit->sig))
        return std::move(err);
    ++index;
  }
  jit->packed = makePackedParamCache(jit->sig);
  jit->times.lowering = secondsSince(start);

  start = std::chrono::steady_clock::now();
  initializeNativeTarget();
  auto tmBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!tmBuilder)
    return tmBuilder.takeError();
  tmBuilder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  auto tm = tmBuilder->createTargetMachine();
  if (!tm)
    return tm.takeError();
  // Without LLVM optimization the JIT code is several times slower.
  auto transformer = makeOptimizingTransformer(3, 0, tm->get());
  ExecutionEngineOptions engineOptions;
  // O2's parallel loops call into the OpenMP runtime.
  llvm::SmallVector<llvm::StringRef, 1> libraries;
  if (effectiveThreads(options) > 1) {
    // How its threads wait, before libomp reads the environment.
    configureOpenMPRuntime();
    libraries.push_back(MS_LIBOMP_PATH);
  }
  engineOptions.sharedLibPaths = libraries;
  engineOptions.transformer = transformer;
  engineOptions.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  engineOptions.enableGDBNotificationListener = false;
  // MS_PERF_JIT=1 names JIT code in `perf report` (a profiling aid).
  engineOptions.enablePerfNotificationListener = std::getenv("MS_PERF_JIT");
  engineOptions.enableObjectDump = objectCode != nullptr;
  auto engine = ExecutionEngine::create(module, engineOptions, std::move(*tm));
  if (!engine)
    return diagnostics.takeError("LLVM code generation failed: " +
                                 llvm::toString(engine.takeError()));
  jit->engine = std::move(*engine);
  jit->engine->registerSymbols(runtimeSymbols);
  auto packed = jit->engine->lookupPacked(("_mlir_ciface_" + entry).str());
  if (!packed)
    return makeError("compiled module has no C entry for @" + entry + ": " +
                 llvm::toString(packed.takeError()));
  jit->packedEntry = *packed;
  jit->times.codegen = secondsSince(start);
  // Looking the entry up linked the module, so its object exists now.
  if (objectCode)
    if (auto err = takeObjectCode(*jit->engine, *objectCode))
      return std::move(err);
  return jit;
}

llvm::Expected<std::unique_ptr<JitModule>>
JitModule::load(EntrySignature signature, llvm::StringRef objectCode,
                const CompileOptions &options) {
  auto start = std::chrono::steady_clock::now();
  initializeNativeTarget();
  auto tmBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!tmBuilder)
    return tmBuilder.takeError();
  // The same linker as the ExecutionEngine, which produced the object.
  auto lljit =
      llvm::orc::LLJITBuilder()
          .setJITTargetMachineBuilder(std::move(*tmBuilder))
          .setObjectLinkingLayerCreator([](llvm::orc::ExecutionSession &session)
                                            -> llvm::Expected<std::unique_ptr<
                                                llvm::orc::ObjectLayer>> {
            return std::make_unique<llvm::orc::RTDyldObjectLinkingLayer>(
                session, [](const llvm::MemoryBuffer &) {
                  return std::make_unique<llvm::SectionMemoryManager>();
                });
          })
          .create();
  if (!lljit)
    return lljit.takeError();
  llvm::orc::JITDylib &dylib = (*lljit)->getMainJITDylib();
  char prefix = (*lljit)->getDataLayout().getGlobalPrefix();
  if (effectiveThreads(options) > 1) {
    configureOpenMPRuntime();
    auto omp =
        llvm::orc::DynamicLibrarySearchGenerator::Load(MS_LIBOMP_PATH, prefix);
    if (!omp)
      return omp.takeError();
    dylib.addGenerator(std::move(*omp));
  }
  auto process =
      llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(prefix);
  if (!process)
    return process.takeError();
  dylib.addGenerator(std::move(*process));
  llvm::orc::MangleAndInterner interner((*lljit)->getExecutionSession(),
                                        (*lljit)->getDataLayout());
  if (auto err = dylib.define(
          llvm::orc::absoluteSymbols(runtimeSymbols(interner))))
    return std::move(err);
  if (auto err = (*lljit)->addObjectFile(
          llvm::MemoryBuffer::getMemBufferCopy(objectCode, "<compile cache>")))
    return std::move(err);
  // ExecutionEngine's packed wrapper of the C interface.
  auto address =
      (*lljit)->lookup(("_mlir__mlir_ciface_" + signature.entry));
  if (!address)
    return makeError("cached object has no C entry for @" + signature.entry +
                     ": " + llvm::toString(address.takeError()));

  std::unique_ptr<JitModule> jit(new JitModule());
  jit->sig = std::move(signature);
  jit->packed = makePackedParamCache(jit->sig);
  jit->packedEntry = address->toPtr<void (*)(void **)>();
  jit->loaded = std::move(*lljit);
  jit->times.codegen = secondsSince(start);
  return jit;
}

llvm::Expected<std::vector<HostTensor>>
JitModule::allocateResults(int64_t batch) const {
  std::vector<HostTensor> results;
  results.reserve(sig.results.size());
  for (const auto &[index, spec] : llvm::enumerate(sig.results)) {
    llvm::Expected<HostTensor> tensor =
        HostTensor::allocate(spec.dtype, spec.shapeAt(batch));
    if (!tensor)
      return makeError("result " + llvm::Twine(index) + " of @" + sig.entry +
                       " (" + spec.typeString() +
                       "): " + llvm::toString(tensor.takeError()));
    results.push_back(std::move(*tensor));
  }
  return results;
}

llvm::Expected<std::vector<HostTensor>>
JitModule::run(llvm::ArrayRef<HostTensor> args) {
  if (auto err = sig.checkArguments(args))
    return std::move(err);
  llvm::Expected<std::vector<HostTensor>> results =
      allocateResults(sig.batchOf(args));
  if (!results)
    return results.takeError();
  if (auto err = runUnchecked(args, *results))
    return std::move(err);
  return results;
}

llvm::Error JitModule::runUnchecked(llvm::ArrayRef<HostTensor> args,
                                    llvm::ArrayRef<HostTensor> results) {
  // Descriptors first, then pointers into them: appending may reallocate.
  llvm::SmallVector<int64_t, 64> storage;
  llvm::SmallVector<size_t, 8> offsets;
  // Parameters the code reads in another layout go as their packed copies.
  llvm::SmallVector<std::pair<size_t, HostTensor>, 4> packedArgs;
  if (!packed->empty())
    if (auto err = packed->resolve(args, packedArgs))
      return err;
  auto packedIt = packedArgs.begin();
  for (auto [i, t] : llvm::enumerate(args)) {
    offsets.push_back(storage.size());
    bool isPacked = packedIt != packedArgs.end() && packedIt->first == i;
    appendDescriptor(storage, isPacked ? (packedIt++)->second : t);
  }
  // Then the trailing packed copies, which callers do not pass.
  for (; packedIt != packedArgs.end(); ++packedIt) {
    offsets.push_back(storage.size());
    appendDescriptor(storage, packedIt->second);
  }
  for (const HostTensor &t : results) {
    offsets.push_back(storage.size());
    appendDescriptor(storage, t);
  }
  llvm::SmallVector<void *, 8> descriptors;
  for (size_t offset : offsets)
    descriptors.push_back(storage.data() + offset);
  llvm::SmallVector<void *, 8> packed;
  for (void *&descriptor : descriptors)
    packed.push_back(&descriptor);
  return callCatchingAllocationFailure([&] { packedEntry(packed.data()); });
}

} // namespace runtime
} // namespace ms
