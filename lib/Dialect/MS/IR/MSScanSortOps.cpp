//===- MSScanSortOps.cpp - Rules of cumsum, argsort, gather_elements ------===//
//
// Result types of the ops of MSScanSortOps.td and of gather_elements_grad
// (MSGradOps.td). Errors go through emitOptionalError, so the custom-form
// parser and the verifier report the same message.
//
//===----------------------------------------------------------------------===//

#include "ShapeRules.h"
#include "ms/Dialect/MS/IR/MSOps.h"

using namespace mlir;

namespace ms {
namespace {

using shape_rules::checkAxis;
using shape_rules::opError;
using shape_rules::shapeStr;
using shape_rules::staticTensor;

/// A static tensor of rank 1 or more with `axis` in range, or an error.
FailureOr<RankedTensorType> axisOperand(StringRef name,
                                        std::optional<Location> loc,
                                        Type type, StringRef what,
                                        IntegerAttr axisAttr) {
  auto tensor = staticTensor(name, loc, type, what);
  if (failed(tensor))
    return failure();
  if (!axisAttr)
    return opError(name, loc, "requires attribute 'axis'");
  int64_t rank = tensor->getRank();
  if (rank == 0)
    return opError(name, loc, what, " must have rank 1 or more");
  if (failed(checkAxis(name, loc, axisAttr.getInt(), rank, "axis")))
    return failure();
  return tensor;
}

int64_t normalized(IntegerAttr axis, int64_t rank) {
  int64_t a = axis.getInt();
  return a < 0 ? a + rank : a;
}

/// The index operand agrees with `other` on every axis but `axis`.
LogicalResult checkOtherDims(StringRef name, std::optional<Location> loc,
                             RankedTensorType indices, StringRef otherName,
                             RankedTensorType other, int64_t axis) {
  if (indices.getRank() != other.getRank())
    return opError(name, loc, "indices must have the rank of ", otherName,
                   " (", other.getRank(), "), got shape ",
                   shapeStr(indices.getShape()));
  for (int64_t d = 0; d < other.getRank(); ++d)
    if (d != axis && indices.getDimSize(d) != other.getDimSize(d))
      return opError(name, loc, "indices shape ", shapeStr(indices.getShape()),
                     " differs from ", otherName, " shape ",
                     shapeStr(other.getShape()), " at dim ", d,
                     " (only axis ", axis, " may differ)");
  return success();
}

} // namespace

LogicalResult CumsumOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  auto input = axisOperand(getOperationName(), loc,
                           adaptor.getInput().getType(), "input",
                           adaptor.getAxisAttr());
  if (failed(input))
    return failure();
  types.push_back(*input);
  return success();
}

LogicalResult ArgsortOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  Builder b(adaptor.getInput().getContext());
  IntegerAttr axisAttr = adaptor.getAxisAttr() ? adaptor.getAxisAttr()
                                               : b.getI64IntegerAttr(-1);
  auto input = axisOperand(name, loc, adaptor.getInput().getType(), "input",
                           axisAttr);
  if (failed(input))
    return failure();
  if (!adaptor.getOutputTypeAttr())
    return opError(name, loc, "requires attribute 'output_type'");
  Type index = adaptor.getOutputType();
  if (!index.isSignlessInteger(32) && !index.isSignlessInteger(64))
    return opError(name, loc, "output_type must be i32 or i64, got ", index);
  int64_t axis = normalized(axisAttr, input->getRank());
  SmallVector<int64_t> shape(input->getShape());
  if (IntegerAttr kAttr = adaptor.getKAttr()) {
    int64_t k = kAttr.getInt();
    if (k < 0 || k > shape[axis])
      return opError(name, loc, "k ", k, " is out of range for axis ",
                     axisAttr.getInt(), " of size ", shape[axis],
                     " (expected [0, ", shape[axis], "])");
    shape[axis] = k;
  }
  types.push_back(RankedTensorType::get(shape, index));
  return success();
}

LogicalResult GatherElementsOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto input = axisOperand(name, loc, adaptor.getInput().getType(), "input",
                           adaptor.getAxisAttr());
  if (failed(input))
    return failure();
  auto indices =
      staticTensor(name, loc, adaptor.getIndices().getType(), "indices");
  if (failed(indices))
    return failure();
  int64_t axis = normalized(adaptor.getAxisAttr(), input->getRank());
  if (failed(checkOtherDims(name, loc, *indices, "input", *input, axis)))
    return failure();
  types.push_back(indices->clone(input->getElementType()));
  return success();
}

LogicalResult GatherElementsGradOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto dy = axisOperand(name, loc, adaptor.getDy().getType(), "dy",
                        adaptor.getAxisAttr());
  if (failed(dy))
    return failure();
  auto indices =
      staticTensor(name, loc, adaptor.getIndices().getType(), "indices");
  if (failed(indices))
    return failure();
  if (indices->getShape() != dy->getShape())
    return opError(name, loc, "indices shape ", shapeStr(indices->getShape()),
                   " differs from dy shape ", shapeStr(dy->getShape()));
  if (!adaptor.getSizeAttr())
    return opError(name, loc, "requires attribute 'size'");
  int64_t size = adaptor.getSizeAttr().getInt();
  if (size < 0)
    return opError(name, loc, "size ", size, " must not be negative");
  SmallVector<int64_t> shape(dy->getShape());
  shape[normalized(adaptor.getAxisAttr(), dy->getRank())] = size;
  types.push_back(RankedTensorType::get(shape, dy->getElementType()));
  return success();
}

} // namespace ms
