//===- NativeJit.cpp - Host code from LLVM-dialect modules ----------------===//

#include "ms/Runtime/Jit/NativeJit.h"
#include "ms/Runtime/Communication/Communication.h"
#include "ms/Runtime/Jit/Diagnostics.h"
#include "ms/Runtime/Jit/Microkernels.h"
#include "ms/Runtime/Jit/ParallelRuntime.h"
#include "ms/Runtime/Memory/CachingAllocator.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/ExecutionEngine/JITEventListener.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/RTDyldObjectLinkingLayer.h"
#include "llvm/ExecutionEngine/SectionMemoryManager.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/SplitModule.h"

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <thread>

namespace ms {
namespace runtime {
namespace {

using llvm::orc::JITDylib;

/// The host CPU's target machine builder, detected once per process (host
/// detection reads /proc/cpuinfo and CPUID each time).
llvm::Expected<llvm::orc::JITTargetMachineBuilder> hostMachineBuilder() {
  static const auto host =
      []() -> std::pair<std::optional<llvm::orc::JITTargetMachineBuilder>,
                        std::string> {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
    if (!builder)
      return {std::nullopt, llvm::toString(builder.takeError())};
    builder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
    return {std::move(*builder), ""};
  }();
  if (!host.first)
    return makeError("cannot target the host CPU: " + host.second);
  return *host.first;
}

llvm::Expected<std::unique_ptr<llvm::TargetMachine>> hostMachine() {
  auto builder = hostMachineBuilder();
  if (!builder)
    return builder.takeError();
  return builder->createTargetMachine();
}

/// `_mlir_<f>(void **args)`: calls `f` with *args[i] as its i-th argument,
/// so callers need not know its arity.
llvm::Error addPackedEntry(llvm::Module &module, llvm::StringRef entry) {
  std::string name = ("_mlir_ciface_" + entry).str();
  llvm::Function *callee = module.getFunction(name);
  if (!callee || callee->isDeclaration())
    return makeError("compiled module has no C entry for @" + entry);
  llvm::LLVMContext &ctx = module.getContext();
  auto *ptr = llvm::PointerType::getUnqual(ctx);
  auto *type =
      llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptr}, false);
  auto *packed = llvm::Function::Create(
      type, llvm::GlobalValue::ExternalLinkage, "_mlir_" + name, module);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", packed));
  auto argumentAt = [&](unsigned i) {
    return b.CreateLoad(ptr, b.CreateConstGEP1_64(ptr, packed->getArg(0), i));
  };
  llvm::SmallVector<llvm::Value *> arguments;
  for (llvm::Argument &param : callee->args())
    arguments.push_back(b.CreateLoad(param.getType(),
                                     argumentAt(param.getArgNo())));
  llvm::Value *result = b.CreateCall(callee, arguments);
  if (!callee->getReturnType()->isVoidTy())
    b.CreateStore(result, argumentAt(callee->arg_size()));
  b.CreateRetVoid();
  return llvm::Error::success();
}

/// LLVM's -O3 pipeline for the host, without two of its passes:
/// - Loop unrolling: the register tiles come unrolled from MLIR, and
///   unrolling the rest took a third of the optimization and codegen time
///   (MLP, LeNet-5) for no measurable speed.
/// - Loop load elimination: the register tiles keep their accumulators in
///   vectors already, so it has no store to forward; yet in an OpenMP
///   region, whose buffers arrive through a struct and may alias, its
///   access analysis took 10 ms of a dense kernel's 50 ms in `opt`.
void optimize(llvm::Module &module, llvm::TargetMachine &machine) {
  llvm::PipelineTuningOptions tuning;
  tuning.LoopUnrolling = false;
  llvm::PassInstrumentationCallbacks instrumentation;
  instrumentation.registerShouldRunOptionalPassCallback(
      [](llvm::StringRef pass, llvm::Any) {
        return pass != "LoopLoadEliminationPass";
      });
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder(&machine, tuning, std::nullopt, &instrumentation);
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);
  builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3)
      .run(module, modules);
}

/// A libomp entry point that ms's parallel runtime provides: the name the
/// module's calls take instead (ParallelRuntime.h) and its code.
struct ParallelEntryPoint {
  llvm::StringRef libomp, name;
  void *address;
};

llvm::ArrayRef<ParallelEntryPoint> parallelEntryPoints() {
  static const ParallelEntryPoint points[] = {
      {"__kmpc_global_thread_num", "ms_parallel_thread_num",
       reinterpret_cast<void *>(&ms_parallel_thread_num)},
      {"__kmpc_push_num_threads", "ms_parallel_push_num_threads",
       reinterpret_cast<void *>(&ms_parallel_push_num_threads)},
      {"__kmpc_fork_call", "ms_parallel_fork_call",
       reinterpret_cast<void *>(&ms_parallel_fork_call)},
      {"__kmpc_for_static_init_4", "ms_parallel_for_static_init_4",
       reinterpret_cast<void *>(&parallelStaticInit<int32_t, int32_t>)},
      {"__kmpc_for_static_init_4u", "ms_parallel_for_static_init_4u",
       reinterpret_cast<void *>(&parallelStaticInit<uint32_t, int32_t>)},
      {"__kmpc_for_static_init_8", "ms_parallel_for_static_init_8",
       reinterpret_cast<void *>(&parallelStaticInit<int64_t, int64_t>)},
      {"__kmpc_for_static_init_8u", "ms_parallel_for_static_init_8u",
       reinterpret_cast<void *>(&parallelStaticInit<uint64_t, int64_t>)},
      {"__kmpc_for_static_fini", "ms_parallel_for_static_fini",
       reinterpret_cast<void *>(&ms_parallel_for_static_fini)}};
  return points;
}

const ParallelEntryPoint *findEntryPoint(llvm::StringRef libomp) {
  for (const ParallelEntryPoint &point : parallelEntryPoints())
    if (point.libomp == libomp)
      return &point;
  return nullptr;
}

/// Whether `call` passes what the runtime supports: a fork with its
/// captures in one struct, and a static schedule (34) without chunks.
bool isSupportedCall(const llvm::CallInst &call) {
  auto constantArg = [&](unsigned i) -> std::optional<int64_t> {
    if (i >= call.arg_size())
      return std::nullopt;
    if (auto *c = llvm::dyn_cast<llvm::ConstantInt>(call.getArgOperand(i)))
      return c->getSExtValue();
    return std::nullopt;
  };
  llvm::StringRef name = call.getCalledFunction()->getName();
  if (name == "__kmpc_fork_call")
    return call.arg_size() == 4 && constantArg(1) == 1;
  if (name.starts_with("__kmpc_for_static_init_"))
    return constantArg(2) == 34;
  return true;
}

/// Moves `module`'s parallel regions from libomp onto ms's parallel runtime
/// when every OpenMP call it makes is one that runtime supports: their
/// declarations take its names. Otherwise (a barrier, a reduction, another
/// schedule) the module stays on libomp, which is loaded for it.
void useParallelRuntime(llvm::Module &module) {
  llvm::SmallVector<std::pair<llvm::Function *, llvm::StringRef>> renames;
  for (llvm::Function &f : module.functions()) {
    if (!f.getName().starts_with("__kmpc_"))
      continue;
    const ParallelEntryPoint *point = findEntryPoint(f.getName());
    if (!point)
      return;
    for (llvm::User *user : f.users()) {
      auto *call = llvm::dyn_cast<llvm::CallInst>(user);
      if (!call || call->getCalledFunction() != &f || !isSupportedCall(*call))
        return;
    }
    renames.push_back({&f, point->name});
  }
  for (auto [f, name] : renames)
    f->setName(name);
}

/// Optimizes `module` and emits its object code.
llvm::Expected<std::string> compileModule(llvm::Module &module,
                                          llvm::TargetMachine &machine) {
  optimize(module, machine);
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream os(buffer);
  llvm::legacy::PassManager passes;
  if (machine.addPassesToEmitFile(passes, os, nullptr,
                                  llvm::CodeGenFileType::ObjectFile))
    return makeError("LLVM cannot emit object code for the host");
  passes.run(module);
  return std::string(buffer.begin(), buffer.end());
}

/// Compiles a part in a context of its own (an LLVMContext is not
/// thread-safe), from its bitcode.
llvm::Expected<std::string> compileBitcode(llvm::StringRef bitcode) {
  llvm::LLVMContext ctx;
  auto module =
      llvm::parseBitcodeFile(llvm::MemoryBufferRef(bitcode, "ms-part"), ctx);
  if (!module)
    return module.takeError();
  // A target machine of its own too: codegen mutates it.
  auto machine = hostMachine();
  if (!machine)
    return machine.takeError();
  return compileModule(**module, **machine);
}

bool definesAnything(const llvm::Module &module) {
  auto defined = [](const llvm::GlobalValue &value) {
    return !value.isDeclaration();
  };
  return llvm::any_of(module.functions(), defined) ||
         llvm::any_of(module.globals(), defined);
}

/// Splits `module` into up to `parts` modules of whole functions, balanced
/// by size, and compiles them at once, one thread per part. MLIR inlined
/// everything it could, so the parts lose no inlining; their functions
/// keep the code they would have had together.
llvm::Expected<std::vector<std::string>>
compileInParallel(llvm::Module &module, unsigned parts) {
  std::vector<std::string> bitcodes;
  llvm::SplitModule(
      module, parts,
      [&](std::unique_ptr<llvm::Module> part) {
        if (!definesAnything(*part))
          return;
        llvm::raw_string_ostream os(bitcodes.emplace_back());
        llvm::WriteBitcodeToFile(*part, os);
      },
      /*PreserveLocals=*/false, /*RoundRobin=*/true);
  std::vector<std::optional<llvm::Expected<std::string>>> objects(
      bitcodes.size());
  std::vector<std::thread> workers;
  for (size_t i = 1; i < bitcodes.size(); ++i)
    workers.emplace_back(
        [&, i] { objects[i].emplace(compileBitcode(bitcodes[i])); });
  if (!bitcodes.empty())
    objects[0].emplace(compileBitcode(bitcodes[0]));
  for (std::thread &worker : workers)
    worker.join();
  std::vector<std::string> result;
  llvm::Error errors = llvm::Error::success();
  for (auto &object : objects) {
    if (*object)
      result.push_back(std::move(**object));
    else
      errors = llvm::joinErrors(std::move(errors), object->takeError());
  }
  if (errors)
    return std::move(errors);
  return result;
}

/// Functions worth a codegen thread of their own. A part costs a bitcode
/// round trip and a thread; the C-interface wrappers and a small kernel's
/// one loop are not worth that.
size_t countLargeFunctions(const llvm::Module &module) {
  constexpr size_t kMinInstructions = 200;
  return llvm::count_if(module.functions(), [](const llvm::Function &f) {
    return f.getInstructionCount() >= kMinInstructions;
  });
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
  define("ms_comm_all_reduce_start_f32", &ms_comm_all_reduce_start_f32);
  define("ms_comm_all_reduce_start_f64", &ms_comm_all_reduce_start_f64);
  define("ms_comm_all_reduce_wait", &ms_comm_all_reduce_wait);
  define("ms_comm_share_bucket_f32", &ms_comm_share_bucket_f32);
  define("ms_comm_share_bucket_f64", &ms_comm_share_bucket_f64);
  define("ms_comm_shard_index", &ms_comm_shard_index);
  define("ms_comm_shard_count", &ms_comm_shard_count);
  define("ms_comm_share_shards", &ms_comm_share_shards);
  // Transposes (ms-transposes-to-calls), through MLIR's C interface.
  define("_mlir_ciface_ms_transpose_f32", &_mlir_ciface_ms_transpose_f32);
  define("_mlir_ciface_ms_transpose_f64", &_mlir_ciface_ms_transpose_f64);
  // Parallel regions (useParallelRuntime).
  for (const ParallelEntryPoint &point : parallelEntryPoints())
    define(point.name, point.address);
  return symbols;
}

/// The JIT every module's code is linked into. Made on first use and never
/// destroyed: compiled functions may be called until the process ends.
struct ProcessJit {
  std::unique_ptr<llvm::orc::LLJIT> lljit;
  /// The runtime's symbols, libgcc's helpers (addCompilerSupportLibrary),
  /// then (once a multithreaded module needs it) the OpenMP runtime's. Each
  /// module links against it before the process, so its malloc is the
  /// caching allocator.
  JITDylib *runtime = nullptr;
  std::once_flag openMPOnce;
  std::string openMPError;
  std::atomic<unsigned> nextDylib{0};
};

std::unique_ptr<llvm::orc::ObjectLayer>
makeObjectLayer(llvm::orc::ExecutionSession &session) {
  auto layer = std::make_unique<llvm::orc::RTDyldObjectLinkingLayer>(
      session, [](const llvm::MemoryBuffer &) {
        return std::make_unique<llvm::SectionMemoryManager>();
      });
  // MS_PERF_JIT=1 names JIT code in `perf report` (a profiling aid).
  if (std::getenv("MS_PERF_JIT"))
    if (llvm::JITEventListener *perf =
            llvm::JITEventListener::createPerfJITEventListener())
      layer->registerJITEventListener(*perf);
  return layer;
}

/// LLVM lowers a few conversions to libgcc calls on x86-64: f64 -> f16 has
/// no instruction, so it calls __truncdfhf2. The process lookup cannot see
/// them when libgcc_s came in as a dependency of a module loaded without
/// RTLD_GLOBAL (Python's extension modules), so the runtime searches the
/// library itself, for "__" names only: a handle's lookup also searches
/// the library's dependencies, libc among them, whose ordinary names
/// (memcpy, expf, ...) keep coming from the process. dlopen of a loaded
/// library only returns its handle. If it cannot be opened, such a call
/// fails to link with the symbol named.
void addCompilerSupportLibrary(ProcessJit &jit) {
  char prefix = jit.lljit->getDataLayout().getGlobalPrefix();
  auto isHelper = [prefix](const llvm::orc::SymbolStringPtr &name) {
    llvm::StringRef text = *name;
    if (prefix)
      text.consume_front(llvm::StringRef(&prefix, 1));
    return text.starts_with("__");
  };
  auto generator = llvm::orc::DynamicLibrarySearchGenerator::Load(
      "libgcc_s.so.1", prefix, isHelper);
  if (generator)
    jit.runtime->addGenerator(std::move(*generator));
  else
    llvm::consumeError(generator.takeError());
}

llvm::Expected<std::unique_ptr<ProcessJit>> createProcessJit() {
  auto builder = hostMachineBuilder();
  if (!builder)
    return builder.takeError();
  auto lljit =
      llvm::orc::LLJITBuilder()
          .setJITTargetMachineBuilder(std::move(*builder))
          .setObjectLinkingLayerCreator(
              [](llvm::orc::ExecutionSession &session)
                  -> llvm::Expected<std::unique_ptr<llvm::orc::ObjectLayer>> {
                return makeObjectLayer(session);
              })
          // No platform support: the code has no static initializers, and
          // the generic platform compiles a support module of its own.
          .setPlatformSetUp(llvm::orc::setUpInactivePlatform)
          .create();
  if (!lljit)
    return lljit.takeError();
  auto jit = std::make_unique<ProcessJit>();
  jit->lljit = std::move(*lljit);
  auto runtime = jit->lljit->createJITDylib("ms.runtime");
  if (!runtime)
    return runtime.takeError();
  jit->runtime = &*runtime;
  llvm::orc::MangleAndInterner interner(jit->lljit->getExecutionSession(),
                                        jit->lljit->getDataLayout());
  if (auto err = jit->runtime->define(
          llvm::orc::absoluteSymbols(runtimeSymbols(interner))))
    return std::move(err);
  addCompilerSupportLibrary(*jit);
  return jit;
}

llvm::Expected<ProcessJit &> processJit() {
  static const auto jit =
      []() -> std::pair<ProcessJit *, std::string> {
    auto created = createProcessJit();
    if (!created)
      return {nullptr, llvm::toString(created.takeError())};
    return {created->release(), ""};
  }();
  if (!jit.first)
    return makeError("cannot start the JIT: " + jit.second);
  return *jit.first;
}

llvm::Error loadOpenMP(ProcessJit &jit) {
  std::call_once(jit.openMPOnce, [&] {
    auto generator = llvm::orc::DynamicLibrarySearchGenerator::Load(
        MS_LIBOMP_PATH, jit.lljit->getDataLayout().getGlobalPrefix());
    if (!generator)
      jit.openMPError = llvm::toString(generator.takeError());
    else
      jit.runtime->addGenerator(std::move(*generator));
  });
  if (!jit.openMPError.empty())
    return makeError("cannot load the OpenMP runtime: " + jit.openMPError);
  return llvm::Error::success();
}

/// A new JITDylib that resolves against itself, the runtime, then the
/// process.
llvm::Expected<JITDylib &> createModuleDylib(ProcessJit &jit) {
  auto dylib = jit.lljit->getExecutionSession().createJITDylib(
      "ms.code." + std::to_string(jit.nextDylib++));
  if (!dylib)
    return dylib.takeError();
  llvm::orc::JITDylibSearchOrder order{
      {jit.runtime, llvm::orc::JITDylibLookupFlags::MatchExportedSymbolsOnly}};
  if (llvm::orc::JITDylibSP process = jit.lljit->getProcessSymbolsJITDylib())
    order.push_back(
        {process.get(), llvm::orc::JITDylibLookupFlags::MatchExportedSymbolsOnly});
  dylib->setLinkOrder(std::move(order), /*LinkAgainstThisJITDylibFirst=*/true);
  return dylib;
}

} // namespace

llvm::Expected<std::vector<std::string>>
emitHostObjects(mlir::ModuleOp module, llvm::StringRef entry, unsigned parts) {
  auto machine = hostMachine();
  if (!machine)
    return machine.takeError();
  llvm::LLVMContext ctx;
  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, ctx, "ms");
  if (!llvmModule)
    return makeError("cannot translate the LLVM dialect to LLVM IR");
  llvmModule->setDataLayout((*machine)->createDataLayout());
  llvmModule->setTargetTriple((*machine)->getTargetTriple());
  if (auto err = addPackedEntry(*llvmModule, entry))
    return std::move(err);
  useParallelRuntime(*llvmModule);
  if (parts > 1 && countLargeFunctions(*llvmModule) > 1)
    return compileInParallel(*llvmModule, parts);
  auto object = compileModule(*llvmModule, **machine);
  if (!object)
    return object.takeError();
  return std::vector<std::string>{std::move(*object)};
}

llvm::Expected<std::unique_ptr<NativeCode>>
NativeCode::link(llvm::ArrayRef<std::string> objects, llvm::StringRef entry,
                 bool openMP) {
  auto jit = processJit();
  if (!jit)
    return jit.takeError();
  if (openMP)
    if (auto err = loadOpenMP(*jit))
      return std::move(err);
  auto dylib = createModuleDylib(*jit);
  if (!dylib)
    return dylib.takeError();
  std::unique_ptr<NativeCode> code(new NativeCode());
  code->dylib = &*dylib;
  for (const std::string &object : objects)
    if (auto err = jit->lljit->addObjectFile(
            *dylib, llvm::MemoryBuffer::getMemBufferCopy(object, "ms-code")))
      return std::move(err);
  auto address = jit->lljit->lookup(*dylib, ("_mlir__mlir_ciface_" + entry).str());
  if (!address)
    return makeError("compiled code has no C entry for @" + entry + ": " +
                     llvm::toString(address.takeError()));
  code->packedEntry = address->toPtr<void (*)(void **)>();
  return code;
}

NativeCode::~NativeCode() {
  if (!dylib)
    return;
  auto jit = processJit();
  if (!jit) {
    llvm::consumeError(jit.takeError());
    return;
  }
  // Frees the code's memory; nothing can call it any more.
  llvm::consumeError(jit->lljit->getExecutionSession().removeJITDylib(*dylib));
}

} // namespace runtime
} // namespace ms
