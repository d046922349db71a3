//===- CopyToLinalg.cpp - memref.copy to linalg.copy ----------------------===//

#include "ms/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace ms {
#define GEN_PASS_DEF_MSCOPYTOLINALG
#include "ms/Codegen/CPU/Passes.h.inc"
} // namespace ms

using namespace mlir;

namespace {

struct MSCopyToLinalgPass : ms::impl::MSCopyToLinalgBase<MSCopyToLinalgPass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation()->walk([&](memref::CopyOp op) { copies.push_back(op); });
    for (memref::CopyOp copy : copies) {
      OpBuilder b(copy);
      linalg::CopyOp::create(b, copy.getLoc(), ValueRange{copy.getSource()},
                             ValueRange{copy.getTarget()});
      copy.erase();
    }
  }
};

} // namespace
