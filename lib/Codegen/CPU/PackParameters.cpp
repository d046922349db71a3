//===- PackParameters.cpp - Ask for a GEMV's weight as [in, out] ----------===//
//
// See the pass description in Passes.td. The runtime side, which transposes
// each bound parameter buffer once, is include/ms/Runtime/Memory/PackedParams.h.
//
//===----------------------------------------------------------------------===//

#include "ms/Codegen/CPU/Passes.h"
#include "ms/Codegen/CPU/TileSizeModel.h"
#include "ms/Codegen/CPU/VectorizationUtils.h"
#include "ms/Support/ArgumentAttributes.h"
#include "ms/Support/PackedRows.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

#include <limits>

namespace ms {
#define GEN_PASS_DEF_MSPACKPARAMETERS
#include "ms/Codegen/CPU/Passes.h.inc"
} // namespace ms

using namespace mlir;

namespace {

using ms::kPackedAttr;
using ms::kPackedCopyOfAttr;
using ms::kParamAttr;

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

/// The transposed-B matmuls that read a weight, split at `maxRows` rows.
struct WeightUses {
  SmallVector<Operation *> small, large;
};

/// The uses of `arg` when every one is a transposed-B matmul; nullopt
/// otherwise (the weight has another reader, or a writer: a packed copy
/// made before the call would go stale).
std::optional<WeightUses> classifyUses(BlockArgument arg, int64_t maxRows) {
  WeightUses uses;
  for (Operation *user : arg.getUsers()) {
    if (!isSmallTransposedMatmul(user, arg,
                                 std::numeric_limits<int64_t>::max()))
      return std::nullopt;
    (isSmallTransposedMatmul(user, arg, maxRows) ? uses.small : uses.large)
        .push_back(user);
  }
  return uses;
}

/// How a weight of type [out, in] is packed: in panels of `panelWidth`
/// columns, [out / W, in, W], when that is not 0; else as [in, out], its
/// rows padded to ms::paddedRowLength when threads share them.
struct PackedWeight {
  RankedTensorType type;
  StringAttr layout; // the ms.packed value
  int64_t panelWidth = 0;
  /// Every other call reads the panels from the last (one thread only:
  /// with more, each thread's share of the panels would move to another).
  bool alternatePanels = false;

  PackedWeight(RankedTensorType weight, unsigned threads, int64_t panels,
               bool alternate)
      : panelWidth(panels),
        alternatePanels(panels && alternate && threads == 1) {
    int64_t out = weight.getDimSize(0), in = weight.getDimSize(1), row = out;
    MLIRContext *ctx = weight.getContext();
    if (panelWidth) {
      type = RankedTensorType::get({out / panelWidth, in, panelWidth},
                                   weight.getElementType());
      layout = StringAttr::get(ctx, "panels" + std::to_string(panelWidth));
      return;
    }
    if (threads > 1)
      row = ms::paddedRowLength(
          out, weight.getElementType().getIntOrFloatBitWidth() / 8);
    type = RankedTensorType::get({in, row}, weight.getElementType());
    layout =
        StringAttr::get(ctx, row != out ? "transpose_padded" : "transpose");
  }
};

/// The panel width for `weight`'s small matmuls: the one every matmul's
/// register tile asks for (or `forced`, the pass option, when not
/// negative), if they agree, it makes two panels or more, and the runtime
/// has that layout (ms::kPanelWidths); 0 otherwise.
int64_t panelWidthFor(RankedTensorType weight, ArrayRef<Operation *> users,
                      int64_t forced) {
  int64_t out = weight.getDimSize(0), in = weight.getDimSize(1);
  std::optional<int64_t> width;
  if (forced >= 0)
    width = forced;
  else
    for (Operation *user : users) {
      int64_t rows =
          cast<RankedTensorType>(user->getOperand(0).getType()).getDimSize(0);
      int64_t w =
          ms::choosePackedPanelWidth(ms::CpuModel::host(), rows, out, in);
      if (width && *width != w)
        return 0;
      width = w;
    }
  bool known = width && ms::isPanelWidth(*width);
  return known && out % *width == 0 && out / *width >= 2 ? *width : 0;
}

/// x @ w^T becomes x @ wT with wT the packed argument (its [in, out] part
/// when its rows are padded); the accumulator and K order stay, so the bits
/// do too.
void rewriteMatmuls(Value packed, RankedTensorType weightType,
                    ArrayRef<Operation *> users) {
  int64_t out = weightType.getDimSize(0);
  for (Operation *user : users) {
    auto matmul = cast<linalg::MatmulOp>(user);
    OpBuilder b(matmul);
    Value rhs = packed;
    if (cast<RankedTensorType>(packed.getType()).getDimSize(1) != out)
      rhs = ms::sliceColumns(b, matmul.getLoc(), packed, 0, out);
    auto plain = linalg::MatmulOp::create(
        b, matmul.getLoc(), matmul->getResultTypes(),
        ValueRange{matmul.getDpsInputs()[0], rhs}, matmul.getDpsInits());
    matmul->replaceAllUsesWith(plain);
    matmul->erase();
  }
}

/// A call counter of its own for one matmul over panels: an i32
/// memref.global, private to the module.
memref::GlobalOp createCallCounter(OpBuilder &b, Location loc,
                                   ModuleOp module) {
  OpBuilder detached(b.getContext());
  auto type = MemRefType::get({}, b.getI32Type());
  auto zero = DenseElementsAttr::get(
      RankedTensorType::get({}, b.getI32Type()), b.getI32IntegerAttr(0));
  auto counter = memref::GlobalOp::create(
      detached, loc, "__ms_panel_calls", b.getStringAttr("private"), type,
      zero, /*constant=*/false, /*alignment=*/nullptr);
  // Inserted by the symbol table, which renames it if the name is taken.
  SymbolTable(module).insert(counter, module.getBody()->begin());
  return counter;
}

/// True on every other call: counts the call in its own counter (atomically:
/// two threads may call the same function) and tests the old count's low
/// bit.
Value isReversedCall(OpBuilder &b, Location loc, ModuleOp module) {
  memref::GlobalOp counter = createCallCounter(b, loc, module);
  Value ref = memref::GetGlobalOp::create(b, loc, counter.getType(),
                                          counter.getSymName());
  Value one = arith::ConstantIntOp::create(b, loc, 1, 32);
  Value calls = memref::AtomicRMWOp::create(
      b, loc, arith::AtomicRMWKind::addi, one, ref, ValueRange{});
  Value low = arith::AndIOp::create(b, loc, calls, one);
  return arith::TruncIOp::create(b, loc, b.getI1Type(), low);
}

/// The panel of `panels` a forall iteration multiplies: its index, or,
/// when `reversed` holds, the panels counted from the last.
Value panelIndex(OpBuilder &b, Location loc, scf::ForallOp forall,
                 int64_t panels, Value reversed) {
  Value i = forall.getInductionVar(0);
  if (!reversed)
    return i;
  Value last = arith::ConstantIndexOp::create(b, loc, panels - 1);
  Value fromLast = arith::SubIOp::create(b, loc, last, i);
  return arith::SelectOp::create(b, loc, reversed, fromLast, i);
}

/// In the body of a forall over panels: x times panel `panel` of `packed`
/// ([panels, in, W]) into columns [panel * W, (panel + 1) * W) of the
/// forall's output, from the matmul's `init`. `panel` is the iteration's
/// index, or counts from the last when `reversed` (null: never) holds.
void multiplyPanel(OpBuilder &b, Location loc, scf::ForallOp forall,
                   Value x, Value packed, Value init, Value reversed) {
  auto packedType = cast<RankedTensorType>(packed.getType());
  int64_t in = packedType.getDimSize(1), width = packedType.getDimSize(2);
  int64_t rows = cast<RankedTensorType>(init.getType()).getDimSize(0);
  Value out = forall.getRegionOutArgs()[0];
  b.setInsertionPoint(forall.getTerminator());
  Value panel =
      panelIndex(b, loc, forall, packedType.getDimSize(0), reversed);
  OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
  Value weight = tensor::ExtractSliceOp::create(
      b, loc, RankedTensorType::get({in, width}, packedType.getElementType()),
      packed, {OpFoldResult(panel), zero, zero},
      {one, b.getIndexAttr(in), b.getIndexAttr(width)}, {one, one, one});
  OpFoldResult col = affine::makeComposedFoldedAffineApply(
      b, loc, b.getAffineDimExpr(0) * width, {OpFoldResult(panel)});
  SmallVector<OpFoldResult> offsets{zero, col},
      sizes{b.getIndexAttr(rows), b.getIndexAttr(width)}, strides{one, one};
  Value acc =
      tensor::ExtractSliceOp::create(b, loc, out, offsets, sizes, strides);
  // A zero start stays visible to ms-vectorize-matmuls: the fill moves
  // into the panel.
  if (auto fill = init.getDefiningOp<linalg::FillOp>())
    acc = linalg::FillOp::create(b, loc, fill.getInputs(), acc).getResult(0);
  Value part = linalg::MatmulOp::create(b, loc, TypeRange{acc.getType()},
                                        ValueRange{x, weight}, ValueRange{acc})
                   ->getResult(0);
  b.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(b, loc, part, out, offsets, sizes,
                                        strides);
}

/// x @ w^T as one matmul per W-wide panel of the packed weight
/// [out / W, in, W], in an scf.forall over the panels: each register tile
/// streams its own contiguous panel, and threads share whole panels. Each
/// output keeps its accumulator and K order, so the bits stay, in whatever
/// order the panels run. With `alternate`, every other call runs them from
/// the last: one thread's weights can be larger than its L2, and the panels
/// the previous call read last are the ones still there.
void rewriteMatmulsOverPanels(Value packed, ArrayRef<Operation *> users,
                              bool alternate) {
  int64_t panels = cast<RankedTensorType>(packed.getType()).getDimSize(0);
  for (Operation *user : users) {
    auto matmul = cast<linalg::MatmulOp>(user);
    OpBuilder b(matmul);
    Location loc = matmul.getLoc();
    Value reversed =
        alternate ? isReversedCall(b, loc, matmul->getParentOfType<ModuleOp>())
                  : Value();
    Value init = matmul.getDpsInits()[0];
    auto forall = scf::ForallOp::create(
        b, loc, ArrayRef<OpFoldResult>{b.getIndexAttr(panels)},
        ValueRange{init}, std::nullopt);
    multiplyPanel(b, loc, forall, matmul.getDpsInputs()[0], packed, init,
                  reversed);
    matmul->replaceAllUsesWith(forall->getResults());
    matmul->erase();
  }
}

/// Rewrites `users` to read the packed weight `value` laid out as `packed`.
void readPacked(Value value, const PackedWeight &packed,
                RankedTensorType weightType, ArrayRef<Operation *> users) {
  if (packed.panelWidth)
    rewriteMatmulsOverPanels(value, users, packed.alternatePanels);
  else
    rewriteMatmuls(value, weightType, users);
}

/// Updates a function's type after its arguments changed type.
void syncFunctionType(func::FuncOp func) {
  func.setFunctionType(FunctionType::get(func.getContext(),
                                         func.getBody().getArgumentTypes(),
                                         func.getFunctionType().getResults()));
}

/// Only small matmuls read the weight: the argument itself becomes [in, out].
void packInPlace(func::FuncOp func, BlockArgument arg,
                 const WeightUses &uses, const PackedWeight &packed) {
  auto type = cast<RankedTensorType>(arg.getType());
  arg.setType(packed.type);
  readPacked(arg, packed, type, uses.small);
  func.setArgAttr(arg.getArgNumber(), kPackedAttr, packed.layout);
  syncFunctionType(func);
}

/// Small and large matmuls read the weight (a ?-batch graph's batch tiles):
/// the small ones get an [in, out] copy as a new trailing argument, which
/// the runtime makes from the caller's argument `ms.packed_copy_of`; the
/// large ones keep the register-tiled x @ w^T path of a static graph.
void appendPackedCopy(func::FuncOp func, BlockArgument arg,
                      const WeightUses &uses, const PackedWeight &packed) {
  MLIRContext *ctx = func.getContext();
  unsigned i = arg.getArgNumber();
  auto type = cast<RankedTensorType>(arg.getType());
  Builder b(ctx);
  NamedAttrList attrs;
  attrs.set(kParamAttr, func.getArgAttr(i, kParamAttr));
  attrs.set(kPackedAttr, packed.layout);
  attrs.set(kPackedCopyOfAttr, b.getI64IntegerAttr(i));
  unsigned index = func.getNumArguments();
  if (failed(func.insertArgument(index, packed.type,
                                 attrs.getDictionary(ctx), arg.getLoc())))
    return;
  readPacked(func.getArgument(index), packed, type, uses.small);
}

/// Packs the weights of `func`'s small-batch matmuls.
void packArguments(func::FuncOp func, int64_t maxRows, unsigned threads,
                   int64_t forcedPanelWidth, bool alternatePanels) {
  SmallVector<BlockArgument> args(func.getArguments());
  for (BlockArgument arg : args) {
    unsigned i = arg.getArgNumber();
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!func.getArgAttr(i, kParamAttr) || func.getArgAttr(i, kPackedAttr) ||
        !type || type.getRank() != 2 || !type.hasStaticShape() ||
        !type.getElementType().isF32())
      continue;
    std::optional<WeightUses> uses = classifyUses(arg, maxRows);
    if (!uses || uses->small.empty())
      continue;
    PackedWeight packed(type, threads,
                        panelWidthFor(type, uses->small, forcedPanelWidth),
                        alternatePanels);
    if (uses->large.empty())
      packInPlace(func, arg, *uses, packed);
    else
      appendPackedCopy(func, arg, *uses, packed);
  }
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
      packArguments(func, maxRows, numThreads, panelWidth, alternatePanels);
    }
  }
};

} // namespace
