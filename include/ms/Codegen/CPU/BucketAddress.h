//===- BucketAddress.h - The buffer a shared bucket's call reads *- C++ -*-===//
//
// The lowering of a shared `ms.all_reduce` passes the runtime its bucket as
// an address (`ms_comm_share_bucket_f32(ptr, ...)`); the passes that work
// on shared buckets after bufferization find the buffer from it.
//
//===----------------------------------------------------------------------===//
#ifndef MS_CODEGEN_CPU_BUCKETADDRESS_H
#define MS_CODEGEN_CPU_BUCKETADDRESS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace ms {

/// The buffer whose address `pointer` is (llvm.inttoptr of an index_cast
/// of its aligned pointer), directly or through the whole-buffer
/// memref.view that `ms-concat-in-place` puts over its bytes; null
/// otherwise.
inline mlir::Value bucketBufferAt(mlir::Value pointer) {
  auto toPointer = pointer.getDefiningOp<mlir::LLVM::IntToPtrOp>();
  using AddressOp = mlir::memref::ExtractAlignedPointerAsIndexOp;
  auto toInteger =
      toPointer ? toPointer.getArg().getDefiningOp<mlir::arith::IndexCastOp>()
                : nullptr;
  auto address =
      toInteger ? toInteger.getIn().getDefiningOp<AddressOp>() : nullptr;
  if (!address)
    return {};
  mlir::Value buffer = address.getSource();
  if (auto view = buffer.getDefiningOp<mlir::memref::ViewOp>()) {
    std::optional<int64_t> shift =
        mlir::getConstantIntValue(view.getByteShift());
    if (!shift || *shift != 0)
      return {};
    buffer = view.getSource();
  }
  return buffer;
}

} // namespace ms

#endif // MS_CODEGEN_CPU_BUCKETADDRESS_H
