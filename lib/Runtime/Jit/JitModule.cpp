//===- JitModule.cpp - A compiled ms module, ready to call ----------------===//

#include "ms/Runtime/Jit/JitModule.h"
#include "ms/Dialect/MS/Transforms/GraphDot.h"
#include "ms/Runtime/Communication/Communication.h"
#include "ms/Runtime/Memory/CachingAllocator.h"

#include "ms/Runtime/Jit/Diagnostics.h"
#include "ms/Runtime/Jit/NativeJit.h"
#include "ms/Runtime/Jit/OpenMPSettings.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <chrono>
#include <cstring>
#include <optional>

using namespace mlir;

namespace ms {
namespace runtime {
namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                       start)
      .count();
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

/// The captured graph as <dir>/00_input.dot and, when Graphviz's `dot` is
/// on PATH, 00_input.svg (save_graphs' picture). A picture that cannot be
/// drawn is a warning on stderr, not a failed compile: the .dot stays.
llvm::Error writeGraphPicture(ModuleOp module, llvm::StringRef dir) {
  llvm::SmallString<128> dotPath(dir), svgPath(dir);
  llvm::sys::path::append(dotPath, "00_input.dot");
  llvm::sys::path::append(svgPath, "00_input.svg");
  std::error_code ec;
  {
    llvm::raw_fd_ostream os(dotPath, ec);
    if (ec)
      return makeError("--dump-ir-after-all: cannot write '" + dotPath +
                       "': " + ec.message());
    writeGraphDot(module, os);
  }
  llvm::ErrorOr<std::string> dot = llvm::sys::findProgramByName("dot");
  if (!dot)
    return llvm::Error::success();
  std::string message;
  llvm::StringRef args[] = {*dot, "-Tsvg", dotPath, "-o", svgPath};
  // Large graphs take Graphviz a while; a minute bounds the wait.
  int rc = llvm::sys::ExecuteAndWait(*dot, args, std::nullopt, {},
                                     /*SecondsToWait=*/60, 0, &message);
  if (rc != 0)
    llvm::errs() << "ms: warning: save_graphs: 'dot -Tsvg " << dotPath
                 << "' failed" << (message.empty() ? "" : ": " + message)
                 << "; the graph is in the .dot file\n";
  return llvm::Error::success();
}

/// One memref descriptor per tensor, laid out as the C interface expects:
/// {allocated, aligned, offset, sizes[rank], strides[rank]}.
void appendDescriptor(llvm::SmallVectorImpl<int64_t> &storage,
                      const void *data, llvm::ArrayRef<int64_t> shape) {
  auto ptr = reinterpret_cast<int64_t>(data);
  storage.push_back(ptr);
  storage.push_back(ptr);
  storage.push_back(0);
  storage.append(shape.begin(), shape.end());
  int64_t stride = 1;
  size_t first = storage.size();
  storage.resize(first + shape.size());
  for (size_t i = shape.size(); i-- > 0;) {
    storage[first + i] = stride;
    stride *= shape[i];
  }
}

void appendDescriptor(llvm::SmallVectorImpl<int64_t> &storage,
                      const HostTensor &tensor) {
  appendDescriptor(storage, tensor.data(), tensor.shape());
}

/// The descriptors of the gradient buckets' buffers (sig.commBuffers) for
/// this call of the step, from one bucketBuffers call for all the buckets
/// (each sized by the other rank's buffer, which keeps its elements' type).
llvm::Error appendCommBuffers(llvm::SmallVectorImpl<int64_t> &storage,
                              llvm::SmallVectorImpl<size_t> &offsets,
                              llvm::ArrayRef<CommBuffer> buffers) {
  if (buffers.empty())
    return llvm::Error::success();
  std::vector<comm::BucketRequest> requests;
  for (const CommBuffer &buffer : buffers)
    if (buffer.peer)
      requests.push_back({buffer.bucket, buffer.count, buffer.dtype});
  llvm::Expected<std::vector<comm::BucketBuffers>> pairs =
      comm::bucketBuffers(requests);
  if (!pairs)
    return pairs.takeError();
  llvm::SmallDenseMap<int64_t, comm::BucketBuffers, 2> buckets;
  for (auto [request, pair] : llvm::zip_equal(requests, *pairs))
    buckets[request.id] = pair;
  for (const CommBuffer &buffer : buffers) {
    auto found = buckets.find(buffer.bucket);
    if (found == buckets.end())
      return makeError("gradient bucket " + llvm::Twine(buffer.bucket) +
                       " has no buffer for the other rank's gradients");
    offsets.push_back(storage.size());
    appendDescriptor(storage,
                     buffer.peer ? found->second.peer : found->second.own,
                     {buffer.count});
  }
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
                   const CompileOptions &options, std::string *objectCode,
                   StagePassManagers *passManagers) {
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
  if (!options.dumpIRDir.empty()) {
    if (auto err = writeModule(module, options.dumpIRDir, 0, "input"))
      return std::move(err);
    if (auto err = writeGraphPicture(module, options.dumpIRDir))
      return std::move(err);
  }
  std::optional<StagePassManagers> ownManagers;
  if (!passManagers)
    passManagers = &ownManagers.emplace(*ctx);
  unsigned index = 1;
  for (const PipelineStage &stage : getPipelineStages(options)) {
    PassManager *pm = passManagers->get(stage);
    if (!pm)
      return diagnostics.takeError("internal error: cannot parse pipeline "
                                   "stage '" + stage.name + "'");
    // Verified once per stage, not after each pass (StagePassManagers).
    if (failed(pm->run(module)) || failed(verify(module)))
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
  unsigned threads = effectiveThreads(options);
  // Codegen runs on as many threads as the code will, one part each. The
  // compile cache keeps one object per entry, so a compile for it is one.
  auto objects = emitHostObjects(module, entry, objectCode ? 1 : threads);
  if (!objects)
    return diagnostics.takeError("LLVM code generation failed: " +
                                 llvm::toString(objects.takeError()));
  if (auto err = jit->link(*objects, options))
    return std::move(err);
  jit->times.codegen = secondsSince(start);
  if (objectCode)
    *objectCode = std::move(objects->front());
  return jit;
}

llvm::Expected<std::unique_ptr<JitModule>>
JitModule::load(EntrySignature signature, llvm::StringRef objectCode,
                const CompileOptions &options) {
  auto start = std::chrono::steady_clock::now();
  std::unique_ptr<JitModule> jit(new JitModule());
  jit->sig = std::move(signature);
  jit->packed = makePackedParamCache(jit->sig);
  if (auto err = jit->link({objectCode.str()}, options))
    return std::move(err);
  jit->times.codegen = secondsSince(start);
  return jit;
}

llvm::Error JitModule::link(llvm::ArrayRef<std::string> objects,
                            const CompileOptions &options) {
  // O2's parallel loops call into the OpenMP runtime.
  bool openMP = effectiveThreads(options) > 1;
  if (openMP)
    // How its threads wait, before libomp reads the environment.
    configureOpenMPRuntime();
  auto linked = NativeCode::link(objects, sig.entry, openMP);
  if (!linked)
    return linked.takeError();
  code = std::move(*linked);
  return llvm::Error::success();
}

llvm::Expected<std::vector<HostTensor>>
JitModule::allocateResults(int64_t batch) const {
  std::vector<HostTensor> results;
  results.reserve(sig.results.size());
  for (const auto &[index, spec] : llvm::enumerate(sig.results)) {
    if (spec.inPlaceOf >= 0) {
      results.emplace_back();
      continue;
    }
    llvm::Expected<HostTensor> tensor =
        allocateCachedTensor(spec.dtype, spec.shapeAt(batch));
    if (!tensor)
      return makeError("result " + llvm::Twine(index) + " of @" + sig.entry +
                       " (" + spec.typeString() +
                       "): " + llvm::toString(tensor.takeError()));
    results.push_back(std::move(*tensor));
  }
  return results;
}

llvm::Error
JitModule::bindInPlaceResults(llvm::SmallVectorImpl<HostTensor> &args,
                              llvm::MutableArrayRef<HostTensor> results,
                              DonatedArgs donated) const {
  bool overwrites = false;
  for (auto [index, spec] : llvm::enumerate(sig.results)) {
    if (spec.inPlaceOf < 0)
      continue;
    HostTensor &arg = args[spec.inPlaceOf];
    if (donated(spec.inPlaceOf)) {
      overwrites = true;
    } else {
      llvm::Expected<HostTensor> copy =
          allocateCachedTensor(arg.dtype(), arg.shape());
      if (!copy)
        return makeError("result " + llvm::Twine(index) + " of @" +
                         sig.entry + " (" + spec.typeString() +
                         "): " + llvm::toString(copy.takeError()));
      std::memcpy(copy->data(), arg.data(), arg.byteSize());
      arg = std::move(*copy);
    }
    results[index] = arg;
  }
  // Packed copies (another graph's) know a buffer by its identity, which
  // an update in place keeps.
  if (overwrites)
    invalidatePackedParams();
  return llvm::Error::success();
}

llvm::Expected<std::vector<HostTensor>>
JitModule::run(llvm::ArrayRef<HostTensor> args) {
  if (auto err = sig.checkArguments(args))
    return std::move(err);
  return runChecked(args, [](size_t) { return false; });
}

llvm::Expected<std::vector<HostTensor>>
JitModule::runChecked(llvm::ArrayRef<HostTensor> args, DonatedArgs donated) {
  llvm::Expected<std::vector<HostTensor>> results =
      allocateResults(sig.batchOf(args));
  if (!results)
    return results.takeError();
  bool inPlace = llvm::any_of(
      sig.results, [](const TensorSpec &spec) { return spec.inPlaceOf >= 0; });
  if (!inPlace) {
    if (auto err = runUnchecked(args, *results))
      return std::move(err);
    return results;
  }
  // A copy replaces each parameter the caller keeps.
  llvm::SmallVector<HostTensor, 8> callArgs(args.begin(), args.end());
  if (auto err = bindInPlaceResults(callArgs, *results, donated))
    return std::move(err);
  if (auto err = runUnchecked(callArgs, *results))
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
  // Then the trailing arguments, which callers do not pass: the gradient
  // buckets' buffers, then the packed copies (the order stages add them).
  if (auto err = appendCommBuffers(storage, offsets, sig.commBuffers))
    return err;
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
  return callCatchingAllocationFailure([&] { code->call(packed.data()); });
}

} // namespace runtime
} // namespace ms
