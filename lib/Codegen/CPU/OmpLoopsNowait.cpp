//===- OmpLoopsNowait.cpp - Drop a region-ending loop's barrier -----------===//
//
// See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "ms/Codegen/CPU/Passes.h"

#include "mlir/Dialect/OpenMP/OpenMPDialect.h"

namespace ms {
#define GEN_PASS_DEF_MSOMPLOOPSNOWAIT
#include "ms/Codegen/CPU/Passes.h.inc"
} // namespace ms

using namespace mlir;

namespace {

/// The worksharing loop whose end is its region's end, if any.
omp::WsloopOp lastLoop(omp::ParallelOp parallel) {
  Block &body = parallel.getRegion().back();
  Operation *terminator = body.getTerminator();
  if (!terminator || terminator == &body.front())
    return nullptr;
  return dyn_cast<omp::WsloopOp>(terminator->getPrevNode());
}

struct MSOmpLoopsNowaitPass
    : ms::impl::MSOmpLoopsNowaitBase<MSOmpLoopsNowaitPass> {
  void runOnOperation() override {
    getOperation()->walk([](omp::ParallelOp parallel) {
      if (omp::WsloopOp loop = lastLoop(parallel))
        loop.setNowait(true);
    });
  }
};

} // namespace
