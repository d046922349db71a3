//===- MSResizeOps.cpp - The shape rule of interpolate --------------------===//

#include "ShapeRules.h"
#include "ms/Dialect/MS/IR/MSOps.h"

using namespace mlir;

namespace ms {

using shape_rules::opError;
using shape_rules::shapeStr;
using shape_rules::staticTensor;

LogicalResult InterpolateOp::inferReturnTypes(MLIRContext *,
                                              std::optional<Location> loc,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto input = staticTensor(name, loc, adaptor.getInput().getType(), "input");
  if (failed(input))
    return failure();
  if (input->getRank() != 4)
    return opError(name, loc, "input must be 4-D NCHW, got shape ",
                   shapeStr(input->getShape()));
  if (!adaptor.getSizeAttr())
    return opError(name, loc, "requires attribute 'size'");
  ArrayRef<int64_t> size = adaptor.getSize();
  if (size.size() != 2 || size[0] <= 0 || size[1] <= 0)
    return opError(name, loc, "size must be two positive sizes [h, w], got ",
                   shapeStr(size));
  StringRef mode = adaptor.getModeAttr() ? adaptor.getMode() : "nearest";
  if (mode != "nearest" && mode != "bilinear")
    return opError(name, loc, "mode must be \"nearest\" or \"bilinear\", got \"",
                   mode, "\"");
  if (adaptor.getAlignCorners() && mode != "bilinear")
    return opError(name, loc, "align_corners needs mode \"bilinear\"");
  if (adaptor.getScalesAttr()) {
    ArrayRef<double> scales = adaptor.getScalesAttr().asArrayRef();
    if (scales.size() != 2 || !(scales[0] > 0) || !(scales[1] > 0))
      return opError(name, loc, "scales must be two positive ratios");
  }
  if (input->getDimSize(2) == 0 || input->getDimSize(3) == 0)
    return opError(name, loc, "input shape ", shapeStr(input->getShape()),
                   " has an empty spatial dim; there is nothing to sample");
  types.push_back(RankedTensorType::get(
      {input->getDimSize(0), input->getDimSize(1), size[0], size[1]},
      input->getElementType()));
  return success();
}

} // namespace ms
