//===- Signature.cpp - The tensor signature of a compiled entry -----------===//

#include "ms/Runtime/Signature.h"

#include "ms/Runtime/Diagnostics.h"

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
  if (!tensor || !tensor.hasStaticShape())
    return makeError(what + " has type " + typeText +
                 "; entries take and return static-shaped tensors");
  std::optional<DType> dtype = dtypeOf(tensor.getElementType());
  if (!dtype)
    return makeError(what + " has unsupported element type in " + typeText);
  TensorSpec spec;
  spec.dtype = *dtype;
  spec.shape.assign(tensor.getShape().begin(), tensor.getShape().end());
  return spec;
}

} // namespace

std::optional<DType> dtypeOf(Type type) {
  if (type.isF32())
    return DType::F32;
  if (type.isF16())
    return DType::F16;
  if (type.isInteger(32))
    return DType::I32;
  if (type.isInteger(64))
    return DType::I64;
  if (type.isInteger(1))
    return DType::Bool;
  return std::nullopt;
}

std::string TensorSpec::typeString() const {
  std::string s = "tensor<";
  for (int64_t d : shape)
    s += std::to_string(d) + "x";
  return s + dtypeName(dtype).str() + ">";
}

bool TensorSpec::matches(const HostTensor &tensor) const {
  return tensor.isValid() && tensor.dtype() == dtype &&
         tensor.shape() == llvm::ArrayRef<int64_t>(shape);
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
    if (auto name = func.getArgAttrOfType<StringAttr>(i, "ms.param"))
      spec->paramName = name.str();
    sig.args.push_back(std::move(*spec));
  }
  for (auto [i, resultType] : llvm::enumerate(type.getResults())) {
    auto spec = specOf(resultType, "@" + sig.entry + " result " + llvm::Twine(i));
    if (!spec)
      return spec.takeError();
    sig.results.push_back(std::move(*spec));
  }
  return sig;
}

llvm::Error readPackedLayouts(Operation *op, EntrySignature &sig) {
  auto func = dyn_cast<func::FuncOp>(op);
  if (!func)
    return makeError("entry is not a func.func");
  for (auto [i, spec] : llvm::enumerate(sig.args)) {
    if (i >= func.getNumArguments())
      break;
    auto layout = func.getArgAttrOfType<StringAttr>(i, "ms.packed");
    if (!layout)
      continue;
    std::optional<PackedLayout> parsed = parsePackedLayout(layout.getValue());
    if (!parsed)
      return makeError("@" + sig.entry + " argument " + llvm::Twine(i) +
                       " asks for unknown packed layout '" +
                       layout.getValue() + "'");
    spec.packed = *parsed;
  }
  return llvm::Error::success();
}

} // namespace runtime
} // namespace ms
