//===- SplitDynamicBatch.cpp - A ?-batch function as static tiles ---------===//
//
// ms-split-dynamic-batch (Passes.td): a public function with a `?` batch
// dim becomes loops over static batch tiles, each running the function's
// ops specialized to that tile size on the tile's rows. The codegen then sees only static
// shapes, so every tile gets the static kernels, and each row the bits a
// static compile gives it.
//
//===----------------------------------------------------------------------===//

#include "ms/Dialect/MS/IR/MSOps.h"
#include "ms/Dialect/MS/Transforms/Passes.h"
#include "ms/Support/ArgumentAttributes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "llvm/ADT/DenseSet.h"

namespace ms {
#define GEN_PASS_DEF_MSSPLITDYNAMICBATCH
#include "ms/Dialect/MS/Transforms/Passes.h.inc"
} // namespace ms

using namespace mlir;
using namespace ms;

namespace {

/// A ranked tensor whose only ? is its leading dim.
bool isBatched(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getRank() >= 1 && tensor.isDynamicDim(0) &&
         tensor.getNumDynamicDims() == 1;
}

bool hasDynamicDims(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && !tensor.hasStaticShape();
}

/// `type` with its leading dim set to `batch`.
RankedTensorType withBatch(Type type, int64_t batch) {
  auto tensor = cast<RankedTensorType>(type);
  SmallVector<int64_t> shape(tensor.getShape());
  shape[0] = batch;
  return tensor.clone(shape);
}

/// Why `op`, which reads a batched value, would mix rows of the batch;
/// empty when it treats them independently. The ops say (MSBase.td).
std::string whyRowsMix(Operation *op, const llvm::DenseSet<Value> &batched) {
  if (isRowIndependent(op))
    return "";
  if (auto rows = dyn_cast<RowIndependenceOpInterface>(op))
    return rows.whyRowsMix([&](Value v) { return batched.contains(v); });
  return "it is not known to treat the rows of the batch independently";
}

/// Checks that `func`'s rows never mix and that every ? is the batch.
LogicalResult checkRowWise(func::FuncOp func) {
  llvm::DenseSet<Value> batched;
  for (BlockArgument arg : func.getArguments()) {
    if (isBatched(arg.getType()))
      batched.insert(arg);
    else if (hasDynamicDims(arg.getType()))
      return func.emitError("argument ")
             << arg.getArgNumber() << " has type " << arg.getType()
             << "; only the leading (batch) dim of an input may be ?";
  }
  for (BlockArgument arg : func.getArguments())
    if (batched.contains(arg) && func.getArgAttr(arg.getArgNumber(),
                                                 kParamAttr))
      return func.emitError("parameter argument ")
             << arg.getArgNumber() << " has a ? dim; parameters are static";
  for (Operation &op : func.getBody().front()) {
    bool readsBatch = llvm::any_of(op.getOperands(), [&](Value v) {
      return batched.contains(v);
    });
    if (isa<func::ReturnOp>(op)) {
      for (Value v : op.getOperands())
        if (!batched.contains(v))
          return op.emitError("result ")
                 << "of type " << v.getType()
                 << " does not depend on the ? batch; every result of a "
                    "?-batch function must have the batch as dim 0";
      continue;
    }
    if (!readsBatch) {
      if (llvm::any_of(op.getResultTypes(), hasDynamicDims))
        return op.emitOpError("has a ? dim that is not the batch of an input");
      continue;
    }
    if (op.getNumRegions() != 0)
      return op.emitOpError("has regions; a ? batch cannot flow into them yet");
    std::string why = whyRowsMix(&op, batched);
    if (!why.empty())
      return op.emitOpError("mixes the rows of the ? batch dim (")
             << why << "); a ?-batch function must treat rows independently";
    for (Value result : op.getResults()) {
      if (!isBatched(result.getType()))
        return op.emitOpError("result type ")
               << result.getType()
               << " does not keep the ? batch as its leading dim";
      batched.insert(result);
    }
  }
  return success();
}

/// Gives the results of `op` the types its shape rule infers now.
LogicalResult reinfer(Operation *op) {
  if (auto infer = dyn_cast<InferTypeOpInterface>(op)) {
    SmallVector<Type> types;
    if (failed(infer.inferReturnTypes(
            op->getContext(), op->getLoc(), op->getOperands(),
            op->getRawDictionaryAttrs(), op->getPropertiesStorage(),
            op->getRegions(), types)))
      return failure();
    for (auto [result, type] : llvm::zip(op->getResults(), types))
      result.setType(type);
    return success();
  }
  if (op->hasTrait<mlir::OpTrait::SameOperandsAndResultType>()) {
    for (Value result : op->getResults())
      result.setType(op->getOperand(0).getType());
    return success();
  }
  return op->emitOpError("cannot infer its result type for a static batch");
}

/// A private copy of `func` with every ? replaced by `batch` (its ops are
/// inlined into the tile loop, then it is erased).
FailureOr<func::FuncOp> specialize(func::FuncOp func, int64_t batch,
                                   SymbolTable &symbols) {
  func::FuncOp copy = func.clone();
  copy.setSymName((func.getSymName() + "__batch" + Twine(batch)).str());
  copy.setPrivate();
  for (unsigned i = 0, e = copy.getNumArguments(); i < e; ++i)
    copy.removeArgAttr(i, kParamAttr);
  Block &body = copy.getBody().front();
  for (BlockArgument arg : body.getArguments())
    if (isBatched(arg.getType()))
      arg.setType(withBatch(arg.getType(), batch));
  for (Operation &op : body) {
    if (isa<func::ReturnOp>(op))
      continue;
    bool retype = llvm::any_of(op.getOperandTypes(), [](Type t) {
      return isa<RankedTensorType>(t);
    }) && llvm::any_of(op.getResultTypes(), hasDynamicDims);
    if (retype && failed(reinfer(&op))) {
      copy.erase();
      return failure();
    }
  }
  copy.setFunctionType(FunctionType::get(
      func.getContext(), body.getArgumentTypes(),
      body.getTerminator()->getOperandTypes()));
  symbols.insert(copy, std::next(Block::iterator(func)));
  return copy;
}

/// The offsets, sizes and strides of `size` rows of a `type` tensor from
/// row `offset` on, whole in every other dim.
struct RowSlice {
  SmallVector<OpFoldResult> offsets, sizes, strides;

  RowSlice(OpBuilder &b, RankedTensorType type, Value offset, int64_t size)
      : offsets(type.getRank(), b.getIndexAttr(0)),
        strides(type.getRank(), b.getIndexAttr(1)) {
    offsets[0] = offset;
    sizes.push_back(b.getIndexAttr(size));
    for (int64_t d : type.getShape().drop_front())
      sizes.push_back(b.getIndexAttr(d));
  }
};

/// The tile's ops cloned at `b` on `operands`; returns its results. Inlined,
/// they read the rows in place (a call would copy them into a buffer of the
/// callee's layout).
SmallVector<Value> inlineTile(OpBuilder &b, func::FuncOp tile,
                              ValueRange operands) {
  IRMapping mapping;
  Block &tileBody = tile.getBody().front();
  mapping.map(tileBody.getArguments(), operands);
  for (Operation &op : tileBody.without_terminator())
    b.clone(op, mapping);
  SmallVector<Value> results;
  for (Value v : tileBody.getTerminator()->getOperands())
    results.push_back(mapping.lookupOrDefault(v));
  return results;
}

/// One iteration of a tile loop: the `size` rows at `offset` of each
/// batched argument through the tile's ops, written into `into`.
SmallVector<Value> buildTileStep(OpBuilder &b, Location loc, Block &body,
                                 func::FuncOp tile, int64_t size,
                                 Value offset, ValueRange into) {
  SmallVector<Value> operands;
  for (BlockArgument arg : body.getArguments()) {
    if (!isBatched(arg.getType())) {
      operands.push_back(arg);
      continue;
    }
    auto type = cast<RankedTensorType>(arg.getType());
    RowSlice rows(b, type, offset, size);
    operands.push_back(tensor::ExtractSliceOp::create(
        b, loc, withBatch(type, size), arg, rows.offsets, rows.sizes,
        rows.strides));
  }
  SmallVector<Value> updated;
  for (auto [value, result] : llvm::zip(inlineTile(b, tile, operands), into)) {
    RowSlice rows(b, cast<RankedTensorType>(result.getType()), offset, size);
    updated.push_back(tensor::InsertSliceOp::create(
        b, loc, value, result, rows.offsets, rows.sizes, rows.strides));
  }
  return updated;
}

/// Replaces the body of `func` by the loops over batch tiles, each running
/// the ops of its tile-size copy in `tiles`.
void buildTileLoops(func::FuncOp func, ArrayRef<func::FuncOp> tiles,
                    ArrayRef<int64_t> sizes) {
  Block &body = func.getBody().front();
  TypeRange resultTypes = func.getFunctionType().getResults();
  Location loc = body.getTerminator()->getLoc();
  body.getTerminator()->erase();
  for (Operation &op : llvm::reverse(body))
    op.dropAllUses();
  while (!body.empty())
    body.back().erase();

  OpBuilder b = OpBuilder::atBlockEnd(&body);
  BlockArgument batchArg = *llvm::find_if(
      body.getArguments(),
      [](BlockArgument arg) { return isBatched(arg.getType()); });
  Value n = tensor::DimOp::create(b, loc, batchArg, 0);
  SmallVector<Value> results;
  for (Type type : resultTypes)
    results.push_back(tensor::EmptyOp::create(
        b, loc, cast<RankedTensorType>(type), ValueRange{n}));
  // As many tiles of each size as fit, largest first.
  Value start = arith::ConstantIndexOp::create(b, loc, 0);
  for (auto [tile, size] : llvm::zip(tiles, sizes)) {
    Value step = arith::ConstantIndexOp::create(b, loc, size);
    Value remaining = arith::SubIOp::create(b, loc, n, start);
    Value count = arith::DivUIOp::create(b, loc, remaining, step);
    Value stop = arith::AddIOp::create(
        b, loc, start, arith::MulIOp::create(b, loc, count, step));
    auto loop = scf::ForOp::create(
        b, loc, start, stop, step, results,
        [&](OpBuilder &lb, Location l, Value offset, ValueRange iter) {
          scf::YieldOp::create(
              lb, l, buildTileStep(lb, l, body, tile, size, offset, iter));
        });
    results.assign(loop.getResults().begin(), loop.getResults().end());
    start = stop;
  }
  func::ReturnOp::create(b, loc, results);
}

struct MSSplitDynamicBatchPass
    : ms::impl::MSSplitDynamicBatchBase<MSSplitDynamicBatchPass> {
  using MSSplitDynamicBatchBase::MSSplitDynamicBatchBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<int64_t> sizes(batchTiles.begin(), batchTiles.end());
    if (sizes.empty())
      sizes = {64, 32, 16, 4, 1};
    for (size_t i = 0; i < sizes.size(); ++i)
      if (sizes[i] <= 0 || (i > 0 && sizes[i] >= sizes[i - 1]) ||
          (i + 1 == sizes.size() && sizes[i] != 1)) {
        module.emitError("ms-split-dynamic-batch: batch-tiles must be "
                         "positive, decreasing, and end in 1");
        return signalPassFailure();
      }
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> dynamic;
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal() && func.isPublic() &&
          llvm::any_of(func.getArgumentTypes(), hasDynamicDims))
        dynamic.push_back(func);
    for (func::FuncOp func : dynamic)
      if (failed(split(func, sizes, symbols)))
        return signalPassFailure();
  }

  LogicalResult split(func::FuncOp func, ArrayRef<int64_t> sizes,
                      SymbolTable &symbols) {
    if (!func.getBody().hasOneBlock())
      return func.emitError("a ?-batch function must have one block");
    if (failed(checkRowWise(func)))
      return failure();
    SmallVector<func::FuncOp> tiles;
    for (int64_t size : sizes) {
      FailureOr<func::FuncOp> tile = specialize(func, size, symbols);
      if (failed(tile))
        return failure();
      if (failed(verify(*tile)))
        return func.emitError("the batch-") << size << " copy is not valid";
      tiles.push_back(*tile);
    }
    buildTileLoops(func, tiles, sizes);
    for (func::FuncOp tile : tiles)
      symbols.erase(tile);
    return success();
  }
};

} // namespace
