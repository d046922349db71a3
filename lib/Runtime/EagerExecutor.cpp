//===- EagerExecutor.cpp - PyNative: run ms ops one at a time -------------===//

#include "ms/Runtime/EagerExecutor.h"

#include "ms/Runtime/Diagnostics.h"
#include "ms/Runtime/KernelCache.h"
#include "ms/Runtime/NumpyFormat.h"

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
#include "llvm/Support/Format.h"

#include <chrono>
#include <cstring>

using namespace mlir;

namespace ms {
namespace runtime {
namespace {

Type elementTypeOf(MLIRContext *ctx, DType dtype) {
  switch (dtype) {
  case DType::F32:
    return Float32Type::get(ctx);
  case DType::F16:
    return Float16Type::get(ctx);
  case DType::I32:
    return IntegerType::get(ctx, 32);
  case DType::I64:
    return IntegerType::get(ctx, 64);
  case DType::Bool:
    return IntegerType::get(ctx, 1);
  }
  return Float32Type::get(ctx);
}

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

/// The Cell path(s) a location names ("dense_relu_sequential.0").
std::string cellPathOf(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().str();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location part : fused.getLocations())
      if (std::string path = cellPathOf(part); !path.empty())
        return path;
  if (auto callSite = dyn_cast<CallSiteLoc>(loc))
    return cellPathOf(callSite.getCallee());
  return "";
}

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

  EagerOptions options;
  MLIRContext context;
  KernelCache cache;
  EagerStats stats;
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
  for (const TensorSpec &input : inputs)
    inputTypes.push_back(RankedTensorType::get(
        input.shape, elementTypeOf(ctx, input.dtype)));
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
EagerExecutor::inferResults(const OpCall &op,
                            llvm::ArrayRef<TensorSpec> inputs) {
  auto module = impl->buildKernel(op, inputs);
  if (!module)
    return module.takeError();
  auto func = cast<func::FuncOp>((**module).getBody()->front());
  auto sig = readSignature(func);
  if (!sig)
    return sig.takeError();
  return sig->results;
}

EagerExecutor::EagerExecutor(EagerOptions options)
    : impl(std::make_unique<Impl>(options)) {}

EagerExecutor::~EagerExecutor() = default;

const EagerStats &EagerExecutor::stats() const { return impl->stats; }

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
      return JitModule::compile(**module, "kernel", impl->options.compile);
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
  auto start = Clock::now();
  llvm::Expected<std::vector<HostTensor>> results = kernel->allocateResults();
  if (!results)
    return results.takeError();
  if (auto err = kernel->runUnchecked(inputs, *results))
    return std::move(err);
  impl->stats.runSeconds +=
      std::chrono::duration<double>(Clock::now() - start).count();
  return results;
}

llvm::Expected<std::vector<HostTensor>>
EagerExecutor::runFunction(func::FuncOp func, llvm::ArrayRef<HostTensor> args,
                           const EagerTrace &trace) {
  if (func.isExternal())
    return makeError("@" + func.getSymName() + " has no body");
  Block &body = func.getBody().front();
  if (args.size() != body.getNumArguments())
    return makeError("@" + func.getSymName() + " takes " +
                 llvm::Twine(body.getNumArguments()) + " arguments, got " +
                 llvm::Twine(args.size()));
  llvm::DenseMap<Value, HostTensor> values;
  for (auto [arg, tensor] : llvm::zip(body.getArguments(), args))
    values[arg] = tensor;

  for (Operation &op : body) {
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      std::vector<HostTensor> results;
      for (Value v : ret.getOperands())
        results.push_back(values.lookup(v));
      return results;
    }
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      auto tensor = constantTensor(constant);
      if (!tensor)
        return tensor.takeError();
      values[constant.getResult()] = std::move(*tensor);
      continue;
    }
    std::string where = formatLocation(op.getLoc());
    if (!op.getDialect() || op.getDialect()->getNamespace() != "ms")
      return makeError(where + ": error: PyNative runs ms ops only; '" +
                   op.getName().getStringRef() + "' is not one");
    OpCall call;
    call.name = op.getName().getStringRef().str();
    DictionaryAttr attributes = op.getAttrDictionary();
    if (!attributes.empty()) {
      llvm::raw_string_ostream os(call.attributes);
      attributes.print(os);
    }
    SmallVector<HostTensor, 4> inputs;
    for (Value operand : op.getOperands())
      inputs.push_back(values.lookup(operand));
    auto results = run(call, inputs);
    if (!results) {
      return makeError(where + ": error: " +
                       llvm::toString(results.takeError()));
    }
    for (auto [value, tensor] : llvm::zip(op.getResults(), *results))
      values[value] = tensor;
    if (trace)
      trace(EagerStep{cellPathOf(op.getLoc()), call.name, &results->front()});
  }
  return makeError("@" + func.getSymName() + " has no return");
}

struct KernelGraph::Impl {
  OwningOpRef<ModuleOp> module;
  func::FuncOp entry;
  EntrySignature signature;
  EagerExecutor *executor = nullptr;
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
  return impl->executor->runFunction(impl->entry, args);
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
