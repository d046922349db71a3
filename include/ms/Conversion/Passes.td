//===- Passes.td - ms conversion passes --------------------*- tablegen -*-===//

#ifndef MS_CONVERSION_PASSES_TD
#define MS_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertMSToLinalg : Pass<"convert-ms-to-linalg"> {
  let summary = "Lower ms ops to linalg, tensor, arith and math";
  let description = [{
    Lowers every `ms` op on tensors: `dense` and `matmul` to `linalg.matmul`
    / `linalg.batch_matmul` (against the `[out, in]` weight through
    transposed indexing maps), broadcasting elementwise ops to
    `linalg.generic`, `softmax` to `linalg.softmax`, reductions to
    `linalg.reduce`, `transpose` to `linalg.transpose`, `flatten` and
    `reshape` to `tensor.collapse_shape` / `tensor.expand_shape`, `concat`
    to `tensor.insert_slice`s. Dropout in training mode is rejected.
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect",
    "mlir::linalg::LinalgDialect",
    "mlir::math::MathDialect",
    "mlir::tensor::TensorDialect",
  ];
}

#endif // MS_CONVERSION_PASSES_TD
