//===- Communication.cpp - ms.all_reduce to a runtime call ----------------===//
//
// ms.all_reduce becomes a call into the runtime's MPI layer
// (runtime/Communication.h) on a buffer of its own:
//
//   %copy = bufferization.alloc_tensor() copy(%x)   a fresh buffer
//   %buf  = bufferization.to_buffer %copy            its memref
//   %ptr  = memref.extract_aligned_pointer_as_index %buf -> llvm.ptr
//   func.call @ms_comm_all_reduce_f32(%ptr, %count, %op)   in place
//   %r    = bufferization.to_tensor %buf restrict writable
//
// The copy keeps the input intact (it may be a parameter, an input or be
// read again) and gives the call a contiguous, identity-layout buffer. It is
// an alloc_tensor, not a linalg.copy into tensor.empty: canonicalization
// folds such an identity copy away, and the call then wrote into the
// function's input buffer (bufferization treats arguments as writable).
//
// One input needs no copy: a concatenation of several non-empty tensors
// that only this all_reduce reads (a gradient bucket of
// nn.DistributedGradReducer). Its lowering, insert_slices into a
// tensor.empty, is a fresh buffer nothing else sees, so the call reduces it
// in place and the step saves a pass over the bucket.
//
// Not MLIR's `mpi` dialect: in MLIR 22 it mislowers against OpenMPI
// (docs/distributed.md).
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace ms;

namespace {

/// The runtime entry point of an element type, declared in the module on
/// first use: (ptr data, i64 count, i32 reduce op) -> ().
FailureOr<func::FuncOp> runtimeFunction(ConversionPatternRewriter &rewriter,
                                        Operation *op, Type element) {
  StringRef name = element.isF64() ? "ms_comm_all_reduce_f64"
                                   : "ms_comm_all_reduce_f32";
  auto module = op->getParentOfType<ModuleOp>();
  if (!module)
    return failure();
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(module.getBody());
  MLIRContext *ctx = rewriter.getContext();
  auto type = FunctionType::get(
      ctx,
      {LLVM::LLVMPointerType::get(ctx), rewriter.getI64Type(),
       rewriter.getI32Type()},
      {});
  auto func = func::FuncOp::create(rewriter, op->getLoc(), name, type);
  func.setPrivate();
  return func;
}

/// Whether the call may write into `input`'s own buffer: a concatenation
/// read only here, of two or more tensors that are not empty along the
/// axis. (With one such tensor, canonicalization folds the full-size
/// insert_slice into that tensor, which may be an argument.) The uses are
/// the ms-level ones; a CSE that merged two equal concatenations after
/// this would alias their calls, and none runs before bufferization.
bool isPrivateFreshTensor(Value input) {
  auto concat = input.getDefiningOp<ConcatOp>();
  if (!concat || !input.hasOneUse())
    return false;
  int64_t axis = concat.getNormalizedAxis();
  return llvm::count_if(concat.getInputs(), [&](Value piece) {
           int64_t extent =
               cast<RankedTensorType>(piece.getType()).getDimSize(axis);
           return extent != 0 && !ShapedType::isDynamic(extent);
         }) >= 2;
}

struct AllReducePattern : OpConversionPattern<AllReduceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AllReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    FailureOr<func::FuncOp> callee =
        runtimeFunction(rewriter, op, type.getElementType());
    if (failed(callee))
      return rewriter.notifyMatchFailure(op, "not inside a module");
    Value copy =
        isPrivateFreshTensor(op.getInput())
            ? adaptor.getInput()
            : bufferization::AllocTensorOp::create(rewriter, loc, type,
                                                   ValueRange{},
                                                   adaptor.getInput());
    auto memrefType =
        MemRefType::get(type.getShape(), type.getElementType());
    Value buffer =
        bufferization::ToBufferOp::create(rewriter, loc, memrefType, copy);
    Value address =
        memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc, buffer);
    Value address64 = arith::IndexCastOp::create(
        rewriter, loc, rewriter.getI64Type(), address);
    Value pointer = LLVM::IntToPtrOp::create(
        rewriter, loc, LLVM::LLVMPointerType::get(rewriter.getContext()),
        address64);
    Value count = arith::ConstantIntOp::create(rewriter, loc,
                                               type.getNumElements(), 64);
    Value code = arith::ConstantIntOp::create(
        rewriter, loc, AllReduceOp::reduceOpCode(op.getReduceOp()), 32);
    func::CallOp::create(rewriter, loc, *callee,
                         ValueRange{pointer, count, code});
    Value result = bufferization::ToTensorOp::create(
        rewriter, loc, type, buffer, /*restrict=*/true, /*writable=*/true);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void ms::populateCommunicationToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<AllReducePattern>(patterns.getContext());
}
