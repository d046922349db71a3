//===- EagerExecutor.cpp - PyNative: run ms ops one at a time -------------===//

#include "ms/Runtime/Execution/EagerExecutor.h"

#include "ms/Dialect/MS/IR/CellPath.h"
#include "ms/Runtime/Execution/KernelCache.h"
#include "ms/Runtime/Formats/NumpyFormat.h"
#include "ms/Runtime/Jit/Diagnostics.h"
#include "ms/Runtime/Memory/CachingAllocator.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"

#include <chrono>
#include <cstring>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

using namespace mlir;

namespace ms {
namespace runtime {
namespace {

/// The tensor a dense arith.constant holds (graph capture inlines small
/// concrete tensors as constants). Its raw data is the host layout.
llvm::Expected<HostTensor> constantTensor(arith::ConstantOp constant) {
  auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
  auto type = dyn_cast<RankedTensorType>(constant.getType());
  std::optional<DType> dtype =
      type ? dtypeOf(type.getElementType()) : std::nullopt;
  if (!dense || !dtype)
    return makeError("PyNative cannot hold the constant " +
                     formatLocation(constant.getLoc()));
  auto tensor = HostTensor::allocate(*dtype, type.getShape());
  if (!tensor)
    return tensor.takeError();
  if (*dtype == DType::Bool) {
    // i1 attributes are bit-packed; the host holds one byte per element.
    uint8_t *bytes = tensor->dataAs<uint8_t>();
    int64_t i = 0;
    if (dense.isSplat())
      std::fill_n(bytes, tensor->numElements(), dense.getSplatValue<bool>());
    else
      for (bool value : dense.getValues<bool>())
        bytes[i++] = value;
    return tensor;
  }
  llvm::ArrayRef<char> raw = dense.getRawData();
  size_t bytes = tensor->byteSize();
  char *data = static_cast<char *>(tensor->data());
  for (size_t offset = 0; offset < bytes; offset += raw.size())
    std::memcpy(data + offset, raw.data(),
                dense.isSplat() ? raw.size() : bytes);
  return tensor;
}

/// The kernels' run time (EagerStats::runSeconds) in ticks of a cheap
/// counter. Two steady_clock reads per op took 45 ns of a 259 ns native
/// dispatch on a KVM guest, whose vDSO clock is slow (`ms-bench-eager`
/// BM_Chain100_PyNative: 255-263 ns an op with them, 207-217 without,
/// 2026-12-05); x86's timestamp counter costs a few. Ticks become seconds
/// at the counter's rate over the executor's life, measured against
/// steady_clock when the stats are read (the counter runs at a constant
/// rate on the CPUs ms targets; elsewhere the ticks are steady_clock's).
class RunClock {
public:
  RunClock() : startTicks(ticks()), startTime(Wall::now()) {}

  static uint64_t ticks() {
#if defined(__x86_64__)
    return __rdtsc();
#else
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               Wall::now().time_since_epoch())
        .count();
#endif
  }

  /// `elapsed` ticks in seconds.
  double seconds(uint64_t elapsed) const {
    std::chrono::duration<double> wall = Wall::now() - startTime;
    uint64_t span = ticks() - startTicks;
    return span == 0 ? 0.0 : double(elapsed) * (wall.count() / double(span));
  }

private:
  using Wall = std::chrono::steady_clock;
  uint64_t startTicks;
  Wall::time_point startTime;
};

} // namespace

struct EagerExecutor::Impl {
  explicit Impl(EagerOptions options)
      : options(options), cache(options.kernelCacheSize) {
    prepareContext(context);
    // Kernels compile on demand; one thread keeps that predictable.
    context.disableMultithreading();
  }

  /// Wraps `op` applied to operands of `inputs` types in @kernel, verified.
  llvm::Expected<OwningOpRef<ModuleOp>>
  buildKernel(const OpCall &op, llvm::ArrayRef<TensorSpec> inputs);

  /// The result types of `op` on `inputs`, from the verified @kernel.
  llvm::Expected<std::vector<TensorSpec>>
  inferResults(const OpCall &op, llvm::ArrayRef<TensorSpec> inputs);

  /// Runs a reshape (isReshape) of `input` as a copy into its new shape.
  llvm::Expected<std::vector<HostTensor>> reshape(const OpCall &op,
                                                  const HostTensor &input);

  EagerOptions options;
  MLIRContext context;
  // Every kernel goes through the same few stage pipelines.
  StagePassManagers passManagers{context};
  KernelCache cache;
  // Result shapes of the reshapes run so far, by kernel key; cleared when it
  // holds as many as the kernel cache may.
  llvm::StringMap<std::vector<int64_t>> reshapes;
  EagerStats stats; // runSeconds from runTicks when read (stats())
  RunClock runClock;
  uint64_t runTicks = 0;
  std::string key; // reused so a cache hit allocates nothing for the key
};

llvm::Expected<OwningOpRef<ModuleOp>>
EagerExecutor::Impl::buildKernel(const OpCall &op,
                                 llvm::ArrayRef<TensorSpec> inputs) {
  MLIRContext *ctx = &context;
  DiagnosticCollector diagnostics(ctx);
  std::optional<RegisteredOperationName> opName =
      RegisteredOperationName::lookup(op.name, ctx);
  if (!opName || opName->getDialectNamespace() != "ms")
    return makeError("'" + op.name + "' is not an ms op");
  if (!opName->hasInterface<InferTypeOpInterface>() ||
      !opName->hasTrait<OpTrait::OneResult>())
    return makeError("'" + op.name + "' cannot run eagerly");
  // Shape inference reads operands by position: check the count first.
  std::optional<unsigned> arity;
  if (opName->hasTrait<OpTrait::OneOperand>())
    arity = 1;
  else if (opName->hasTrait<OpTrait::NOperands<2>::Impl>())
    arity = 2;
  else if (opName->hasTrait<OpTrait::NOperands<3>::Impl>())
    arity = 3;
  if (arity && *arity != inputs.size())
    return makeError("'" + op.name + "' takes " + llvm::Twine(*arity) +
                 " operands, got " + llvm::Twine(inputs.size()));
  if (opName->hasTrait<OpTrait::AtLeastNOperands<2>::Impl>() &&
      (inputs.size() < 2 || inputs.size() > 3))
    return makeError("'" + op.name + "' takes 2 or 3 operands, got " +
                 llvm::Twine(inputs.size()));
  DictionaryAttr attributes;
  if (!op.attributes.empty()) {
    attributes = dyn_cast_or_null<DictionaryAttr>(
        parseAttribute(op.attributes, ctx));
    if (!attributes)
      return diagnostics.takeError("attributes of '" + op.name +
                                   "' are not an attribute dictionary: " +
                                   op.attributes);
  }

  Location loc = NameLoc::get(StringAttr::get(ctx, op.name));
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  OpBuilder b(module->getBodyRegion());
  SmallVector<Type> inputTypes;
  for (const TensorSpec &input : inputs) {
    // Graph capture infers types with a ? batch (kDynamicDim) too.
    SmallVector<int64_t> shape;
    for (int64_t d : input.shape)
      shape.push_back(d == kDynamicDim ? ShapedType::kDynamic : d);
    inputTypes.push_back(
        RankedTensorType::get(shape, mlirElementType(ctx, input.dtype)));
  }
  auto func = func::FuncOp::create(b, loc, "kernel",
                                   b.getFunctionType(inputTypes, {}));
  Block *body = func.addEntryBlock();
  b.setInsertionPointToStart(body);

  // Build the op with a placeholder result, then let it infer the real one.
  OperationState state(loc, *opName);
  state.addOperands(body->getArguments());
  state.addTypes(b.getNoneType());
  Operation *created = b.create(state);
  if (attributes)
    created->setAttrs(attributes);
  SmallVector<Type> resultTypes;
  if (failed(cast<InferTypeOpInterface>(created).inferReturnTypes(
          ctx, loc, created->getOperands(), created->getRawDictionaryAttrs(),
          created->getPropertiesStorage(), created->getRegions(),
          resultTypes)))
    return diagnostics.takeError("cannot infer the result type of '" +
                                 op.name + "'");
  created->getResult(0).setType(resultTypes.front());
  func::ReturnOp::create(b, loc, created->getResults());
  func.setFunctionType(b.getFunctionType(inputTypes, resultTypes));
  if (failed(verify(*module)))
    return diagnostics.takeError("'" + op.name + "' is not valid");
  return module;
}

/// The type of each tensor, as a signature entry.
static std::vector<TensorSpec> specsOf(llvm::ArrayRef<HostTensor> tensors) {
  std::vector<TensorSpec> specs(tensors.size());
  for (auto [spec, tensor] : llvm::zip(specs, tensors)) {
    spec.dtype = tensor.dtype();
    spec.shape.assign(tensor.shape().begin(), tensor.shape().end());
  }
  return specs;
}

llvm::Expected<std::vector<TensorSpec>>
EagerExecutor::Impl::inferResults(const OpCall &op,
                                  llvm::ArrayRef<TensorSpec> inputs) {
  auto module = buildKernel(op, inputs);
  if (!module)
    return module.takeError();
  auto func = cast<func::FuncOp>((**module).getBody()->front());
  auto sig = readSignature(func);
  if (!sig)
    return sig.takeError();
  return sig->results;
}

/// Ops that only give a row-major tensor's elements another shape. They
/// run as a copy, with no kernel to compile: the MLP's flatten kernel took
/// 20-30 ms to compile on its first call, and a copy of its 200 KB takes
/// microseconds. A copy, not a shared buffer, since a tensor's buffer is
/// written by no one else (HostTensor::adopt) and Python hands it out.
static bool isReshape(llvm::StringRef opName) {
  return opName == "ms.flatten" || opName == "ms.reshape";
}

llvm::Expected<std::vector<HostTensor>>
EagerExecutor::Impl::reshape(const OpCall &op, const HostTensor &input) {
  auto found = reshapes.find(key);
  if (found == reshapes.end()) {
    // The op's own verifier and shape inference judge the new shape.
    auto results = inferResults(op, specsOf(input));
    if (!results)
      return results.takeError();
    if (reshapes.size() >= cache.capacity())
      reshapes.clear();
    found = reshapes.try_emplace(key, std::move(results->front().shape)).first;
  }
  auto result = allocateCachedTensor(input.dtype(), found->second);
  if (!result)
    return result.takeError();
  if (input.byteSize() != 0)
    std::memcpy(result->data(), input.data(), input.byteSize());
  std::vector<HostTensor> results;
  results.push_back(std::move(*result));
  return results;
}

llvm::Expected<std::vector<TensorSpec>>
EagerExecutor::inferResults(const OpCall &op,
                            llvm::ArrayRef<TensorSpec> inputs) {
  return impl->inferResults(op, inputs);
}

EagerExecutor::EagerExecutor(EagerOptions options)
    : impl(std::make_unique<Impl>(options)) {}

EagerExecutor::~EagerExecutor() = default;

const EagerStats &EagerExecutor::stats() const {
  impl->stats.runSeconds = impl->runClock.seconds(impl->runTicks);
  return impl->stats;
}

size_t EagerExecutor::numKernels() const { return impl->cache.size(); }

void EagerExecutor::setKernelCacheSize(size_t size) {
  impl->cache.setCapacity(size);
  impl->stats.evictions = impl->cache.evictions();
}

size_t EagerExecutor::kernelCacheSize() const {
  return impl->cache.capacity();
}

llvm::Expected<std::vector<HostTensor>>
EagerExecutor::run(const OpCall &op, llvm::ArrayRef<HostTensor> inputs) {
  using Clock = std::chrono::steady_clock;
  impl->key.clear();
  appendKernelKey(impl->key, op, inputs);
  if (isReshape(op.name) && inputs.size() == 1)
    return impl->reshape(op, inputs.front());
  JitModule *kernel = impl->cache.lookup(impl->key);
  if (kernel) {
    ++impl->stats.hits;
  } else {
    ++impl->stats.misses;
    auto start = Clock::now();
    llvm::Expected<std::unique_ptr<JitModule>> compiled =
        [&]() -> llvm::Expected<std::unique_ptr<JitModule>> {
      auto module = impl->buildKernel(op, specsOf(inputs));
      if (!module)
        return module.takeError();
      return JitModule::compile(**module, "kernel", impl->options.compile,
                                /*objectCode=*/nullptr, &impl->passManagers);
    }();
    impl->stats.compileSeconds +=
        std::chrono::duration<double>(Clock::now() - start).count();
    if (!compiled) {
      // Kernels are shared between call sites, so their diagnostics are
      // located at the op name only: the caller says where instead.
      std::string message = llvm::toString(compiled.takeError());
      llvm::StringRef cause = message;
      cause.consume_front(op.name + ": error: ");
      return makeError(cause);
    }
    kernel = impl->cache.insert(impl->key, std::move(*compiled));
    impl->stats.evictions = impl->cache.evictions();
  }
  uint64_t start = RunClock::ticks();
  llvm::Expected<std::vector<HostTensor>> results = kernel->allocateResults();
  if (!results)
    return results.takeError();
  if (auto err = kernel->runUnchecked(inputs, *results))
    return std::move(err);
  impl->runTicks += RunClock::ticks() - start;
  return results;
}

namespace {

/// A function's body prepared to run kernel by kernel: its values are slots
/// of one table (arguments first), and each ms op's OpCall (the name and
/// the printed attribute dictionary) is made once. Running it again costs
/// one kernel-cache lookup per op: a no_sink graph (PyNative's gradient
/// function) runs every step.
struct FunctionPlan {
  struct Step {
    Operation *op;
    OpCall call; // empty name for a constant
    llvm::SmallVector<unsigned, 4> operands;
    llvm::SmallVector<unsigned, 1> results;
  };
  std::string name; // the function's, for errors
  unsigned numArgs = 0;
  unsigned numValues = 0;
  std::vector<Step> steps;
  llvm::SmallVector<unsigned, 8> returned;
};

llvm::Expected<FunctionPlan> planFunction(func::FuncOp func) {
  FunctionPlan plan;
  plan.name = func.getSymName().str();
  if (func.isExternal())
    return makeError("@" + func.getSymName() + " has no body");
  Block &body = func.getBody().front();
  llvm::DenseMap<Value, unsigned> slots;
  for (Value arg : body.getArguments())
    slots[arg] = slots.size();
  plan.numArgs = body.getNumArguments();
  for (Operation &op : body) {
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      for (Value v : ret.getOperands())
        plan.returned.push_back(slots.lookup(v));
      plan.numValues = slots.size();
      return plan;
    }
    FunctionPlan::Step step{&op, {}, {}, {}};
    if (!isa<arith::ConstantOp>(op)) {
      if (!op.getDialect() || op.getDialect()->getNamespace() != "ms")
        return makeError(formatLocation(op.getLoc()) +
                         ": error: PyNative runs ms ops only; '" +
                         op.getName().getStringRef() + "' is not one");
      step.call.name = op.getName().getStringRef().str();
      DictionaryAttr attributes = op.getAttrDictionary();
      if (!attributes.empty()) {
        llvm::raw_string_ostream os(step.call.attributes);
        attributes.print(os);
      }
      for (Value operand : op.getOperands())
        step.operands.push_back(slots.lookup(operand));
    }
    for (Value result : op.getResults()) {
      step.results.push_back(slots.size());
      slots[result] = step.results.back();
    }
    plan.steps.push_back(std::move(step));
  }
  return makeError("@" + func.getSymName() + " has no return");
}

} // namespace

/// Runs `plan` on `args` (as many as its arguments) on `executor`'s kernels.
static llvm::Expected<std::vector<HostTensor>>
runPlan(EagerExecutor &executor, const FunctionPlan &plan,
        llvm::ArrayRef<HostTensor> args, const EagerTrace &trace) {
  if (args.size() != plan.numArgs)
    return makeError("@" + plan.name + " takes " + llvm::Twine(plan.numArgs) +
                     " arguments, got " + llvm::Twine(args.size()));
  std::vector<HostTensor> values(plan.numValues);
  std::copy(args.begin(), args.end(), values.begin());
  llvm::SmallVector<HostTensor, 4> inputs;
  for (const FunctionPlan::Step &step : plan.steps) {
    if (step.call.name.empty()) {
      auto tensor = constantTensor(cast<arith::ConstantOp>(step.op));
      if (!tensor)
        return tensor.takeError();
      values[step.results.front()] = std::move(*tensor);
      continue;
    }
    inputs.clear();
    for (unsigned slot : step.operands)
      inputs.push_back(values[slot]);
    auto results = executor.run(step.call, inputs);
    if (!results)
      return makeError(formatLocation(step.op->getLoc()) + ": error: " +
                       llvm::toString(results.takeError()));
    for (auto [slot, tensor] : llvm::zip(step.results, *results))
      values[slot] = tensor;
    if (trace)
      trace(EagerStep{cellPathOf(step.op->getLoc()), step.call.name,
                      &results->front()});
  }
  std::vector<HostTensor> results;
  results.reserve(plan.returned.size());
  for (unsigned slot : plan.returned)
    results.push_back(values[slot]);
  return results;
}

llvm::Expected<std::vector<HostTensor>>
EagerExecutor::runFunction(func::FuncOp func, llvm::ArrayRef<HostTensor> args,
                           const EagerTrace &trace) {
  auto plan = planFunction(func);
  if (!plan)
    return plan.takeError();
  return runPlan(*this, *plan, args, trace);
}

struct KernelGraph::Impl {
  OwningOpRef<ModuleOp> module;
  func::FuncOp entry;
  EntrySignature signature;
  EagerExecutor *executor = nullptr;
  FunctionPlan plan; // the entry's, made at load
};

KernelGraph::KernelGraph() : impl(std::make_unique<Impl>()) {}
KernelGraph::~KernelGraph() = default;

const EntrySignature &KernelGraph::signature() const {
  return impl->signature;
}

llvm::Expected<std::vector<HostTensor>>
KernelGraph::run(llvm::ArrayRef<HostTensor> args) {
  if (llvm::Error err = impl->signature.checkArguments(args))
    return std::move(err);
  return runPlan(*impl->executor, impl->plan, args, {});
}

llvm::Expected<std::unique_ptr<KernelGraph>>
EagerExecutor::loadGraph(llvm::StringRef source, llvm::StringRef entry,
                         llvm::StringRef bufferName) {
  DiagnosticCollector diagnostics(&impl->context);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, bufferName), llvm::SMLoc());
  std::unique_ptr<KernelGraph> graph(new KernelGraph());
  KernelGraph::Impl &g = *graph->impl;
  g.module = parseSourceFile<ModuleOp>(sourceMgr, &impl->context);
  if (!g.module)
    return diagnostics.takeError("cannot parse the graph");
  g.entry = g.module->lookupSymbol<func::FuncOp>(entry);
  if (!g.entry)
    return makeError("no function named @" + entry + " in the graph");
  auto signature = readSignature(g.entry);
  if (!signature)
    return signature.takeError();
  g.signature = std::move(*signature);
  auto plan = planFunction(g.entry);
  if (!plan)
    return plan.takeError();
  g.plan = std::move(*plan);
  g.executor = this;
  return graph;
}

std::string formatEagerStep(const EagerStep &step) {
  std::string text = "[pynative] ";
  text += step.cellPath.empty() ? "<no cell>" : step.cellPath;
  text += " " + step.opName + " -> " + step.result->typeString() + "\n";
  text += formatLikeNumpy(*step.result);
  return text;
}

std::string formatStats(const EagerStats &stats) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "ms-run: kernel cache: " << stats.hits << " hits, " << stats.misses
     << " misses";
  if (stats.evictions)
    os << ", " << stats.evictions << " evictions";
  os << "; compile "
     << llvm::format("%.1f", stats.compileSeconds * 1e3) << " ms, run "
     << llvm::format("%.3f", stats.runSeconds * 1e3) << " ms";
  return text;
}

} // namespace runtime
} // namespace ms
