//===- ConvMatcher.cpp - The im2col conv and its pooled epilogue ----------===//

#include "ConvMatcher.h"

#include "ms/Codegen/CPU/TileSizeModel.h"
#include "ms/Codegen/CPU/VectorizationUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace ms::conv {

namespace {

/// Whether `windows` copies a static [C, H, W] float image into
/// [C, KH, KW, OH, OW] windows; sets conv's geometry and image.
bool matchWindows(linalg::GenericOp windows, Im2colConv &conv) {
  if (!windows || !windows.hasPureTensorSemantics() ||
      windows.getNumDpsInputs() != 1 || windows.getNumDpsInits() != 1 ||
      windows.getNumParallelLoops() != 5 || windows.getNumLoops() != 5)
    return false;
  Block *body = windows.getBody();
  if (!body->without_terminator().empty() ||
      body->getTerminator()->getOperand(0) != body->getArgument(0))
    return false;
  auto imageType =
      dyn_cast<RankedTensorType>(windows.getDpsInputs()[0].getType());
  auto windowsType = cast<RankedTensorType>(windows.getResult(0).getType());
  if (!imageType || imageType.getRank() != 3 ||
      !imageType.hasStaticShape() || !windowsType.hasStaticShape() ||
      !isa<FloatType>(imageType.getElementType()))
    return false;
  AffineMap imageMap = windows.getIndexingMapsArray()[0];
  if (!windows.getIndexingMapsArray()[1].isIdentity() ||
      imageMap.getResult(0) != getAffineDimExpr(0, windows.getContext()))
    return false;
  auto rows = linearCoefficients(imageMap.getResult(1), 5);
  auto cols = linearCoefficients(imageMap.getResult(2), 5);
  // Loops (c, kh, kw, oh, ow): rows at oh*sh + kh*dh, columns at
  // ow*sw + kw*dw.
  if (!rows || !cols || (*rows)[0] || (*rows)[2] || (*rows)[4] ||
      (*cols)[0] || (*cols)[1] || (*cols)[3] || (*cols)[4] < 1 ||
      (*rows)[3] < 1 || (*rows)[1] < 1 || (*cols)[2] < 1)
    return false;
  ArrayRef<int64_t> shape = windowsType.getShape();
  conv.channels = shape[0];
  conv.kernelH = shape[1];
  conv.kernelW = shape[2];
  conv.outH = shape[3];
  conv.outW = shape[4];
  conv.strideH = (*rows)[3];
  conv.strideW = (*cols)[4];
  conv.dilationH = (*rows)[1];
  conv.dilationW = (*cols)[2];
  conv.image = windows.getDpsInputs()[0];
  return true;
}

/// Whether `matmul` is [O, C*KH*KW] x [C*KH*KW, OH*OW] -> [O, OH*OW] for
/// conv's geometry, all static, of the image's type; sets its weights.
bool matchProduct(linalg::MatmulOp matmul, Im2colConv &conv) {
  Type elementType = getElementTypeOrSelf(conv.image.getType());
  auto weightsType =
      dyn_cast<RankedTensorType>(matmul.getDpsInputs()[0].getType());
  auto productType = dyn_cast<RankedTensorType>(matmul.getResult(0).getType());
  if (!weightsType || !productType || !weightsType.hasStaticShape() ||
      !productType.hasStaticShape() ||
      weightsType.getElementType() != elementType ||
      productType.getElementType() != elementType ||
      weightsType.getDimSize(1) !=
          conv.channels * conv.kernelH * conv.kernelW ||
      productType.getDimSize(0) != weightsType.getDimSize(0) ||
      productType.getDimSize(1) != conv.outH * conv.outW)
    return false;
  conv.weights = matmul.getDpsInputs()[0];
  conv.channelsOut = productType.getDimSize(0);
  return true;
}

} // namespace

std::optional<Im2colConv> matchIm2colConv(linalg::MatmulOp matmul) {
  if (!matmul.hasPureTensorSemantics() || matmul.hasUserDefinedMaps())
    return std::nullopt;
  Im2colConv conv;
  conv.matmul = matmul;
  conv.columns =
      matmul.getDpsInputs()[1].getDefiningOp<tensor::CollapseShapeOp>();
  if (!conv.columns ||
      conv.columns.getReassociationIndices() !=
          SmallVector<ReassociationIndices>{{0, 1, 2}, {3, 4}})
    return std::nullopt;
  conv.windows = conv.columns.getSrc().getDefiningOp<linalg::GenericOp>();
  if (!matchWindows(conv.windows, conv) ||
      // Each kw of the kernel is unrolled into the tile's straight-line code.
      conv.kernelW > kMaxUnrolledTaps || !matchProduct(matmul, conv))
    return std::nullopt;
  return conv;
}

/// The dim of `vector` (statically [.., O, ..], unit dims elsewhere) that
/// `map` reads at the output channel d1, if it reads nothing else.
std::optional<unsigned> channelDim(AffineMap map, Value vector,
                                   int64_t channels) {
  auto type = dyn_cast<RankedTensorType>(vector.getType());
  if (!type || !type.hasStaticShape() ||
      map.getNumResults() != type.getRank())
    return std::nullopt;
  std::optional<unsigned> found;
  for (unsigned i = 0; i < map.getNumResults(); ++i) {
    AffineExpr e = map.getResult(i);
    if (e == getAffineDimExpr(1, map.getContext()) && !found &&
        type.getDimSize(i) == channels)
      found = i;
    else if (!(isa<AffineConstantExpr>(e) &&
               cast<AffineConstantExpr>(e).getValue() == 0 &&
               type.getDimSize(i) == 1))
      return std::nullopt;
  }
  return found;
}

namespace {

/// Whether `generic` maps [N, O, H, W] elementwise from `data` (read at the
/// same point) and vectors along O (read at [o] of a [.., O, ..] tensor of
/// unit dims otherwise), all of `data`'s element type, with a body of arith
/// ops and square roots only: the ops every mode runs the same way on
/// vectors (exp and the like are libm calls, DESIGN §7).
bool isChannelwise(linalg::GenericOp generic, Value data, int64_t channels) {
  Type elementType = getElementTypeOrSelf(data.getType());
  if (!generic.hasPureTensorSemantics() || generic.getNumDpsInits() != 1 ||
      generic.getNumLoops() != 4 ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      !generic.getIndexingMapsArray().back().isIdentity() ||
      !generic->getResult(0).hasOneUse() ||
      !llvm::all_of(generic->getOperandTypes(), [&](Type t) {
        return getElementTypeOrSelf(t) == elementType;
      }))
    return false;
  Block *body = generic.getBody();
  if (!body->getArgument(generic.getNumDpsInputs()).use_empty())
    return false;
  bool readsData = false;
  for (OpOperand *input : generic.getDpsInputOperands()) {
    AffineMap map = generic.getMatchingIndexingMap(input);
    if (input->get() == data && map.isIdentity()) {
      readsData = true;
      continue;
    }
    if (!channelDim(map, input->get(), channels))
      return false;
  }
  for (Operation &op : body->without_terminator())
    if (op.getNumRegions() || op.getNumResults() != 1 || !isPure(&op) ||
        !op.getResult(0).getType().isIntOrFloat() ||
        !(isa<arith::ArithDialect>(op.getDialect()) || isa<math::SqrtOp>(op)))
      return false;
  return readsData;
}

/// The one op of `generic`'s body besides constants, if it is an OpTy and
/// the body yields it.
template <typename OpTy> OpTy soleBodyOp(linalg::GenericOp generic) {
  Block *body = generic.getBody();
  OpTy sole;
  for (Operation &op : body->without_terminator()) {
    if (isa<arith::ConstantOp>(op))
      continue;
    if (sole || !isa<OpTy>(op))
      return nullptr;
    sole = cast<OpTy>(op);
  }
  if (!sole || body->getTerminator()->getOperand(0) != sole.getResult())
    return nullptr;
  return sole;
}

/// The image loop around `conv` and the slice of the batch it reads, if
/// the loop writes the image's product, and nothing else, at [iv, 0, 0, 0].
bool matchImageLoop(const Im2colConv &conv, PooledEpilogue &fused) {
  scf::ForallOp loop =
      dyn_cast_or_null<scf::ForallOp>(conv.matmul->getParentOp());
  if (!loop || loop.getRank() != 1 || loop.getMapping() ||
      loop->getNumResults() != 1 || !loop->getResult(0).hasOneUse())
    return false;
  fused.loop = loop;
  Value iv = loop.getInductionVar(0);
  // The image: a slice of something outside the loop, placed by the iv.
  fused.imageSlice = conv.image.getDefiningOp<tensor::ExtractSliceOp>();
  if (!fused.imageSlice || fused.imageSlice->getParentOp() != loop ||
      !llvm::all_of(fused.imageSlice->getOperands(), [&](Value v) {
        return v == iv || loop.isDefinedOutsideOfLoop(v);
      }))
    return false;
  auto yielding = loop.getTerminator().getYieldingOps();
  if (!llvm::hasSingleElement(yielding) || !conv.matmul->hasOneUse())
    return false;
  auto insert = dyn_cast<tensor::ParallelInsertSliceOp>(*yielding.begin());
  auto expand = insert ? insert.getSource().getDefiningOp<tensor::ExpandShapeOp>()
                       : nullptr;
  auto convType = cast<RankedTensorType>(loop->getResult(0).getType());
  return expand && expand.getSrc() == conv.matmul->getResult(0) &&
         convType.getRank() == 4 && convType.getDimSize(2) == conv.outH &&
         convType.getDimSize(3) == conv.outW &&
         dyn_cast<Value>(insert.getMixedOffsets()[0]) == iv &&
         llvm::all_of(ArrayRef(insert.getMixedOffsets()).drop_front(),
                      [](OpFoldResult v) { return isConstantIntValue(v, 0); }) &&
         areAllConstantIntValue(insert.getMixedStrides(), 1) &&
         insert.getSourceType().getShape() ==
             ArrayRef<int64_t>{1, convType.getDimSize(1), conv.outH, conv.outW};
}

/// The channelwise generics that follow the image loop, into fused.chain;
/// returns the last one's result (the loop's if there is none).
Value matchChain(PooledEpilogue &fused) {
  Value value = fused.loop->getResult(0);
  int64_t channels = cast<ShapedType>(value.getType()).getDimSize(1);
  auto next = dyn_cast<linalg::GenericOp>(*value.user_begin());
  while (next && isChannelwise(next, value, channels)) {
    fused.chain.push_back(next);
    value = next->getResult(0);
    next = dyn_cast<linalg::GenericOp>(*value.user_begin());
  }
  // A last link that is exactly max(x, c), c +0 or above, clamps once.
  if (fused.chain.empty())
    return value;
  linalg::GenericOp last = fused.chain.back();
  auto relu = soleBodyOp<arith::MaximumFOp>(last);
  Value in = last.getBody()->getArgument(0);
  if (!relu || last.getNumDpsInputs() != 1 ||
      (relu.getLhs() != in && relu.getRhs() != in))
    return value;
  Value bound = relu.getLhs() == in ? relu.getRhs() : relu.getLhs();
  FloatAttr c;
  if (clampMergesZeros(bound, /*isMax=*/true) &&
      matchPattern(bound, m_Constant(&c)))
    fused.clampValue = c;
  return value;
}

/// Whether `pool` reads its input `in` in windowH x windowW windows at
/// their own stride that tile the conv's [outH, outW] image.
bool matchPoolWindows(const Im2colConv &conv, linalg::GenericOp pool,
                      Value in, PooledEpilogue &fused) {
  if (!pool || !pool.hasPureTensorSemantics() || pool.getNumDpsInits() != 1 ||
      pool.getNumLoops() != 6 || pool.getNumParallelLoops() != 4 ||
      pool.getDpsInputs()[0] != in)
    return false;
  SmallVector<int64_t> ranges = pool.getStaticLoopRanges();
  fused.windowH = ranges[4];
  fused.windowW = ranges[5];
  SmallVector<AffineMap> maps = pool.getIndexingMapsArray();
  MLIRContext *ctx = pool.getContext();
  AffineMap inMap = maps[0];
  auto rows = linearCoefficients(inMap.getResult(2), 6);
  auto cols = linearCoefficients(inMap.getResult(3), 6);
  SmallVector<AffineExpr> pooledDims;
  for (unsigned i = 0; i < 4; ++i)
    pooledDims.push_back(getAffineDimExpr(i, ctx));
  return inMap.getNumResults() == 4 &&
         maps.back() == AffineMap::get(6, 0, pooledDims, ctx) &&
         inMap.getResult(0) == getAffineDimExpr(0, ctx) &&
         inMap.getResult(1) == getAffineDimExpr(1, ctx) && rows && cols &&
         *rows == SmallVector<int64_t>{0, 0, fused.windowH, 0, 1, 0} &&
         *cols == SmallVector<int64_t>{0, 0, 0, fused.windowW, 0, 1} &&
         conv.outH % fused.windowH == 0 && conv.outW % fused.windowW == 0 &&
         ranges[2] == conv.outH / fused.windowH &&
         ranges[3] == conv.outW / fused.windowW &&
         // The window is unrolled in the tile; it divides the conv's output,
         // whose element count fits in int64, so the product does too.
         fused.windowH * fused.windowW <= kMaxUnrolledTaps;
}

/// Whether `pool`'s body is max(window, acc) on an output filled with -inf.
bool matchMaxFromMinusInfinity(linalg::GenericOp pool,
                               PooledEpilogue &fused) {
  Block *poolBody = pool.getBody();
  for (unsigned i = 1, e = pool.getNumDpsInputs(); i < e; ++i)
    if (!poolBody->getArgument(i).use_empty())
      return false;
  auto combine = soleBodyOp<arith::MaximumFOp>(pool);
  Value window = poolBody->getArgument(0);
  Value acc = poolBody->getArgument(pool.getNumDpsInputs());
  if (!combine ||
      !((combine.getLhs() == window && combine.getRhs() == acc) ||
        (combine.getLhs() == acc && combine.getRhs() == window)))
    return false;
  fused.poolFill = pool.getDpsInits()[0].getDefiningOp();
  FloatAttr fill;
  Value filledValue = fused.poolFill ? filledScalar(fused.poolFill) : nullptr;
  return filledValue && pool.getDpsInits()[0].hasOneUse() &&
         matchPattern(filledValue, m_Constant(&fill)) &&
         fill.getValue().isInfinity() && fill.getValue().isNegative();
}

} // namespace

std::optional<PooledEpilogue> matchPooledEpilogue(const Im2colConv &conv) {
  PooledEpilogue fused;
  if (!matchImageLoop(conv, fused))
    return std::nullopt;
  Value pooled = matchChain(fused);
  fused.pool = dyn_cast<linalg::GenericOp>(*pooled.user_begin());
  if (!matchPoolWindows(conv, fused.pool, pooled, fused) ||
      !matchMaxFromMinusInfinity(fused.pool, fused))
    return std::nullopt;
  // The product starts from a filled constant (zeros).
  linalg::MatmulOp matmul = conv.matmul;
  Operation *productFill = matmul.getDpsInits()[0].getDefiningOp();
  Value start = productFill ? filledScalar(productFill) : nullptr;
  if (!start || !matchPattern(start, m_Constant(&fused.productStart)))
    return std::nullopt;
  return fused;
}

} // namespace ms::conv
