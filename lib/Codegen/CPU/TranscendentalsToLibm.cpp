//===- TranscendentalsToLibm.cpp - exp/log/tanh/erf as libm calls ---------===//

#include "ms/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/TypeSwitch.h"

namespace ms {
#define GEN_PASS_DEF_MSTRANSCENDENTALSTOLIBM
#include "ms/Codegen/CPU/Passes.h.inc"
} // namespace ms

using namespace mlir;

namespace {

StringRef libmName(Operation *op) {
  return llvm::TypeSwitch<Operation *, StringRef>(op)
      .Case([](math::ExpOp) { return "expf"; })
      .Case([](math::LogOp) { return "logf"; })
      .Case([](math::TanhOp) { return "tanhf"; })
      .Case([](math::ErfOp) { return "erff"; })
      .Default([](Operation *) { return ""; });
}

struct MSTranscendentalsToLibmPass
    : ms::impl::MSTranscendentalsToLibmBase<MSTranscendentalsToLibmPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      if (!libmName(op).empty() && op->getResult(0).getType().isF32())
        ops.push_back(op);
    });
    SymbolTable symbols(module);
    for (Operation *op : ops) {
      StringRef name = libmName(op);
      Type f32 = op->getResult(0).getType();
      auto callee = symbols.lookup<func::FuncOp>(name);
      if (!callee) {
        OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
        callee = func::FuncOp::create(b, op->getLoc(), name,
                                      b.getFunctionType({f32}, {f32}));
        callee.setPrivate();
        symbols.insert(callee);
      }
      OpBuilder b(op);
      auto call = func::CallOp::create(b, op->getLoc(), callee,
                                       op->getOperands());
      op->replaceAllUsesWith(call->getResults());
      op->erase();
    }
  }
};

} // namespace
