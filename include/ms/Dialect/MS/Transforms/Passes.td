//===- Passes.td - ms transformation passes ----------------*- tablegen -*-===//

#ifndef MS_DIALECT_MS_TRANSFORMS_PASSES_TD
#define MS_DIALECT_MS_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def MSCheckTensorSizes : Pass<"ms-check-tensor-sizes"> {
  let summary = "Reject tensors too large for the machine's memory";
  let description = [{
    Checks every ranked tensor that an op produces, after the lowering to
    linalg has made the intermediates visible (a pool's padded copy, a
    conv's im2col windows): its byte size, in checked arithmetic, must fit
    in `max-bytes`, by default the machine's physical memory. A tensor past
    that can never be allocated; compiled code would get a null buffer and
    crash. The error is located at the op, which carries the ms op's
    location (the Cell path and the Python file:line).
  }];
  let options = [
    Option<"maxBytes", "max-bytes", "int64_t", /*default=*/"0",
           "Largest tensor in bytes (0: the machine's physical memory)">
  ];
}

def MSWidenHalfPrecision : Pass<"ms-widen-half-precision"> {
  let summary = "Compute f16 and bf16 ops in f32, rounding once per op";
  let description = [{
    Wraps every ms op that computes on f16 or bf16 tensors in `ms.cast`s:
    its half-precision operands are cast to f32, the op runs on f32, and
    each half-precision result is cast back, rounding once (PyTorch's CPU
    "opmath"). A matmul then accumulates in f32, a softmax sums in f32, and
    transcendentals use the f32 kernels. Ops that only move or compare
    values (reshape, flatten, transpose, concat, slice, broadcast_to, pad,
    gather, select, cast, stop_gradient, the comparisons, argmax/argmin)
    stay in half precision: they are exact there.

    Every pipeline (O0, O1, O2, and PyNative's per-op kernels) runs it
    first, and no later pass merges the casts between two ops, so a chain
    rounds after each op in every mode alike: PyNative and Graph stay bit
    for bit identical.

    ```mlir
    %y = ms.exp %x : tensor<4xf16>
    // becomes
    %0 = ms.cast %x to f32 : tensor<4xf16>
    %1 = ms.exp %0 : tensor<4xf32>
    %y = ms.cast %1 to f16 : tensor<4xf32>
    ```
  }];
}

def MSAutodiff : Pass<"ms-autodiff", "::mlir::ModuleOp"> {
  let summary = "Add the reverse-mode gradient function of an ms function";
  let description = [{
    Differentiates the function `func` with respect to its arguments `wrt`
    (every float tensor argument when empty) and adds the result, named
    `grad-name` (`<func>_grad` when empty), to the module right after it:

    ```
    (args..., sens_0, ..., sens_{R-1}) -> (results..., grads...)
    ```

    `sens_i` is the cotangent of result `i` (ones for a scalar loss); the
    gradients follow the order of `wrt`. The forward ops are kept in the
    gradient function and the backward ops reuse their values. Each op's
    rule comes from its `GradientOpInterface` (docs/autodiff.md); an op
    without one is a located error, "ms-autodiff: 'ms.foo' has no gradient
    rule". Cotangents of a value with several uses are summed with `ms.add`
    in reverse program order, so the result is deterministic.

    ```
    ms-opt --ms-autodiff='func=construct wrt=1,2' net.mlir
    ```

    With `saved-forward` the forward ops leave the gradient function (only
    constants stay): every forward value it reads is an argument instead,

    ```
    (args..., saved..., sens...) -> (results..., grads...)
    ```

    each tagged `{ms.saved = array<i64: op, result>}` (result `result` of
    the `op`-th op of `func`). PyNative passes the values its tape computed.
  }];
  let options = [
    Option<"funcName", "func", "std::string", /*default=*/"\"construct\"",
           "The function to differentiate">,
    ListOption<"wrt", "wrt", "unsigned",
               "Argument indices to differentiate with respect to (empty: "
               "every float tensor argument)">,
    Option<"gradName", "grad-name", "std::string", /*default=*/"\"\"",
           "Name of the gradient function (empty: <func>_grad)">,
    Option<"savedForward", "saved-forward", "bool", /*default=*/"false",
           "Take the forward values the backward reads (and the results) "
           "as arguments tagged ms.saved = array<i64: op, result>, after "
           "the function's own and before the sens, instead of computing "
           "them again (PyNative, whose tape already holds them)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
}


def MSSplitDynamicBatch : Pass<"ms-split-dynamic-batch", "::mlir::ModuleOp"> {
  let summary = "Run a ?-batch function as static batch tiles of itself";
  let description = [{
    Compiles a function whose inputs have a dynamic (`?`) batch dim once for
    every batch size. Each public function whose argument types have a `?`
    is specialized to static batch tiles (`batch-tiles`, largest first,
    ending in 1): its ops with every `?` replaced by the tile size B and
    their result types inferred again. The function itself becomes loops
    that cut the batch into as many tiles of each size as fit, largest
    first, and run that tile size's ops on each tile's rows in place,
    writing its rows into the results:

    ```mlir
    func.func @construct(%x: tensor<?x784xf32>, %w: ...) -> tensor<?x10xf32>
    // becomes, with batch-tiles=64,32,16,4,1: batch 37 is 32 + 4 + 1
    //   scf.for over tiles of 64, 32, 16, 4, 1 rows:
    //     tensor.extract_slice %x -> tensor<Bx784xf32>
    //     the ms ops on tensor<Bx...> (a call would copy the rows)
    //     tensor.insert_slice into the tensor<?x10xf32> result
    ```

    Every tile then runs the static kernels of the codegen (register tiles,
    vectorized pools, prepacked weights), and since those compute each row
    in an order that does not depend on the batch size, every row is bit
    for bit what a static compile at any batch gives (DESIGN.md, batch
    invariance).

    This is sound only when rows do not mix: the pass checks that every op
    that reads the batch treats its rows independently (elementwise ops,
    dense, matmul with the batch in the rows of lhs, conv2d, pools,
    softmax, reductions and argmax off axis 0, flatten, reshapes that keep
    dim 0, inference batch_norm/layer_norm/dropout). Anything else is a
    located error naming the op. Every `?` must be the leading (batch) dim
    of an input or a result; the runtime checks that all inputs agree on
    it.
  }];
  let options = [
    ListOption<"batchTiles", "batch-tiles", "int64_t",
               "Static batch tile sizes, largest first, ending in 1 "
               "(default 64,32,16,4,1)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def MSStartCollectivesEarly : Pass<"ms-start-collectives-early"> {
  let summary = "Move each all_reduce up to where its input is ready";
  let description = [{
    Data parallelism all-reduces the gradients in buckets, and backward
    computes them last layer first. `nn.DistributedGradReducer` emits its
    ops after the whole backward, so as captured, every bucket's
    all-reduce waits for the first layer's gradient. This pass moves each
    `ms.all_reduce`, with the pure ops that only feed it (the bucket's
    reshapes and concat), up to just after the last op it must follow: the
    ones that define what it reads, and the previous op with side effects
    (collectives keep their order, which every rank shares). Its readers
    stay where they are.

    The lowering then starts the reduction where the op now is and waits
    just before its first reader (lib/Conversion/MSToLinalg/
    Communication.cpp), so the rest of backward runs while the bucket is
    reduced:

    ```mlir
    %dw3 = ...                    // last layer's gradient
    %dw1 = ...                    // first layer's gradient
    %b = ms.all_reduce %dw3 : tensor<5120xf32>
    // becomes
    %dw3 = ...
    %b = ms.all_reduce %dw3 : tensor<5120xf32>
    %dw1 = ...
    ```

    Every pipeline runs it; it changes no value, only when the bytes move.
  }];
}

def MSPrintGraphDot : Pass<"ms-print-graph-dot", "::mlir::ModuleOp"> {
  let summary = "Write the graph as Graphviz DOT, labelled with Cell paths";
  let description = [{
    Writes the module's functions as one Graphviz digraph (`dot -Tsvg`
    draws it): a node per op with its name, the Cell path its location
    names and its result types; an ellipse per argument, a parameter by its
    name (`ms.param`); an edge from each value's definition to each user.
    A region's ops (scf.if, scf.while) sit in a box named after their op.
    The IR is unchanged. save_graphs writes the same picture of each
    captured graph (`00_input.dot` and, with Graphviz installed,
    `00_input.svg`).
  }];
  let options = [
    Option<"outputFile", "output-file", "std::string", /*default=*/"\"-\"",
           "Where the DOT text goes (- for stdout)">
  ];
}

#endif // MS_DIALECT_MS_TRANSFORMS_PASSES_TD
