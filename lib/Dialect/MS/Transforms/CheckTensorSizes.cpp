//===- CheckTensorSizes.cpp - Reject tensors larger than memory -----------===//

#include "ms/Dialect/MS/Transforms/Passes.h"
#include "ms/Support/ByteSize.h"
#include "ms/Support/MemoryBound.h"

#include "mlir/IR/BuiltinTypes.h"

namespace ms {
#define GEN_PASS_DEF_MSCHECKTENSORSIZES
#include "ms/Dialect/MS/Transforms/Passes.h.inc"
} // namespace ms

using namespace mlir;

namespace {

/// The bytes of a static tensor, or nullopt when they overflow int64.
std::optional<int64_t> tensorBytes(RankedTensorType type) {
  return ms::checkedByteSize((type.getElementTypeBitWidth() + 7) / 8,
                             type.getShape());
}

struct MSCheckTensorSizesPass
    : ms::impl::MSCheckTensorSizesBase<MSCheckTensorSizesPass> {
  using MSCheckTensorSizesBase::MSCheckTensorSizesBase;

  void runOnOperation() override {
    int64_t limit =
        maxBytes > 0 ? int64_t(maxBytes) : ms::physicalMemoryBytes();
    getOperation()->walk([&](Operation *op) {
      for (Type type : op->getResultTypes()) {
        auto tensor = dyn_cast<RankedTensorType>(type);
        if (!tensor || !tensor.hasStaticShape() ||
            !tensor.getElementType().isIntOrFloat())
          continue;
        std::optional<int64_t> bytes = tensorBytes(tensor);
        if (bytes && *bytes <= limit)
          continue;
        std::string typeText;
        llvm::raw_string_ostream(typeText) << tensor;
        op->emitError() << "this op needs a " << typeText
                        << " intermediate of "
                        << (bytes ? ms::formatByteSize(*bytes)
                                  : std::string("more than 8 EiB"))
                        << ", more than "
                        << (maxBytes > 0
                                ? "the max-bytes bound of " +
                                      ms::formatByteSize(limit)
                                : "the " + ms::formatByteSize(limit) +
                                      " of memory on this machine");
        signalPassFailure();
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
  }
};

} // namespace
