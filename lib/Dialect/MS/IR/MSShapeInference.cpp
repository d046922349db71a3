//===- MSShapeInference.cpp - Result types of ms ops ----------------------===//
//
// Shape rules for every ms op. Errors go through emitOptionalError so that the
// parser (which infers while parsing the custom form) and the verifier (which
// re-infers for the generic form) report the same message. At the end, how
// the ops of this file whose attributes decide it treat the rows of a batch
// (RowIndependenceOpInterface, MSBase.td).
//
//===----------------------------------------------------------------------===//

#include "ShapeRules.h"
#include "ms/Dialect/MS/IR/MSOps.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;

namespace ms {

using namespace shape_rules;

std::optional<SmallVector<int64_t>> broadcastShapes(ArrayRef<int64_t> lhs,
                                                    ArrayRef<int64_t> rhs) {
  size_t rank = std::max(lhs.size(), rhs.size());
  SmallVector<int64_t> result(rank);
  for (size_t i = 0; i < rank; ++i) {
    // Align from the right: missing leading dims count as 1.
    int64_t l = i < rank - lhs.size() ? 1 : lhs[i - (rank - lhs.size())];
    int64_t r = i < rank - rhs.size() ? 1 : rhs[i - (rank - rhs.size())];
    // A ? dim broadcasts like a known one: against 1 it stays ?, against a
    // known size N it must be N (or 1) when the program runs.
    if (l == r || r == 1)
      result[i] = l;
    else if (l == 1)
      result[i] = r;
    else if (ShapedType::isDynamic(l))
      result[i] = r;
    else if (ShapedType::isDynamic(r))
      result[i] = l;
    else
      return std::nullopt;
  }
  return result;
}

SmallVector<int64_t> normalizeReduceAxes(ArrayRef<int64_t> axes, int64_t rank) {
  SmallVector<int64_t> result;
  if (axes.empty()) {
    for (int64_t i = 0; i < rank; ++i)
      result.push_back(i);
    return result;
  }
  for (int64_t axis : axes)
    result.push_back(axis < 0 ? axis + rank : axis);
  llvm::sort(result);
  return result;
}

LogicalResult inferUnaryType(StringRef opName, std::optional<Location> loc,
                             Type input, SmallVectorImpl<Type> &types) {
  auto tensor = rankedTensor(opName, loc, input, "input");
  if (failed(tensor))
    return failure();
  types.push_back(*tensor);
  return success();
}

LogicalResult inferBroadcastType(StringRef opName, std::optional<Location> loc,
                                 Type lhsType, Type rhsType,
                                 SmallVectorImpl<Type> &types) {
  auto lhs = rankedTensor(opName, loc, lhsType, "lhs");
  auto rhs = rankedTensor(opName, loc, rhsType, "rhs");
  if (failed(lhs) || failed(rhs))
    return failure();
  if (lhs->getElementType() != rhs->getElementType())
    return opError(opName, loc, "element types differ: lhs ",
                   lhs->getElementType(), " vs rhs ", rhs->getElementType());
  auto shape = broadcastShapes(lhs->getShape(), rhs->getShape());
  if (!shape)
    return opError(opName, loc, "operands do not broadcast: lhs shape ",
                   shapeStr(lhs->getShape()), " vs rhs shape ",
                   shapeStr(rhs->getShape()));
  types.push_back(RankedTensorType::get(*shape, lhs->getElementType()));
  return success();
}

LogicalResult inferReduceType(StringRef opName, std::optional<Location> loc,
                              Type inputType, DenseI64ArrayAttr axesAttr,
                              bool keepDims, SmallVectorImpl<Type> &types) {
  auto input = rankedTensor(opName, loc, inputType, "input");
  if (failed(input))
    return failure();
  if (!axesAttr)
    return opError(opName, loc, "requires attribute 'axes'");
  ArrayRef<int64_t> axes = axesAttr.asArrayRef();
  int64_t rank = input->getRank();
  for (int64_t axis : axes)
    if (failed(checkAxis(opName, loc, axis, rank, "axis")))
      return failure();
  SmallVector<int64_t> normalized = normalizeReduceAxes(axes, rank);
  if (std::adjacent_find(normalized.begin(), normalized.end()) !=
      normalized.end())
    return opError(opName, loc, "axes ", shapeStr(axes),
                   " name the same axis twice");
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < rank; ++i) {
    bool reduced = llvm::is_contained(normalized, i);
    if (!reduced)
      shape.push_back(input->getDimSize(i));
    else if (keepDims)
      shape.push_back(1);
  }
  types.push_back(RankedTensorType::get(shape, input->getElementType()));
  return success();
}

LogicalResult inferAxisOpType(StringRef opName, std::optional<Location> loc,
                              Type inputType, int64_t axis,
                              SmallVectorImpl<Type> &types) {
  auto input = rankedTensor(opName, loc, inputType, "input");
  if (failed(input))
    return failure();
  if (input->getRank() == 0)
    return opError(opName, loc, "input must have rank 1 or more");
  if (failed(checkAxis(opName, loc, axis, input->getRank(), "axis")))
    return failure();
  types.push_back(*input);
  return success();
}

//===----------------------------------------------------------------------===//
// Ops with their own rules
//===----------------------------------------------------------------------===//

LogicalResult DenseOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  // Only the input may have ? dims (the batch); the weight is data.
  auto input = rankedTensor(name, loc, adaptor.getInput().getType(), "input");
  auto weight =
      staticTensor(name, loc, adaptor.getWeight().getType(), "weight");
  if (failed(input) || failed(weight))
    return failure();
  if (input->getRank() < 1)
    return opError(name, loc, "input must have rank 1 or more");
  if (weight->getRank() != 2)
    return opError(name, loc, "weight must have rank 2 ([out, in]), got shape ",
                   shapeStr(weight->getShape()));
  int64_t in = input->getShape().back();
  int64_t out = weight->getDimSize(0);
  if (!dimsAgree(weight->getDimSize(1), in))
    return opError(name, loc, "input feature size ", in,
                   " (last dim of input ", shapeStr(input->getShape()),
                   ") does not match weight in-dim ", weight->getDimSize(1),
                   " (dim 1 of weight ", shapeStr(weight->getShape()), ")");
  if (weight->getElementType() != input->getElementType())
    return opError(name, loc, "element types differ: input ",
                   input->getElementType(), " vs weight ",
                   weight->getElementType());
  if (Value biasValue = adaptor.getBias()) {
    auto bias = staticTensor(name, loc, biasValue.getType(), "bias");
    if (failed(bias))
      return failure();
    if (bias->getRank() != 1 || bias->getDimSize(0) != out)
      return opError(name, loc, "bias shape ", shapeStr(bias->getShape()),
                     " does not match weight out-dim ", out, " (expected [",
                     out, "])");
    if (bias->getElementType() != input->getElementType())
      return opError(name, loc, "element types differ: input ",
                     input->getElementType(), " vs bias ",
                     bias->getElementType());
  }
  SmallVector<int64_t> shape(input->getShape());
  shape.back() = out;
  types.push_back(RankedTensorType::get(shape, input->getElementType()));
  return success();
}

LogicalResult MatmulOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto lhs = rankedTensor(name, loc, adaptor.getLhs().getType(), "lhs");
  auto rhs = rankedTensor(name, loc, adaptor.getRhs().getType(), "rhs");
  if (failed(lhs) || failed(rhs))
    return failure();
  if (lhs->getRank() < 2 || rhs->getRank() < 2)
    return opError(name, loc, "operands must have rank 2 or more, got lhs ",
                   shapeStr(lhs->getShape()), " and rhs ",
                   shapeStr(rhs->getShape()));
  if (lhs->getElementType() != rhs->getElementType())
    return opError(name, loc, "element types differ: lhs ",
                   lhs->getElementType(), " vs rhs ", rhs->getElementType());
  ArrayRef<int64_t> a = lhs->getShape(), b = rhs->getShape();
  int64_t m = adaptor.getTransposeA() ? a.back() : a[a.size() - 2];
  int64_t ka = adaptor.getTransposeA() ? a[a.size() - 2] : a.back();
  int64_t kb = adaptor.getTransposeB() ? b.back() : b[b.size() - 2];
  int64_t n = adaptor.getTransposeB() ? b[b.size() - 2] : b.back();
  if (!dimsAgree(ka, kb))
    return opError(name, loc, "contraction sizes differ: lhs ",
                   shapeStr(a), (adaptor.getTransposeA() ? " (transposed)" : ""),
                   " has K = ", ka, ", rhs ", shapeStr(b),
                   (adaptor.getTransposeB() ? " (transposed)" : ""),
                   " has K = ", kb);
  auto batch = broadcastShapes(a.drop_back(2), b.drop_back(2));
  if (!batch)
    return opError(name, loc, "batch dimensions do not broadcast: lhs ",
                   shapeStr(a.drop_back(2)), " vs rhs ",
                   shapeStr(b.drop_back(2)));
  SmallVector<int64_t> shape(*batch);
  shape.push_back(m);
  shape.push_back(n);
  types.push_back(RankedTensorType::get(shape, lhs->getElementType()));
  return success();
}

LogicalResult GeluOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &types) {
  return inferUnaryType(getOperationName(), loc, adaptor.getInput().getType(),
                        types);
}

LogicalResult DropoutOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  return inferUnaryType(getOperationName(), loc, adaptor.getInput().getType(),
                        types);
}

LogicalResult DropoutOp::verify() {
  float p = getP().convertToFloat();
  if (!(p >= 0.0f && p < 1.0f))
    return emitOpError("p = ") << p << " must lie in [0, 1)";
  Value state = getRngState();
  if (getTraining() && !state)
    return emitOpError("in training mode needs an rng_state operand "
                       "(tensor<2xi64>: [seed, offset])");
  if (!getTraining() && state)
    return emitOpError("has an rng_state operand but no training flag");
  if (state && cast<RankedTensorType>(state.getType()).getShape() !=
                   ArrayRef<int64_t>{2})
    return emitOpError("rng_state must be tensor<2xi64> ([seed, offset]), "
                       "got ")
           << state.getType();
  return success();
}

LogicalResult FlattenOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto input = rankedTensor(name, loc, adaptor.getInput().getType(), "input");
  if (failed(input))
    return failure();
  if (input->getRank() < 2)
    return opError(name, loc, "input must have rank 2 or more ([N, ...]), got ",
                   shapeStr(input->getShape()));
  // rankedTensor checked that the known dims' product fits; a ? among the
  // flattened dims makes the product ?.
  ArrayRef<int64_t> rest = input->getShape().drop_front();
  int64_t inner = llvm::any_of(rest, ShapedType::isDynamic)
                      ? ShapedType::kDynamic
                      : *checkedProduct(rest);
  types.push_back(RankedTensorType::get({input->getDimSize(0), inner},
                                        input->getElementType()));
  return success();
}

LogicalResult ReshapeOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto input = rankedTensor(name, loc, adaptor.getInput().getType(), "input");
  if (failed(input))
    return failure();
  if (!adaptor.getShapeAttr())
    return opError(name, loc, "requires attribute 'shape'");
  ArrayRef<int64_t> requested = adaptor.getShape();
  SmallVector<int64_t> shape(requested);
  int64_t known = 1;
  std::optional<size_t> inferredDim;
  for (auto [i, d] : llvm::enumerate(requested)) {
    if (d == -1) {
      if (inferredDim)
        return opError(name, loc, "shape ", shapeStr(requested),
                       " has more than one -1");
      inferredDim = i;
    } else if (d < 0) {
      return opError(name, loc, "shape ", shapeStr(requested),
                     " has negative size ", d, " at dim ", i);
    } else if (std::optional<int64_t> product = llvm::checkedMul(known, d)) {
      known = *product;
    } else {
      return opError(name, loc, "shape ", shapeStr(requested),
                     " has more elements than int64 can count");
    }
  }
  if (!input->hasStaticShape()) {
    // The element count is known when the program runs: the -1 dim is ?,
    // and a reshape without one is checked then.
    if (inferredDim) {
      if (known == 0)
        return opError(name, loc, "cannot reshape ",
                       shapeStr(input->getShape()), " to ",
                       shapeStr(requested), " (the -1 dim is ambiguous)");
      shape[*inferredDim] = ShapedType::kDynamic;
    }
    types.push_back(RankedTensorType::get(shape, input->getElementType()));
    return success();
  }
  int64_t count = input->getNumElements();
  if (inferredDim) {
    if (known == 0 || count % known != 0)
      return opError(name, loc, "cannot reshape ", shapeStr(input->getShape()),
                     " (", count, " elements) to ", shapeStr(requested));
    shape[*inferredDim] = count / known;
  } else if (known != count) {
    return opError(name, loc, "cannot reshape ", shapeStr(input->getShape()),
                   " (", count, " elements) to ", shapeStr(requested), " (",
                   known, " elements)");
  }
  types.push_back(RankedTensorType::get(shape, input->getElementType()));
  return success();
}

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto input = rankedTensor(name, loc, adaptor.getInput().getType(), "input");
  if (failed(input))
    return failure();
  if (!adaptor.getPermAttr())
    return opError(name, loc, "requires attribute 'perm'");
  ArrayRef<int64_t> perm = adaptor.getPerm();
  int64_t rank = input->getRank();
  if (static_cast<int64_t>(perm.size()) != rank)
    return opError(name, loc, "perm ", shapeStr(perm), " has ", perm.size(),
                   " entries but the input has rank ", rank);
  SmallVector<bool> seen(rank, false);
  SmallVector<int64_t> shape;
  for (int64_t p : perm) {
    if (p < 0 || p >= rank || seen[p])
      return opError(name, loc, "perm ", shapeStr(perm),
                     " is not a permutation of [0, ", rank, ")");
    seen[p] = true;
    shape.push_back(input->getDimSize(p));
  }
  types.push_back(RankedTensorType::get(shape, input->getElementType()));
  return success();
}

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  if (adaptor.getInputs().empty())
    return opError(name, loc, "needs at least one input");
  auto first =
      rankedTensor(name, loc, adaptor.getInputs().front().getType(), "input 0");
  if (failed(first))
    return failure();
  int64_t rank = first->getRank();
  if (rank == 0)
    return opError(name, loc, "inputs must have rank 1 or more");
  int64_t axis = adaptor.getAxis();
  if (failed(checkAxis(name, loc, axis, rank, "axis")))
    return failure();
  if (axis < 0)
    axis += rank;
  SmallVector<int64_t> shape(first->getShape());
  for (auto [i, value] : llvm::enumerate(adaptor.getInputs().drop_front())) {
    std::string operand = "input " + std::to_string(i + 1);
    auto t = rankedTensor(name, loc, value.getType(), operand);
    if (failed(t))
      return failure();
    if (t->getElementType() != first->getElementType())
      return opError(name, loc, operand, " has element type ",
                     t->getElementType(), ", input 0 has ",
                     first->getElementType());
    if (t->getRank() != rank)
      return opError(name, loc, operand, " has rank ", t->getRank(),
                     ", input 0 has rank ", rank);
    for (int64_t d = 0; d < rank; ++d) {
      if (d == axis)
        continue;
      if (!dimsAgree(t->getDimSize(d), first->getDimSize(d)))
        return opError(name, loc, operand, " has size ", t->getDimSize(d),
                       " at dim ", d, ", input 0 has ", first->getDimSize(d),
                       " (only axis ", axis, " may differ)");
    }
    if (ShapedType::isDynamic(shape[axis]) || t->isDynamicDim(axis)) {
      shape[axis] = ShapedType::kDynamic;
      continue;
    }
    std::optional<int64_t> sum =
        llvm::checkedAdd(shape[axis], t->getDimSize(axis));
    if (!sum)
      return opError(name, loc, "the sizes along axis ", axis,
                     " add up to more than int64 can count");
    shape[axis] = *sum;
  }
  types.push_back(RankedTensorType::get(shape, first->getElementType()));
  return success();
}


/// One spatial dim of a conv or pool, in checked arithmetic: nullopt when a
/// size on the way (the dilated kernel, the padded input) overflows int64.
static std::optional<ConvDim> convDim(int64_t in, int64_t kernel,
                                      StringRef padMode, int64_t padBefore,
                                      int64_t padAfter, int64_t stride,
                                      int64_t dilation) {
  using llvm::checkedAdd, llvm::checkedMul, llvm::checkedSub;
  std::optional<int64_t> extent = checkedMul(dilation, kernel - 1);
  if (extent)
    extent = checkedAdd(*extent, int64_t(1));
  if (!extent)
    return std::nullopt;
  ConvDim d;
  if (padMode == "same") {
    // ceil(in / stride) without forming in + stride - 1.
    d.output = in / stride + (in % stride != 0);
    std::optional<int64_t> total = checkedMul(d.output - 1, stride);
    if (total)
      total = checkedAdd(*total, *extent);
    if (!total)
      return std::nullopt;
    int64_t padding = std::max<int64_t>(*total - in, 0);
    d.padBefore = padding / 2;
    d.padAfter = padding - d.padBefore;
    return d;
  }
  d.padBefore = padBefore;
  d.padAfter = padAfter;
  std::optional<int64_t> padded = checkedAdd(in, padBefore);
  if (padded)
    padded = checkedAdd(*padded, padAfter);
  if (!padded)
    return std::nullopt;
  d.output = *padded < *extent ? 0 : (*padded - *extent) / stride + 1;
  return d;
}

std::optional<std::pair<ConvDim, ConvDim>>
convGeometry(ArrayRef<int64_t> inputShape, ArrayRef<int64_t> weightShape,
             StringRef padMode, ArrayRef<int64_t> padding,
             ArrayRef<int64_t> stride, ArrayRef<int64_t> dilation,
             std::string &why) {
  if (padMode != "same" && padMode != "valid" && padMode != "pad") {
    why = "pad_mode must be \"same\", \"valid\" or \"pad\", got \"" +
          padMode.str() + "\"";
    return std::nullopt;
  }
  if (padding.size() != 4 || llvm::any_of(padding, [](int64_t p) { return p < 0; })) {
    why = "padding " + shapeStr(padding) +
          " must be four non-negative sizes [top, bottom, left, right]";
    return std::nullopt;
  }
  if (padMode != "pad" && llvm::any_of(padding, [](int64_t p) { return p != 0; })) {
    why = "padding " + shapeStr(padding) + " needs pad_mode \"pad\"";
    return std::nullopt;
  }
  auto positivePair = [](ArrayRef<int64_t> v) {
    return v.size() == 2 && v[0] > 0 && v[1] > 0;
  };
  if (!positivePair(stride) || !positivePair(dilation)) {
    why = "stride " + shapeStr(stride) + " and dilation " + shapeStr(dilation) +
          " must be two positive sizes [h, w]";
    return std::nullopt;
  }
  std::pair<ConvDim, ConvDim> dims;
  for (int i = 0; i < 2; ++i) {
    ConvDim &d = i == 0 ? dims.first : dims.second;
    std::optional<ConvDim> dim =
        convDim(inputShape[2 + i], weightShape[2 + i], padMode,
                padding[2 * i], padding[2 * i + 1], stride[i], dilation[i]);
    const char *axis = i == 0 ? "height" : "width";
    if (!dim) {
      why = std::string("the ") + axis + " geometry (input " +
            std::to_string(inputShape[2 + i]) + ", kernel " +
            std::to_string(weightShape[2 + i]) + ", stride " +
            std::to_string(stride[i]) + ", dilation " +
            std::to_string(dilation[i]) +
            ") has sizes that int64 cannot count";
      return std::nullopt;
    }
    d = *dim;
    if (d.output <= 0) {
      // Pools have no dilation; say "kernel size" unless one is in play.
      int64_t extent = dilation[i] * (weightShape[2 + i] - 1) + 1;
      why = std::string("the ") + axis + " " +
            std::to_string(inputShape[2 + i]) + " is smaller than the " +
            (dilation[i] == 1 ? "kernel size " : "dilated kernel extent ") +
            std::to_string(extent);
      return std::nullopt;
    }
  }
  return dims;
}

LogicalResult Conv2DOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto input = rankedTensor(name, loc, adaptor.getInput().getType(), "input");
  auto weight =
      staticTensor(name, loc, adaptor.getWeight().getType(), "weight");
  if (failed(input) || failed(weight))
    return failure();
  if (input->getRank() != 4 || weight->getRank() != 4)
    return opError(name, loc, "input ", shapeStr(input->getShape()),
                   " and weight ", shapeStr(weight->getShape()),
                   " must have rank 4 (NCHW and [out, in / group, kh, kw])");
  // Only the batch may be ?: channels and spatial sizes shape the kernel.
  for (int64_t dim = 1; dim < 4; ++dim)
    if (failed(requireStaticDim(name, loc, *input, dim, "input",
                                dim == 1 ? "channel count" : "spatial size")))
      return failure();
  if (input->getElementType() != weight->getElementType())
    return opError(name, loc, "element types differ: input ",
                   input->getElementType(), " vs weight ",
                   weight->getElementType());
  // The custom parser infers before default values are filled in: read
  // each attribute defensively.
  int64_t group =
      adaptor.getGroupAttr() ? static_cast<int64_t>(adaptor.getGroup()) : 1;
  int64_t channels = input->getDimSize(1), out = weight->getDimSize(0);
  if (group <= 0 || channels % group != 0 || out % group != 0)
    return opError(name, loc, "group ", group, " must divide the input channels ",
                   channels, " and the output channels ", out);
  if (weight->getDimSize(1) != channels / group)
    return opError(name, loc, "weight ", shapeStr(weight->getShape()),
                   " has ", weight->getDimSize(1),
                   " input channels per group, input has ", channels, " / ",
                   group, " = ", channels / group);
  if (Value biasValue = adaptor.getBias()) {
    auto bias = staticTensor(name, loc, biasValue.getType(), "bias");
    if (failed(bias))
      return failure();
    if (bias->getRank() != 1 || bias->getDimSize(0) != out)
      return opError(name, loc, "bias shape ", shapeStr(bias->getShape()),
                     " does not match the ", out, " output channels");
  }
  std::string why;
  SmallVector<int64_t> zeros(4, 0), ones(2, 1);
  auto geometry = convGeometry(
      input->getShape(), weight->getShape(),
      adaptor.getPadModeAttr() ? adaptor.getPadMode() : StringRef("same"),
      adaptor.getPaddingAttr() ? adaptor.getPadding() : ArrayRef<int64_t>(zeros),
      adaptor.getStrideAttr() ? adaptor.getStride() : ArrayRef<int64_t>(ones),
      adaptor.getDilationAttr() ? adaptor.getDilation() : ArrayRef<int64_t>(ones),
      why);
  if (!geometry)
    return opError(name, loc, why);
  types.push_back(RankedTensorType::get(
      {input->getDimSize(0), out, geometry->first.output,
       geometry->second.output},
      input->getElementType()));
  return success();
}


LogicalResult inferPoolType(StringRef opName, std::optional<Location> loc,
                            Type inputType, ArrayRef<int64_t> kernelSize,
                            ArrayRef<int64_t> stride, StringRef padMode,
                            SmallVectorImpl<Type> &types) {
  auto input = rankedTensor(opName, loc, inputType, "input");
  if (failed(input))
    return failure();
  if (input->getRank() != 4)
    return opError(opName, loc, "input ", shapeStr(input->getShape()),
                   " must have rank 4 (NCHW)");
  for (int64_t dim = 1; dim < 4; ++dim)
    if (failed(requireStaticDim(opName, loc, *input, dim, "input",
                                dim == 1 ? "channel count" : "spatial size")))
      return failure();
  if (padMode != "valid" && padMode != "same")
    return opError(opName, loc, "pad_mode must be \"valid\" or \"same\", got \"",
                   padMode, "\"");
  if (kernelSize.size() != 2 || kernelSize[0] <= 0 || kernelSize[1] <= 0)
    return opError(opName, loc, "kernel_size ", shapeStr(kernelSize),
                   " must be two positive sizes [h, w]");
  SmallVector<int64_t> window = {1, 1, kernelSize[0], kernelSize[1]};
  SmallVector<int64_t> zeros(4, 0), ones(2, 1);
  std::string why;
  auto geometry = convGeometry(input->getShape(), window, padMode, zeros,
                               stride, ones, why);
  if (!geometry)
    return opError(opName, loc, why);
  types.push_back(RankedTensorType::get(
      {input->getDimSize(0), input->getDimSize(1), geometry->first.output,
       geometry->second.output},
      input->getElementType()));
  return success();
}


LogicalResult BatchNormOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto input = rankedTensor(name, loc, adaptor.getInput().getType(), "input");
  if (failed(input))
    return failure();
  if (input->getRank() < 2)
    return opError(name, loc, "input ", shapeStr(input->getShape()),
                   " must have rank 2 or more ([N, C, ...])");
  if (failed(requireStaticDim(name, loc, *input, 1, "input", "channel count")))
    return failure();
  std::pair<Value, StringRef> params[] = {
      {adaptor.getGamma(), "gamma"},
      {adaptor.getBeta(), "beta"},
      {adaptor.getMovingMean(), "moving_mean"},
      {adaptor.getMovingVariance(), "moving_variance"}};
  if (failed(checkParamShapes(name, loc, params, input->getShape().slice(1, 1),
                              "the channels of input " +
                                  shapeStr(input->getShape()))))
    return failure();
  types.push_back(*input);
  return success();
}

LogicalResult LayerNormOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto input = rankedTensor(name, loc, adaptor.getInput().getType(), "input");
  if (failed(input))
    return failure();
  int64_t rank = input->getRank();
  if (rank < 1)
    return opError(name, loc, "input must have rank 1 or more");
  // Read defensively: the attributes may not be attached yet while parsing.
  int64_t normAxis = adaptor.getBeginNormAxisAttr()
                         ? static_cast<int64_t>(adaptor.getBeginNormAxis())
                         : -1;
  int64_t paramsAxis = adaptor.getBeginParamsAxisAttr()
                           ? static_cast<int64_t>(adaptor.getBeginParamsAxis())
                           : -1;
  if (failed(checkAxis(name, loc, normAxis, rank, "begin_norm_axis")) ||
      failed(checkAxis(name, loc, paramsAxis, rank, "begin_params_axis")))
    return failure();
  if (paramsAxis < 0)
    paramsAxis += rank;
  if (normAxis < 0)
    normAxis += rank;
  // The normalized dims and the parameters' dims shape the kernel.
  for (int64_t dim = std::min(normAxis, paramsAxis); dim < rank; ++dim)
    if (failed(requireStaticDim(name, loc, *input, dim, "input",
                                "normalized size")))
      return failure();
  std::pair<Value, StringRef> params[] = {{adaptor.getGamma(), "gamma"},
                                          {adaptor.getBeta(), "beta"}};
  if (failed(checkParamShapes(
          name, loc, params, input->getShape().drop_front(paramsAxis),
          "the dims of input " + shapeStr(input->getShape()) +
              " from begin_params_axis " + std::to_string(paramsAxis))))
    return failure();
  types.push_back(*input);
  return success();
}

//===----------------------------------------------------------------------===//
// Rows of a batch (RowIndependenceOpInterface)
//===----------------------------------------------------------------------===//

std::string DenseOp::whyRowsMix(function_ref<bool(Value)> isBatched) {
  bool paramsBatched =
      isBatched(getWeight()) || (getBias() && isBatched(getBias()));
  return isBatched(getInput()) && !paramsBatched
             ? ""
             : "its weight or bias depends on the batch";
}

std::string MatmulOp::whyRowsMix(function_ref<bool(Value)> isBatched) {
  if (isBatched(getRhs()) || !isBatched(getLhs()))
    return "the batch must be in lhs only";
  if (getLhs().getType().getRank() == 2 && getTransposeA())
    return "transpose_a makes the batch the contraction dim";
  return "";
}

std::string DropoutOp::whyRowsMix(function_ref<bool(Value)>) {
  return getTraining() ? "training dropout numbers elements across the batch"
                       : "";
}

std::string BatchNormOp::whyRowsMix(function_ref<bool(Value)> isBatched) {
  return isBatched(getInput()) &&
                 llvm::none_of(getOperands().drop_front(), isBatched)
             ? ""
             : "its parameters depend on the batch";
}

std::string ReshapeOp::whyRowsMix(function_ref<bool(Value)>) {
  ArrayRef<int64_t> shape = getShape();
  if (shape.empty() || shape[0] != -1 ||
      llvm::is_contained(shape.drop_front(), -1))
    return "the batch must stay dim 0 (shape [-1, ...])";
  int64_t rest = 1;
  for (int64_t d : shape.drop_front())
    rest *= d;
  int64_t rowSize = 1;
  for (int64_t d : getInput().getType().getShape().drop_front())
    rowSize *= d;
  return rest == rowSize ? "" : "it moves elements across rows of the batch";
}

std::string TransposeOp::whyRowsMix(function_ref<bool(Value)>) {
  return getPerm()[0] == 0 ? "" : "it moves the batch dim";
}

std::string ConcatOp::whyRowsMix(function_ref<bool(Value)>) {
  return getNormalizedAxis() != 0 ? "" : "it concatenates along the batch";
}

} // namespace ms
