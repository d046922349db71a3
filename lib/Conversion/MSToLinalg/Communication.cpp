//===- Communication.cpp - ms.all_reduce to runtime calls -----------------===//
//
// ms.all_reduce becomes calls into the runtime's MPI layer
// (runtime/Communication.h) on a buffer of its own:
//
//   %copy = bufferization.alloc_tensor() copy(%x)   a fresh buffer
//   %buf  = bufferization.to_buffer %copy            its memref
//   %ptr  = memref.extract_aligned_pointer_as_index %buf -> llvm.ptr
//   func.call @ms_comm_all_reduce_start_f32(%ptr, %count, %op)
//   ...                                              what runs meanwhile
//   func.call @ms_comm_all_reduce_wait(%ptr)
//   %r    = bufferization.to_tensor %buf restrict writable
//
// The start is where the op is and the wait just before the first op that
// reads its result, so the ops between them (the rest of backward, when
// ms-start-collectives-early has moved a gradient bucket's all_reduce up)
// run while the bucket is reduced. When the result is read by the next op,
// there is nothing to overlap and one blocking call, @ms_comm_all_reduce_f32,
// takes the place of the pair.
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
#include "ms/Support/RuntimeFunctions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace ms;

namespace {

/// The runtime function `name`, declared in `op`'s module on first use.
FailureOr<func::FuncOp> runtimeFunction(ConversionPatternRewriter &rewriter,
                                        Operation *op, StringRef name,
                                        TypeRange arguments) {
  auto module = op->getParentOfType<ModuleOp>();
  if (!module)
    return failure();
  return lookupOrDeclareRuntimeFunction(rewriter, module, name, arguments);
}

/// The op of `op`'s block that first reads its result, itself or inside
/// its regions; null when none in this block does.
Operation *firstReaderInBlock(Operation *op) {
  Operation *first = nullptr;
  for (Operation *user : op->getUsers()) {
    Operation *reader = op->getBlock()->findAncestorOpInBlock(*user);
    if (reader && (!first || reader->isBeforeInBlock(first)))
      first = reader;
  }
  return first;
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
    Value buffer = reducedBuffer(op, adaptor, rewriter);
    Value pointer = pointerTo(buffer, loc, rewriter);
    Operation *reader = firstReaderInBlock(op);
    // Nothing runs between the op and its first reader: one blocking call.
    bool overlap = reader && reader != op->getNextNode();
    std::string suffix = type.getElementType().isF64() ? "_f64" : "_f32";
    MLIRContext *ctx = rewriter.getContext();
    Type ptrType = LLVM::LLVMPointerType::get(ctx);
    FailureOr<func::FuncOp> reduce = runtimeFunction(
        rewriter, op,
        (overlap ? "ms_comm_all_reduce_start" : "ms_comm_all_reduce") +
            suffix,
        {ptrType, rewriter.getI64Type(), rewriter.getI32Type()});
    if (failed(reduce))
      return rewriter.notifyMatchFailure(op, "not inside a module");
    Value count = arith::ConstantIntOp::create(rewriter, loc,
                                               type.getNumElements(), 64);
    Value code = arith::ConstantIntOp::create(
        rewriter, loc, AllReduceOp::reduceOpCode(op.getReduceOp()), 32);
    func::CallOp::create(rewriter, loc, *reduce,
                         ValueRange{pointer, count, code});
    if (overlap) {
      FailureOr<func::FuncOp> wait = runtimeFunction(
          rewriter, op, "ms_comm_all_reduce_wait", {ptrType});
      if (failed(wait))
        return failure();
      rewriter.setInsertionPoint(reader);
      func::CallOp::create(rewriter, loc, *wait, ValueRange{pointer});
    }
    Value result = bufferization::ToTensorOp::create(
        rewriter, loc, type, buffer, /*restrict=*/true, /*writable=*/true);
    rewriter.replaceOp(op, result);
    return success();
  }

private:
  /// The memref the runtime reduces in place: the input's own buffer for a
  /// private fresh concatenation, else a copy.
  static Value reducedBuffer(AllReduceOp op, OpAdaptor adaptor,
                             ConversionPatternRewriter &rewriter) {
    auto type = cast<RankedTensorType>(op.getType());
    Value copy =
        isPrivateFreshTensor(op.getInput())
            ? adaptor.getInput()
            : bufferization::AllocTensorOp::create(rewriter, op.getLoc(),
                                                   type, ValueRange{},
                                                   adaptor.getInput());
    auto memrefType =
        MemRefType::get(type.getShape(), type.getElementType());
    return bufferization::ToBufferOp::create(rewriter, op.getLoc(),
                                             memrefType, copy);
  }

  /// `buffer`'s aligned address as an !llvm.ptr.
  static Value pointerTo(Value buffer, Location loc,
                         ConversionPatternRewriter &rewriter) {
    Value address =
        memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc, buffer);
    Value address64 = arith::IndexCastOp::create(
        rewriter, loc, rewriter.getI64Type(), address);
    return LLVM::IntToPtrOp::create(
        rewriter, loc, LLVM::LLVMPointerType::get(rewriter.getContext()),
        address64);
  }
};

} // namespace

void ms::populateCommunicationToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<AllReducePattern>(patterns.getContext());
}
