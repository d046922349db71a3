//===- MSGradOps.cpp - Result types and folds of the gradient ops ---------===//
//
// The ops of MSGradOps.td. As in MSShapeInference.cpp, errors go through
// emitOptionalError so the parser and the verifier report the same message.
//
//===----------------------------------------------------------------------===//

#include "ShapeRules.h"
#include "ms/Dialect/MS/IR/MSOps.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

namespace ms {
namespace {

using shape_rules::opError;
using shape_rules::shapeStr;

FailureOr<RankedTensorType> staticTensor(StringRef opName,
                                         std::optional<Location> loc, Type type,
                                         StringRef operandName) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return opError(opName, loc, operandName,
                   " must be a tensor of static shape, got ", type);
  return tensor;
}

/// Two operands that must have one type; the result has it too.
LogicalResult inferSameType(StringRef opName, std::optional<Location> loc,
                            Type first, StringRef firstName, Type second,
                            StringRef secondName,
                            SmallVectorImpl<Type> &types) {
  auto a = staticTensor(opName, loc, first, firstName);
  if (failed(a))
    return failure();
  auto b = staticTensor(opName, loc, second, secondName);
  if (failed(b))
    return failure();
  if (*a != *b)
    return opError(opName, loc, firstName, " ", *a, " and ", secondName, " ",
                   *b, " must have the same type");
  types.push_back(*a);
  return success();
}

} // namespace

LogicalResult inferPoolGradType(StringRef opName, std::optional<Location> loc,
                                Type x, Type dy, ArrayRef<int64_t> kernelSize,
                                ArrayRef<int64_t> stride, StringRef padMode,
                                SmallVectorImpl<Type> &types) {
  SmallVector<Type> pooled;
  if (failed(inferPoolType(opName, loc, x, kernelSize, stride, padMode,
                           pooled)))
    return failure();
  auto dyType = staticTensor(opName, loc, dy, "dy");
  if (failed(dyType))
    return failure();
  if (*dyType != pooled.front())
    return opError(opName, loc, "dy ", *dyType, " must have the pooled type ",
                   pooled.front(), " of x");
  types.push_back(x);
  return success();
}

LogicalResult inferPoolGradGradType(StringRef opName,
                                    std::optional<Location> loc, Type x,
                                    Type grad, ArrayRef<int64_t> kernelSize,
                                    ArrayRef<int64_t> stride,
                                    StringRef padMode,
                                    SmallVectorImpl<Type> &types) {
  SmallVector<Type> same;
  if (failed(inferSameType(opName, loc, x, "x", grad, "grad", same)))
    return failure();
  return inferPoolType(opName, loc, x, kernelSize, stride, padMode, types);
}

LogicalResult inferConvGradType(StringRef opName, std::optional<Location> loc,
                                bool filterGrad, Type dy, Type other,
                                ArrayRef<int64_t> shape, StringRef padMode,
                                ArrayRef<int64_t> padding,
                                ArrayRef<int64_t> stride,
                                ArrayRef<int64_t> dilation, int64_t group,
                                SmallVectorImpl<Type> &types) {
  auto dyType = staticTensor(opName, loc, dy, "dy");
  auto otherType =
      staticTensor(opName, loc, other, filterGrad ? "input" : "weight");
  if (failed(dyType) || failed(otherType))
    return failure();
  // An input's batch may be empty (a conv2d of batch 0 has gradients too);
  // every other size is positive.
  auto badSize = [&](size_t i) {
    return shape[i] < 0 || (shape[i] == 0 && (filterGrad || i != 0));
  };
  if (shape.size() != 4 || llvm::any_of(llvm::seq<size_t>(0, 4), badSize))
    return opError(opName, loc, "shape ", shapeStr(shape),
                   filterGrad ? " must be four positive sizes"
                              : " must be four sizes, positive but the "
                                "batch (which may be 0)");
  if (otherType->getRank() != 4 || dyType->getRank() != 4)
    return opError(opName, loc, "dy and ", filterGrad ? "input" : "weight",
                   " must have rank 4");
  ArrayRef<int64_t> input = filterGrad ? otherType->getShape() : shape;
  ArrayRef<int64_t> weight = filterGrad ? shape : otherType->getShape();
  if (group <= 0 || input[1] % group != 0 || weight[0] % group != 0 ||
      weight[1] != input[1] / group)
    return opError(opName, loc, "input ", shapeStr(input), " and weight ",
                   shapeStr(weight), " do not agree with group ", group);
  std::string why;
  auto geometry = convGeometry(input, weight, padMode, padding, stride,
                               dilation, why);
  if (!geometry)
    return opError(opName, loc, why);
  SmallVector<int64_t> expected = {input[0], weight[0],
                                   geometry->first.output,
                                   geometry->second.output};
  if (dyType->getShape() != ArrayRef<int64_t>(expected))
    return opError(opName, loc, "dy shape ", shapeStr(dyType->getShape()),
                   " is not the conv2d output shape ", shapeStr(expected),
                   " of input ", shapeStr(input), " and weight ",
                   shapeStr(weight));
  if (dyType->getElementType() != otherType->getElementType())
    return opError(opName, loc, "element types differ: dy ",
                   dyType->getElementType(), " vs ",
                   otherType->getElementType());
  types.push_back(RankedTensorType::get(shape, dyType->getElementType()));
  return success();
}

LogicalResult StopGradientOp::inferReturnTypes(MLIRContext *,
                                               std::optional<Location> loc,
                                               Adaptor adaptor,
                                               SmallVectorImpl<Type> &types) {
  return inferUnaryType(getOperationName(), loc, adaptor.getInput().getType(),
                        types);
}

/// The identity once gradients are built: autodiff runs before any
/// canonicalization, so folding here never hides the op from it.
OpFoldResult StopGradientOp::fold(FoldAdaptor) { return getInput(); }

LogicalResult ReluGradOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &types) {
  return inferSameType(getOperationName(), loc, adaptor.getDy().getType(),
                       "dy", adaptor.getY().getType(), "y", types);
}

LogicalResult GeluGradOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &types) {
  return inferSameType(getOperationName(), loc, adaptor.getDy().getType(),
                       "dy", adaptor.getX().getType(), "x", types);
}

} // namespace ms
