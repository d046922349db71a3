//===- Passes.td - ms transformation passes ----------------*- tablegen -*-===//

#ifndef MS_DIALECT_MS_TRANSFORMS_PASSES_TD
#define MS_DIALECT_MS_TRANSFORMS_PASSES_TD

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

def MSEmitCInterface : Pass<"ms-emit-c-interface", "mlir::ModuleOp"> {
  let summary = "Mark public functions for the C calling interface";
  let description = [{
    Tags every public `func.func` with `llvm.emit_c_interface`, so that the
    runtime can call it through `_mlir_ciface_<name>` with one memref
    descriptor pointer per argument.
  }];
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

#endif // MS_DIALECT_MS_TRANSFORMS_PASSES_TD
