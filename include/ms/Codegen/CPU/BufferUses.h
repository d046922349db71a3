//===- BufferUses.h - Every op that reaches a buffer ------------*- C++ -*-===//
//
// Passes that rewrite where a buffer is written (an update in place, an
// update split between ranks) must know every op that may read or write
// it afterwards, whatever name it reaches the buffer by.
//
//===----------------------------------------------------------------------===//
#ifndef MS_CODEGEN_CPU_BUFFERUSES_H
#define MS_CODEGEN_CPU_BUFFERUSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace ms {

/// An op that reads an element out of a buffer: its results are values,
/// not the buffer's address under another name.
inline bool readsValues(mlir::Operation *op) {
  return mlir::isa<mlir::memref::LoadOp, mlir::affine::AffineLoadOp,
                   mlir::vector::LoadOp, mlir::vector::TransferReadOp>(op);
}

/// Every op that uses `buffer` or anything derived from it (views, casts,
/// its address), except the derivations that only read values out of it.
/// `direct` is set for the ops that use `buffer` itself.
inline void collectDerivedUses(
    mlir::Value buffer,
    llvm::SmallVectorImpl<std::pair<mlir::Operation *, bool>> &out,
    bool direct = true) {
  for (mlir::Operation *user : buffer.getUsers()) {
    out.emplace_back(user, direct);
    if (!readsValues(user))
      for (mlir::Value result : user->getResults())
        collectDerivedUses(result, out, /*direct=*/false);
  }
}

} // namespace ms

#endif // MS_CODEGEN_CPU_BUFFERUSES_H
