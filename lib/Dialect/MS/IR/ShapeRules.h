//===- ShapeRules.h - Building blocks of the ms shape rules -----*- C++ -*-===//
//
// Shared by the files that infer ms result types (MSShapeInference.cpp and
// the per-family op files): operand checks whose errors name the op and the
// offending dimension, through emitOptionalError so that the parser and the
// verifier report the same message.
//
//===----------------------------------------------------------------------===//

#ifndef MS_LIB_DIALECT_MS_IR_SHAPERULES_H
#define MS_LIB_DIALECT_MS_IR_SHAPERULES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <optional>
#include <string>

namespace ms::shape_rules {

using namespace mlir;

/// Prints a shape as [64, 784]; a dynamic dim prints as ?.
inline std::string shapeStr(ArrayRef<int64_t> shape) {
  return "[" +
         llvm::join(llvm::map_range(shape,
                                    [](int64_t d) {
                                      return ShapedType::isDynamic(d)
                                                 ? std::string("?")
                                                 : std::to_string(d);
                                    }),
                    ", ") +
         "]";
}

/// Two dims that must be equal: false only when both are known and differ
/// (a ? dim is checked when the program runs).
inline bool dimsAgree(int64_t a, int64_t b) {
  return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
}

/// Emits "'<op>' op <message>" at `loc` when a location is available.
template <typename... Args>
LogicalResult opError(StringRef opName, std::optional<Location> loc,
                      Args &&...args) {
  return emitOptionalError(loc, "'", opName, "' op ",
                           std::forward<Args>(args)...);
}

/// The product of `sizes`, or nullopt when it overflows int64.
inline std::optional<int64_t> checkedProduct(ArrayRef<int64_t> sizes) {
  int64_t product = 1;
  for (int64_t size : sizes) {
    std::optional<int64_t> next = llvm::checkedMul(product, size);
    if (!next)
      return std::nullopt;
    product = *next;
  }
  return product;
}

/// Casts `type` to a ranked tensor whose dims may be ? (dynamic), or reports
/// why not. The product of its static nonzero dims fits in int64, so shape
/// rules may multiply them (a 0 dim would otherwise hide an overflow).
inline FailureOr<RankedTensorType> rankedTensor(StringRef opName,
                                         std::optional<Location> loc,
                                         Type type, StringRef operandName) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return opError(opName, loc, operandName, " must be a ranked tensor, got ",
                   type);
  SmallVector<int64_t> known;
  llvm::copy_if(tensor.getShape(), std::back_inserter(known),
                [](int64_t d) { return d != 0 && !ShapedType::isDynamic(d); });
  if (!checkedProduct(known))
    return opError(opName, loc, operandName, " shape ",
                   shapeStr(tensor.getShape()),
                   " has more elements than int64 can count");
  return tensor;
}

/// Casts `type` to a static-shaped ranked tensor, or reports why not. Every
/// partial product of its dims fits in int64, so shape rules may multiply
/// them (a 0 dim would otherwise hide an overflow among the others).
inline FailureOr<RankedTensorType> staticTensor(StringRef opName,
                                         std::optional<Location> loc,
                                         Type type, StringRef operandName) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (tensor && !tensor.hasStaticShape())
    return opError(opName, loc, operandName,
                   " must have a static shape, got ", type);
  return rankedTensor(opName, loc, type, operandName);
}

/// Appends the result type of `shape` and `elementType` to `types`, or
/// reports that it is too large ("result" as staticTensor names it).
inline LogicalResult pushStaticResult(StringRef opName,
                                      std::optional<Location> loc,
                                      ArrayRef<int64_t> shape, Type elementType,
                                      SmallVectorImpl<Type> &types) {
  auto result = RankedTensorType::get(shape, elementType);
  if (failed(staticTensor(opName, loc, result, "result")))
    return failure();
  types.push_back(result);
  return success();
}

/// Reports a ? in dim `dim` of `tensor`, a dim the op needs to know when
/// it is compiled (channels, spatial sizes, parameter shapes).
inline LogicalResult requireStaticDim(StringRef opName,
                                      std::optional<Location> loc,
                                      RankedTensorType tensor, int64_t dim,
                                      StringRef operandName, StringRef what) {
  if (!tensor.isDynamicDim(dim))
    return success();
  return opError(opName, loc, operandName, " ", shapeStr(tensor.getShape()),
                 " has a dynamic (?) ", what, " at dim ", dim,
                 "; only its other dims may be dynamic");
}

/// Checks that an axis lies in [-rank, rank).
inline LogicalResult checkAxis(StringRef opName, std::optional<Location> loc,
                        int64_t axis, int64_t rank, StringRef what) {
  if (axis < -rank || axis >= rank)
    return opError(opName, loc, what, " ", axis, " is out of range for rank ",
                   rank, " (expected [", -rank, ", ", rank, "))");
  return success();
}

/// Checks that every (value, name) parameter is a static tensor of `shape`;
/// `what` says where that shape comes from.
inline LogicalResult checkParamShapes(StringRef opName, std::optional<Location> loc,
                               ArrayRef<std::pair<Value, StringRef>> params,
                               ArrayRef<int64_t> shape, const std::string &what) {
  for (auto [value, paramName] : params) {
    auto param = staticTensor(opName, loc, value.getType(), paramName);
    if (failed(param))
      return failure();
    if (param->getShape() != shape)
      return opError(opName, loc, paramName, " has shape ",
                     shapeStr(param->getShape()), ", expected ",
                     shapeStr(shape), " (", what, ")");
  }
  return success();
}


} // namespace ms::shape_rules

#endif // MS_LIB_DIALECT_MS_IR_SHAPERULES_H
