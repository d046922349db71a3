//===- TileSizeModelTest.cpp - Tile sizes on fixed targets ----------------===//
//
// Every tile size of the CPU codegen comes from TileSizeModel; these pin its
// choices for fixed targets (AVX2's 16 registers, AVX-512's 32, SSE's
// 4 lanes, a hypothetical 16-lane target) instead of the host's.
//
//===----------------------------------------------------------------------===//

#include "ms/Codegen/CPU/TileSizeModel.h"

#include <gtest/gtest.h>

using namespace ms;

namespace {

CpuModel target(unsigned lanes, unsigned registers,
                unsigned l1Bytes = 32 * 1024, unsigned l2Bytes = 512 * 1024) {
  CpuModel cpu;
  cpu.vectorLanes = lanes;
  cpu.matmulLanes = lanes;
  cpu.vectorRegisters = registers;
  cpu.l1Bytes = l1Bytes;
  cpu.l2Bytes = l2Bytes;
  return cpu;
}

const CpuModel kAvx2 = target(8, 16);
const CpuModel kAvx512 = target(8, 32);
const CpuModel kSse = target(4, 16);

TEST(TileSizeModelTest, HostIsAKnownTarget) {
  CpuModel host = CpuModel::host();
  EXPECT_TRUE(host.vectorLanes == 4 || host.vectorLanes == 8);
  EXPECT_TRUE(host.vectorRegisters == 16 || host.vectorRegisters == 32);
  EXPECT_GT(host.l1Bytes, 0u);
  EXPECT_GT(host.l2Bytes, host.l1Bytes);
}

TEST(TileSizeModelTest, MatmulMicroTileIs6x16OnAvx2) {
  MatmulTiles tiles = chooseMatmulTiles(kAvx2, 512, 64, 784);
  EXPECT_EQ(tiles.microRows, 6);
  EXPECT_EQ(tiles.microCols, 16);
  EXPECT_EQ(tiles.unrollK, 4);
}

TEST(TileSizeModelTest, MatmulKeepsTheAvx2TileWithAvx512Registers) {
  // A 14x16 tile in 32 registers ran the seed MLP no faster.
  MatmulTiles tiles = chooseMatmulTiles(kAvx512, 512, 64, 784);
  EXPECT_EQ(tiles.microRows, 6);
  EXPECT_EQ(tiles.microCols, 16);
}

TEST(TileSizeModelTest, MatmulMicroTileTakesFullWidthAvx512Vectors) {
  // Where 512-bit FMAs run at full width the micro-tile is 6 rows of two
  // 16-lane vectors: 12 accumulators, as with AVX2's 6x16.
  CpuModel zen5 = kAvx512;
  zen5.matmulLanes = 16;
  MatmulTiles tiles = chooseMatmulTiles(zen5, 512, 64, 784);
  EXPECT_EQ(tiles.microRows, 6);
  EXPECT_EQ(tiles.microCols, 32);
}

TEST(TileSizeModelTest, MatmulMicroTileFollowsTheVectorWidth) {
  EXPECT_EQ(chooseMatmulTiles(kSse, 64, 64, 64).microCols, 8);
  EXPECT_EQ(chooseMatmulTiles(kSse, 64, 64, 64).microRows, 6);
  MatmulTiles wide = chooseMatmulTiles(target(16, 32), 512, 64, 64);
  EXPECT_EQ(wide.microCols, 32);
  EXPECT_EQ(wide.microRows, 6);
}

TEST(TileSizeModelTest, FewRowTilesTakeATallerTileThatDividesThem) {
  CpuModel zen5 = kAvx512;
  zen5.matmulLanes = 16;
  // A dense layer's input gradient dy W at batch 64: 8 rows, not ten 6-row
  // tiles and a 4-row one; over 2 threads, 32 rows each, still 8.
  EXPECT_EQ(chooseMatmulTiles(zen5, 64, 512, 512).microRows, 8);
  EXPECT_EQ(chooseMatmulTiles(zen5, 64, 512, 512, 2).microRows, 8);
  // 70 rows: 14 on one thread, 7 for each thread's 35.
  EXPECT_EQ(chooseMatmulTiles(zen5, 70, 512, 512).microRows, 14);
  EXPECT_EQ(chooseMatmulTiles(zen5, 70, 512, 512, 2).microRows, 7);
  EXPECT_EQ(chooseMatmulTiles(zen5, 10, 64, 84).microRows, 10);
  // Rows 6 divides, many row tiles, or no taller divisor: 6.
  EXPECT_EQ(chooseMatmulTiles(zen5, 120, 64, 400).microRows, 6);
  EXPECT_EQ(chooseMatmulTiles(zen5, 512, 512, 64).microRows, 6);
  EXPECT_EQ(chooseMatmulTiles(zen5, 37, 64, 64).microRows, 6);
  // Rows that do not split evenly over the threads are not tiled per
  // thread (they run as chunks of whole tiles and a serial tail).
  EXPECT_EQ(chooseMatmulTiles(zen5, 65, 64, 64, 2).microRows, 13);
  // AVX2's 16 registers hold no taller tile.
  EXPECT_EQ(chooseMatmulTiles(kAvx2, 64, 512, 512).microRows, 6);
}

TEST(TileSizeModelTest, PackedPanelsAreAsWideAsTheFewRowTile) {
  // A batch-1 dense's weight panels: one register tile wide.
  EXPECT_EQ(choosePackedPanelWidth(kAvx512, 1, 512, 784), 256);
  EXPECT_EQ(choosePackedPanelWidth(kAvx2, 1, 512, 784), 64);
  // Four rows take 7 accumulators, so 4 vectors of 16.
  EXPECT_EQ(choosePackedPanelWidth(kAvx512, 4, 512, 784), 64);
  // One tile's worth of columns, or a part of one: no panels.
  EXPECT_EQ(choosePackedPanelWidth(kAvx512, 1, 256, 784), 0);
  EXPECT_EQ(choosePackedPanelWidth(kAvx512, 1, 10, 512), 0);
  EXPECT_EQ(choosePackedPanelWidth(kAvx2, 1, 96, 784), 0);
}

TEST(TileSizeModelTest, FewRowMatmulsPutTheAccumulatorsInColumns) {
  // A batch-1 dense on a packed [in, out] weight: one row, as many columns
  // as the registers hold (less four) in a power of two of full vectors,
  // 16 lanes with AVX-512's 32 registers; K in one block, no column blocks.
  MatmulTiles avx512 = chooseMatmulTiles(kAvx512, 1, 512, 784);
  EXPECT_EQ(avx512.microRows, 1);
  EXPECT_EQ(avx512.microCols, 16 * 16);
  EXPECT_EQ(avx512.cacheK, 784);
  EXPECT_EQ(avx512.cacheCols, 512);
  MatmulTiles avx2 = chooseMatmulTiles(kAvx2, 1, 512, 784);
  EXPECT_EQ(avx2.microCols, 8 * 8);
  // Four rows share the registers: 12 / 4 = 3 accumulators, so 2 vectors.
  MatmulTiles four = chooseMatmulTiles(kAvx2, 4, 48, 9);
  EXPECT_EQ(four.microRows, 4);
  EXPECT_EQ(four.microCols, 16);
  // Six rows or more take the 6x16 micro-tile again.
  EXPECT_EQ(chooseMatmulTiles(kAvx2, 6, 48, 9).microRows, 6);
}

TEST(TileSizeModelTest, MatmulKBlockFillsThreeQuartersOfL1) {
  // 6x16 micro-panels take 88 bytes per k; 3/4 of 32 KiB holds 279 k:
  // the power of two below is 256.
  EXPECT_EQ(chooseMatmulTiles(kAvx2, 64, 64, 784).cacheK, 256);
  EXPECT_EQ(chooseMatmulTiles(target(8, 16, 64 * 1024), 64, 64, 784).cacheK,
            512);
  // A short K is not blocked.
  EXPECT_EQ(chooseMatmulTiles(kAvx2, 64, 64, 84).cacheK, 84);
}

TEST(TileSizeModelTest, MatmulColumnBlockFillsHalfOfL2AndDividesTheColumns) {
  // Half of 1 MiB over 256 k of 4 bytes: 512 columns.
  CpuModel bigL2 = target(8, 16, 32 * 1024, 1024 * 1024);
  EXPECT_EQ(chooseMatmulTiles(bigL2, 64, 512, 1024).cacheCols, 512);
  EXPECT_EQ(chooseMatmulTiles(bigL2, 64, 1024, 1024).cacheCols, 512);
  // 64 KiB of L2: 32 columns, but 48 = 3 tiles of 16 only splits by 16.
  CpuModel smallL2 = target(8, 16, 32 * 1024, 64 * 1024);
  EXPECT_EQ(chooseMatmulTiles(smallL2, 64, 48, 1024).cacheCols, 16);
  // Fewer columns than the micro-tile: one block of all of them.
  EXPECT_EQ(chooseMatmulTiles(kAvx2, 64, 10, 1024).cacheCols, 10);
}

TEST(TileSizeModelTest, LeNetConv1HasFlatPixelLaneTiles) {
  // 6 channels fill no vector; rows of 28 in 16 lanes run flattened.
  std::optional<ConvTile> tile = chooseConvTile(kAvx2, 6, 28, 1);
  ASSERT_TRUE(tile);
  EXPECT_FALSE(tile->channelLanes);
  EXPECT_TRUE(tile->flatPixels);
  EXPECT_EQ(tile->lanes, 16);
  EXPECT_EQ(tile->budget, 6);
  EXPECT_EQ(tile->accumulators, 6);
  std::optional<ConvTile> wide = chooseConvTile(kAvx512, 6, 28, 1);
  ASSERT_TRUE(wide);
  EXPECT_EQ(wide->budget, 14);
  EXPECT_EQ(wide->accumulators, 6);
}

TEST(TileSizeModelTest, LeNetConv2HasChannelLaneTiles) {
  std::optional<ConvTile> tile = chooseConvTile(kAvx2, 16, 10, 1);
  ASSERT_TRUE(tile);
  EXPECT_TRUE(tile->channelLanes);
  EXPECT_EQ(tile->lanes, 16);
  EXPECT_EQ(tile->accumulators, 6);
  // 32 registers hold a whole 10-pixel row.
  std::optional<ConvTile> wide = chooseConvTile(kAvx512, 16, 10, 1);
  ASSERT_TRUE(wide);
  EXPECT_EQ(wide->accumulators, 10);
  EXPECT_EQ(wide->budget, 14);
}

TEST(TileSizeModelTest, ChannelLanesTakeOneVectorWhenTwoDoNotDivide) {
  std::optional<ConvTile> tile = chooseConvTile(kAvx2, 8, 12, 2);
  ASSERT_TRUE(tile);
  EXPECT_TRUE(tile->channelLanes);
  EXPECT_EQ(tile->lanes, 8);
  EXPECT_EQ(tile->budget, 12);
  EXPECT_EQ(tile->accumulators, 12);
}

TEST(TileSizeModelTest, PixelLanesNeedUnitStrideAndFullRows) {
  // Strided rows are not contiguous runs.
  EXPECT_FALSE(chooseConvTile(kAvx2, 6, 28, 2));
  // 10 of 16 lanes waste more than an eighth; 14 of 16 do not.
  EXPECT_FALSE(chooseConvTile(kAvx2, 6, 10, 1));
  std::optional<ConvTile> masked = chooseConvTile(kAvx2, 6, 14, 1);
  ASSERT_TRUE(masked);
  EXPECT_FALSE(masked->flatPixels);
  EXPECT_EQ(masked->lanes, 16);
  // A row the lanes divide runs row by row.
  std::optional<ConvTile> rows = chooseConvTile(kAvx2, 3, 32, 1);
  ASSERT_TRUE(rows);
  EXPECT_FALSE(rows->flatPixels);
  EXPECT_EQ(rows->accumulators, 3);
}

TEST(TileSizeModelTest, PooledTilesCoverAsManyWindowsAsRegistersHold) {
  // LeNet's conv2 + 2x2 pool: 1 window per tile in 16 registers, 3 in 32.
  EXPECT_EQ(choosePooledWindowsPerTile(*chooseConvTile(kAvx2, 16, 10, 1), 10,
                                       2, 2),
            1);
  EXPECT_EQ(choosePooledWindowsPerTile(*chooseConvTile(kAvx512, 16, 10, 1),
                                       10, 2, 2),
            3);
  // A 3x3 window does not fit in 6 accumulators.
  EXPECT_EQ(choosePooledWindowsPerTile(*chooseConvTile(kAvx2, 16, 9, 1), 9, 3,
                                       3),
            0);
  // Pixel-lane tiles do not pool.
  EXPECT_EQ(choosePooledWindowsPerTile(*chooseConvTile(kAvx2, 6, 28, 1), 28,
                                       2, 2),
            0);
}

TEST(TileSizeModelTest, PaddedLengthFillsWholeRegisters) {
  EXPECT_EQ(paddedLength(1), 1);
  EXPECT_EQ(paddedLength(3), 4);
  EXPECT_EQ(paddedLength(5), 8);
  EXPECT_EQ(paddedLength(8), 8);
  EXPECT_EQ(paddedLength(9), 16);
  EXPECT_EQ(paddedLength(14), 16);
  EXPECT_EQ(paddedLength(27), 32);
}

TEST(TileSizeModelTest, PoolRowVectorsOfLeNetsPool) {
  // Rows of 14 in 16 lanes; a 2x2 window at stride 2 reads 31 elements.
  std::optional<PoolRowVectors> vectors = choosePoolRowVectors(14, 2, 2, 2, 1);
  ASSERT_TRUE(vectors);
  EXPECT_EQ(vectors->row, 16);
  EXPECT_EQ(vectors->span, 32);
  EXPECT_EQ(vectors->window, 32);
}

TEST(TileSizeModelTest, PoolRowVectorsStayWithinTheBounds) {
  // kMaxUnrolledTaps window positions.
  EXPECT_TRUE(choosePoolRowVectors(8, 8, 8, 1, 1));
  EXPECT_FALSE(choosePoolRowVectors(8, 8, 9, 1, 1));
  // kMaxVectorLanes elements in a vector.
  EXPECT_TRUE(choosePoolRowVectors(kMaxVectorLanes, 1, 1, 1, 1));
  EXPECT_FALSE(choosePoolRowVectors(kMaxVectorLanes + 1, 1, 1, 1, 1));
  EXPECT_FALSE(choosePoolRowVectors(kMaxVectorLanes, 1, 2, 1, 1));
  EXPECT_FALSE(choosePoolRowVectors(128, 1, 1, 3, 1));
  // Sizes from the user must not overflow.
  EXPECT_FALSE(choosePoolRowVectors(8, 1, 2, 1, INT64_MAX));
  EXPECT_FALSE(choosePoolRowVectors(8, INT64_MAX, 2, 1, 1));
}

TEST(TileSizeModelTest, SmallMatmulsInALoopStayOnOneThread) {
  // LeNet-5's second conv's filter gradient, per image: 0.24M.
  EXPECT_EQ(chooseMatmulThreads(16, 150, 100, /*inLoop=*/true, 2), 1u);
  EXPECT_EQ(chooseMatmulThreads(16, 150, 1024, /*inLoop=*/true, 2), 2u);
  // Just under and at the threshold.
  EXPECT_EQ(chooseMatmulThreads(1, 1, kMinParallelMultiplyAddsInLoop - 1,
                                true, 2),
            1u);
  EXPECT_EQ(chooseMatmulThreads(1, 1, kMinParallelMultiplyAddsInLoop, true, 2),
            2u);
  // Outside loops a small matmul keeps its threads: the batch-1 dense.
  EXPECT_EQ(chooseMatmulThreads(1, 512, 784, /*inLoop=*/false, 2), 2u);
  // Sizes whose product overflows are large, not small.
  EXPECT_EQ(chooseMatmulThreads(INT64_MAX, 2, 2, true, 2), 2u);
  EXPECT_EQ(chooseMatmulThreads(16, 150, 100, true, 1), 1u);
}

TEST(TileSizeModelTest, OddColumnRemaindersEndInAnOverlappingVector) {
  // LeNet-5's filter gradients: 25 columns (conv1), 150 (conv2).
  EXPECT_EQ(chooseOverlappedColumnStart(25, 16), 9);
  EXPECT_EQ(chooseOverlappedColumnStart(150, 16), 134);
  EXPECT_EQ(chooseOverlappedColumnStart(150, 8), 142);
  EXPECT_EQ(chooseOverlappedColumnStart(37, 8), 29);
}

TEST(TileSizeModelTest, WholeRegisterRemaindersNeedNoOverlap) {
  // Whole vectors, or a rest that fills a register (8, 4, 2, 1 lanes).
  EXPECT_EQ(chooseOverlappedColumnStart(64, 16), 0);
  EXPECT_EQ(chooseOverlappedColumnStart(120, 16), 0);
  EXPECT_EQ(chooseOverlappedColumnStart(36, 8), 0);
  EXPECT_EQ(chooseOverlappedColumnStart(25, 8), 0);
  // Not even one whole vector to overlap.
  EXPECT_EQ(chooseOverlappedColumnStart(10, 16), 0);
  EXPECT_EQ(chooseOverlappedColumnStart(16, 16), 0);
  EXPECT_EQ(chooseOverlappedColumnStart(25, 0), 0);
}

/// The seed MLP's matmul tiles on a Zen 5-like target: 16-lane FMAs, a
/// 48 KiB 12-way L1 (4 KiB per way, like 32 KiB 8-way) and a 1 MiB L2.
CpuModel zen5() {
  CpuModel cpu = target(8, 32, 48 * 1024, 1024 * 1024);
  cpu.matmulLanes = 16;
  cpu.l1Ways = 12;
  return cpu;
}

int64_t paddedRowLength(const CpuModel &cpu, int64_t rows, int64_t cols,
                        int64_t k) {
  return choosePaddedRowLength(cpu, chooseMatmulTiles(cpu, rows, cols, k),
                               rows, cols, k);
}

TEST(TileSizeModelTest, RowsAFewLineOffsetsApartAreReadFromACopy) {
  // The MLP's second weight gradient, dy^T x with x [64 x 512]: 2 KiB rows
  // put 64 rows on 2 line offsets. One line longer reaches all 64.
  EXPECT_EQ(paddedRowLength(zen5(), 512, 512, 64), 528);
  EXPECT_EQ(paddedRowLength(kAvx2, 512, 512, 64), 528);
  // 1024 columns: every row on one offset. 768: on 4 of them.
  EXPECT_EQ(paddedRowLength(zen5(), 512, 1024, 64), 1040);
  EXPECT_EQ(paddedRowLength(zen5(), 512, 768, 64), 784);
  // Columns that are not whole lines round up to them first: 4100-byte
  // rows drift 4 bytes a row, 16 rows to a line.
  EXPECT_EQ(paddedRowLength(kAvx2, 512, 1025, 64), 1040);
}

TEST(TileSizeModelTest, RowsSpreadOverTheSetsAreReadInPlace) {
  // The first weight gradient: 3136-byte rows land on every line offset.
  EXPECT_EQ(paddedRowLength(zen5(), 512, 784, 64), 784);
  // 4080-byte rows start 16 bytes earlier in the way each time: 4 rows a
  // line, so a 64-row panel holds at most 8 lines of a set.
  EXPECT_EQ(paddedRowLength(kAvx2, 512, 1020, 64), 1020);
  // A dense layer's x^T [784 x 64]: 256-byte rows on 16 offsets, and the
  // 128-row K block puts 8 lines in each set, within 12 (or 8) ways.
  EXPECT_EQ(paddedRowLength(zen5(), 512, 64, 784), 64);
  CpuModel eightWays = zen5();
  eightWays.l1Ways = 8;
  EXPECT_EQ(paddedRowLength(eightWays, 512, 64, 784), 64);
}

TEST(TileSizeModelTest, CopiesThatDoNotPayAreNotMade) {
  // Fewer than 8 row tiles (48 rows) to reuse each panel.
  EXPECT_EQ(paddedRowLength(zen5(), 42, 512, 64), 512);
  EXPECT_EQ(paddedRowLength(zen5(), 48, 512, 64), 528);
  // The input gradient dy W with W [512 x 512]: the copy (1 MiB) would
  // not stay in L2.
  EXPECT_EQ(paddedRowLength(zen5(), 64, 512, 512), 512);
  // Shapes far past any real tensor: no overflow, and no copy.
  EXPECT_EQ(paddedRowLength(zen5(), 512, int64_t(1) << 40, 64),
            int64_t(1) << 40);
  EXPECT_EQ(paddedRowLength(zen5(), 512, int64_t(1) << 60, 64),
            int64_t(1) << 60);
  // An L1 of one line, where no row length helps: the search ends.
  CpuModel oneLine = zen5();
  oneLine.l1Bytes = 64;
  oneLine.l1Ways = 1;
  EXPECT_EQ(paddedRowLength(oneLine, 512, 512, 64), 512);
}

TEST(TileSizeModelTest, TransposeBandsOfTheMlpAtTwoThreads) {
  // x^T of the first dense layer: 784 columns, 392 each.
  EXPECT_EQ(chooseTransposeBand(64, 784, 2), 392);
  // The result back: [512, 64] -> 32 output rows each.
  EXPECT_EQ(chooseTransposeBand(512, 64, 2), 32);
  // Bands are whole 8 x 8 blocks: 100 columns -> 56 + 44.
  EXPECT_EQ(chooseTransposeBand(1000, 100, 2), 56);
  EXPECT_EQ(chooseTransposeBand(1000, 100, 3), 40);
}

TEST(TileSizeModelTest, SmallOrNarrowTransposesStayWhole) {
  EXPECT_EQ(chooseTransposeBand(64, 784, 1), 0);
  // Under kMinParallelIterations elements.
  EXPECT_EQ(chooseTransposeBand(64, 511, 2), 0);
  EXPECT_EQ(chooseTransposeBand(64, 512, 2), 256);
  // Too few columns for two block-sized bands.
  EXPECT_EQ(chooseTransposeBand(1 << 20, 8, 2), 0);
  EXPECT_EQ(chooseTransposeBand(1 << 20, 9, 2), 8);
  // Sizes from the user must not overflow.
  EXPECT_EQ(chooseTransposeBand(INT64_MAX, 64, 2), 0);
}

TEST(TileSizeModelTest, Bounds) {
  EXPECT_EQ(kMaxUnrolledTaps, 64);
  EXPECT_EQ(kMaxVectorLanes, 256);
  EXPECT_EQ(kMinParallelIterations, 32768);
}

} // namespace
