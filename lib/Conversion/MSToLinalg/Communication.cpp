//===- Communication.cpp - ms.all_reduce to runtime calls -----------------===//
//
// ms.all_reduce becomes calls into the runtime's MPI layer
// (Runtime/Communication/Communication.h) on a buffer of its own:
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
// A gradient bucket's sum (a sum of f32 or f64 over a private fresh
// concatenation, in an entry function's body) reads the other rank's
// bucket where it is used instead (addSharedBucketArguments): the entry
// gets a trailing argument, `ms.comm_peer = k`, which callers do not pass,
// and the call is tagged with the bucket:
//
//   func.call @ms_comm_share_bucket_f32(%ptr, %count, %k) {ms.comm_bucket = k}
//   %own = bufferization.to_tensor %buf restrict writable
//   %sum = linalg.generic {ms.bucket_sum} (%own + %peer)
//
// After bufferization the bucket's buffer becomes an argument too
// (ms-share-gradient-buckets), so the runtime provides both. With two ranks
// on one host they are an MPI-3 shared window: the call waits until both
// ranks have written their bucket, and each slice of %sum, which a
// parameter's optimizer update reads, fuses into that update
// (splitBucketSumSlices), so the other rank's gradients are read once,
// where they are used. Otherwise the call all-reduces the bucket in place
// over MPI and %peer holds -0.0, the sum's identity, so %sum is the
// bucket's bits. Either way each element is r0 + r1 or MPI's sum: the bits
// of the plain all-reduce (docs/distributed.md, "Shared gradient buckets").
//
// Not MLIR's `mpi` dialect: in MLIR 22 it mislowers against OpenMPI
// (docs/distributed.md).
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "ms/Support/ArgumentAttributes.h"
#include "ms/Support/RuntimeFunctions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
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

constexpr StringLiteral kSharedBucketAttr = "ms.shared_bucket";
constexpr StringLiteral kBucketSumAttr = "ms.bucket_sum";

/// Whether `op` sums a gradient bucket the runtime can share: a 1-D f32 or
/// f64 private fresh concatenation (nn.DistributedGradReducer's flattened
/// gradients), directly in the body of an entry (a public function nothing
/// calls), so that the bucket can be a trailing argument and is written
/// once per call.
bool sumsSharedBucket(AllReduceOp op) {
  auto func = dyn_cast<func::FuncOp>(op->getParentOp());
  auto module = func ? func->getParentOfType<ModuleOp>() : nullptr;
  Type element = op.getType().getElementType();
  return module && func.isPublic() && op.getReduceOp() == "sum" &&
         op.getType().getRank() == 1 &&
         (element.isF32() || element.isF64()) &&
         isPrivateFreshTensor(op.getInput()) &&
         SymbolTable::symbolKnownUseEmpty(func, module);
}

/// `a + b` elementwise, as a linalg.generic of identity maps.
Value elementwiseSum(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  auto type = cast<RankedTensorType>(lhs.getType());
  Value init = tensor::EmptyOp::create(b, loc, type.getShape(),
                                       type.getElementType());
  SmallVector<AffineMap> maps(
      3, b.getMultiDimIdentityMap(static_cast<unsigned>(type.getRank())));
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{lhs, rhs}, ValueRange{init},
             maps, iterators,
             [](OpBuilder &nested, Location nestedLoc, ValueRange args) {
               Value sum = arith::AddFOp::create(nested, nestedLoc, args[0],
                                                 args[1]);
               linalg::YieldOp::create(nested, nestedLoc, sum);
             })
      .getResult(0);
}

struct AllReducePattern : OpConversionPattern<AllReduceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AllReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (auto id = op->getAttrOfType<IntegerAttr>(kSharedBucketAttr))
      return rewriteShared(op, adaptor, rewriter, id.getInt());
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
  /// The bucket shared (the call waits for the other rank, or all-reduces
  /// it on MPI), then summed with the other rank's.
  static LogicalResult rewriteShared(AllReduceOp op, OpAdaptor adaptor,
                                     ConversionPatternRewriter &rewriter,
                                     int64_t id) {
    Location loc = op.getLoc();
    auto func = cast<func::FuncOp>(op->getParentOp());
    BlockArgument peer = ms::taggedArgument(func, kCommPeerAttr, id);
    if (!peer)
      return rewriter.notifyMatchFailure(op, "no shared bucket argument");
    auto type = cast<RankedTensorType>(op.getType());
    auto memrefType =
        MemRefType::get(type.getShape(), type.getElementType());
    Value buffer = bufferization::ToBufferOp::create(rewriter, loc, memrefType,
                                                     adaptor.getInput());
    std::string name = type.getElementType().isF64()
                           ? "ms_comm_share_bucket_f64"
                           : "ms_comm_share_bucket_f32";
    Type ptrType = LLVM::LLVMPointerType::get(rewriter.getContext());
    Type i64 = rewriter.getI64Type();
    FailureOr<func::FuncOp> share =
        runtimeFunction(rewriter, op, name, {ptrType, i64, i64});
    if (failed(share))
      return rewriter.notifyMatchFailure(op, "not inside a module");
    Value count = arith::ConstantIntOp::create(rewriter, loc,
                                               type.getNumElements(), 64);
    Value bucket = arith::ConstantIntOp::create(rewriter, loc, id, 64);
    auto call = func::CallOp::create(
        rewriter, loc, *share,
        ValueRange{pointerTo(buffer, loc, rewriter), count, bucket});
    call->setAttr(kCommBucketAttr, rewriter.getI64IntegerAttr(id));
    Value shared = bufferization::ToTensorOp::create(
        rewriter, loc, type, buffer, /*restrict=*/true, /*writable=*/true);
    Value sum = elementwiseSum(rewriter, loc, shared, peer);
    sum.getDefiningOp()->setAttr(kBucketSumAttr, rewriter.getUnitAttr());
    rewriter.replaceOp(op, sum);
    return success();
  }

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

void ms::splitBucketSumSlices(Operation *root) {
  SmallVector<tensor::ExtractSliceOp> slices;
  root->walk([&](tensor::ExtractSliceOp slice) {
    auto sum = slice.getSource().getDefiningOp<linalg::GenericOp>();
    if (sum && sum->hasAttr(kBucketSumAttr) &&
        slice.getSourceType().getRank() == slice.getResultType().getRank())
      slices.push_back(slice);
  });
  IRRewriter rewriter(root->getContext());
  for (tensor::ExtractSliceOp slice : slices) {
    auto sum = slice.getSource().getDefiningOp<linalg::GenericOp>();
    rewriter.setInsertionPoint(slice);
    auto sliceOf = [&](Value whole) {
      return tensor::ExtractSliceOp::create(
          rewriter, slice.getLoc(), whole, slice.getMixedOffsets(),
          slice.getMixedSizes(), slice.getMixedStrides());
    };
    Value parts = elementwiseSum(rewriter, slice.getLoc(),
                                 sliceOf(sum.getDpsInputs()[0]),
                                 sliceOf(sum.getDpsInputs()[1]));
    rewriter.replaceOp(slice, parts);
    if (sum->use_empty())
      rewriter.eraseOp(sum);
  }
}

void ms::addSharedBucketArguments(Operation *root) {
  root->walk([](func::FuncOp func) {
    SmallVector<AllReduceOp> buckets;
    for (auto op : func.getOps<AllReduceOp>())
      if (sumsSharedBucket(op))
        buckets.push_back(op);
    Builder b(func.getContext());
    for (auto [id, op] : llvm::enumerate(buckets)) {
      auto tag = [&](StringRef name) {
        return b.getDictionaryAttr(b.getNamedAttr(
            name, b.getI64IntegerAttr(static_cast<int64_t>(id))));
      };
      (void)func.insertArgument(func.getNumArguments(), op.getType(),
                                tag(kCommPeerAttr), op.getLoc());
      op->setAttr(kSharedBucketAttr,
                  b.getI64IntegerAttr(static_cast<int64_t>(id)));
    }
  });
}
