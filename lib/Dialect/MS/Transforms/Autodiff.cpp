//===- Autodiff.cpp - Reverse-mode differentiation of ms functions --------===//
//
// buildGradientFunc clones the function, marks the values that depend on the
// differentiated arguments (forward), then walks the ops backwards, asking
// each op's GradientOpInterface for its operands' cotangents. A value used
// several times sums its cotangents with ms.add in that reverse program
// order, so the gradient function is deterministic. The forward ops stay,
// and the backward ops read their results: nothing is recomputed. With
// savedForward (PyNative) the forward values are arguments instead.
//
// An scf.if differentiates as an scf.if on the same condition whose
// branches recompute their forward branch and run its backward (values
// defined in a region cannot be read outside it). Each cotangent enters the
// branch as the partial sum made so far, so that contributions add up in
// the order the branch's straight-line PyNative tape would add them.
//
//===----------------------------------------------------------------------===//

#include "ms/Dialect/MS/Transforms/Autodiff.h"
#include "ms/Dialect/MS/IR/MSGradientInterface.h"
#include "ms/Dialect/MS/IR/MSOps.h"
#include "ms/Dialect/MS/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace ms {
#define GEN_PASS_DEF_MSAUTODIFF
#include "ms/Dialect/MS/Transforms/Passes.h.inc"
} // namespace ms

using namespace mlir;

namespace ms {
namespace {

bool isFloatTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isa<FloatType>(tensor.getElementType());
}

InFlightDiagnostic adError(Location loc) {
  return emitError(loc) << "ms-autodiff: ";
}

/// Checks what can be checked before anything is built.
LogicalResult checkRequest(func::FuncOp fn, ArrayRef<unsigned> wrt,
                           StringRef gradName) {
  if (fn.isExternal())
    return adError(fn.getLoc()) << "'@" << fn.getSymName()
                                << "' has no body to differentiate";
  if (!fn.getBody().hasOneBlock())
    return adError(fn.getLoc())
           << "'@" << fn.getSymName()
           << "' has several blocks; only straight-line code (with "
              "control flow as ops) is differentiated";
  if (!fn.getContext()->getLoadedDialect<arith::ArithDialect>())
    return adError(fn.getLoc()) << "the arith dialect must be loaded";
  auto module = fn->getParentOfType<ModuleOp>();
  if (!module)
    return adError(fn.getLoc()) << "'@" << fn.getSymName()
                                << "' is not in a module";
  if (gradName.empty() || SymbolTable::lookupSymbolIn(module, gradName))
    return adError(fn.getLoc()) << "cannot name the gradient function '@"
                                << gradName << "': "
                                << (gradName.empty() ? "the name is empty"
                                                     : "the name is taken");
  unsigned numArgs = fn.getNumArguments();
  for (unsigned index : wrt) {
    if (index >= numArgs)
      return adError(fn.getLoc())
             << "wrt index " << index << " is out of range: '@"
             << fn.getSymName() << "' has " << numArgs
             << (numArgs == 1 ? " argument" : " arguments");
    Type type = fn.getArgumentTypes()[index];
    if (!isFloatTensor(type))
      return adError(fn.getLoc())
             << "wrt argument " << index << " of '@" << fn.getSymName()
             << "' has type " << type << ", not a float tensor";
  }
  return success();
}

/// The values that depend on `seeds` through ops other than stop_gradient;
/// only float tensors carry cotangents.
llvm::DenseSet<Value> activeValues(Block &body, ArrayRef<Value> seeds) {
  llvm::DenseSet<Value> active(seeds.begin(), seeds.end());
  for (Operation &op : body.without_terminator()) {
    if (isa<StopGradientOp>(op))
      continue;
    bool dependent = false;
    // Ops with regions may read active values from inside them.
    op.walk([&](Operation *inner) {
      for (Value operand : inner->getOperands())
        if (active.contains(operand))
          dependent = true;
      return dependent ? WalkResult::interrupt() : WalkResult::advance();
    });
    if (!dependent)
      continue;
    for (Value result : op.getResults())
      if (isFloatTensor(result.getType()))
        active.insert(result);
  }
  return active;
}

void eraseDeadOps(Block &body);

FailureOr<SmallVector<Value>> buildBackward(Block &body,
                                            ArrayRef<Value> seeds,
                                            ArrayRef<Value> seedInit,
                                            ArrayRef<Value> sens);

/// The reverse of `ifOp` (see the file comment): updates the cotangents in
/// `grads` of the active values its regions read from above.
LogicalResult buildIfBackward(OpBuilder &b, scf::IfOp ifOp,
                              ArrayRef<Value> resultGrads,
                              const llvm::DenseSet<Value> &active,
                              llvm::DenseMap<Value, Value> &grads) {
  llvm::SetVector<Value> above;
  getUsedValuesDefinedAbove(ifOp->getRegions(), above);
  SmallVector<Value> captured, init;
  SmallVector<Type> types;
  for (Value value : above)
    if (active.contains(value)) {
      captured.push_back(value);
      init.push_back(grads.lookup(value));
      types.push_back(value.getType());
    }
  if (captured.empty())
    return success();
  Location loc = ifOp.getLoc();
  auto backward = scf::IfOp::create(b, loc, types, ifOp.getCondition(),
                                    /*withElseRegion=*/true);
  for (auto [forwardRegion, backwardRegion] :
       llvm::zip(ifOp->getRegions(), backward->getRegions())) {
    Block &block = backwardRegion.front();
    OpBuilder inner = OpBuilder::atBlockEnd(&block);
    IRMapping map;
    Block &forward = forwardRegion.front();
    for (Operation &op : forward.without_terminator())
      inner.clone(op, map);
    SmallVector<Value> yielded;
    for (Value value : forward.getTerminator()->getOperands())
      yielded.push_back(map.lookupOrDefault(value));
    auto recomputed = scf::YieldOp::create(inner, loc, yielded);
    FailureOr<SmallVector<Value>> branchGrads =
        buildBackward(block, captured, init, resultGrads);
    if (failed(branchGrads))
      return failure();
    inner.setInsertionPoint(recomputed);
    scf::YieldOp::create(inner, loc, *branchGrads);
    recomputed.erase();
    eraseDeadOps(block);
  }
  for (auto [value, grad] : llvm::zip(captured, backward.getResults()))
    grads[value] = grad;
  return success();
}

/// Builds the backward half of `body` (a function's or a branch's block)
/// before its terminator, whose operands have the cotangents `sens`, and
/// returns the cotangents of `seeds` (starting from `seedInit` where that
/// is set).
FailureOr<SmallVector<Value>> buildBackward(Block &body,
                                            ArrayRef<Value> seeds,
                                            ArrayRef<Value> seedInit,
                                            ArrayRef<Value> sens) {
  Operation *ret = body.getTerminator();
  llvm::DenseSet<Value> active = activeValues(body, seeds);
  llvm::DenseMap<Value, Value> grads;
  for (auto [seed, init] : llvm::zip(seeds, seedInit))
    if (init)
      grads[seed] = init;
  OpBuilder b(ret);
  auto accumulate = [&](Value value, Value grad, Location loc) {
    Value &slot = grads[value];
    slot = slot ? AddOp::create(b, loc, slot, grad).getResult() : grad;
  };
  for (auto [result, cotangent] : llvm::zip(ret->getOperands(), sens))
    if (cotangent && active.contains(result))
      accumulate(result, cotangent, ret->getLoc());

  SmallVector<Operation *> forward;
  for (Operation &op : body.without_terminator())
    forward.push_back(&op);
  for (Operation *op : llvm::reverse(forward)) {
    SmallVector<Value> resultGrads;
    for (Value result : op->getResults())
      resultGrads.push_back(grads.lookup(result));
    if (llvm::all_of(resultGrads, [](Value g) { return !g; }))
      continue;
    if (llvm::none_of(op->getOperands(),
                      [&](Value v) { return active.contains(v); }) &&
        op->getNumRegions() == 0)
      continue;
    b.setInsertionPoint(ret);
    if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      if (failed(buildIfBackward(b, ifOp, resultGrads, active, grads)))
        return failure();
      continue;
    }
    auto rule = dyn_cast<GradientOpInterface>(op);
    if (!rule && op->getNumRegions() != 0)
      return adError(op->getLoc())
             << "'" << op->getName()
             << "' has no gradient rule: gradients flow through scf.if, "
                "not through loops yet; compute the loop outside the "
                "differentiated function or unroll it over a Python range";
    if (!rule)
      return adError(op->getLoc())
             << "'" << op->getName() << "' has no gradient rule";
    SmallVector<Value> operandGrads(op->getNumOperands());
    if (failed(rule.buildGradient(b, resultGrads, operandGrads)))
      return failure();
    for (auto [operand, grad] : llvm::zip(op->getOperands(), operandGrads)) {
      if (!grad || !active.contains(operand))
        continue;
      if (grad.getType() != operand.getType())
        return adError(op->getLoc())
               << "the rule of '" << op->getName() << "' gave a cotangent of "
               << grad.getType() << " for an operand of " << operand.getType();
      accumulate(operand, grad, op->getLoc());
    }
  }

  SmallVector<Value> seedGrads;
  b.setInsertionPoint(ret);
  for (Value seed : seeds) {
    Value grad = grads.lookup(seed);
    if (!grad)
      grad = grad::splat(b, ret->getLoc(),
                         cast<RankedTensorType>(seed.getType()), 0.0);
    seedGrads.push_back(grad);
  }
  return seedGrads;
}

/// Erases the ops nothing uses any more (cotangents of operands that were
/// not asked for, forward ops whose values were never returned).
void eraseDeadOps(Block &body) {
  SmallVector<Operation *> ops;
  for (Operation &op : body.without_terminator())
    ops.push_back(&op);
  for (Operation *op : llvm::reverse(ops))
    if (isOpTriviallyDead(op))
      op->erase();
}

/// Turns the forward ops (`forward`: gradFn's clones of fn's ops, by
/// position in fn's body) into arguments of gradFn: each value of one that
/// something other than the forward ops reads (a backward op, the return)
/// becomes an argument tagged with its (op, result) position, inserted at
/// `index` onwards (before the sens); then the forward ops are erased.
/// Constants stay (materializing one costs less than passing it), and so
/// do ops with side effects.
LogicalResult passSavedForward(func::FuncOp gradFn,
                               const llvm::DenseMap<Operation *, int64_t> &forward,
                               unsigned index) {
  Block &body = gradFn.front();
  auto removable = [&](Operation *op) {
    return op && forward.contains(op) && !isa<arith::ConstantOp>(op) &&
           wouldOpBeTriviallyDead(op);
  };
  Builder b(gradFn.getContext());
  SmallVector<std::pair<Value, DenseI64ArrayAttr>> saved;
  for (Operation &op : body.without_terminator()) {
    if (!removable(&op))
      continue;
    for (OpResult result : op.getResults()) {
      bool readLater = llvm::any_of(result.getUsers(), [&](Operation *user) {
        return !removable(body.findAncestorOpInBlock(*user));
      });
      if (readLater)
        saved.emplace_back(result,
                           b.getDenseI64ArrayAttr({forward.lookup(&op),
                                                   result.getResultNumber()}));
    }
  }
  for (auto [value, where] : saved) {
    NamedAttribute attr = b.getNamedAttr(kSavedAttrName, where);
    if (failed(gradFn.insertArgument(index, value.getType(),
                                     b.getDictionaryAttr(attr),
                                     value.getLoc())))
      return failure();
    value.replaceAllUsesWith(gradFn.getArgument(index++));
  }
  eraseDeadOps(body);
  return success();
}

} // namespace

FailureOr<func::FuncOp> buildGradientFunc(func::FuncOp fn,
                                          ArrayRef<unsigned> wrt,
                                          StringRef gradName,
                                          bool savedForward) {
  if (failed(checkRequest(fn, wrt, gradName)))
    return failure();
  OpBuilder b(fn.getContext());
  b.setInsertionPointAfter(fn);
  auto gradFn = cast<func::FuncOp>(b.clone(*fn.getOperation()));
  gradFn.setSymName(gradName);

  Block &body = gradFn.front();
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  unsigned numResults = gradFn.getNumResults();
  unsigned numArgs = gradFn.getNumArguments();
  // Position of each forward op in fn's body (the dead-op sweep below may
  // erase some; the map is only read with live ops).
  llvm::DenseMap<Operation *, int64_t> forward;
  for (Operation &op : body.without_terminator())
    forward.try_emplace(&op, forward.size());
  SmallVector<Value> sens;
  for (unsigned i = 0; i < numResults; ++i) {
    Type type = gradFn.getResultTypes()[i];
    if (!isFloatTensor(type)) {
      sens.push_back(Value());
      continue;
    }
    unsigned index = gradFn.getNumArguments();
    if (failed(gradFn.insertArgument(index, type, DictionaryAttr(),
                                     ret.getOperand(i).getLoc()))) {
      gradFn.erase();
      return failure();
    }
    sens.push_back(gradFn.getArgument(index));
  }

  SmallVector<Value> seeds;
  for (unsigned index : wrt)
    seeds.push_back(body.getArgument(index));
  SmallVector<Value> noInit(seeds.size());
  FailureOr<SmallVector<Value>> grads =
      buildBackward(body, seeds, noInit, sens);
  if (failed(grads)) {
    gradFn.erase();
    return failure();
  }

  SmallVector<Value> results(ret.getOperands());
  results.append(grads->begin(), grads->end());
  b.setInsertionPoint(ret);
  func::ReturnOp::create(b, ret.getLoc(), results);
  ret.erase();
  for (auto [i, grad] : llvm::enumerate(*grads))
    if (failed(gradFn.insertResult(numResults + i, grad.getType(),
                                   DictionaryAttr()))) {
      gradFn.erase();
      return failure();
    }
  eraseDeadOps(body);
  if (savedForward && failed(passSavedForward(gradFn, forward, numArgs))) {
    gradFn.erase();
    return failure();
  }
  return gradFn;
}

namespace {

struct MSAutodiffPass : impl::MSAutodiffBase<MSAutodiffPass> {
  using MSAutodiffBase::MSAutodiffBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto fn = module.lookupSymbol<func::FuncOp>(funcName);
    if (!fn) {
      adError(module.getLoc()) << "no function named '@" << funcName << "'";
      return signalPassFailure();
    }
    SmallVector<unsigned> indices(wrt.begin(), wrt.end());
    if (indices.empty())
      for (auto [i, type] : llvm::enumerate(fn.getArgumentTypes()))
        if (isFloatTensor(type))
          indices.push_back(i);
    std::string name =
        gradName.empty() ? funcName + "_grad" : std::string(gradName);
    if (failed(buildGradientFunc(fn, indices, name, savedForward)))
      signalPassFailure();
  }
};

} // namespace
} // namespace ms
