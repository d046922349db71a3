//===- TransposesToCalls.cpp - 2-D transposes as runtime kernel calls -----===//
//
// After bufferization, each 2-D f32 or f64 `linalg.transpose` becomes a call
// to the runtime's transpose kernel (ms_transpose_f32 / ms_transpose_f64,
// lib/Runtime/Jit/Microkernels.cpp), through MLIR's C interface. Generated in
// the kernel, a block transpose's vector shuffles cost LLVM 8-15 ms of
// instruction selection per block; the call costs nothing to compile, and
// a dense layer at batch 64 runs 1-4% slower with it (docs/performance-history.md).
// Other transposes stay linalg ops and become loops.
//
// With threads, a large transpose outside the parallel loops (a dense
// layer's x^T at every level, and its result back where a later op needs
// it so) would run on one thread while the others wait; it becomes one
// call per band of output rows in an scf.forall instead, the bands chosen
// by TileSizeModel.
//
//===----------------------------------------------------------------------===//

#include "ms/Codegen/CPU/Passes.h"
#include "ms/Codegen/CPU/TileSizeModel.h"
#include "ms/Support/RuntimeFunctions.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

namespace ms {
#define GEN_PASS_DEF_MSTRANSPOSESTOCALLS
#include "ms/Codegen/CPU/Passes.h.inc"
} // namespace ms

using namespace mlir;
using namespace ms;

namespace {

/// The kernel for `elementType`, or "" if the runtime has none.
StringRef kernelFor(Type elementType) {
  if (elementType.isF32())
    return "ms_transpose_f32";
  if (elementType.isF64())
    return "ms_transpose_f64";
  return "";
}

/// A 2-D memref of `elementType` with any sizes, strides and offset: the
/// kernel's parameter type, which every 2-D buffer casts to.
MemRefType anyMatrixOf(Type elementType) {
  MLIRContext *ctx = elementType.getContext();
  int64_t dynamic = ShapedType::kDynamic;
  auto layout = StridedLayoutAttr::get(ctx, dynamic, {dynamic, dynamic});
  return MemRefType::get({dynamic, dynamic}, elementType, layout);
}

/// `name`'s declaration in `module`, added on first use.
func::FuncOp declareKernel(ModuleOp module, StringRef name, Type elementType) {
  OpBuilder b(module.getContext());
  MemRefType matrix = anyMatrixOf(elementType);
  func::FuncOp kernel =
      ms::lookupOrDeclareRuntimeFunction(b, module, name, {matrix, matrix});
  // The runtime defines _mlir_ciface_<name>, which takes descriptors.
  kernel->setAttr("llvm.emit_c_interface", b.getUnitAttr());
  return kernel;
}

bool isMatrixTranspose(linalg::TransposeOp op) {
  auto input = dyn_cast<MemRefType>(op.getInput().getType());
  return input && input.getRank() == 2 &&
         op.getPermutation() == ArrayRef<int64_t>{1, 0} &&
         !kernelFor(input.getElementType()).empty();
}

/// A call of `kernel` on `input` and `init`, each cast to its parameter type.
void emitCall(OpBuilder &b, Location loc, func::FuncOp kernel, Value input,
              Value init) {
  MemRefType matrix = anyMatrixOf(getElementTypeOrSelf(input.getType()));
  SmallVector<Value> operands;
  for (Value buffer : {input, init})
    operands.push_back(memref::CastOp::create(b, loc, matrix, buffer));
  func::CallOp::create(b, loc, kernel, operands);
}

/// Output rows per thread when `op` is worth splitting over `threads`
/// (static, outside every parallel loop), else 0.
int64_t bandOf(linalg::TransposeOp op, unsigned threads) {
  auto input = cast<MemRefType>(op.getInput().getType());
  if (!input.hasStaticShape() || op->getParentOfType<scf::ForallOp>() ||
      op->getParentOfType<scf::ParallelOp>())
    return 0;
  return ms::chooseTransposeBand(input.getDimSize(0), input.getDimSize(1),
                                 threads);
}

/// One call per band of `band` output rows (input columns), in an
/// scf.forall: band i copies input columns [i * band, i * band + size) to
/// the same output rows, the last band's size clamped by an affine.min.
void emitBandCalls(OpBuilder &b, func::FuncOp kernel, linalg::TransposeOp op,
                   int64_t band) {
  Location loc = op.getLoc();
  int64_t rows = op.getInput().getType().getDimSize(0);
  int64_t cols = op.getInput().getType().getDimSize(1);
  OpFoldResult bands = b.getIndexAttr(llvm::divideCeil(cols, band));
  auto loop = scf::ForallOp::create(b, loc, ArrayRef<OpFoldResult>{bands},
                                    ValueRange{}, std::nullopt);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getTerminator());
  AffineExpr i = b.getAffineDimExpr(0);
  Value iv = loop.getInductionVar(0);
  OpFoldResult offset =
      affine::makeComposedFoldedAffineApply(b, loc, i * band, {iv});
  AffineMap clamped = AffineMap::get(
      1, 0, {b.getAffineConstantExpr(band), cols - i * band}, b.getContext());
  OpFoldResult size =
      affine::makeComposedFoldedAffineMin(b, loc, clamped, {iv});
  OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
  Value input = memref::SubViewOp::create(
      b, loc, op.getInput(), {zero, offset}, {b.getIndexAttr(rows), size},
      {one, one});
  Value init = memref::SubViewOp::create(b, loc, op.getInit(), {offset, zero},
                                         {size, b.getIndexAttr(rows)},
                                         {one, one});
  emitCall(b, loc, kernel, input, init);
}

void replaceWithCalls(RewriterBase &rewriter, ModuleOp module,
                      linalg::TransposeOp op, unsigned threads) {
  Type elementType = op.getInput().getType().getElementType();
  func::FuncOp kernel =
      declareKernel(module, kernelFor(elementType), elementType);
  rewriter.setInsertionPoint(op);
  if (int64_t band = bandOf(op, threads))
    emitBandCalls(rewriter, kernel, op, band);
  else
    emitCall(rewriter, op.getLoc(), kernel, op.getInput(), op.getInit());
  rewriter.eraseOp(op);
}

struct MSTransposesToCallsPass
    : ms::impl::MSTransposesToCallsBase<MSTransposesToCallsPass> {
  using MSTransposesToCallsBase::MSTransposesToCallsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<linalg::TransposeOp> transposes;
    module.walk([&](linalg::TransposeOp op) {
      if (isMatrixTranspose(op))
        transposes.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::TransposeOp op : transposes)
      replaceWithCalls(rewriter, module, op, numThreads);
  }
};

} // namespace
