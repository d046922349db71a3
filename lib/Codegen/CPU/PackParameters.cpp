//===- PackParameters.cpp - Ask for a GEMV's weight as [in, out] ----------===//
//
// See the pass description in Passes.td. The runtime side, which transposes
// each bound parameter buffer once, is include/ms/Runtime/PackedParams.h.
//
//===----------------------------------------------------------------------===//

#include "ms/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace ms {
#define GEN_PASS_DEF_MSPACKPARAMETERS
#include "ms/Codegen/CPU/Passes.h.inc"
} // namespace ms

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kParamAttr = "ms.param";
constexpr llvm::StringLiteral kPackedAttr = "ms.packed";

/// A matmul x @ w^T with `w` as its transposed B operand and at most
/// `maxRows` rows of x.
bool isSmallTransposedMatmul(Operation *user, Value w, int64_t maxRows) {
  auto matmul = dyn_cast<linalg::MatmulOp>(user);
  if (!matmul || !linalg::MatmulTransposeBOp::classof(matmul) ||
      !matmul.hasPureTensorSemantics())
    return false;
  Value x = matmul.getDpsInputs()[0];
  auto xType = dyn_cast<RankedTensorType>(x.getType());
  return matmul.getDpsInputs()[1] == w && x != w && xType &&
         xType.hasStaticShape() && xType.getRank() == 2 &&
         xType.getDimSize(0) <= maxRows;
}

/// True when every use of `arg` is such a matmul (the packed layout must
/// serve all of them: the original is no longer passed).
bool allUsesPackable(BlockArgument arg, int64_t maxRows) {
  if (arg.use_empty())
    return false;
  return llvm::all_of(arg.getUsers(), [&](Operation *user) {
    return isSmallTransposedMatmul(user, arg, maxRows);
  });
}

/// x @ w^T becomes x @ wT with wT the packed argument; the accumulator and
/// K order stay, so the bits do too.
void rewriteUses(BlockArgument arg) {
  SmallVector<Operation *> users(arg.getUsers());
  for (Operation *user : users) {
    auto matmul = cast<linalg::MatmulOp>(user);
    OpBuilder b(matmul);
    auto plain = linalg::MatmulOp::create(
        b, matmul.getLoc(), matmul->getResultTypes(),
        ValueRange{matmul.getDpsInputs()[0], arg}, matmul.getDpsInits());
    matmul->replaceAllUsesWith(plain);
    matmul->erase();
  }
}

/// Packs the weights of `func`'s small-batch matmuls; returns whether it
/// changed the signature.
bool packArguments(func::FuncOp func, int64_t maxRows) {
  bool changed = false;
  for (BlockArgument arg : func.getArguments()) {
    unsigned i = arg.getArgNumber();
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!func.getArgAttr(i, kParamAttr) || func.getArgAttr(i, kPackedAttr) ||
        !type || type.getRank() != 2 || !type.hasStaticShape() ||
        !type.getElementType().isF32() || !allUsesPackable(arg, maxRows))
      continue;
    arg.setType(RankedTensorType::get({type.getDimSize(1), type.getDimSize(0)},
                                      type.getElementType()));
    func.setArgAttr(i, kPackedAttr,
                    StringAttr::get(func.getContext(), "transpose"));
    rewriteUses(arg);
    changed = true;
  }
  return changed;
}

struct MSPackParametersPass
    : ms::impl::MSPackParametersBase<MSPackParametersPass> {
  using MSPackParametersBase::MSPackParametersBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto func : module.getOps<func::FuncOp>()) {
      // A called function's callers would still pass the old layout.
      if (func.isExternal() ||
          !SymbolTable::symbolKnownUseEmpty(func, module))
        continue;
      if (!packArguments(func, maxRows))
        continue;
      func.setFunctionType(FunctionType::get(
          func.getContext(), func.getBody().getArgumentTypes(),
          func.getFunctionType().getResults()));
    }
  }
};

} // namespace
