//===- TileSizeModel.h - Tile sizes from the target and the shape -*- C++ -*-===//
//
// Every tile size the CPU codegen uses is chosen here, from a CpuModel (the
// target's vector width, register count and cache sizes) and the shape.
// Nothing is tuned to one benchmark shape: the micro-tiles come from the
// vector width and the register count, the cache tiles from the L1/L2
// sizes, and remainders get their own exact tiles. The passes take the
// host's CpuModel (or one set by their options); the unit tests in
// unittests/Codegen pass fixed targets.
//
//===----------------------------------------------------------------------===//
#ifndef MS_CODEGEN_CPU_TILESIZEMODEL_H
#define MS_CODEGEN_CPU_TILESIZEMODEL_H

#include <cstdint>
#include <optional>

namespace ms {

struct CpuModel {
  unsigned vectorLanes = 8;     // f32 lanes per vector register
  unsigned vectorRegisters = 16;
  /// f32 lanes of the matmul micro-tile's vectors: 16 where 512-bit FMAs
  /// run at full width (AVX-512 on Zen 5, Intel), else vectorLanes.
  unsigned matmulLanes = 8;
  unsigned l1Bytes = 32 * 1024;
  unsigned l1Ways = 8; // L1 associativity: l1Bytes / l1Ways bytes per way
  unsigned l2Bytes = 512 * 1024;

  /// The host's vector width and register count (AVX-512, AVX2 or SSE)
  /// and cache sizes.
  static CpuModel host();
};

/// Bounds on the straight-line code the vectorizers emit. Kernel windows
/// are unrolled tap by tap and rows become single vectors; past these
/// bounds compile time and code size would grow with the kernel or the
/// image, so such ops stay in loops on the generic path instead.
constexpr int64_t kMaxUnrolledTaps = 64;   // window positions per output
constexpr int64_t kMaxVectorLanes = 256;   // elements in one vector value

/// Vector lengths that fill whole registers: a power of two up to 8 lanes,
/// then a multiple of 8. LLVM splits other lengths (vector<27xf32>) into
/// several pieces and their shuffles into many.
int64_t paddedLength(int64_t n);

//===----------------------------------------------------------------------===//
// Matmuls (ms-vectorize-matmuls)
//===----------------------------------------------------------------------===//

struct MatmulTiles {
  int64_t microRows;  // rows of the register tile: broadcast operand
  int64_t microCols;  // columns of the register tile: vector operand
  int64_t cacheK;     // K block that keeps the micro-panels in L1
  int64_t cacheCols;  // column block that keeps the K x cols panel in L2
  int64_t unrollK;    // unroll of the K loop
};

/// Tiles for a [rows x k] * [k x cols] matmul on `cpu`, whose rows split
/// over `threads` threads (chooseMatmulThreads).
MatmulTiles chooseMatmulTiles(const CpuModel &cpu, int64_t rows, int64_t cols,
                              int64_t k, unsigned threads = 1);

/// Where the last vector of a matmul's columns starts when the columns past
/// the last whole vector of `lanes` are a length LLVM would assemble lane by
/// lane from the stack (paddedLength differs: 9 of a conv filter
/// gradient's 25 columns with 16 lanes). That vector ends at the last
/// column and overlaps the one before it, so every register tile's vectors
/// are whole; the overlapped columns are computed twice, from the same
/// operands in the same order. 0 when the columns need no such vector.
int64_t chooseOverlappedColumnStart(int64_t cols, int64_t lanes);

/// The row length, in elements, of a copy of B that a [rows x k] * [k x
/// cols] matmul reads instead of B, or `cols` when it reads B itself. The
/// register tiles read the same K x microCols micro-panel of B once per
/// row tile. When B's rows are a multiple of 2 KiB apart, those K rows fall
/// in a few of L1's sets, more lines than the sets have ways, and every
/// pass reads the panel from L2 again: a weight gradient's [64 x 512]
/// activations took 0.184 ms as B and 0.160 copied to rows of 528. The
/// copy pays for itself only when many row tiles reuse each panel and
/// the copy stays in L2: a [64 x 512] * [512 x 512] input gradient copies
/// 1 MB for 11 row tiles and took 0.157 ms read in place, 0.184 copied.
int64_t choosePaddedRowLength(const CpuModel &cpu, const MatmulTiles &tiles,
                              int64_t rows, int64_t cols, int64_t k);

/// The panel width W in which a batch-1 dense's packed [in, out] weight is
/// asked for (ms-pack-parameters): [out / W, in, W], one contiguous panel
/// per register tile, so each tile (and each thread's share of them)
/// streams its weight from one place. W is the register tile's width for
/// `rows` rows; 0 (no panels) when the columns are not at least two whole
/// tiles. Measured on a 2 MiB-L2 Xeon, `ms-bench-read-bandwidth
/// --benchmark_filter=GemvLayout`: two threads read 784 x 512 and
/// 512 x 512 weights at 79-83 GB/s as [in, out], 165-174 with rows padded
/// by a line, 242-262 as panels of 256.
int64_t choosePackedPanelWidth(const CpuModel &cpu, int64_t rows,
                               int64_t cols, int64_t k);

/// The fewest multiply-adds a matmul in a sequential loop shares out over
/// threads. A conv's filter gradient runs a small matmul per image
/// ([16 x 100] x [100 x 150] in LeNet-5, 0.24M) in a loop over the batch
/// that carries the sum. Shared, each of the 64 iterations paid a fork, a
/// join and the move of its operands to the other core, and 2 threads took
/// 1.18 ms against 0.48 on one. A matmul outside loops keeps its threads
/// however small: a batch-1 dense (0.4M) reads half its weight columns on
/// each core, and the batch-1 MLP runs in 0.57x the time on 2 threads.
constexpr int64_t kMinParallelMultiplyAddsInLoop = int64_t(1) << 20;

/// The threads a [rows x k] * [k x cols] matmul outside any parallel loop
/// runs on: `threads`, or 1 when it runs `inLoop` (an iteration of a
/// sequential loop) and has fewer than kMinParallelMultiplyAddsInLoop.
unsigned chooseMatmulThreads(int64_t rows, int64_t cols, int64_t k,
                             bool inLoop, unsigned threads);

//===----------------------------------------------------------------------===//
// Convolutions (ms-vectorize-convs)
//===----------------------------------------------------------------------===//

/// The register tile of an im2col conv: `accumulators` vectors of `lanes`
/// elements. With channels in the lanes, each accumulator is one pixel of
/// an output row; with pixels in the lanes, each is one output channel. The
/// budget is the matmul micro-tile's: two vectors of lanes, and the
/// registers left after a broadcast and loads hold accumulators.
struct ConvTile {
  bool channelLanes = false;
  // Pixels in the lanes, run over the flattened (oh, ow) pixels: a tile's
  // lanes may continue on the next output row, so no lane is wasted.
  bool flatPixels = false;
  int64_t lanes = 0, accumulators = 0;
  // How many accumulators the registers hold.
  int64_t budget = 0;
};

/// The tile for a conv with `channelsOut` output channels, output rows of
/// `outW` pixels and stride `strideW` along them; none when neither tile
/// shape fits (the conv keeps the im2col matmul).
std::optional<ConvTile> chooseConvTile(const CpuModel &cpu,
                                       int64_t channelsOut, int64_t outW,
                                       int64_t strideW);

/// How many pooling windows (windowH x windowW conv pixels each) a
/// channel-lane tile of a pooled conv covers along an output row of `outW`
/// conv pixels: as many as its accumulators hold. 0: not even one, so the
/// conv is not pooled in its tiles.
int64_t choosePooledWindowsPerTile(const ConvTile &tile, int64_t outW,
                                   int64_t windowH, int64_t windowW);

//===----------------------------------------------------------------------===//
// Pools, transposes, threads
//===----------------------------------------------------------------------===//

/// The vectors of a pooling output row (ms-vectorize-pooling): the row, a
/// strided span of the input row, and a max pool's window of input rows.
struct PoolRowVectors {
  int64_t row;    // output row, padded to whole registers
  int64_t span;   // input elements one tap reads: (row - 1) * sw + 1
  int64_t window; // input elements all kw taps read
};

/// The vectors for output rows of `outputWidth` and a windowH x windowW
/// window at stride `strideW` and dilation `dilationW`; none when the
/// window has more than kMaxUnrolledTaps taps or a vector would reach
/// kMaxVectorLanes. Checked arithmetic: the sizes come from the user.
std::optional<PoolRowVectors>
choosePoolRowVectors(int64_t outputWidth, int64_t windowH, int64_t windowW,
                     int64_t strideW, int64_t dilationW);

/// The smallest iteration space ms-parallelize-generics splits over
/// threads: below it the fork and join cost more than the split saves.
constexpr int64_t kMinParallelIterations = 32768;

//===----------------------------------------------------------------------===//
// Transposes (ms-transposes-to-calls)
//===----------------------------------------------------------------------===//

/// Rows of a transpose's output (columns of its input) that each thread
/// copies when a [rows x cols] transpose outside any parallel loop is split
/// over `threads`: at most `threads` bands, each a multiple of 8 rows (the
/// runtime kernel's 8 x 8 blocks), so each thread writes whole output rows
/// in whole blocks. 0 when the transpose stays whole: one thread, fewer
/// than kMinParallelIterations elements, or too few columns for two bands.
int64_t chooseTransposeBand(int64_t rows, int64_t cols, unsigned threads);

} // namespace ms

#endif // MS_CODEGEN_CPU_TILESIZEMODEL_H
