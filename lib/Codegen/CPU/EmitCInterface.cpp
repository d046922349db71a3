//===- EmitCInterface.cpp - Tag public functions for the C interface ------===//

#include "ms/Codegen/CPU/Passes.h"
#include "ms/Support/ArgumentAttributes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace ms {
#define GEN_PASS_DEF_MSEMITCINTERFACE
#include "ms/Codegen/CPU/Passes.h.inc"
} // namespace ms

using namespace mlir;

namespace {

struct MSEmitCInterfacePass
    : ms::impl::MSEmitCInterfaceBase<MSEmitCInterfacePass> {
  void runOnOperation() override {
    Builder b(&getContext());
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (!func.isPublic() || func.isExternal())
        continue;
      func->setAttr("llvm.emit_c_interface", b.getUnitAttr());
      for (unsigned r = 0; r < func.getNumResults(); ++r)
        func.setResultAttr(r, ms::kResultAttr, b.getI64IntegerAttr(r));
    }
  }
};

} // namespace
