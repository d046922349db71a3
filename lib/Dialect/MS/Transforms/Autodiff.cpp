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
                                            ArrayRef<Value> sens,
                                            Operation *begin = nullptr);

/// The active values `op`'s regions read from above, and the cotangent
/// each has so far (null when none).
void capturedActive(Operation *op, const llvm::DenseSet<Value> &active,
                    const llvm::DenseMap<Value, Value> &grads,
                    SmallVector<Value> &captured, SmallVector<Value> &init) {
  llvm::SetVector<Value> above;
  getUsedValuesDefinedAbove(op->getRegions(), above);
  for (Value value : above)
    if (active.contains(value)) {
      captured.push_back(value);
      init.push_back(grads.lookup(value));
    }
}

/// `loop` with one more carried value, an index that counts the
/// iterations; returns the count. `loop` is replaced and erased.
Value countIterations(OpBuilder &b, scf::WhileOp &loop) {
  Location loc = loop.getLoc();
  b.setInsertionPoint(loop);
  SmallVector<Value> inits(loop.getInits());
  inits.push_back(arith::ConstantIndexOp::create(b, loc, 0));
  SmallVector<Type> types(loop.getResultTypes());
  types.push_back(b.getIndexType());
  auto counted = scf::WhileOp::create(b, loc, types, inits);
  counted.getBefore().takeBody(loop.getBefore());
  counted.getAfter().takeBody(loop.getAfter());
  Value before = counted.getBeforeBody()->addArgument(b.getIndexType(), loc);
  counted.getConditionOp().getArgsMutable().append(before);
  Value after = counted.getAfterBody()->addArgument(b.getIndexType(), loc);
  OpBuilder inner(counted.getYieldOp());
  Value one = arith::ConstantIndexOp::create(inner, loc, 1);
  counted.getYieldOp().getResultsMutable().append(
      arith::AddIOp::create(inner, loc, after, one).getResult());
  loop.replaceAllUsesWith(counted.getResults().drop_back());
  loop.erase();
  loop = counted;
  return counted.getResults().back();
}

/// Clones `body` (a loop's after block, its last argument the iteration
/// counter) at `b` with its carried arguments bound to `state`; returns the
/// values it yields for them.
SmallVector<Value> cloneIteration(OpBuilder &b, Block &body,
                                  ValueRange state, Value counter) {
  IRMapping map;
  for (auto [arg, value] : llvm::zip(body.getArguments(), state))
    map.map(arg, value);
  map.map(body.getArguments().back(), counter);
  for (Operation &op : body.without_terminator())
    b.clone(op, map);
  SmallVector<Value> yielded;
  for (Value value : body.getTerminator()->getOperands().drop_back())
    yielded.push_back(map.lookupOrDefault(value));
  return yielded;
}

/// The cotangents the reverse loop starts from: the results' (zeros where
/// none flows) for the float results, null for the others; and zeros for
/// the running sums in `running` that have none yet.
SmallVector<Value> initialCotangents(OpBuilder &b, scf::WhileOp loop,
                                     ArrayRef<Value> resultGrads,
                                     ArrayRef<Value> captured,
                                     MutableArrayRef<Value> running) {
  Location loc = loop.getLoc();
  SmallVector<Value> carried;
  for (auto [result, resultGrad] : llvm::zip(loop.getResults(), resultGrads)) {
    Value grad = resultGrad;
    Type type = result.getType();
    if (!grad && isFloatTensor(type))
      grad = grad::splat(b, loc, cast<RankedTensorType>(type), 0.0);
    carried.push_back(isFloatTensor(type) ? grad : Value());
  }
  for (auto [value, sum] : llvm::zip(captured, running))
    if (!sum)
      sum = grad::splat(b, loc, cast<RankedTensorType>(value.getType()), 0.0);
  return carried;
}

/// The reverse loop's body: one forward iteration j cloned on the state
/// `recompute` rebuilt, and the backward sweep over it, which yields the
/// next cotangents of the carried values (those in `carried`) and the
/// running sums of `captured`.
LogicalResult buildReverseStep(OpBuilder &inner, scf::WhileOp loop,
                               scf::ForOp reverse, scf::ForOp recompute,
                               Value j, ArrayRef<Value> carried,
                               ArrayRef<Value> captured) {
  Location loc = loop.getLoc();
  ValueRange state = recompute.getResults();
  SmallVector<Value> yielded =
      cloneIteration(inner, *loop.getAfterBody(), state, j);
  Operation *begin = recompute->getNextNode();
  auto tmp = scf::YieldOp::create(inner, loc, yielded);
  SmallVector<Value> seeds, init, sens;
  ValueRange args = reverse.getRegionIterArgs();
  unsigned next = 0;
  for (auto [value, grad] : llvm::zip(state, carried)) {
    sens.push_back(grad ? args[next++] : Value());
    if (grad) {
      seeds.push_back(value);
      init.push_back(Value());
    }
  }
  for (auto [value, sum] : llvm::zip(captured, args.drop_front(next))) {
    seeds.push_back(value);
    init.push_back(sum);
  }
  FailureOr<SmallVector<Value>> stepGrads =
      buildBackward(*reverse.getBody(), seeds, init, sens, begin);
  if (failed(stepGrads))
    return failure();
  inner.setInsertionPoint(tmp);
  scf::YieldOp::create(inner, loc, *stepGrads);
  tmp.erase();
  return success();
}

/// Adds the reverse loop's results to the cotangents of the loop's active
/// inits and sets those of the values its body read from above.
void collectLoopGrads(OpBuilder &b, scf::WhileOp loop, scf::ForOp reverse,
                      ArrayRef<Value> carried, ArrayRef<Value> captured,
                      const llvm::DenseSet<Value> &active,
                      llvm::DenseMap<Value, Value> &grads) {
  unsigned next = 0;
  for (auto [init, grad] : llvm::zip(loop.getInits().drop_back(), carried)) {
    if (!grad)
      continue;
    Value g = reverse.getResult(next++);
    if (!active.contains(init))
      continue;
    Value &slot = grads[init];
    slot = slot ? AddOp::create(b, loop.getLoc(), slot, g).getResult() : g;
  }
  for (Value value : captured)
    grads[value] = reverse.getResult(next++);
}

/// The reverse of an scf.while whose condition region passes its arguments
/// on unchanged (as graph capture makes them). The forward loop counts its
/// iterations; the reverse is an scf.for over them, last first, that
/// recomputes the state before iteration j from the loop's inits (an
/// scf.for of j iterations: no state is stored) and runs the backward sweep
/// over one clone of the body. The cotangents of the carried values and the
/// running sums of the values the body reads from above are its carried
/// values, so contributions add up in the straight-line tape's order.
LogicalResult buildWhileBackward(OpBuilder &b, scf::WhileOp loop,
                                 ArrayRef<Value> resultGrads,
                                 const llvm::DenseSet<Value> &active,
                                 llvm::DenseMap<Value, Value> &grads) {
  Location loc = loop.getLoc();
  Block &cond = *loop.getBeforeBody();
  if (ValueRange(loop.getConditionOp().getArgs()) !=
      ValueRange(cond.getArguments()))
    return adError(loc) << "'scf.while' has no gradient rule when its "
                           "condition region changes the values it passes on";
  SmallVector<Value> captured, running;
  capturedActive(loop, active, grads, captured, running);
  SmallVector<Value> carried =
      initialCotangents(b, loop, resultGrads, captured, running);
  Value count = countIterations(b, loop);
  b.setInsertionPointAfter(loop);
  b.setInsertionPoint(b.getInsertionBlock()->getTerminator());
  SmallVector<Value> iterArgs;
  for (Value grad : carried)
    if (grad)
      iterArgs.push_back(grad);
  iterArgs.append(running.begin(), running.end());
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto reverse = scf::ForOp::create(b, loc, zero, count, one, iterArgs);
  OpBuilder inner = OpBuilder::atBlockBegin(reverse.getBody());
  // j = count - 1 - k; the state before iteration j, recomputed.
  Value last = arith::SubIOp::create(inner, loc, count, one);
  Value j = arith::SubIOp::create(inner, loc, last,
                                  reverse.getInductionVar());
  auto recompute = scf::ForOp::create(inner, loc, zero, j, one,
                                      loop.getInits().drop_back());
  {
    OpBuilder r = OpBuilder::atBlockBegin(recompute.getBody());
    SmallVector<Value> next =
        cloneIteration(r, *loop.getAfterBody(), recompute.getRegionIterArgs(),
                       recompute.getInductionVar());
    scf::YieldOp::create(r, loc, next);
  }
  if (failed(buildReverseStep(inner, loop, reverse, recompute, j, carried,
                              captured)))
    return failure();
  eraseDeadOps(*reverse.getBody());
  collectLoopGrads(b, loop, reverse, carried, captured, active, grads);
  return success();
}

/// The reverse of `ifOp` (see the file comment): updates the cotangents in
/// `grads` of the active values its regions read from above.
LogicalResult buildIfBackward(OpBuilder &b, scf::IfOp ifOp,
                              ArrayRef<Value> resultGrads,
                              const llvm::DenseSet<Value> &active,
                              llvm::DenseMap<Value, Value> &grads) {
  SmallVector<Value> captured, init;
  capturedActive(ifOp, active, grads, captured, init);
  SmallVector<Type> types;
  for (Value value : captured)
    types.push_back(value.getType());
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
                                            ArrayRef<Value> sens,
                                            Operation *begin) {
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
  if (begin)
    forward.erase(forward.begin(), llvm::find(forward, begin));
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
    if (auto loop = dyn_cast<scf::WhileOp>(op)) {
      if (failed(buildWhileBackward(b, loop, resultGrads, active, grads)))
        return failure();
      continue;
    }
    auto rule = dyn_cast<GradientOpInterface>(op);
    if (!rule && op->getNumRegions() != 0)
      return adError(op->getLoc())
             << "'" << op->getName()
             << "' has no gradient rule: gradients flow through scf.if "
                "and scf.while only";
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
