//===- InterchangeContractions.cpp - Reduction loop out of the way --------===//

#include "ms/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace ms {
#define GEN_PASS_DEF_MSINTERCHANGECONTRACTIONS
#include "ms/Codegen/CPU/Passes.h.inc"
} // namespace ms

using namespace mlir;

namespace {

struct MSInterchangeContractionsPass
    : ms::impl::MSInterchangeContractionsBase<MSInterchangeContractionsPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> candidates;
    getOperation()->walk([&](linalg::GenericOp op) {
      SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
      unsigned n = iterators.size();
      if (n >= 3 && op.getNumReductionLoops() == 1 &&
          iterators[n - 1] == utils::IteratorType::reduction)
        candidates.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : candidates) {
      unsigned n = op.getNumLoops();
      SmallVector<unsigned> order;
      for (unsigned i = 0; i + 2 < n; ++i)
        order.push_back(i);
      order.push_back(n - 1);
      order.push_back(n - 2);
      rewriter.setInsertionPoint(op);
      if (failed(linalg::interchangeGenericOp(rewriter, op, order)))
        return signalPassFailure();
    }
  }
};

} // namespace
