//===- VectorizeMatmuls.cpp - Register-tiled, vectorized matmuls ----------===//
//
// Writes one transform-dialect schedule per static linalg.matmul, with tile
// sizes from the TileSizeModel, and applies it. Every tile the schedule makes
// is static (remainders are split off with their own exact tiles), so every
// tile vectorizes.
//
//===----------------------------------------------------------------------===//

#include "ms/Codegen/CPU/Passes.h"
#include "ms/Codegen/CPU/TileSizeModel.h"
#include "ms/Codegen/CPU/TransformScript.h"
#include "ms/Codegen/CPU/VectorizationUtils.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "llvm/Support/FormatVariadic.h"

#include <array>

namespace ms {
#define GEN_PASS_DEF_MSVECTORIZEMATMULS
#include "ms/Codegen/CPU/Passes.h.inc"
} // namespace ms

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kIdAttr = "ms.matmul_id";

/// Emits the transform ops that schedule one matmul.
class ScheduleWriter {
public:
  ScheduleWriter(std::string &out, int64_t id, const ms::MatmulTiles &tiles,
                 int64_t k, unsigned threads)
      : out(out), id(id), tiles(tiles), k(k), threads(threads) {}

  enum class ThreadSplit { None, Rows, Cols };

  /// How the matmul shares out over the threads: by rows when each thread
  /// gets a micro-tile of them, else by columns when those divide into
  /// whole micro-tiles per thread, else not at all.
  ThreadSplit threadSplit(int64_t rows, int64_t cols) const {
    if (threads <= 1)
      return ThreadSplit::None;
    if (rows >= tiles.microRows * threads)
      return ThreadSplit::Rows;
    if (cols % (tiles.microCols * threads) == 0)
      return ThreadSplit::Cols;
    return ThreadSplit::None;
  }

  /// Tiles the matmul down to its register tiles and their K loops, each
  /// K loop marked with the matmul's id (writeVectorization finds them).
  void schedule(int64_t rows, int64_t cols) {
    std::string root = fresh();
    idParam = fresh();
    line(llvm::formatv("{0} = transform.structured.match ops{{[\"linalg."
                       "matmul\"]} attributes {{{1} = {2} : i64} in %root : "
                       "(!transform.any_op) -> !transform.any_op",
                       root, kIdAttr, id));
    line(llvm::formatv("{0} = transform.param.constant {1} : i64 -> "
                       "!transform.param<i64>",
                       idParam, id));
    splitForThreads(root, rows, cols);
  }

  /// How many register tiles (and K loops) the schedule made.
  int64_t registerTiles() const { return tileCount; }

private:
  /// Handle names are unique across the schedules of all matmuls.
  std::string fresh() {
    return "%m" + std::to_string(id) + "_" + std::to_string(counter++);
  }
  void line(const llvm::Twine &text) { out += "    " + text.str() + "\n"; }

  /// Splits `handle` at `at` along `dim`; returns both parts.
  std::pair<std::string, std::string> split(const std::string &handle,
                                            int dim, int64_t at) {
    std::string both = fresh(), first = fresh(), second = fresh();
    line(llvm::formatv("{0} = transform.structured.split {1} after {2} "
                       "{{dimension = {3}} : !transform.any_op",
                       both, handle, at, dim));
    line(llvm::formatv("{0}, {1} = transform.split_handle {2} : "
                       "(!transform.any_op) -> (!transform.any_op, "
                       "!transform.any_op)",
                       first, second, both));
    return {first, second};
  }

  /// Rows in `threads` equal chunks, each an iteration of an scf.forall.
  /// Rows that divide evenly make one chunk per thread, with its own
  /// leftover micro-tile; otherwise the chunks are whole micro-tiles and
  /// the leftover rows run after, on one thread.
  void splitForThreads(const std::string &handle, int64_t rows, int64_t cols) {
    switch (threadSplit(rows, cols)) {
    case ThreadSplit::Cols:
      splitColsForThreads(handle, rows, cols);
      return;
    case ThreadSplit::None:
      splitRows(handle, rows, cols);
      return;
    case ThreadSplit::Rows:
      break;
    }
    int64_t chunk = tiles.microRows * threads;
    // An even split leaves no serial tail, and one tile body less to
    // compile (512 rows: 42 x 6 + 4 per thread, not 84 x 6 then 6 + 2).
    int64_t parallelRows =
        rows % threads == 0 ? rows : rows / chunk * chunk;
    std::string parallel = handle, rest;
    if (parallelRows < rows)
      std::tie(parallel, rest) = split(handle, 0, parallelRows);
    // The leftover rows first: tiling the parallel part into an scf.forall
    // rewrites the tensor chain both parts share.
    if (!rest.empty())
      splitRows(rest, rows - parallelRows, cols);
    std::string tiled = fresh(), forall = fresh();
    line(llvm::formatv("{0}, {1} = transform.structured.tile_using_forall {2} "
                       "tile_sizes [{3}, 0, 0] : (!transform.any_op) -> "
                       "(!transform.any_op, !transform.any_op)",
                       tiled, forall, parallel, parallelRows / threads));
    splitRows(tiled, parallelRows / threads, cols);
  }

  /// Too few rows to share (a batch-1 dense layer): the columns split into
  /// `threads` equal chunks of whole micro-tiles instead.
  void splitColsForThreads(const std::string &handle, int64_t rows,
                           int64_t cols) {
    std::string tiled = fresh(), forall = fresh();
    line(llvm::formatv("{0}, {1} = transform.structured.tile_using_forall {2} "
                       "tile_sizes [0, {3}, 0] : (!transform.any_op) -> "
                       "(!transform.any_op, !transform.any_op)",
                       tiled, forall, handle, cols / threads));
    splitRows(tiled, rows, cols / threads);
  }

  void splitRows(const std::string &handle, int64_t rows, int64_t cols) {
    splitAlong(0, handle, {rows, cols});
  }

  /// Splits the block along `dim` (0: rows, then 1: columns) after its last
  /// whole micro-tile, so that each part but the leftover tiles evenly; each
  /// part then splits along the next dim, and after the last is tiled.
  void splitAlong(unsigned dim, const std::string &handle,
                  std::array<int64_t, 2> size) {
    if (dim == size.size())
      return tileBlock(handle, size[0], size[1]);
    int64_t micro = dim == 0 ? tiles.microRows : tiles.microCols;
    int64_t main = size[dim] / micro * micro;
    if (main == 0 || main == size[dim])
      return splitAlong(dim + 1, handle, size);
    auto [first, second] = split(handle, dim, main);
    std::array<int64_t, 2> rest = size;
    rest[dim] -= main;
    size[dim] = main;
    splitAlong(dim + 1, first, size);
    splitAlong(dim + 1, second, rest);
  }

  /// Cache tiles, then the register tile (column tiles outside row tiles),
  /// then K one step at a time.
  void tileBlock(const std::string &handle, int64_t rows, int64_t cols) {
    int64_t rowTile = std::min(rows, tiles.microRows);
    int64_t colTile = std::min(cols, tiles.microCols);
    int64_t cacheCols = cols % tiles.cacheCols == 0 ? tiles.cacheCols : 0;
    if (cacheCols == cols)
      cacheCols = 0;
    int64_t cacheK = tiles.cacheK < k ? tiles.cacheK : 0;
    std::string current = handle;
    if (cacheCols || cacheK) {
      std::string tiled = fresh(), loops = fresh();
      int numLoops = (cacheCols ? 1 : 0) + (cacheK ? 1 : 0);
      line(llvm::formatv("{0}, {1}:{2} = transform.structured.tile_using_for "
                         "{3} tile_sizes [0, {4}, {5}] : (!transform.any_op) "
                         "-> (!transform.any_op{6})",
                         tiled, loops, numLoops, current, cacheCols, cacheK,
                         numLoops == 2 ? ", !transform.any_op, !transform.any_op"
                                       : ", !transform.any_op"));
      current = tiled;
    }
    std::string registerTile = fresh(), registerLoops = fresh();
    line(llvm::formatv("{0}, {1}:2 = transform.structured.tile_using_for {2} "
                       "tile_sizes [{3}, {4}, 0] interchange = [1, 0, 2] : "
                       "(!transform.any_op) -> (!transform.any_op, "
                       "!transform.any_op, !transform.any_op)",
                       registerTile, registerLoops, current, rowTile, colTile));
    std::string step = fresh(), kLoop = fresh();
    line(llvm::formatv("{0}, {1} = transform.structured.tile_using_for {2} "
                       "tile_sizes [0, 0, 1] : (!transform.any_op) -> "
                       "(!transform.any_op, !transform.any_op)",
                       step, kLoop, registerTile));
    line(llvm::formatv("transform.annotate {0} \"{1}\" = {2} : "
                       "!transform.any_op, !transform.param<i64>",
                       kLoop, kIdAttr, idParam));
    ++tileCount;
  }

  std::string &out;
  int64_t id;
  const ms::MatmulTiles &tiles;
  int64_t k;
  unsigned threads;
  unsigned counter = 0;
  int64_t tileCount = 0;
  std::string idParam;
};

/// Vectorizes matmul `id`'s register tiles (and, with `zeroStart`, the
/// zero tiles they may start from), then unrolls its K loops: all found by
/// the id they carry.
void writeVectorization(std::string &out, int64_t id, int64_t unrollK,
                        bool zeroStart) {
  auto vectorize = [&](StringRef what, StringRef opName) {
    out += llvm::formatv("    %{0}{1} = transform.structured.match "
                         "ops{{[\"{2}\"]} attributes {{{3} = {1} : i64} in "
                         "%root : (!transform.any_op) -> !transform.any_op\n"
                         "    transform.structured.vectorize %{0}{1} : "
                         "!transform.any_op\n",
                         what, id, opName, kIdAttr);
  };
  vectorize("tiles", "linalg.matmul");
  if (zeroStart)
    vectorize("zeros", "linalg.fill");
  out += llvm::formatv("    %kloops{0} = transform.structured.match "
                       "ops{{[\"scf.for\"]} attributes {{{1} = {0} : i64} "
                       "in %root : (!transform.any_op) -> !transform.any_op\n"
                       "    transform.loop.unroll %kloops{0} {{factor = {2}} "
                       ": !transform.any_op\n",
                       id, kIdAttr, unrollK);
}

/// The zero fill of `op`'s accumulator when it starts from zero, nothing
/// else reads that fill, and one pass over K makes each register tile
/// final (no K block, at least two steps, so every tile has its K loop).
linalg::FillOp zeroStartOf(linalg::MatmulOp op, const ms::MatmulTiles &tiles,
                           int64_t k) {
  auto fill = op.getDpsInits()[0].getDefiningOp<linalg::FillOp>();
  if (!fill || !fill->hasOneUse() || tiles.cacheK < k || k < 2 ||
      !matchPattern(fill.value(), m_PosZeroFloat()))
    return nullptr;
  return fill;
}

/// Starts each of matmul `id`'s `tiles` register tiles from a zero tile of
/// its own instead of the accumulator, and drops `fill`, the accumulator's
/// zero fill: the matmul then never reads its accumulator, and the fill's
/// pass over the whole result is gone. Every element belongs to exactly
/// one tile, so this holds only when all `tiles` K loops are found.
bool startTilesFromZero(Operation *root, int64_t id, int64_t tiles,
                        linalg::FillOp fill) {
  SmallVector<scf::ForOp> kLoops;
  root->walk([&](scf::ForOp loop) {
    auto mark = loop->getAttrOfType<IntegerAttr>(kIdAttr);
    if (mark && mark.getInt() == id)
      kLoops.push_back(loop);
  });
  if (int64_t(kLoops.size()) != tiles)
    return false;
  for (scf::ForOp loop : kLoops) {
    OpBuilder b(loop);
    OpOperand &acc = loop.getInitArgsMutable()[0];
    auto zero = linalg::FillOp::create(b, loop.getLoc(), fill.value(),
                                       acc.get());
    zero->setAttr(kIdAttr, loop->getAttr(kIdAttr));
    acc.set(zero.getResult(0));
  }
  fill.getResult(0).replaceAllUsesWith(fill.getDpsInits()[0]);
  fill->erase();
  return true;
}

/// A matmul's entry in ms.schedules, recorded once its tiles are known to
/// start from zero (`zero_start`) or not.
struct PendingSchedule {
  Operation *func;
  DictionaryAttr schedule;
  bool zeroStart = false;

  void record() const {
    NamedAttrList fields(schedule);
    if (zeroStart)
      fields.set("zero_start", UnitAttr::get(schedule.getContext()));
    if (func)
      ms::recordSchedule(func, fields.getDictionary(schedule.getContext()));
  }
};

/// Moves each vectorized K loop's accumulator read and write out of it, so
/// the tile stays in registers (vector iter_args) across K. On tensors,
/// before bufferization: the memref hoisting in ms-lower-vectors gives up
/// on a buffer that any view reads (a consumer split in row chunks over
/// threads), and the tile then goes through memory at every k.
void keepAccumulatorsInRegisters(Operation *root) {
  SmallVector<LoopLikeOpInterface> kLoops;
  root->walk([&](scf::ForOp loop) {
    if (loop->hasAttr(kIdAttr))
      kLoops.push_back(loop);
  });
  IRRewriter rewriter(root->getContext());
  for (LoopLikeOpInterface loop : kLoops)
    hoistLoopInvariantSubsets(rewriter, loop);
}

/// What the vectorized tiles need, once for all matmuls.
constexpr const char *kVectorPatterns =
    "    %funcs = transform.structured.match ops{[\"func.func\"]} in "
    "%root : (!transform.any_op) -> !transform.any_op\n"
    // Without reduction_to_contract, vectorization leaves mulf +
    // multi_reduction and no FMA.
    "    transform.apply_patterns to %funcs {\n"
    "      transform.apply_patterns.vector.reduction_to_contract\n"
    "      transform.apply_patterns.vector.transfer_permutation_patterns\n"
    "      transform.apply_patterns.tensor."
    "fold_tensor_subset_ops_into_vector_transfers\n"
    "      transform.apply_patterns.canonicalization\n"
    "    } : !transform.any_op\n";

/// The transform script that runs `body` on the module.
std::string transformScript(StringRef body) {
  return ("module attributes {transform.with_named_sequence} {\n"
          "  transform.named_sequence @__transform_main(%root: "
          "!transform.any_op {transform.readonly}) {\n" +
          body +
          "    transform.yield\n"
          "  }\n"
          "}\n")
      .str();
}

/// `part` written into `matrix` from column `col`.
Value insertColumns(OpBuilder &b, Location loc, Value part, Value matrix,
                    int64_t col) {
  auto type = cast<RankedTensorType>(part.getType());
  return tensor::InsertSliceOp::create(
      b, loc, part, matrix, {b.getIndexAttr(0), b.getIndexAttr(col)},
      {b.getIndexAttr(type.getDimSize(0)), b.getIndexAttr(type.getDimSize(1))},
      {b.getIndexAttr(1), b.getIndexAttr(1)});
}

/// Replaces `op` by two matmuls: its whole vectors of columns, [0, head),
/// and one vector ending at its last column, [start, cols), which overlaps
/// them (chooseOverlappedColumnStart). Both start from `op`'s accumulator,
/// so the overlapped columns get the same value twice.
SmallVector<linalg::MatmulOp> splitOverlappedColumns(linalg::MatmulOp op,
                                                     int64_t start) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value lhs = op.getDpsInputs()[0], rhs = op.getDpsInputs()[1];
  Value acc = op.getDpsInits()[0];
  int64_t cols = cast<RankedTensorType>(acc.getType()).getDimSize(1);
  int64_t lanes = cols - start, head = cols / lanes * lanes;
  auto part = [&](int64_t col, int64_t width) {
    Value init = ms::sliceColumns(b, loc, acc, col, width);
    return linalg::MatmulOp::create(
        b, loc, TypeRange{init.getType()},
        ValueRange{lhs, ms::sliceColumns(b, loc, rhs, col, width)},
        ValueRange{init});
  };
  linalg::MatmulOp whole = part(0, head), last = part(start, lanes);
  Value result = insertColumns(b, loc, whole->getResult(0), acc, 0);
  result = insertColumns(b, loc, last->getResult(0), result, start);
  op->getResult(0).replaceAllUsesWith(result);
  op->erase();
  return {whole, last};
}

/// Makes `op` read B from a copy with rows `length` elements apart
/// (choosePaddedRowLength): a tensor.pad that canonicalization keeps
/// (nofold), with poison in the columns past B's, which nothing reads.
void readRhsFromPaddedRows(linalg::MatmulOp op, int64_t length) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value rhs = op.getDpsInputs()[1];
  auto type = cast<RankedTensorType>(rhs.getType());
  int64_t k = type.getDimSize(0), cols = type.getDimSize(1);
  Value poison = ub::PoisonOp::create(b, loc, type.getElementType());
  auto padded = tensor::PadOp::create(
      b, loc, RankedTensorType::get({k, length}, type.getElementType()), rhs,
      {b.getIndexAttr(0), b.getIndexAttr(0)},
      {b.getIndexAttr(0), b.getIndexAttr(length - cols)}, poison,
      /*nofold=*/true);
  op->setOperand(1, ms::sliceColumns(b, loc, padded, 0, cols));
}

/// A plain row-major matmul on static, non-empty f32 tensors. The rest keep
/// the scalar lowering.
bool isTileable(linalg::MatmulOp op) {
  if (!op.hasPureTensorSemantics() || !op.getIndexingMaps() ||
      linalg::MatmulTransposeAOp::classof(op) ||
      linalg::MatmulTransposeBOp::classof(op) ||
      op.getIndexingMapsArray() !=
          linalg::MatmulOp::getDefaultIndexingMaps(op.getContext()))
    return false;
  auto lhs = cast<RankedTensorType>(op.getDpsInputs()[0].getType());
  auto rhs = cast<RankedTensorType>(op.getDpsInputs()[1].getType());
  return lhs.hasStaticShape() && rhs.hasStaticShape() &&
         lhs.getElementType().isF32() && lhs.getNumElements() != 0 &&
         rhs.getNumElements() != 0;
}

/// The tileable matmuls under `root`, those with a ragged last vector of
/// columns split in two first (splitOverlappedColumns).
SmallVector<linalg::MatmulOp> matmulsToSchedule(Operation *root,
                                                unsigned lanes) {
  SmallVector<linalg::MatmulOp> tileable, matmuls;
  root->walk([&](linalg::MatmulOp op) {
    if (isTileable(op))
      tileable.push_back(op);
  });
  for (linalg::MatmulOp op : tileable) {
    int64_t cols =
        cast<RankedTensorType>(op->getResult(0).getType()).getDimSize(1);
    if (int64_t start = ms::chooseOverlappedColumnStart(cols, lanes))
      llvm::append_range(matmuls, splitOverlappedColumns(op, start));
    else
      matmuls.push_back(op);
  }
  return matmuls;
}

/// The matmul's entry in ms.schedules: the tiles as the schedule uses them.
/// `rhsRowLength` is recorded only when B is read from a padded copy.
DictionaryAttr describe(MLIRContext *ctx, const ms::MatmulTiles &tiles,
                        int64_t rows, int64_t cols, int64_t k,
                        int64_t rhsRowLength, unsigned threads) {
  Builder b(ctx);
  SmallVector<NamedAttribute> fields;
  if (rhsRowLength != cols)
    fields.push_back(
        b.getNamedAttr("rhs_row_length", b.getI64IntegerAttr(rhsRowLength)));
  fields.append(
      {b.getNamedAttr("op", b.getStringAttr("matmul")),
       b.getNamedAttr("shape", b.getDenseI64ArrayAttr({rows, cols, k})),
       b.getNamedAttr("micro_tile", b.getDenseI64ArrayAttr(
                                        {tiles.microRows, tiles.microCols})),
       b.getNamedAttr("k_block", b.getI64IntegerAttr(tiles.cacheK)),
       b.getNamedAttr("n_block", b.getI64IntegerAttr(tiles.cacheCols)),
       b.getNamedAttr("unroll_k", b.getI64IntegerAttr(tiles.unrollK)),
       b.getNamedAttr("threads", b.getI64IntegerAttr(threads))});
  return b.getDictionaryAttr(fields);
}

struct MSVectorizeMatmulsPass
    : ms::impl::MSVectorizeMatmulsBase<MSVectorizeMatmulsPass> {
  using MSVectorizeMatmulsBase::MSVectorizeMatmulsBase;

  /// The host's model, with what the pass options set instead.
  ms::CpuModel cpuModel() const {
    ms::CpuModel cpu = ms::CpuModel::host();
    if (vectorLanes)
      cpu.vectorLanes = cpu.matmulLanes = vectorLanes;
    if (vectorRegisters)
      cpu.vectorRegisters = vectorRegisters;
    if (l1KiB)
      cpu.l1Bytes = l1KiB * 1024;
    if (l1Ways)
      cpu.l1Ways = l1Ways;
    if (l2KiB)
      cpu.l2Bytes = l2KiB * 1024;
    return cpu;
  }

  void runOnOperation() override {
    ms::CpuModel cpu = cpuModel();
    std::string tiling, vectorization;
    SmallVector<PendingSchedule> schedules;
    SmallVector<std::tuple<int64_t, int64_t, linalg::FillOp>> zeroStarts;
    int64_t id = 0;
    for (linalg::MatmulOp op :
         matmulsToSchedule(getOperation(), cpu.matmulLanes)) {
      auto lhs = cast<RankedTensorType>(op.getDpsInputs()[0].getType());
      auto rhs = cast<RankedTensorType>(op.getDpsInputs()[1].getType());
      int64_t rows = lhs.getDimSize(0), k = lhs.getDimSize(1);
      int64_t cols = rhs.getDimSize(1);
      // A matmul already inside a parallel loop (an im2col conv's loop over
      // the batch) gets no threads of its own, nor does a small one that
      // a sequential loop runs again and again.
      unsigned threads =
          op->getParentOfType<scf::ForallOp>()
              ? 1u
              : ms::chooseMatmulThreads(
                    rows, cols, k, bool(op->getParentOfType<scf::ForOp>()),
                    numThreads);
      ms::MatmulTiles tiles =
          ms::chooseMatmulTiles(cpu, rows, cols, k, threads);
      int64_t rhsRowLength =
          ms::choosePaddedRowLength(cpu, tiles, rows, cols, k);
      if (rhsRowLength != cols)
        readRhsFromPaddedRows(op, rhsRowLength);
      op->setAttr(kIdAttr,
                  IntegerAttr::get(IntegerType::get(op.getContext(), 64), id));
      ScheduleWriter writer(tiling, id, tiles, k, threads);
      // Recorded as run: a matmul too small to share runs on one thread.
      bool shared = writer.threadSplit(rows, cols) !=
                    ScheduleWriter::ThreadSplit::None;
      schedules.push_back(
          {op->getParentOfType<FunctionOpInterface>(),
           describe(op.getContext(), tiles, rows, cols, k, rhsRowLength,
                    shared ? threads : 1)});
      writer.schedule(rows, cols);
      linalg::FillOp zeroStart = zeroStartOf(op, tiles, k);
      if (zeroStart)
        zeroStarts.emplace_back(id, writer.registerTiles(), zeroStart);
      writeVectorization(vectorization, id, tiles.unrollK, bool(zeroStart));
      ++id;
    }
    if (id == 0)
      return;

    // Tiles first: between the two scripts the tiles of matmuls that start
    // from zero get zero tiles of their own (vectorized with them).
    if (failed(ms::applyTransformScript(getOperation(),
                                        transformScript(tiling))))
      return signalPassFailure();
    for (auto [matmul, tiles, fill] : zeroStarts)
      schedules[matmul].zeroStart =
          startTilesFromZero(getOperation(), matmul, tiles, fill);
    for (const PendingSchedule &schedule : schedules)
      schedule.record();
    if (failed(ms::applyTransformScript(
            getOperation(), transformScript(vectorization + kVectorPatterns))))
      return signalPassFailure();
    keepAccumulatorsInRegisters(getOperation());
    getOperation()->walk([](Operation *op) { op->removeAttr(kIdAttr); });
  }
};

} // namespace
