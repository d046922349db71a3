//===- UpdateParametersInPlace.cpp - Updates written over the parameter ---===//
//
// See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "ms/Codegen/CPU/BufferUses.h"
#include "ms/Codegen/CPU/Passes.h"
#include "ms/Support/ArgumentAttributes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace ms {
#define GEN_PASS_DEF_MSUPDATEPARAMETERSINPLACE
#include "ms/Codegen/CPU/Passes.h.inc"
} // namespace ms

using namespace mlir;

namespace {

/// Whether `update`, in the entry block, is the last op that touches
/// `param`, and touches it once, directly.
bool isLastAccess(linalg::GenericOp update, Value param) {
  SmallVector<std::pair<Operation *, bool>> accesses;
  ms::collectDerivedUses(param, accesses);
  Block *block = update->getBlock();
  for (auto [op, direct] : accesses) {
    Operation *top = block->findAncestorOpInBlock(*op);
    if (!top)
      return false;
    if (top == update.getOperation() ? !direct || op != top
                                     : !top->isBeforeInBlock(update))
      return false;
  }
  return llvm::count(update->getOperands(), param) == 1;
}

/// Whether `arg` is a parameter the runtime binds as the caller's own
/// buffer: no packed layout, and no packed copy of it.
bool isPlainParameter(func::FuncOp func, BlockArgument arg) {
  unsigned index = arg.getArgNumber();
  if (!func.getArgAttr(index, ms::kParamAttr) ||
      func.getArgAttr(index, ms::kPackedAttr))
    return false;
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    if (auto source =
            func.getArgAttrOfType<IntegerAttr>(i, ms::kPackedCopyOfAttr))
      if (source.getInt() == int64_t(index))
        return false;
  return true;
}

/// The elementwise op that writes all of out-param `out` and nothing
/// else, without reading what `out` held; null otherwise.
linalg::GenericOp wholeElementwiseWriter(func::FuncOp func, Value out) {
  if (!out.hasOneUse())
    return {};
  auto generic = dyn_cast<linalg::GenericOp>(*out.getUsers().begin());
  if (!generic || generic->getBlock() != &func.getBody().front() ||
      !generic.hasPureBufferSemantics() || generic.getNumDpsInits() != 1 ||
      generic.getNumLoops() != generic.getNumParallelLoops())
    return {};
  OpOperand *init = generic.getDpsInitOperand(0);
  if (init->get() != out ||
      !generic.getMatchingIndexingMap(init).isIdentity() ||
      !generic.getMatchingBlockArgument(init).use_empty())
    return {};
  return generic;
}

/// The parameter `update` reads at the indices it writes `out` at and
/// may write over instead; null otherwise.
BlockArgument parameterToOverwrite(func::FuncOp func,
                                   linalg::GenericOp update, Value out) {
  for (OpOperand *input : update.getDpsInputOperands()) {
    auto param = dyn_cast<BlockArgument>(input->get());
    if (param && param.getOwner() == &func.getBody().front() &&
        param.getType() == out.getType() &&
        update.getMatchingIndexingMap(input).isIdentity() &&
        isPlainParameter(func, param) && isLastAccess(update, param))
      return param;
  }
  return {};
}

void updateInPlace(func::FuncOp func) {
  Builder b(func.getContext());
  for (BlockArgument out : func.getArguments()) {
    // Only a result's out-param (ms-emit-c-interface tags them): a caller's
    // argument must keep its values.
    if (!func.getArgAttr(out.getArgNumber(), ms::kResultAttr))
      continue;
    linalg::GenericOp update = wholeElementwiseWriter(func, out);
    BlockArgument param =
        update ? parameterToOverwrite(func, update, out) : BlockArgument();
    if (!param)
      continue;
    update.getDpsInitOperand(0)->set(param);
    func.setArgAttr(out.getArgNumber(), ms::kInPlaceOfAttr,
                    b.getI64IntegerAttr(param.getArgNumber()));
  }
}

struct MSUpdateParametersInPlacePass
    : ms::impl::MSUpdateParametersInPlaceBase<MSUpdateParametersInPlacePass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (!func.isExternal())
        updateInPlace(func);
  }
};

} // namespace
