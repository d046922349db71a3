//===- MSIndexingOps.cpp - Rules of the indexing and logical ops ----------===//
//
// Result types of one_hot, argmax/argmin, the comparisons, the logical ops,
// select and cast (MSIndexingOps.td, MSLogicalOps.td), and cast's folder.
// Errors go through emitOptionalError, so the custom-form parser and the
// verifier report the same message.
//
//===----------------------------------------------------------------------===//

#include "ShapeRules.h"
#include "ms/Dialect/MS/IR/MSOps.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;

namespace ms {
namespace {

using shape_rules::opError;
using shape_rules::shapeStr;

/// `type` as a static-shaped ranked tensor, or an error naming `what`.
FailureOr<RankedTensorType> staticOperand(StringRef opName,
                                          std::optional<Location> loc,
                                          Type type, StringRef what) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return opError(opName, loc, what,
                   " must be a ranked tensor of static shape, got ", type);
  return tensor;
}

/// `type` as a ranked tensor whose dims may be ?, or an error naming `what`.
FailureOr<RankedTensorType> rankedOperand(StringRef opName,
                                          std::optional<Location> loc,
                                          Type type, StringRef what) {
  return shape_rules::rankedTensor(opName, loc, type, what);
}

bool isBool(Type type) { return type.isInteger(1); }

} // namespace

LogicalResult inferCompareType(StringRef opName, std::optional<Location> loc,
                               Type lhsType, Type rhsType, bool boolOperands,
                               SmallVectorImpl<Type> &types) {
  auto lhs = rankedOperand(opName, loc, lhsType, "lhs");
  auto rhs = rankedOperand(opName, loc, rhsType, "rhs");
  if (failed(lhs) || failed(rhs))
    return failure();
  Type lhsElement = lhs->getElementType(), rhsElement = rhs->getElementType();
  if (lhsElement != rhsElement)
    return opError(opName, loc, "element types differ: lhs ", lhsElement,
                   " vs rhs ", rhsElement);
  if (boolOperands && !isBool(lhsElement))
    return opError(opName, loc, "operands must be bool (i1) tensors, got ",
                   lhsElement);
  auto shape = broadcastShapes(lhs->getShape(), rhs->getShape());
  if (!shape)
    return opError(opName, loc, "operands do not broadcast: lhs shape ",
                   shapeStr(lhs->getShape()), " vs rhs shape ",
                   shapeStr(rhs->getShape()));
  types.push_back(
      RankedTensorType::get(*shape, IntegerType::get(lhsElement.getContext(), 1)));
  return success();
}

LogicalResult inferArgReduceType(StringRef opName, std::optional<Location> loc,
                                 Type inputType, int64_t axis, bool keepDims,
                                 TypeAttr outputType,
                                 SmallVectorImpl<Type> &types) {
  auto input = rankedOperand(opName, loc, inputType, "input");
  if (failed(input))
    return failure();
  int64_t rank = input->getRank();
  if (rank == 0)
    return opError(opName, loc, "input must have rank 1 or more");
  if (axis < -rank || axis >= rank)
    return opError(opName, loc, "axis ", axis, " is out of range for rank ",
                   rank, " (expected [", -rank, ", ", rank, "))");
  if (!outputType)
    return opError(opName, loc, "requires attribute 'output_type'");
  Type index = outputType.getValue();
  if (!index.isSignlessInteger(32) && !index.isSignlessInteger(64))
    return opError(opName, loc, "output_type must be i32 or i64, got ", index);
  if (input->getDimSize(axis < 0 ? axis + rank : axis) == 0)
    return opError(opName, loc, "axis ", axis, " of input ",
                   shapeStr(input->getShape()),
                   " is empty; it has no extreme value");
  SmallVector<int64_t> shape(input->getShape());
  if (axis < 0)
    axis += rank;
  if (keepDims)
    shape[axis] = 1;
  else
    shape.erase(shape.begin() + axis);
  types.push_back(RankedTensorType::get(shape, index));
  return success();
}

LogicalResult OneHotOp::inferReturnTypes(MLIRContext *ctx,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto indices =
      staticOperand(name, loc, adaptor.getIndices().getType(), "indices");
  if (failed(indices))
    return failure();
  if (!adaptor.getDepthAttr())
    return opError(name, loc, "requires attribute 'depth'");
  int64_t depth = static_cast<int64_t>(adaptor.getDepth());
  if (depth < 0)
    return opError(name, loc, "depth ", depth, " must not be negative");
  int64_t rank = indices->getRank() + 1;
  int64_t axis =
      adaptor.getAxisAttr() ? static_cast<int64_t>(adaptor.getAxis()) : -1;
  // MindSpore allows -1 or [0, rank of the result).
  if (axis < -1 || axis >= rank)
    return opError(name, loc, "axis ", axis, " is out of range for indices ",
                   shapeStr(indices->getShape()), " (expected -1 or [0, ",
                   rank, "))");
  SmallVector<int64_t> shape(indices->getShape());
  shape.insert(shape.begin() + (axis < 0 ? rank - 1 : axis), depth);
  SmallVector<int64_t> nonZero;
  llvm::copy_if(shape, std::back_inserter(nonZero),
                [](int64_t d) { return d != 0; });
  int64_t count = 1;
  for (int64_t d : nonZero) {
    std::optional<int64_t> next = llvm::checkedMul(count, d);
    if (!next)
      return opError(name, loc, "result shape ", shapeStr(shape),
                     " has more elements than int64 can count");
    count = *next;
  }
  types.push_back(RankedTensorType::get(shape, Float32Type::get(ctx)));
  return success();
}

LogicalResult SelectOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto cond = rankedOperand(name, loc, adaptor.getCondition().getType(),
                            "condition");
  auto x = rankedOperand(name, loc, adaptor.getTrueValue().getType(),
                         "true_value");
  auto y = rankedOperand(name, loc, adaptor.getFalseValue().getType(),
                         "false_value");
  if (failed(cond) || failed(x) || failed(y))
    return failure();
  if (!isBool(cond->getElementType()))
    return opError(name, loc, "condition must be a bool (i1) tensor, got ",
                   cond->getElementType());
  if (x->getElementType() != y->getElementType())
    return opError(name, loc, "element types differ: true_value ",
                   x->getElementType(), " vs false_value ",
                   y->getElementType());
  auto values = broadcastShapes(x->getShape(), y->getShape());
  std::optional<SmallVector<int64_t>> shape;
  if (values)
    shape = broadcastShapes(cond->getShape(), *values);
  if (!shape)
    return opError(name, loc, "operands do not broadcast: condition ",
                   shapeStr(cond->getShape()), ", true_value ",
                   shapeStr(x->getShape()), ", false_value ",
                   shapeStr(y->getShape()));
  types.push_back(RankedTensorType::get(*shape, x->getElementType()));
  return success();
}

LogicalResult CastOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto input = rankedOperand(name, loc, adaptor.getInput().getType(), "input");
  if (failed(input))
    return failure();
  if (!adaptor.getToAttr())
    return opError(name, loc, "requires attribute 'to'");
  Type to = adaptor.getTo();
  // MS_AllTensor's element types: MindSpore's dtypes.
  bool known = to.isF16() || to.isBF16() || to.isF32() || to.isF64() ||
               to.isSignlessInteger(1) || to.isSignlessInteger(8) ||
               to.isSignlessInteger(16) || to.isSignlessInteger(32) ||
               to.isSignlessInteger(64) || to.isUnsignedInteger(8);
  if (!known)
    return opError(name, loc, "cannot cast to ", to,
                   "; expected f16, bf16, f32, f64, i1, i8, i16, i32, i64 "
                   "or ui8");
  types.push_back(input->clone(to));
  return success();
}

/// A cast to the input's own type changes nothing.
OpFoldResult CastOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

} // namespace ms
