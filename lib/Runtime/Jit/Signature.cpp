//===- Signature.cpp - The tensor signature of a compiled entry -----------===//

#include "ms/Runtime/Jit/Signature.h"

#include "ms/Runtime/Jit/Diagnostics.h"
#include "ms/Support/ArgumentAttributes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace ms {
namespace runtime {
namespace {

llvm::Expected<TensorSpec> specOf(Type type, const llvm::Twine &what) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  std::string typeText;
  llvm::raw_string_ostream os(typeText);
  type.print(os);
  // A ? may only be the leading (batch) dim: the runtime sizes results
  // from the batch of the inputs.
  bool batchOnly = tensor && tensor.getRank() >= 1 &&
                   tensor.getNumDynamicDims() == 1 && tensor.isDynamicDim(0);
  if (!tensor || (!tensor.hasStaticShape() && !batchOnly))
    return makeError(what + " has type " + typeText +
                 "; entries take and return static-shaped tensors, or "
                 "tensors whose only ? is the leading (batch) dim");
  std::optional<DType> dtype = dtypeOf(tensor.getElementType());
  if (!dtype)
    return makeError(what + " has unsupported element type in " + typeText);
  TensorSpec spec;
  spec.dtype = *dtype;
  for (int64_t d : tensor.getShape())
    spec.shape.push_back(ShapedType::isDynamic(d) ? kDynamicDim : d);
  return spec;
}

} // namespace

std::optional<DType> dtypeOf(Type type) {
  for (const DTypeInfo &info : allDTypes())
    if (mlirElementType(type.getContext(), info.dtype) == type)
      return info.dtype;
  return std::nullopt;
}

Type mlirElementType(MLIRContext *ctx, DType dtype) {
  const DTypeInfo &info = dtypeInfo(dtype);
  unsigned bits = static_cast<unsigned>(info.bytes * 8);
  switch (info.kind) {
  case DTypeKind::Float:
    if (dtype == DType::BF16)
      return BFloat16Type::get(ctx);
    if (bits == 16)
      return Float16Type::get(ctx);
    return bits == 32 ? Type(Float32Type::get(ctx)) : Float64Type::get(ctx);
  case DTypeKind::Signed:
    return IntegerType::get(ctx, bits);
  case DTypeKind::Unsigned:
    return IntegerType::get(ctx, bits, IntegerType::Unsigned);
  case DTypeKind::Bool:
    return IntegerType::get(ctx, 1);
  }
  llvm_unreachable("unknown DTypeKind");
}

std::string TensorSpec::typeString() const {
  std::string s = "tensor<";
  for (int64_t d : shape)
    s += (d == kDynamicDim ? std::string("?") : std::to_string(d)) + "x";
  return s + dtypeName(dtype).str() + ">";
}

bool TensorSpec::isDynamic() const {
  return llvm::is_contained(shape, kDynamicDim);
}

bool TensorSpec::matches(const HostTensor &tensor) const {
  if (!tensor.isValid() || tensor.dtype() != dtype ||
      tensor.shape().size() != shape.size())
    return false;
  for (auto [want, got] : llvm::zip(shape, tensor.shape()))
    if (want != kDynamicDim && want != got)
      return false;
  return true;
}

llvm::SmallVector<int64_t, 4> TensorSpec::shapeAt(int64_t batch) const {
  llvm::SmallVector<int64_t, 4> concrete(shape.begin(), shape.end());
  for (int64_t &d : concrete)
    if (d == kDynamicDim)
      d = batch;
  return concrete;
}

bool EntrySignature::isDynamic() const {
  return llvm::any_of(args, [](const TensorSpec &s) { return s.isDynamic(); });
}

int64_t EntrySignature::batchOf(llvm::ArrayRef<HostTensor> tensors) const {
  for (auto [spec, tensor] : llvm::zip(args, tensors))
    if (spec.isDynamic() && tensor.isValid() && !tensor.shape().empty())
      return tensor.shape()[0];
  return 0;
}

llvm::Error EntrySignature::checkArguments(llvm::ArrayRef<HostTensor> tensors) const {
  if (tensors.size() != args.size())
    return makeError("@" + entry + " takes " + llvm::Twine(args.size()) +
                 " arguments, got " + llvm::Twine(tensors.size()));
  for (auto [i, spec] : llvm::enumerate(args)) {
    if (spec.matches(tensors[i]))
      continue;
    std::string what = spec.isParameter()
                           ? "parameter '" + spec.paramName + "'"
                           : "argument " + std::to_string(i);
    std::string got =
        tensors[i].isValid() ? tensors[i].typeString() : "no tensor";
    return makeError("@" + entry + ": " + what + " expects " + spec.typeString() +
                 ", got " + got);
  }
  // Every ? is the one batch of the call.
  std::optional<size_t> first;
  for (auto [i, spec] : llvm::enumerate(args)) {
    if (!spec.isDynamic())
      continue;
    if (!first) {
      first = i;
      continue;
    }
    int64_t want = tensors[*first].shape()[0], got = tensors[i].shape()[0];
    if (want != got)
      return makeError("@" + entry + ": argument " + llvm::Twine(i) + " (" +
                       tensors[i].typeString() + ") has batch " +
                       llvm::Twine(got) + " but argument " +
                       llvm::Twine(*first) + " (" +
                       tensors[*first].typeString() + ") has batch " +
                       llvm::Twine(want) +
                       "; the ? batch dims of one call must agree");
  }
  return llvm::Error::success();
}

llvm::Expected<EntrySignature> readSignature(Operation *op) {
  auto func = dyn_cast<func::FuncOp>(op);
  if (!func)
    return makeError("entry is not a func.func");
  EntrySignature sig;
  sig.entry = func.getSymName().str();
  FunctionType type = func.getFunctionType();
  for (auto [i, argType] : llvm::enumerate(type.getInputs())) {
    auto spec = specOf(argType, "@" + sig.entry + " argument " + llvm::Twine(i));
    if (!spec)
      return spec.takeError();
    if (auto name = func.getArgAttrOfType<StringAttr>(i, ms::kParamAttr)) {
      spec->paramName = name.str();
      if (spec->isDynamic())
        return makeError("@" + sig.entry + " parameter '" + name.str() +
                         "' has type " + spec->typeString() +
                         "; parameters have static shapes");
    }
    sig.args.push_back(std::move(*spec));
  }
  for (auto [i, resultType] : llvm::enumerate(type.getResults())) {
    auto spec = specOf(resultType, "@" + sig.entry + " result " + llvm::Twine(i));
    if (!spec)
      return spec.takeError();
    if (spec->isDynamic() && !sig.isDynamic())
      return makeError("@" + sig.entry + " result " + llvm::Twine(i) +
                       " has type " + spec->typeString() +
                       " but no argument has a ? batch to size it");
    sig.results.push_back(std::move(*spec));
  }
  return sig;
}

namespace {

llvm::Expected<PackedLayout> packedLayoutOf(func::FuncOp func, unsigned i,
                                            llvm::StringRef entry) {
  auto layout = func.getArgAttrOfType<StringAttr>(i, ms::kPackedAttr);
  if (!layout)
    return PackedLayout::None;
  std::optional<PackedLayout> parsed = parsePackedLayout(layout.getValue());
  if (!parsed)
    return makeError("@" + entry + " argument " + llvm::Twine(i) +
                     " asks for unknown packed layout '" + layout.getValue() +
                     "'");
  return *parsed;
}

/// Checks that argument `i` of `func`, which reads the caller's `spec` in
/// `layout`, has the type of the copy the runtime will pass: a hand-written
/// or stale ms.packed must not make the code read a buffer of another
/// shape.
llvm::Error checkPackedType(func::FuncOp func, unsigned i,
                            PackedLayout layout, const TensorSpec &spec,
                            llvm::StringRef entry) {
  auto type = dyn_cast<ShapedType>(func.getArgumentTypes()[i]);
  std::optional<std::vector<int64_t>> shape =
      packedShape(layout, spec.shape, dtypeSize(spec.dtype));
  if (type && shape && type.hasStaticShape() &&
      type.getShape() == llvm::ArrayRef<int64_t>(*shape))
    return llvm::Error::success();
  std::string expected = "which that layout cannot hold";
  if (shape) {
    TensorSpec packed = spec;
    packed.shape = *shape;
    expected = "which is " + packed.typeString();
  }
  std::string actual;
  llvm::raw_string_ostream(actual) << func.getArgumentTypes()[i];
  return makeError("@" + entry + " argument " + llvm::Twine(i) + " reads " +
                   spec.typeString() + " packed as " +
                   packedLayoutName(layout) + ", " + expected +
                   ", but has type " + actual);
}

/// The gradient buckets' buffers right after the caller's arguments;
/// returns the index of the first argument after them.
llvm::Expected<unsigned> readCommBuffers(func::FuncOp func,
                                         EntrySignature &sig) {
  std::vector<CommBuffer> buffers;
  unsigned i = sig.args.size();
  for (; i < func.getNumArguments(); ++i) {
    auto bucket = func.getArgAttrOfType<IntegerAttr>(i, ms::kCommBucketAttr);
    auto peer = func.getArgAttrOfType<IntegerAttr>(i, ms::kCommPeerAttr);
    if (!bucket && !peer)
      break;
    auto type = dyn_cast<ShapedType>(func.getArgumentTypes()[i]);
    std::optional<DType> dtype =
        type ? dtypeOf(type.getElementType()) : std::nullopt;
    // The other rank's bucket is float32 or float64; a bucket may be its
    // bytes (ms-concat-in-place places its pieces in them).
    bool floating = dtype && (*dtype == DType::F32 || *dtype == DType::F64);
    if (!type || !type.hasStaticShape() || type.getRank() != 1 || !dtype ||
        (peer && !floating))
      return makeError("@" + sig.entry + " argument " + llvm::Twine(i) +
                       " is not a 1-D gradient bucket");
    buffers.push_back({(bucket ? bucket : peer).getInt(), bool(peer), *dtype,
                       type.getDimSize(0)});
  }
  // Later stages keep the arguments but may not keep their attributes.
  if (!buffers.empty())
    sig.commBuffers = std::move(buffers);
  return i;
}

/// The trailing packed copies from argument `first` (the out-params that
/// bufferization appends come after them).
llvm::Error readPackedCopies(func::FuncOp func, unsigned first,
                             EntrySignature &sig) {
  std::vector<PackedCopy> copies;
  for (unsigned i = first; i < func.getNumArguments(); ++i) {
    auto source = func.getArgAttrOfType<IntegerAttr>(i, ms::kPackedCopyOfAttr);
    if (!source)
      break;
    llvm::Expected<PackedLayout> layout = packedLayoutOf(func, i, sig.entry);
    if (!layout)
      return layout.takeError();
    if (source.getInt() < 0 || size_t(source.getInt()) >= sig.args.size() ||
        *layout == PackedLayout::None)
      return makeError("@" + sig.entry + " argument " + llvm::Twine(i) +
                       " is not a packed copy of an argument callers pass");
    if (auto err = checkPackedType(func, i, *layout,
                                   sig.args[source.getInt()], sig.entry))
      return err;
    copies.push_back({size_t(source.getInt()), *layout});
  }
  // Later stages keep the arguments but may not keep their attributes.
  if (!copies.empty())
    sig.packedCopies = std::move(copies);
  return llvm::Error::success();
}

/// Each result's `inPlaceOf`, once bufferization has made the results
/// out-params (the entry's last arguments).
llvm::Error readInPlaceResults(func::FuncOp func, EntrySignature &sig) {
  size_t results = sig.results.size();
  if (func.getNumResults() != 0 || func.getNumArguments() < results)
    return llvm::Error::success();
  unsigned first = func.getNumArguments() - results;
  for (unsigned i = 0; i < first; ++i)
    if (func.getArgAttr(i, ms::kInPlaceOfAttr))
      return makeError("@" + sig.entry + " argument " + llvm::Twine(i) +
                       " has ms.in_place_of but is not a result's "
                       "out-param");
  for (auto [r, spec] : llvm::enumerate(sig.results))
    // Later stages keep the arguments but may not keep their attributes.
    if (auto source =
            func.getArgAttrOfType<IntegerAttr>(first + r, ms::kInPlaceOfAttr))
      spec.inPlaceOf = source.getInt();
  return sig.checkInPlaceResults();
}

} // namespace

/// Whether the code reads argument `arg` as the caller's own buffer, so
/// that writing it in place reaches the caller: a parameter of `result`'s
/// static type, read neither packed nor through a packed copy.
bool EntrySignature::canUpdateInPlace(size_t arg,
                                      const TensorSpec &result) const {
  if (arg >= args.size() || !args[arg].isParameter() ||
      args[arg].packed != PackedLayout::None ||
      args[arg].dtype != result.dtype || args[arg].shape != result.shape ||
      result.isDynamic())
    return false;
  return llvm::none_of(packedCopies,
                       [&](const PackedCopy &c) { return c.arg == arg; });
}

llvm::Error EntrySignature::checkInPlaceResults() const {
  std::vector<bool> taken(args.size());
  for (auto [r, spec] : llvm::enumerate(results)) {
    if (spec.inPlaceOf < 0)
      continue;
    size_t arg = spec.inPlaceOf;
    if (!canUpdateInPlace(arg, spec) || taken[arg])
      return makeError("@" + entry + " result " + llvm::Twine(r) +
                       " cannot be argument " + llvm::Twine(spec.inPlaceOf) +
                       " updated in place (ms.in_place_of): not an "
                       "unpacked parameter of its type, or taken twice");
    taken[arg] = true;
  }
  return llvm::Error::success();
}

/// Why two lists of specs differ ("" when they agree), naming `what`.
static std::string specsMismatch(llvm::StringRef what,
                                 llvm::ArrayRef<TensorSpec> recorded,
                                 llvm::ArrayRef<TensorSpec> caller) {
  if (recorded.size() != caller.size())
    return (llvm::Twine(recorded.size()) + " " + what + "s recorded, the " +
            "graph has " + llvm::Twine(caller.size()))
        .str();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(recorded, caller))) {
    const auto &[r, c] = pair;
    if (r.dtype != c.dtype || r.shape != c.shape || r.paramName != c.paramName)
      return (what + " " + llvm::Twine(i) + " recorded as " + r.typeString() +
              " '" + r.paramName + "', the graph has " + c.typeString() +
              " '" + c.paramName + "'")
          .str();
  }
  return "";
}

std::string signatureMismatch(const EntrySignature &recorded,
                              const EntrySignature &caller) {
  if (recorded.entry != caller.entry)
    return "entry @" + recorded.entry + " recorded, the graph calls @" +
           caller.entry;
  std::string why = specsMismatch("argument", recorded.args, caller.args);
  return why.empty() ? specsMismatch("result", recorded.results,
                                     caller.results)
                     : why;
}

llvm::Error readPackedLayouts(Operation *op, EntrySignature &sig) {
  auto func = dyn_cast<func::FuncOp>(op);
  if (!func)
    return makeError("entry is not a func.func");
  for (auto [i, spec] : llvm::enumerate(sig.args)) {
    if (i >= func.getNumArguments())
      break;
    llvm::Expected<PackedLayout> layout = packedLayoutOf(func, i, sig.entry);
    if (!layout)
      return layout.takeError();
    if (*layout == PackedLayout::None)
      continue;
    if (auto err = checkPackedType(func, i, *layout, spec, sig.entry))
      return err;
    spec.packed = *layout;
  }
  llvm::Expected<unsigned> afterBuffers = readCommBuffers(func, sig);
  if (!afterBuffers)
    return afterBuffers.takeError();
  if (auto err = readPackedCopies(func, *afterBuffers, sig))
    return err;
  return readInPlaceResults(func, sig);
}

} // namespace runtime
} // namespace ms
