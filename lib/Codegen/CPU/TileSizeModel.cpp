//===- TileSizeModel.cpp - Tile sizes from the target and the shape -------===//

#include "ms/Codegen/CPU/TileSizeModel.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>
#include <vector>

namespace ms {
namespace {

/// Reads a Linux cache property such as "32K" or "8" from sysfs; 0 if
/// unknown.
unsigned readCacheValue(int index, llvm::StringRef property) {
  auto buffer = llvm::MemoryBuffer::getFile(
      "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) +
          "/" + property,
      /*IsText=*/true);
  if (!buffer)
    return 0;
  llvm::StringRef text = (*buffer)->getBuffer().trim();
  unsigned multiplier = 1;
  if (text.consume_back("K"))
    multiplier = 1024;
  else if (text.consume_back("M"))
    multiplier = 1024 * 1024;
  unsigned value = 0;
  if (text.getAsInteger(10, value))
    return 0;
  return value * multiplier;
}

int64_t largestPowerOfTwoAtMost(int64_t n) {
  int64_t p = 1;
  while (p * 2 <= n)
    p *= 2;
  return p;
}

/// Few rows (a batch-1 dense layer on a packed [in, out] weight): the
/// accumulators go to columns instead, and no cache blocks, since the
/// weight is read once, row by row, and x is a few cache lines. Such a
/// matmul is bound by reading the weight, so the tile is as wide as the
/// registers allow, in full-width vectors (16 lanes where AVX-512 gives 32
/// registers): each pass over K then reads longer contiguous runs of each
/// row. The seed MLP at batch 1 ran in 0.038 ms with 64 columns, 0.037
/// with 128 and 0.030 with 256, against 0.026 for just reading its weights
/// (bench/ReadBandwidthBench.cpp). A power of two of vectors per row, so
/// the tile divides layer widths.
MatmulTiles chooseSmallRowTiles(const CpuModel &cpu, int64_t rows,
                                int64_t cols, int64_t k) {
  int64_t lanes = cpu.vectorRegisters >= 32 ? 16 : cpu.vectorLanes;
  int64_t accumulators = std::max<int64_t>(1, (cpu.vectorRegisters - 4) / rows);
  MatmulTiles tiles;
  tiles.microRows = rows;
  tiles.microCols = largestPowerOfTwoAtMost(accumulators) * lanes;
  tiles.cacheK = k;
  tiles.cacheCols = cols;
  tiles.unrollK = 4;
  return tiles;
}

constexpr int64_t kCacheLineBytes = 64;

int64_t l1WayBytes(const CpuModel &cpu) {
  return std::max<int64_t>(kCacheLineBytes,
                           cpu.l1Bytes / std::max(1u, cpu.l1Ways));
}

/// The most lines of one L1 set that a micro-panel of B takes: `panelRows`
/// rows of `panelBytes`, their starts `rowBytes` apart. Counted line by
/// line, since rows a little short of a way apart (4080 bytes) drift
/// across the sets slowly.
int64_t panelLinesPerSet(const CpuModel &cpu, int64_t panelRows,
                         int64_t panelBytes, int64_t rowBytes) {
  // Only a row's offset within a way picks its sets; working modulo the
  // way keeps the products small whatever the shape.
  int64_t wayBytes = l1WayBytes(cpu);
  int64_t sets = wayBytes / kCacheLineBytes, step = rowBytes % wayBytes;
  std::vector<int64_t> lines(sets, 0);
  for (int64_t row = 0, start = 0; row < panelRows;
       ++row, start = (start + step) % wayBytes) {
    int64_t first = start / kCacheLineBytes;
    int64_t last = (start + panelBytes - 1) / kCacheLineBytes;
    for (int64_t line = first; line <= last; ++line)
      ++lines[line % sets];
  }
  return *std::max_element(lines.begin(), lines.end());
}

CpuModel detectHost() {
  CpuModel cpu;
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  // 256-bit vectors even where AVX-512 exists: on AMD's cores the 512-bit
  // units are double-pumped, so wider vectors add no throughput. AVX-512's
  // 32 registers do count: LLVM keeps a tile's accumulators in them.
  if (features.lookup("avx2") || features.lookup("avx")) {
    cpu.vectorLanes = 8;
    cpu.vectorRegisters = features.lookup("avx512f") ? 32 : 16;
  } else {
    cpu.vectorLanes = 4;
    cpu.vectorRegisters = 16;
  }
  // Zen 4 splits a 512-bit FMA in two; Zen 5 and Intel's AVX-512 cores do
  // not, and there a 6x32 micro-tile of 512-bit vectors ran the seed MLP at
  // batch 64 in 0.435 ms against 0.554 with 256-bit ones (the convs, tuned
  // for 8 lanes, were slower with 16, so only matmuls take them).
  cpu.matmulLanes = features.lookup("avx512f") &&
                            llvm::sys::getHostCPUName() != "znver4"
                        ? 16
                        : cpu.vectorLanes;
  // index0 is L1 data, index2 the L2 on x86 Linux.
  if (unsigned l1 = readCacheValue(0, "size"))
    cpu.l1Bytes = l1;
  if (unsigned ways = readCacheValue(0, "ways_of_associativity"))
    cpu.l1Ways = ways;
  if (unsigned l2 = readCacheValue(2, "size"))
    cpu.l2Bytes = l2;
  return cpu;
}

/// The accumulator rows `registers` vector registers hold in a register
/// tile `microCols` wide: one row each, less one broadcast and two loads.
int64_t accumulatorRows(const CpuModel &cpu, int64_t registers,
                        int64_t microCols) {
  return std::max<int64_t>(1, (registers - 4) / (microCols / cpu.matmulLanes));
}

/// The height of the register tiles for `rows` rows, given the default
/// `tiles`. Where the default height does not divide a few row tiles'
/// worth of rows, the last tile is shorter and runs on fewer accumulators
/// than the FMA latency needs; a taller tile that divides them, within the
/// vector registers, leaves none. The MLP's input gradient `dy W` at batch
/// 64 ([64 x 512] x [512 x 512]) took 0.152 ms in 8-row tiles against
/// 0.161-0.164 in 6-row ones and a 4-row one. Many row tiles keep the
/// default: a 512-row weight gradient `dy^T x` ran slower in 8-row tiles
/// (0.169-0.173 ms against 0.154-0.158).
int64_t chooseDividingRowTile(const CpuModel &cpu, int64_t rows,
                              const MatmulTiles &tiles) {
  constexpr int64_t kFewRowTiles = 16;
  if (rows % tiles.microRows == 0 || rows > kFewRowTiles * tiles.microRows)
    return tiles.microRows;
  int64_t tallest = accumulatorRows(cpu, cpu.vectorRegisters, tiles.microCols);
  for (int64_t height = tallest; height > tiles.microRows; --height)
    if (rows % height == 0)
      return height;
  return tiles.microRows;
}

} // namespace

CpuModel CpuModel::host() {
  // Once per process: every kernel's compile asks, and the answer is CPUID
  // and sysfs reads.
  static const CpuModel cpu = detectHost();
  return cpu;
}

MatmulTiles chooseMatmulTiles(const CpuModel &cpu, int64_t rows, int64_t cols,
                              int64_t k, unsigned threads) {
  MatmulTiles tiles;
  // Two vectors of columns per row; the remaining registers (less one
  // broadcast and two loads) hold one accumulator row each.
  tiles.microCols = 2 * cpu.matmulLanes;
  // AVX2's 16 registers even with more: a 14x16 tile in AVX-512's 32 ran the
  // seed MLP no faster (0.76-0.79 ms either way).
  tiles.microRows = accumulatorRows(cpu, std::min(cpu.vectorRegisters, 16u),
                                    tiles.microCols);
  if (rows >= 1 && rows < tiles.microRows)
    return chooseSmallRowTiles(cpu, rows, cols, k);
  // Rows that split evenly over the threads are tiled per thread.
  int64_t rowsPerThread =
      threads > 1 && rows % threads == 0 ? rows / threads : rows;
  tiles.microRows = chooseDividingRowTile(cpu, rowsPerThread, tiles);
  // The K block: the A micro-panel (rows x K) and the B micro-panel
  // (K x cols) fill at most three quarters of L1.
  int64_t bytesPerK = 4 * (tiles.microRows + tiles.microCols);
  tiles.cacheK = std::min<int64_t>(
      k, largestPowerOfTwoAtMost(cpu.l1Bytes * 3 / 4 / bytesPerK));
  // The column block: the K x cols panel takes at most half of L2.
  int64_t panelCols = cpu.l2Bytes / 2 / (4 * std::max<int64_t>(tiles.cacheK, 1));
  panelCols = std::max<int64_t>(tiles.microCols,
                                panelCols / tiles.microCols * tiles.microCols);
  // It must divide the columns the micro-tile covers, so every tile is
  // static and vectorizes.
  int64_t microTiles = cols / tiles.microCols;
  int64_t blockTiles = std::max<int64_t>(1, panelCols / tiles.microCols);
  while (microTiles > 0 && microTiles % blockTiles != 0)
    --blockTiles;
  tiles.cacheCols = microTiles > 0 ? blockTiles * tiles.microCols : cols;
  tiles.unrollK = 4;
  return tiles;
}

int64_t choosePackedPanelWidth(const CpuModel &cpu, int64_t rows,
                               int64_t cols, int64_t k) {
  int64_t width = chooseMatmulTiles(cpu, rows, cols, k, 1).microCols;
  return width > 0 && cols % width == 0 && cols / width >= 2 ? width : 0;
}

int64_t choosePaddedRowLength(const CpuModel &cpu, const MatmulTiles &tiles,
                              int64_t rows, int64_t cols, int64_t k) {
  constexpr int64_t kMinRowTilesPerPanel = 8;
  // Rows stay whole cache lines apart, so the vectors stay aligned.
  constexpr int64_t kLineElements = kCacheLineBytes / 4;
  int64_t panelRows = tiles.cacheK, panelBytes = 4 * tiles.microCols;
  auto conflicts = [&](int64_t length) {
    return panelLinesPerSet(cpu, panelRows, panelBytes,
                            4 * (length % l1WayBytes(cpu))) > cpu.l1Ways;
  };
  if (rows < kMinRowTilesPerPanel * tiles.microRows || cols <= 0 ||
      k <= 0 || panelRows <= 0 || !conflicts(cols))
    return cols;
  // Within a way's worth of lines some length spreads the rows over the
  // sets; if even that leaves too many lines per set, no copy helps.
  int64_t length = llvm::alignTo(cols, kLineElements);
  int64_t longest = length + l1WayBytes(cpu) / 4;
  while (conflicts(length)) {
    length += kLineElements;
    if (length > longest)
      return cols;
  }
  // The copy holds all of B's K rows; it must stay in L2 for the reads.
  std::optional<int64_t> copyElements = llvm::checkedMul(k, length);
  if (!copyElements || *copyElements > cpu.l2Bytes / 4)
    return cols;
  return length;
}

int64_t paddedLength(int64_t n) {
  return n <= 8 ? static_cast<int64_t>(llvm::PowerOf2Ceil(n))
                : static_cast<int64_t>(llvm::alignTo(n, 8));
}

std::optional<ConvTile> chooseConvTile(const CpuModel &cpu,
                                       int64_t channelsOut, int64_t outW,
                                       int64_t strideW) {
  // The matmul micro-tile's budget: the registers left after a broadcast
  // and loads, in vectors of `lanes`.
  auto budget = [&](int64_t lanes) {
    int64_t registersPerVector =
        std::max<int64_t>(1, lanes / cpu.vectorLanes);
    return std::max<int64_t>(1, (cpu.vectorRegisters - 4) /
                                    registersPerVector);
  };
  ConvTile tile;
  for (int64_t lanes : {2 * cpu.vectorLanes, cpu.vectorLanes}) {
    if (channelsOut % lanes == 0) {
      tile.channelLanes = true;
      tile.lanes = lanes;
      tile.budget = budget(lanes);
      tile.accumulators = std::min<int64_t>(outW, tile.budget);
      return tile;
    }
  }
  // Pixels in the lanes need contiguous image runs, and rows that fill the
  // lanes: the lanes past a row's end compute nothing, im2col wastes none.
  if (strideW != 1)
    return std::nullopt;
  tile.lanes = std::min<int64_t>(2 * cpu.vectorLanes, paddedLength(outW));
  int64_t tiles = (outW + tile.lanes - 1) / tile.lanes;
  // Rows at least a vector long that it does not divide: flattened tiles
  // span at most two rows and waste nothing.
  tile.flatPixels = outW >= tile.lanes && outW % tile.lanes != 0;
  if (!tile.flatPixels && 8 * outW < 7 * tiles * tile.lanes)
    return std::nullopt;
  tile.budget = budget(tile.lanes);
  tile.accumulators = std::min<int64_t>(channelsOut, tile.budget);
  return tile;
}

int64_t choosePooledWindowsPerTile(const ConvTile &tile, int64_t outW,
                                   int64_t windowH, int64_t windowW) {
  if (!tile.channelLanes)
    return 0;
  return std::min(outW / windowW, tile.budget / (windowH * windowW));
}

std::optional<PoolRowVectors>
choosePoolRowVectors(int64_t outputWidth, int64_t windowH, int64_t windowW,
                     int64_t strideW, int64_t dilationW) {
  using llvm::checkedAdd, llvm::checkedMul;
  if (outputWidth > kMaxVectorLanes)
    return std::nullopt;
  std::optional<int64_t> taps = checkedMul(windowH, windowW);
  if (!taps || *taps > kMaxUnrolledTaps)
    return std::nullopt;
  PoolRowVectors vectors;
  vectors.row = paddedLength(outputWidth);
  std::optional<int64_t> span = checkedMul(vectors.row - 1, strideW);
  std::optional<int64_t> reach = checkedMul(windowW - 1, dilationW);
  if (!span || !reach)
    return std::nullopt;
  std::optional<int64_t> windowLanes = checkedAdd(*span, *reach);
  if (!windowLanes || *windowLanes >= kMaxVectorLanes)
    return std::nullopt;
  vectors.span = paddedLength(*span + 1);
  vectors.window = paddedLength(*windowLanes + 1);
  return vectors;
}

int64_t chooseOverlappedColumnStart(int64_t cols, int64_t lanes) {
  if (lanes <= 0 || cols <= lanes)
    return 0;
  int64_t rest = cols % lanes;
  return rest != 0 && paddedLength(rest) != rest ? cols - lanes : 0;
}

unsigned chooseMatmulThreads(int64_t rows, int64_t cols, int64_t k,
                             bool inLoop, unsigned threads) {
  if (!inLoop)
    return threads;
  std::optional<int64_t> area = llvm::checkedMul(rows, cols);
  std::optional<int64_t> work = area ? llvm::checkedMul(*area, k) : area;
  // Overflow means more work than any threshold.
  if (work && *work < kMinParallelMultiplyAddsInLoop)
    return 1;
  return threads;
}

int64_t chooseTransposeBand(int64_t rows, int64_t cols, unsigned threads) {
  constexpr int64_t kBlock = 8; // the runtime kernel's 8 x 8 blocks
  std::optional<int64_t> elements = llvm::checkedMul(rows, cols);
  if (threads <= 1 || !elements || *elements < kMinParallelIterations)
    return 0;
  int64_t perThread = llvm::divideCeil(cols, int64_t(threads));
  int64_t band = llvm::divideCeil(perThread, kBlock) * kBlock;
  return band < cols ? band : 0;
}

} // namespace ms
