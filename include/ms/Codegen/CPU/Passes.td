//===- Passes.td - CPU codegen passes ----------------------*- tablegen -*-===//
//
// linalg/vector code generation for CPUs: register tiles, vectorized
// pools and transposes, loop fusion and threading. They work on linalg,
// vector and memref IR, never on ms ops (see ms/Dialect/MS/Transforms for
// the passes that keep ms's contracts).
//
//===----------------------------------------------------------------------===//

#ifndef MS_CODEGEN_CPU_PASSES_TD
#define MS_CODEGEN_CPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def MSContractionToFMA : Pass<"ms-contraction-to-fma"> {
  let summary = "Make every linalg contraction accumulate with math.fma";
  let description = [{
    Rewrites the `mulf` + `addf` body of each generic linalg contraction
    (an op with a reduction iterator whose body is `acc + a * b`) into one
    `math.fma`. The vectorized path at O2 accumulates with `vector.fma`, so
    doing the same in the scalar loops of O0/O1 and of PyNative kernels keeps
    every mode bit for bit identical (DESIGN §7). Run it after
    `linalg-generalize-named-ops`.
  }];
  let dependentDialects = ["mlir::math::MathDialect"];
}

def MSDecomposeAggregates : Pass<"ms-decompose-aggregates"> {
  let summary = "Decompose aggregated linalg ops such as linalg.softmax";
  let description = [{
    Replaces every op implementing `AggregatedOpInterface` (for example
    `linalg.softmax`) by its decomposition into linalg reductions and
    elementwise generics, which the rest of the pipeline can bufferize and
    lower to loops.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::math::MathDialect",
                           "mlir::tensor::TensorDialect"];
}

def MSCopyToLinalg : Pass<"ms-copy-to-linalg"> {
  let summary = "Turn memref.copy into linalg.copy";
  let description = [{
    Bufferization copies strided views (for example the slices of a concat)
    with `memref.copy`, which lowers to a call into MLIR's C runner-utils
    library. As `linalg.copy` it becomes plain loops, so compiled modules
    need no runtime library.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
}

def MSPackParameters : Pass<"ms-pack-parameters", "mlir::ModuleOp"> {
  let summary = "Ask for a small-batch dense layer's weight as [in, out]";
  let description = [{
    A dense layer with few rows (batch 1: a GEMV) reads its `[out, in]`
    weight once per call. Multiplied as stored, each output is a dot
    product along K; vectorizing it over K would change the sum's order.
    This pass asks the runtime for the weight transposed instead: the
    function argument of an `ms.param` whose every use is the B operand of
    a `linalg.matmul` with transposed B and at most `max-rows` rows becomes
    `[in, out]`, tagged `ms.packed = "transpose"`, and the matmuls become
    plain ones. The register tile then puts outputs in the vector lanes and
    reads contiguous weight rows, K in order, one FMA per step from zero:
    the same bits as every other mode. Weights stay run-time data: the
    runtime transposes each bound parameter buffer once and caches the copy
    (include/ms/Runtime/Memory/PackedParams.h).

    When the outputs are at least two register tiles (`out` a multiple of
    the few-row tile's width W, choosePackedPanelWidth: 256 with AVX-512,
    64 with AVX2), the weight comes in panels instead, `[out / W, in, W]`,
    `ms.packed = "panels<W>"`, and each matmul becomes an `scf.forall`
    over the panels, one W-wide matmul per panel (with a zero fill of its
    own, so its register tile still starts from zero): each tile streams
    one contiguous panel, and threads share whole panels. On one thread
    (`alternate-panels`) every other call runs the panels from the last: a
    thread's weights can exceed its L2, and the panels the previous call
    read last are the ones still there. A private `memref.global` counts
    each matmul's calls (`memref.atomic_rmw`). Every panel sums in its own
    order whichever runs first, so the bits stay. Otherwise, with
    more than one thread, a row of an even number of cache lines (512 f32)
    is padded by one line, `ms.packed = "transpose_padded"`, and the
    matmul reads the `[in, out]` slice of it: each thread reads its slice
    of every row, and with power-of-two rows those slices fall on half of
    the L2's sets (include/ms/Support/PackedRows.h has the rule and the
    figures). One thread reads whole rows, and the padding only adds bytes.

    A weight that small and larger matmuls read alike (a ?-batch graph,
    ms-split-dynamic-batch, reads each weight in tiles of 64, 32, 16, 4
    and 1 rows) keeps its argument for the larger ones, which stay on the
    register-tiled `x @ w^T` path of a static graph. The small ones read a
    new trailing argument, `[in, out]`, tagged `ms.packed = "transpose"` and
    `ms.packed_copy_of = i`: callers do not pass it, the runtime makes it
    from their argument `i`. Either way each sum keeps its order, so every
    tile keeps its bits.

    A weight with any other use (a writer, a transpose) is left alone: the
    runtime's copy is made before the call and would go stale. Only
    functions without callers (entries) change, since a caller would pass
    the old layout.
  }];
  let options = [
    Option<"maxRows", "max-rows", "int64_t", /*default=*/"4",
           "Pack weights of matmuls with at most this many rows">,
    Option<"numThreads", "num-threads", "unsigned", "1",
           "Threads the matmuls split their columns over (more than one: "
           "pad the packed rows)">,
    Option<"panelWidth", "panel-width", "int64_t", /*default=*/"-1",
           "Columns per weight panel (0: no panels; -1: the host's register "
           "tile, choosePackedPanelWidth)">,
    Option<"alternatePanels", "alternate-panels", "bool", /*default=*/"true",
           "On one thread, read the panels from the last on every other "
           "call">,
  ];
  let dependentDialects = ["mlir::affine::AffineDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::scf::SCFDialect",
                           "mlir::tensor::TensorDialect"];
}

def MSTransposeMatmulOperands
    : Pass<"ms-transpose-matmul-operands", "mlir::ModuleOp"> {
  let summary = "Compute x @ w^T as (w @ x^T)^T and a^T @ b with a^T "
                "materialized, so both run on the row-major register tiles";
  let description = [{
    A dense layer multiplies by its `[out, in]` weight transposed. The
    register-tiled kernel needs one operand broadcast element by element and
    the other read as contiguous vectors; with `w` on the left both hold:
    `C^T = w @ x^T` reads `w` row by row and `x^T` (small, transposed once)
    as vectors, and the final transpose fuses into the epilogue.

    A gradient's weight update `dw = dy^T @ x` (`linalg.matmul` with a
    transposed A) becomes a plain matmul of `dy^T`, transposed once into
    its own buffer (it is the small operand: batch x features).

    Each output element still accumulates the same products in the same K
    order, so the bits do not change.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
}

def MSFuseWithinOps : Pass<"ms-fuse-within-ops"> {
  let summary = "Fuse elementwise linalg ops lowered from the same ms op";
  let description = [{
    O0's elementwise fusion: `linalg-fuse-elementwise-ops`, restricted to a
    producer and consumer that one ms op lowered to. Such ops carry the ms
    op's location, so they fuse when their locations are equal and known
    and the producer has no other reader. A dense layer's bias add and
    transpose back stay apart: the transpose is a named op by then
    (`ms-collapse-transposes`), which fusion leaves alone. A relu after
    the layer, with a location of its own, stays a kernel of its own.
    A PyNative or no_sink kernel holds one ms op, so there every producer
    and consumer qualify. Fusion does not reorder any arithmetic: results
    do not change bit for bit.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
}

def MSFuseElementwise : Pass<"ms-fuse-elementwise"> {
  let summary = "O1's elementwise fusion, with a bound on the fused body";
  let description = [{
    `linalg-fuse-elementwise-ops` (the same patterns: producer into
    consumer when the producer has no other reader, reshapes folded by
    expansion, splat constants and fills folded, the linalg
    canonicalizations), except that a fusion whose body would exceed
    `max-body-ops` operations is left undone. Each fusion clones both
    bodies, so without the bound a chain of N elementwise ops costs N^2
    clones: 4,000 adds took 9 to 17 s to compile, 20,000 over 250 s. With
    it a chain fuses into kernels of `max-body-ops` and compiles in linear
    time. Fusion does not reorder arithmetic, so where the bound stops it
    the results are the same bit for bit; the bound is far above what a
    network's epilogues reach (a batch norm and an activation: about 10).
  }];
  let options = [
    Option<"maxBodyOps", "max-body-ops", "int64_t", /*default=*/"256",
           "Most operations in a fused linalg.generic body">
  ];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::affine::AffineDialect",
                           "mlir::tensor::TensorDialect"];
}

def MSFuseBatchLoops : Pass<"ms-fuse-batch-loops"> {
  let summary = "Run a conv network's layers image by image in one loop";
  let description = [{
    O1/O2 lower each ungrouped conv to an `scf.forall` over the batch that
    writes one whole image, `[1, ...]` at offset `[i, 0, ...]`, per
    iteration. This pass grows such loops until nothing more fits:

    - a linalg op that reads a loop's result along a parallel batch loop
      (its indexing map for that operand starts with that loop's dimension
      and uses it nowhere else) is tiled to one image and computed inside
      the loop, from the image the loop has just produced (bias, batch_norm,
      activation, pooling);
    - a following loop over the same batch that reads only image `i` of the
      first loop's result in iteration `i` is merged into it (the next conv).

    A LeNet-style stack of conv, relu and pooling then runs one image at a
    time while that image is in cache, and on several threads each thread
    works through whole images, with no join between layers. Every element
    is still computed by the same body from the same operands, so results do
    not change bit for bit. Run it after elementwise fusion.
  }];
  let dependentDialects = ["mlir::scf::SCFDialect",
                           "mlir::tensor::TensorDialect"];
}

def MSVectorizePooling : Pass<"ms-vectorize-pooling"> {
  let summary = "Vectorize pooling windows one output row at a time";
  let description = [{
    Rewrites each pooling-shaped `linalg.generic` on tensors (outer loops
    parallel, the last two reductions over a kh x kw window, the input read
    at `[..., oh * sh + kh * dh, ow * sw + kw * dw]`, the output at
    `[..., oh, ow]`, a body that combines one input element into the
    output, relu or other elementwise ops included) into loops over the
    output rows. Each row is a vector of OW elements: for every window
    position, in the generic's (kh, kw) order, one contiguous read of the
    input row, a shuffle that keeps every sw-th element, and the generic's
    body on vectors. The same ops run on the same elements in the same order,
    so results do not change; LLVM otherwise vectorizes the stride-sw reads
    of max pooling with masked gathers. A max or min pool, with a clamp
    such as a fused relu (`out = max(out, max(in, c))`), goes faster: each
    input row of the window is read once over all its kw positions, the
    rows are combined, each kw position is shuffled out and combined, and
    the clamp is applied once. max and min are exact selections and the
    clamp is monotone, so any order gives the same bits (a NaN stays a
    NaN). When the clamp sends -0 and +0 to one value (a relu, max with
    +0), the window is combined by maximumf with the nsz fast-math flag
    (NaN still propagates; -0 and +0 may tie), which LLVM lowers without
    the signed-zero ordering the clamp would erase anyway.

    Odd lengths are padded to whole registers (a power of two up to 8
    lanes, then a multiple of 8: OW 14 is 16 lanes) with the extra lanes
    masked off in every read past the row's end and in the write. An
    output initialised by a fill (max pooling's -inf) starts each row from
    the filled value and is written straight into the fill's destination,
    so the fill is neither written nor read.

    Also the gradient of a max pool whose windows tile the input (ms-to-
    linalg's elementwise generic over the `[..., H/kh, kh, W/kw, kw]` view,
    loops (p..., i, a, j, b), that reads the window's kh * kw taps at
    constant (A, B), the pooled gradient at (i, j) and possibly the element
    itself, as when a relu gradient is fused in): loops over the
    (p..., i, a) rows, each input row read once as a vector of W lanes and
    split by shuffles into the kw columns of its windows, the body run on
    vectors of W/kw lanes once per column b, the columns interleaved back
    into the output row. Scalar, the innermost loop would run kw (2) times.
    The same scalar ops run on the same elements: the values do not change.
    Rows longer than 64 lanes stay loops.
    O2 runs it after ms-fuse-batch-loops.
  }];
  let dependentDialects = ["mlir::scf::SCFDialect",
                           "mlir::vector::VectorDialect"];
}

def MSVectorizeConvs : Pass<"ms-vectorize-convs"> {
  let summary = "Run im2col convs straight from the image on register tiles";
  let description = [{
    Rewrites the im2col matmul that `convert-ms-to-linalg{conv-as-matmul}`
    emits for a conv (an image copied into its windows, then the
    `[O, C*KH*KW]` weight times them) into register tiles that read the
    image itself, with the matmul micro-tile's register budget. Each tile
    accumulates over (c, kh, kw) in the matmul's order, one FMA per term,
    from zeros when the product was zero-filled, so the bits do not change
    and no copy is made. Two tile shapes:

    - Output channels in the vector lanes, when they fill whole vectors
      (O a multiple of 16 or 8 lanes): the weights are transposed once to
      `[K, O]`; per tap, one weight vector times each pixel's image value,
      broadcast, for up to 6 pixels of a row (14 with AVX-512's 32
      registers). Any stride. The pixels' vectors are then transposed into
      channel rows by shuffles (n*log2(n) for n lanes, instead of n*n lane
      extracts and stores) and each channel's pixels written at once.
    - Pixels in the lanes, for unit stride along the width: per tap, a
      contiguous read of the image row times each of up to 6 channels'
      weight (14 with 32 registers), broadcast. When a row is at least a
      vector long and the vector does not divide it (OW 28 and 16 lanes),
      the tiles run over the flattened pixels, so a tile may continue on
      the next output row: a tile that does reads two masked runs per tap,
      one per row, merged by a select (a tile within one row reads one),
      and no lane is wasted. A row shorter than a vector is one
      tile with the lanes past its end masked off, when it fills at least
      7/8 of them (OW 14 in 16 lanes: yes; OW 10: no, im2col wastes
      nothing there).

    A channel-lane conv whose result goes to a max pool over windows that
    tile the image (2x2 at stride 2), through nothing or through
    elementwise ops that read only it and per-channel vectors (bias,
    batch_norm, relu), is rewritten with them: one loop over the images
    whose tiles cover whole windows (windowH conv rows x a whole number of
    windows per row, as many as the registers hold). Each accumulator runs
    the elementwise ops' bodies on vectors (the per-channel operands read
    once per tile), then each window is combined: by maximumf with the nsz
    flag when the chain ends in a relu (max with +0 or above), which then
    runs once per window and erases the sign of a zero; by plain maximumf
    otherwise. Only the pooled image is written; the conv image is never
    written or read back. Every element sees the same arithmetic as
    before, and max and relu select one of their inputs, so the bits do
    not change.

    With `pool-epilogues=false` (jit_level O0) the elementwise ops and the
    pool stay separate ops. Other convs keep the im2col matmul. Tile sizes
    come from TileSizeModel; the choice (strategy `channel-lanes`,
    `pixel-lanes`, `flat-pixel-lanes` or `pooled`, and the tile) is appended
    to the function's discardable `ms.schedules` array.
  }];
  let options = [
    Option<"vectorLanes", "vector-lanes", "unsigned", "0",
           "f32 lanes per vector register (0: the host's)">,
    Option<"vectorRegisters", "vector-registers", "unsigned", "0",
           "Vector registers (0: the host's, 32 with AVX-512)">,
    Option<"poolEpilogues", "pool-epilogues", "bool", "true",
           "Pool a following max pool (and the elementwise ops before it) "
           "in the conv's tiles; false keeps the pool a separate op "
           "(jit_level O0: no fusion across ops)">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::math::MathDialect",
                           "mlir::scf::SCFDialect",
                           "mlir::tensor::TensorDialect",
                           "mlir::vector::VectorDialect"];
}

def MSVectorizeSmallElementwise : Pass<"ms-vectorize-small-elementwise"> {
  let summary = "Small elementwise ops as whole vectors";
  let description = [{
    Rewrites each all-parallel `linalg.generic` on static tensors with at
    most `max-elements` iterations (kMaxVectorLanes) and an arith/math body
    into vector ops on the whole tensor. A fused chain of elementwise ops on
    a small tensor (100 ops on [1, 10]) is one loop whose iterations LLVM
    neither vectorizes (its cost model sees 10 iterations) nor unrolls (the
    body is large), so each element's chain runs serially, latency-bound:
    fused, it was slower than the same ops as 100 separate loops, which
    LLVM unrolls. As vectors, every op handles all elements at once. Each
    element sees the same operations in the same order, so the bits do not
    change. Larger ops stay loops, which LLVM vectorizes well.
  }];
  let options = [
    Option<"maxElements", "max-elements", "int64_t", "256",
           "Largest iteration space rewritten as whole vectors">,
  ];
  let dependentDialects = ["mlir::vector::VectorDialect"];
}

def MSSinkTransposes : Pass<"ms-sink-transposes"> {
  let summary = "Elementwise ops on a 2-D transpose's input, the transpose "
                "after them";
  let description = [{
    Rewrites a 2-D elementwise `linalg.generic` (all loops parallel, its
    one init written whole through the identity map) that reads a
    `linalg.transpose` (permutation [1, 0]) whole into the same op over the
    swapped iteration space on the transpose's input, followed by the
    transpose. Ops whose payload reads the indices (`linalg.index`: a
    dropout's counter-based mask) or has memory effects are left alone. It
    applies only when each transposed input has no other reader (else the
    transpose would stay and one more be added) and every other input
    varies along at most one dimension (a bias, a scalar) or is such a
    transpose too, so no input becomes a strided read. A transpose of a
    transpose cancels.

    A dense layer's matmul yields its result transposed, `[out, batch]`;
    its bias add and activation then run on those contiguous rows, and the
    next dense layer's `x^T` cancels against the transpose back. Each
    element sees the same operations in the same order, so the bits do not
    change. Every level runs it, before generalization and fusion.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
}

def MSCollapseTransposes : Pass<"ms-collapse-transposes"> {
  let summary = "Transposes as 2-D linalg.transpose ops";
  let description = [{
    Rewrites each `linalg.generic` on static tensors that copies its input
    to an output whose dims are the input's rotated (input `[A..., B...]`,
    output `[B..., A...]`: a `[prod A, prod B]` matrix transposed, as a
    dense layer's `x^T`) into `tensor.collapse_shape`, a 2-D
    `linalg.transpose` and `tensor.expand_shape`; a named transpose of more
    dims that is such a rotation, on static shapes, is generalized and
    matched the same way. Data movement only. The
    pipelines run it before fusion, which leaves named ops alone (fused, a
    transpose would become an elementwise op's strided, gathering reads),
    again after it (its reshape propagation can turn a flattened image's
    `x^T` into a 4-D transpose), and before ms-fuse-batch-loops, which
    would otherwise pull the transpose into a conv's loop over images as
    strided stores. ms-transposes-to-calls later makes the f32 and f64 ones
    calls to the runtime's transpose kernel.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
}

def MSTransposesToCalls : Pass<"ms-transposes-to-calls", "mlir::ModuleOp"> {
  let summary = "2-D f32/f64 transposes on buffers as runtime kernel calls";
  let description = [{
    Replaces each `linalg.transpose` of a rank-2 f32 or f64 memref with
    permutation [1, 0] by a `func.call` to `ms_transpose_f32` or
    `ms_transpose_f64`, declared private with `llvm.emit_c_interface`; the
    runtime defines their C interfaces (include/ms/Runtime/Jit/Microkernels.h)
    and links them into every compiled module. The buffers are passed as
    `memref<?x?xT, strided<[?, ?], offset: ?>>`, so any layout goes.
    Generated in place, a block transpose's vector shuffles cost LLVM's
    instruction selection 8-15 ms per block (docs/performance-history.md); the
    precompiled kernel costs no compile time, and a dense layer at batch 64
    runs 1-4% slower with it. Other transposes are left to become loops.

    With `num-threads` above 1, a static transpose outside every
    `scf.forall` and `scf.parallel` of at least 32768 elements (a dense
    layer's `x^T`, and its result back where a later op needs it so)
    becomes an `scf.forall` of one call per band of output rows, a
    multiple of 8 rows each (`chooseTransposeBand` in TileSizeModel),
    instead of running on one thread while the others wait. A copy has no rounding: the results do
    not change.
  }];
  let options = [
    Option<"numThreads", "num-threads", "unsigned", "1",
           "Threads to split a large transpose outside parallel loops over">,
  ];
  let dependentDialects = ["mlir::affine::AffineDialect",
                           "mlir::func::FuncDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::scf::SCFDialect"];
}

def MSParallelizeGenerics : Pass<"ms-parallelize-generics"> {
  let summary = "Split large linalg.generic ops over threads";
  let description = [{
    Tiles the outermost loop of every large `linalg.generic` on tensors (an
    iteration space of at least `min-iterations`, outermost loop parallel,
    not already inside an `scf.forall`) into an `scf.forall` of
    `num-threads` equal, static chunks, which becomes OpenMP later; rows
    that do not divide evenly run after them on one thread. With threads,
    every level runs this (at O1 and O2 after elementwise fusion), so
    pooling windows and epilogues (bias, batch_norm, activation) run in
    parallel like the matmuls. Each
    element is still computed by the same body in the same order, so the
    results do not change.
  }];
  let options = [
    Option<"numThreads", "num-threads", "unsigned", "2",
           "Chunks (threads) to split each large generic into">,
    Option<"minIterations", "min-iterations", "int64_t", "0",
           "Smallest iteration space worth splitting (0: TileSizeModel's "
           "kMinParallelIterations, 32768)">,
  ];
  let dependentDialects = ["mlir::scf::SCFDialect",
                           "mlir::tensor::TensorDialect"];
}

def MSFuseTileEpilogues : Pass<"ms-fuse-tile-epilogues"> {
  let summary = "Apply an elementwise consumer in the vector tiles that "
                "write its input";
  let description = [{
    O1's register-level epilogue fusion, on bufferized IR. A pointwise
    `linalg.generic` (all loops parallel, identity maps, or rank-0 scalars,
    and an arith body) whose input is a local buffer that only full vector
    tiles write and nothing else reads (a matmul's register tiles that
    start from zero; a zero start's read back is forwarded first) is
    applied to each tile where it is written: the tile's value, the other
    inputs' tiles at the same place, and the body's ops on vectors, written
    into the generic's outputs. On several threads the generic comes split
    in row chunks over an `scf.forall` (`ms-parallelize-generics`); chunks
    that cover its buffers fuse as the whole generic would. The generic
    and the buffer are gone. A weight gradient then never leaves the
    registers: its SGD update (`w - lr * dw`) happens in the tiles of
    `dy^T x`.
    The other inputs and the outputs must be function arguments that
    nothing else writes, an output never also an input; the body may use
    from outside only constants and function arguments. Function
    arguments are distinct buffers (the runtime binds each to its own), so
    reading them at the tiles, before the generic's place, reads the same
    values, and each element's last tile write makes the last write of its
    outputs. Each element goes through the same ops: results do not change
    bit for bit.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::vector::VectorDialect"];
}

def MSPlanBuffers : Pass<"ms-plan-buffers"> {
  let summary = "Allocate a loop over images' per-image buffers once per "
                "thread";
  let description = [{
    O2's buffer planning. A bufferized, one-dimensional, outermost
    `scf.forall` whose body allocates (a fused loop over images, with each
    image's intermediates) becomes one chunk of consecutive iterations per
    thread, an `scf.for` in an `scf.forall` of `num-threads` iterations (as
    OpenMP's static schedule would share them out; on one thread, just the
    `scf.for`). The body's static allocations that nothing frees inside it
    then move out of the `scf.for`: each thread allocates them once per
    call instead of once per image. LeNet-5's inference at batch 64 took
    0.284-0.288 ms instead of 0.292-0.294 on one thread, 0.174-0.176
    instead of 0.183-0.189 on two. Every iteration still runs the same body
    once, and no iteration reads what another wrote into those buffers, so
    the results do not change.
  }];
  let options = [
    Option<"numThreads", "num-threads", "unsigned", "1",
           "Threads the loops' iterations are shared out over">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::scf::SCFDialect"];
}

def MSConcatInPlace : Pass<"ms-concat-in-place"> {
  let summary = "Compute each piece of a concatenation in its slice of the "
                "result";
  let description = [{
    O2's buffer planning, on bufferized IR. A concatenation bufferizes to
    copies of its pieces into slices of a new buffer: `memref.copy %a,
    subview(%b)`, or the same of a reshape of `%a`. When `%a` is a local
    static buffer that nothing uses after that copy and whose pointer never
    escapes, and the slice is contiguous, `%a` is placed in the slice
    instead, as a `memref.view` of `%b`'s bytes, and the copy goes. The
    pieces' producers then write straight into the concatenation. A data-
    parallel train step concatenates the gradients into one all-reduce
    bucket; for the seed MLP that was a 2.68 MB copy every step.

    Conditions: `%a` and `%b` are `memref.alloc`s in the copy's block with
    static shapes, identity layouts, the default memory space and elements
    of a power-of-two number of bytes; every other use of `%a` (through
    views) comes before the copy and hands it on to nothing that could
    outlive the copy: no pointer taken, no dealloc, no terminator (a region
    yielding it), no call but to an external function (the runtime's
    kernels keep no pointers), no result but plain values (no alias);
    before the copy `%b` is only the target of copies into disjoint
    slices. `%b` is then allocated as bytes at the start of the block. The
    values written are the same, so the results do not change.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::memref::MemRefDialect"];
}

def MSShareGradientBuckets
    : Pass<"ms-share-gradient-buckets", "mlir::ModuleOp"> {
  let summary = "Make each shared gradient bucket's buffer an argument the "
                "runtime provides";
  let description = [{
    On bufferized IR. A data-parallel step's gradient bucket that the
    lowering of `ms.all_reduce` shares (a call of
    `ms_comm_share_bucket_f32`/`_f64` tagged `ms.comm_bucket = k`) is a
    buffer of the step's own: a `memref.alloc` in the entry block, or the
    bytes `ms-concat-in-place` allocated for it. This pass makes that
    allocation a trailing argument of the entry, tagged `ms.comm_bucket =
    k`, placed after the other rank's bucket (`ms.comm_peer`). The runtime
    then passes its own buffer, with two ranks on one host its half of an
    MPI-3 shared window, so backward writes its gradients straight into the
    memory the other rank reads (docs/distributed.md, "Shared gradient
    buckets"). A bucket it cannot trace to such an allocation stays, and
    the runtime copies it into the window. The values do not change.
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
}

def MSUpdateParametersInPlace
    : Pass<"ms-update-parameters-in-place", "mlir::ModuleOp"> {
  let summary = "Write a parameter's update into the parameter's own buffer";
  let description = [{
    On bufferized IR with out-params (after
    `buffer-results-to-out-params`). A training step returns each updated
    parameter as a result, which the runtime binds to the Parameter, so
    without this pass the update streams the old weight in and a fresh
    buffer out: the fresh buffer's lines are read before they are written.
    This pass finds a result's out-param (tagged `ms.result` by
    `ms-emit-c-interface`, so only in public entry functions) written whole
    by one elementwise `linalg.generic` (all loops parallel) that also
    reads a parameter argument (`ms.param`) at the same indices, where
    nothing reads or writes the parameter, or any view of it, after that
    op. It makes the op write the parameter instead, and tags the
    out-param, which the code then never touches, `ms.in_place_of = k`
    (the parameter's argument index). The runtime returns argument k's
    buffer as that result; when the caller still shares that buffer (a
    numpy view, another Tensor), it passes a copy instead (JitModule.h).
    Each element is read before it is written, in the same iteration, so
    the values do not change. Parameters read in a packed layout
    (`ms.packed`, or with a `ms.packed_copy_of` copy) are left alone: the
    runtime would pass the packed copy in the parameter's place. At more
    than one thread `ms-parallelize-generics` has already split a large
    update into per-thread pieces, which this pass does not match.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
}

def MSShardBucketUpdates
    : Pass<"ms-shard-bucket-updates", "mlir::ModuleOp"> {
  let summary = "Split the updates computed from a shared gradient bucket "
                "between the ranks that share it";
  let description = [{
    On bufferized IR, after `ms-share-gradient-buckets` and
    `ms-update-parameters-in-place`. With two ranks on one host, each
    rank's update from a shared bucket reads its own gradients, the other
    rank's, and the weight, and both ranks compute the same values. This
    pass finds, after the bucket's `ms_comm_share_bucket_f32`/`_f64` call,
    the elementwise `linalg.generic`s (all loops parallel, one output of
    at least 4096 elements written whole) that read a region of the own
    bucket (the `ms.comm_bucket` argument) and the same region of the other
    rank's (`ms.comm_peer`) at their own indices, and splits each by its
    first dimension into `ms_comm_shard_count()` parts. A rank computes
    part `ms_comm_shard_index()` and also writes it over the gradients it
    has just read in its own bucket, which only it reads; after the last
    such op `ms_comm_share_shards(k)` waits until the other rank has
    written its part, and the rank copies the rest of each output from the
    other rank's bucket. Each part is computed once, by one rank, so the
    ranks still hold the same bits, and a rank streams half the weight and
    gradients. Without the window there is one part and nothing to copy.

    Such an op must read both regions through views of one static layout,
    with its output's element type, read its output only as the value it
    writes, and have no `linalg.index` or side effect in its body. The
    pass leaves a bucket alone when any other op after the call may read
    bytes of either bucket that such an op covers (it follows views in
    bytes from the bucket's start, and any view it cannot place covers the
    whole bucket), or when its own buffer is not the argument (the runtime
    then copies it into the window), and stops at the first op after them
    that touches one of their outputs.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::func::FuncDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::memref::MemRefDialect"];
}

def MSOmpLoopsNowait : Pass<"ms-omp-loops-nowait"> {
  let summary = "No barrier for a worksharing loop that ends its parallel "
                "region";
  let description = [{
    Marks `nowait` each `omp.wsloop` that is the last op of its
    `omp.parallel` region (before `omp.terminator`). `convert-scf-to-openmp`
    gives every loop the barrier a worksharing loop has by default, yet a
    region's end joins its threads anyway: the master returns only when
    every thread has finished. The loop's own barrier made every thread
    wait twice at the end of each region: on this 2-core machine, with
    libomp 22, a fork and join of two threads took 1.7 us and a barrier
    0.9 us. The loop's iterations and their order do not change, so the
    results do not either.
  }];
  let dependentDialects = ["mlir::omp::OpenMPDialect"];
}

def MSVectorizeMatmuls : Pass<"ms-vectorize-matmuls", "mlir::ModuleOp"> {
  let summary = "Tile matmuls for cache and registers and vectorize them";
  let description = [{
    Schedules every static `linalg.matmul` with a transform-dialect sequence
    built from a small cost model (vector width, register count, L1/L2
    sizes, the shape): rows and columns split into a part that the
    micro-tile divides and remainder parts with their own exact tiles (a
    matmul whose columns end in a part no register holds whole first
    becomes two: its whole vectors of columns, and one last vector that
    ends at the last column and overlaps them, both from the accumulator);
    a cache tile on K and the columns; a register micro-tile (6x16 for
    AVX2/FMA); K stepped one at a time and unrolled; then vectorization to
    `vector.contract`, which `ms-lower-vectors` turns into FMAs. With more
    than one thread, the rows are split across threads with `scf.forall`
    (the columns, when there are too few rows); a matmul inside a parallel
    loop, or one under 1M multiply-adds inside a sequential loop, stays on
    one thread. When B's rows are a multiple of 2 KiB apart, a micro-panel's
    K rows would share a few L1 sets and miss on every row tile; such a B,
    if it fits in L2 and at least 8 row tiles reuse it, is first copied to
    rows a cache line longer (`tensor.pad`, poison past the end). When the
    result starts as a zero fill that nothing else reads and K takes one
    pass, each register tile's K loop starts from a zero tile of its own
    (added between the tiling and the vectorizing script) and the fill of
    the whole result goes. Each K loop then carries its register tile as
    a vector (read before the loop, written after it), on tensors, before
    any buffer exists: hoisting it later, on memrefs, gives up whenever a
    view of the result is read anywhere (an update split over threads),
    and the tile went through memory at every k. K stays in order, so
    results equal the scalar lowering bit for bit.
    Each matmul's schedule (shape, micro-tile, K and column blocks, K
    unroll, threads, the row length of B's copy when it has one, and
    `zero_start`) is appended to the function's discardable `ms.schedules`
    array.
  }];
  let options = [
    Option<"numThreads", "num-threads", "unsigned", "1",
           "Threads to split the rows over (1: no scf.forall)">,
    Option<"vectorLanes", "vector-lanes", "unsigned", "0",
           "f32 lanes per vector register (0: the host's)">,
    Option<"vectorRegisters", "vector-registers", "unsigned", "0",
           "Vector registers (0: the host's, 32 with AVX-512)">,
    Option<"l1KiB", "l1-kib", "unsigned", "0", "L1 data cache (0: the host's)">,
    Option<"l1Ways", "l1-ways", "unsigned", "0",
           "L1 data cache associativity (0: the host's)">,
    Option<"l2KiB", "l2-kib", "unsigned", "0", "L2 cache (0: the host's)">,
  ];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::scf::SCFDialect",
                           "mlir::tensor::TensorDialect",
                           "mlir::transform::TransformDialect",
                           "mlir::ub::UBDialect",
                           "mlir::vector::VectorDialect"];
}

def MSLowerVectors : Pass<"ms-lower-vectors", "mlir::ModuleOp"> {
  let summary = "Hoist accumulators and lower vector contractions to FMAs";
  let description = [{
    Runs after bufferization: hoists loop-invariant vector transfers out of
    the K loop so the accumulators stay in registers, then lowers
    `vector.contract` to outer products and those to `vector.fma`, and
    lowers transfers, shape casts, transposes and broadcasts. Each
    `vector.fma` then becomes a `math.fma` on vectors, which LLVM keeps
    fused (a `vector.fma` would become `llvm.intr.fmuladd`, which LLVM may
    split).
  }];
  let dependentDialects = ["mlir::math::MathDialect",
                           "mlir::transform::TransformDialect",
                           "mlir::vector::VectorDialect"];
}

def MSInterchangeContractions : Pass<"ms-interchange-contractions"> {
  let summary = "Move the reduction loop of contractions out of the innermost position";
  let description = [{
    Reorders the loops of each generic contraction whose single reduction
    loop is innermost so that the last parallel loop becomes innermost
    (m, n, k -> m, k, n). Every output element still accumulates its products
    in K order, but consecutive inner iterations are independent, so LLVM
    vectorizes them. Used at O1, where matmuls stay scalar in MLIR.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
}

def MSSignFacts : Pass<"ms-sign-facts"> {
  let summary = "Simplify fused f32 code by what is known of its signs (O2)";
  let description = [{
    Across the ops a kernel fused, some sign handling is dead, and this
    pass removes it without changing a bit (lib/Codegen/CPU/SignFacts.cpp
    argues each rewrite):
    - `math.tanh` and `math.erf` whose operand's sign bit is clear unless
      it is NaN (the maximum of |a| and y, an exp, sums and products of such
      values, ...) get the unit attribute `ms.sign_clear_operand`, and
      `ms-approximate-transcendentals` then expands them without |x| and
      the final copysign;
    - with `rewrite-maximum`, a vector `arith.maximumf(a, y)` whose `a` has
      a clear sign bit, NaN included (|x|, a constant of such values),
      becomes `y` where y is NaN, else `y > a ? y : a`: the x86 backend's
      own expansion of llvm.maximum once a's sign is known, without its
      sign test and blends. The pipelines set it where the backend expands
      maximum that way (x86 without AVX10.2).
    The facts span ops, so they are whole-graph work: O2 runs the pass
    (docs/pipelines.md) after the vectors are unrolled, just before
    `ms-approximate-transcendentals`.
  }];
  let options = [
    Option<"rewriteMaximum", "rewrite-maximum", "bool", "true",
           "Rewrite maximums of a clear-sign value as MAXPS and selects">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

def MSApproximateTranscendentals
    : Pass<"ms-approximate-transcendentals", "mlir::ModuleOp"> {
  let summary = "Expand f32 exp, log, tanh and erf into polynomial arithmetic";
  let description = [{
    Rewrites `math.exp`, `math.log`, `math.tanh` and `math.erf` on f32
    scalars and vectors into range reductions, polynomials (`math.fma`
    Horner steps) and selects for the special values, so they vectorize
    like any other arithmetic and no libm call remains. The expansion uses
    only correctly rounded operations (add, mul, div, fma, exact integer
    and bit operations), so a lane computes the same bits whether the code
    is scalar, an MLIR vector or vectorized by LLVM: PyNative and every
    jit_level stay bit for bit equal. Max errors measured on the compiled
    code (scripts/transcendentals_ulp.py): exp 0.88, log 0.93, tanh 1.02,
    erf 1.21 ulp; subnormal results, denormal inputs, signed zeros,
    infinities and NaN are handled (docs/pipelines.md, Numerics). A tanh or
    erf that `ms-sign-facts` marked `ms.sign_clear_operand` is expanded
    without |x| and the final copysign, which cannot change its value.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::math::MathDialect"];
}

def MSEmitCInterface : Pass<"ms-emit-c-interface", "mlir::ModuleOp"> {
  let summary = "Mark public functions for the C calling interface";
  let description = [{
    Tags every public `func.func` with `llvm.emit_c_interface`, so that the
    runtime can call it through `_mlir_ciface_<name>` with one memref
    descriptor pointer per argument, and each of its results with
    `ms.result = k`: `buffer-results-to-out-params` carries the tag to the
    result's out-param, which later passes then tell from the caller's
    arguments (`ms-update-parameters-in-place`).
  }];
}

def MSDistinctResults : Pass<"ms-distinct-results", "mlir::ModuleOp"> {
  let summary = "Give every result of a public function its own value";
  let description = [{
    A function that returns one value twice (`return %y, %y`, or
    `return %y * 1, %y` once the multiply folds, or a gradient that is the
    same for two parameters, as `b1 + b2`'s) returns, for each later
    occurrence, a copy instead:

    ```mlir
    return %y, %y : tensor<4xf32>, tensor<4xf32>
    // becomes
    %c = bufferization.alloc_tensor() copy(%y) : tensor<4xf32>
    return %y, %c : tensor<4xf32>, tensor<4xf32>
    ```

    `buffer-results-to-out-params` then gives each result its own
    out-param (it fails on a buffer returned twice), and the caller gets
    results that do not alias, as PyNative's do. Runs on tensors, right
    before one-shot bufferization, after the last fold that could make two
    results one.
  }];
  let dependentDialects = ["mlir::bufferization::BufferizationDialect"];
}

#endif // MS_CODEGEN_CPU_PASSES_TD
