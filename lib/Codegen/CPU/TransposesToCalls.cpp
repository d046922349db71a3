//===- TransposesToCalls.cpp - 2-D transposes as runtime kernel calls -----===//
//
// After bufferization, each 2-D f32 or f64 `linalg.transpose` becomes a call
// to the runtime's transpose kernel (ms_transpose_f32 / ms_transpose_f64,
// lib/Runtime/Microkernels.cpp), through MLIR's C interface. Generated in
// the kernel, a block transpose's vector shuffles cost LLVM 8-15 ms of
// instruction selection per block; the call costs nothing to compile, and
// a dense layer at batch 64 runs 1-4% slower with it (docs/performance.md).
// Other transposes stay linalg ops and become loops.
//
//===----------------------------------------------------------------------===//

#include "ms/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
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
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  MemRefType matrix = anyMatrixOf(elementType);
  auto kernel = func::FuncOp::create(
      b, module.getLoc(), name, b.getFunctionType({matrix, matrix}, {}));
  kernel.setPrivate();
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

void replaceWithCall(RewriterBase &rewriter, ModuleOp module,
                     linalg::TransposeOp op) {
  Type elementType = op.getInput().getType().getElementType();
  func::FuncOp kernel =
      declareKernel(module, kernelFor(elementType), elementType);
  rewriter.setInsertionPoint(op);
  MemRefType matrix = anyMatrixOf(elementType);
  SmallVector<Value> operands;
  for (Value buffer : {op.getInput(), op.getInit()})
    operands.push_back(
        memref::CastOp::create(rewriter, op.getLoc(), matrix, buffer));
  func::CallOp::create(rewriter, op.getLoc(), kernel, operands);
  rewriter.eraseOp(op);
}

struct MSTransposesToCallsPass
    : ms::impl::MSTransposesToCallsBase<MSTransposesToCallsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<linalg::TransposeOp> transposes;
    module.walk([&](linalg::TransposeOp op) {
      if (isMatrixTranspose(op))
        transposes.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::TransposeOp op : transposes)
      replaceWithCall(rewriter, module, op);
  }
};

} // namespace
