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

#include <limits>

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

/// The private function a call to which is its only use, or null: only
/// such a callee may change the layout of its arguments with its caller
/// (ms-split-dynamic-batch's batch tiles are called this way).
func::FuncOp soleCallee(Operation *user, ModuleOp module) {
  auto call = dyn_cast<func::CallOp>(user);
  if (!call)
    return nullptr;
  auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
  if (!callee || callee.isExternal() || callee.isPublic())
    return nullptr;
  std::optional<SymbolTable::UseRange> uses =
      SymbolTable::getSymbolUses(callee, module);
  if (!uses || !llvm::hasSingleElement(*uses))
    return nullptr;
  return callee;
}

/// The callee arguments that `arg` is passed to, through sole calls.
SmallVector<BlockArgument> calleeArguments(BlockArgument arg,
                                           ModuleOp module) {
  SmallVector<BlockArgument> args;
  for (OpOperand &use : arg.getUses())
    if (func::FuncOp callee = soleCallee(use.getOwner(), module))
      args.push_back(callee.getArgument(use.getOperandNumber()));
  return args;
}

/// True when every use of `arg` is a transposed matmul of any rows, in
/// `func` or (followed into sole callees) in its callees, and at least one
/// has at most `maxRows` rows. The packed layout must serve all of them (the original
/// is no longer passed); it keeps each sum's order, so the bits stay.
bool allUsesPackable(BlockArgument arg, int64_t maxRows, ModuleOp module) {
  if (arg.use_empty())
    return false;
  bool small = false;
  for (OpOperand &use : arg.getUses()) {
    Operation *user = use.getOwner();
    // A ?-batch graph's tiles (ms-split-dynamic-batch) read one weight with
    // 64, 16, 4 and 1 rows: one small one is reason to pack for all.
    if (isSmallTransposedMatmul(user, arg,
                                std::numeric_limits<int64_t>::max())) {
      small |= isSmallTransposedMatmul(user, arg, maxRows);
      continue;
    }
    func::FuncOp callee = soleCallee(user, module);
    if (!callee)
      return false;
    BlockArgument inner = callee.getArgument(use.getOperandNumber());
    if (inner.use_empty())
      return false;
    for (Operation *innerUser : inner.getUsers()) {
      if (!isSmallTransposedMatmul(innerUser, inner,
                                   std::numeric_limits<int64_t>::max()))
        return false;
      small |= isSmallTransposedMatmul(innerUser, inner, maxRows);
    }
  }
  return small;
}

/// x @ w^T becomes x @ wT with wT the packed argument; the accumulator and
/// K order stay, so the bits do too.
void rewriteMatmuls(Value arg, ArrayRef<Operation *> users) {
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

void rewriteUses(Value arg) {
  SmallVector<Operation *> users(arg.getUsers());
  rewriteMatmuls(arg, users);
}

/// Gives `arg` the transposed type of `type` and its matmuls the packed
/// operand.
void packArgument(BlockArgument arg, RankedTensorType type) {
  arg.setType(RankedTensorType::get({type.getDimSize(1), type.getDimSize(0)},
                                    type.getElementType()));
  SmallVector<Operation *> users(arg.getUsers());
  if (llvm::all_of(users, [](Operation *u) { return isa<linalg::MatmulOp>(u); }))
    rewriteUses(arg);
}

/// Updates a function's type after its arguments changed type.
void syncFunctionType(func::FuncOp func) {
  func.setFunctionType(FunctionType::get(func.getContext(),
                                         func.getBody().getArgumentTypes(),
                                         func.getFunctionType().getResults()));
}

/// Packs the weights of `func`'s small-batch matmuls; returns whether it
/// changed the signature.
bool packArguments(func::FuncOp func, int64_t maxRows, ModuleOp module) {
  bool changed = false;
  for (BlockArgument arg : func.getArguments()) {
    unsigned i = arg.getArgNumber();
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!func.getArgAttr(i, kParamAttr) || func.getArgAttr(i, kPackedAttr) ||
        !type || type.getRank() != 2 || !type.hasStaticShape() ||
        !type.getElementType().isF32() ||
        !allUsesPackable(arg, maxRows, module))
      continue;
    SmallVector<BlockArgument> inner = calleeArguments(arg, module);
    // The entry's own matmuls; the calls just pass the new type on.
    arg.setType(RankedTensorType::get({type.getDimSize(1), type.getDimSize(0)},
                                      type.getElementType()));
    SmallVector<Operation *> matmuls;
    for (Operation *user : arg.getUsers())
      if (isa<linalg::MatmulOp>(user))
        matmuls.push_back(user);
    rewriteMatmuls(arg, matmuls);
    for (BlockArgument calleeArg : inner) {
      packArgument(calleeArg, type);
      syncFunctionType(
          cast<func::FuncOp>(calleeArg.getOwner()->getParentOp()));
    }
    func.setArgAttr(i, kPackedAttr,
                    StringAttr::get(func.getContext(), "transpose"));
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
      if (!packArguments(func, maxRows, module))
        continue;
      syncFunctionType(func);
    }
  }
};

} // namespace
