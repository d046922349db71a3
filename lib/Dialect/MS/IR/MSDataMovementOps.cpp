//===- MSDataMovementOps.cpp - Result types of slice, pad, broadcast, gather ===//
//
// The shape rules of the ops in MSDataMovementOps.td.
//
//===----------------------------------------------------------------------===//

#include "ShapeRules.h"
#include "ms/Dialect/MS/IR/MSOps.h"

using namespace mlir;

namespace ms {

using namespace shape_rules;

namespace {

/// Checks that a per-dimension attribute has one entry per dimension.
LogicalResult checkRankEntries(StringRef opName, std::optional<Location> loc,
                               StringRef what, ArrayRef<int64_t> values,
                               int64_t rank) {
  if (static_cast<int64_t>(values.size()) != rank)
    return opError(opName, loc, what, " ", shapeStr(values), " has ",
                   values.size(), " entries but the input has rank ", rank);
  return success();
}

/// The shape `ms.slice` reads from `input` with these attributes, or the
/// error naming the offending dimension.
FailureOr<SmallVector<int64_t>>
slicedShape(StringRef name, std::optional<Location> loc,
            RankedTensorType input, ArrayRef<int64_t> begin,
            ArrayRef<int64_t> end, ArrayRef<int64_t> strides) {
  int64_t rank = input.getRank();
  if (failed(checkRankEntries(name, loc, "begin", begin, rank)) ||
      failed(checkRankEntries(name, loc, "end", end, rank)) ||
      failed(checkRankEntries(name, loc, "strides", strides, rank)))
    return failure();
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = input.getDimSize(d);
    if (begin[d] < 0 || begin[d] > end[d] || end[d] > size)
      return opError(name, loc, "dim ", d, ": begin ", begin[d], " and end ",
                     end[d], " must satisfy 0 <= begin <= end <= ", size);
    if (strides[d] < 1)
      return opError(name, loc, "dim ", d, ": stride ", strides[d],
                     " must be at least 1");
    shape.push_back((end[d] - begin[d] + strides[d] - 1) / strides[d]);
  }
  return shape;
}

} // namespace

LogicalResult SliceOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto input = staticTensor(name, loc, adaptor.getInput().getType(), "input");
  if (failed(input))
    return failure();
  auto shape = slicedShape(name, loc, *input, adaptor.getBegin(),
                           adaptor.getEnd(), adaptor.getStrides());
  if (failed(shape))
    return failure();
  types.push_back(RankedTensorType::get(*shape, input->getElementType()));
  return success();
}

LogicalResult SliceUpdateOp::inferReturnTypes(MLIRContext *,
                                              std::optional<Location> loc,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto input = staticTensor(name, loc, adaptor.getInput().getType(), "input");
  auto update =
      staticTensor(name, loc, adaptor.getUpdate().getType(), "update");
  if (failed(input) || failed(update))
    return failure();
  auto shape = slicedShape(name, loc, *input, adaptor.getBegin(),
                           adaptor.getEnd(), adaptor.getStrides());
  if (failed(shape))
    return failure();
  if (update->getShape() != ArrayRef<int64_t>(*shape))
    return opError(name, loc, "update has shape ",
                   shapeStr(update->getShape()), " but the slice has shape ",
                   shapeStr(*shape));
  if (update->getElementType() != input->getElementType())
    return opError(name, loc, "update element type ",
                   update->getElementType(), " differs from input's ",
                   input->getElementType());
  types.push_back(*input);
  return success();
}

LogicalResult BroadcastToOp::inferReturnTypes(MLIRContext *,
                                              std::optional<Location> loc,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto input = staticTensor(name, loc, adaptor.getInput().getType(), "input");
  if (failed(input))
    return failure();
  ArrayRef<int64_t> shape = adaptor.getShape();
  if (llvm::any_of(shape, [](int64_t d) { return d < 0; }))
    return opError(name, loc, "shape ", shapeStr(shape),
                   " has a negative dimension");
  auto target = RankedTensorType::get(shape, input->getElementType());
  if (failed(staticTensor(name, loc, target, "shape")))
    return failure();
  std::optional<SmallVector<int64_t>> joined =
      broadcastShapes(input->getShape(), shape);
  if (input->getRank() > target.getRank() || !joined ||
      ArrayRef<int64_t>(*joined) != shape)
    return opError(name, loc, "cannot broadcast ",
                   shapeStr(input->getShape()), " to ", shapeStr(shape));
  types.push_back(target);
  return success();
}

LogicalResult PadOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto input = staticTensor(name, loc, adaptor.getInput().getType(), "input");
  if (failed(input))
    return failure();
  int64_t rank = input->getRank();
  ArrayRef<int64_t> low = adaptor.getLow(), high = adaptor.getHigh();
  if (failed(checkRankEntries(name, loc, "low", low, rank)) ||
      failed(checkRankEntries(name, loc, "high", high, rank)))
    return failure();
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    if (low[d] < 0 || high[d] < 0)
      return opError(name, loc, "dim ", d, ": padding ", low[d], " and ",
                     high[d], " must not be negative");
    std::optional<int64_t> padded =
        llvm::checkedAdd(input->getDimSize(d), low[d]);
    if (padded)
      padded = llvm::checkedAdd(*padded, high[d]);
    if (!padded)
      return opError(name, loc, "dim ", d, ": padded size overflows int64");
    shape.push_back(*padded);
  }
  return pushStaticResult(name, loc, shape, input->getElementType(), types);
}

LogicalResult GatherOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto input = staticTensor(name, loc, adaptor.getInput().getType(), "input");
  auto indices =
      staticTensor(name, loc, adaptor.getIndices().getType(), "indices");
  if (failed(input) || failed(indices))
    return failure();
  int64_t rank = input->getRank();
  if (rank == 0)
    return opError(name, loc, "input must have rank 1 or more");
  int64_t axis = adaptor.getAxis();
  if (failed(checkAxis(name, loc, axis, rank, "axis")))
    return failure();
  if (axis < 0)
    axis += rank;
  SmallVector<int64_t> shape(input->getShape().take_front(axis));
  llvm::append_range(shape, indices->getShape());
  llvm::append_range(shape, input->getShape().drop_front(axis + 1));
  return pushStaticResult(name, loc, shape, input->getElementType(), types);
}

LogicalResult ScatterUpdateOp::inferReturnTypes(MLIRContext *,
                                                std::optional<Location> loc,
                                                Adaptor adaptor,
                                                SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto input = staticTensor(name, loc, adaptor.getInput().getType(), "input");
  auto indices =
      staticTensor(name, loc, adaptor.getIndices().getType(), "indices");
  auto updates =
      staticTensor(name, loc, adaptor.getUpdates().getType(), "updates");
  if (failed(input) || failed(indices) || failed(updates))
    return failure();
  if (input->getRank() == 0)
    return opError(name, loc, "input must have rank 1 or more");
  // The shape gather(input, indices, axis 0) would read.
  SmallVector<int64_t> expected(indices->getShape());
  llvm::append_range(expected, input->getShape().drop_front());
  if (updates->getShape() != ArrayRef<int64_t>(expected))
    return opError(name, loc, "updates has shape ",
                   shapeStr(updates->getShape()), ", expected ",
                   shapeStr(expected), " (indices.shape + input.shape[1:])");
  if (updates->getElementType() != input->getElementType())
    return opError(name, loc, "updates element type ",
                   updates->getElementType(), " differs from input's ",
                   input->getElementType());
  types.push_back(*input);
  return success();
}

} // namespace ms
