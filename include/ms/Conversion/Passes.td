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
    to `tensor.insert_slice`s. Dropout in training mode is rejected. The
    gradient ops of `ms-autodiff` lower here too: `relu_grad`/`gelu_grad`
    elementwise, `slice` to `tensor.extract_slice`, and the pool and conv
    gradients to gathers (the output gradient spread out by the strides,
    then an in-order sum over the window offsets; docs/autodiff.md).

    `conv2d` becomes one `linalg.generic` that accumulates over
    (channel, kh, kw) in order. With `conv-as-matmul` (O1/O2), an ungrouped
    conv becomes im2col instead, one image at a time in an `scf.forall` over
    the batch: a copy of the image's (padded) windows into a
    `[C*kh*kw, OH*OW]` matrix and one `linalg.matmul` of the `[O, C*kh*kw]`
    weight by it (the same in-order sum, so the bits do not change), written
    straight into the NCHW result. The bias is added afterwards by an
    elementwise op, which the fusion at O1/O2 merges with the following
    activation or batch_norm.

    `all_reduce` becomes a copy into a fresh buffer and a `func.call` of
    the runtime's `ms_comm_all_reduce_f32`/`_f64` (an in-place
    MPI_Allreduce) on its pointer. A gradient bucket's sum (1-D f32/f64, a
    concatenation nothing else reads, in an entry function) is shared
    instead: the entry gets the other rank's bucket as a trailing argument
    (`ms.comm_peer`), `ms_comm_share_bucket_f32`/`_f64` waits for it, and
    the result is the sum of the two buckets, taken slice by slice where
    each gradient is read (docs/distributed.md, "Shared gradient
    buckets").
  }];
  let options = [
    Option<"convAsMatmul", "conv-as-matmul", "bool", /*default=*/"false",
           "Lower group-1 conv2d as im2col + linalg.matmul">,
  ];
  let dependentDialects = [
    "mlir::arith::ArithDialect",
    "mlir::bufferization::BufferizationDialect",
    "mlir::func::FuncDialect",
    "mlir::LLVM::LLVMDialect",
    "mlir::linalg::LinalgDialect",
    "mlir::math::MathDialect",
    "mlir::memref::MemRefDialect",
    "mlir::scf::SCFDialect",
    "mlir::tensor::TensorDialect",
  ];
}

#endif // MS_CONVERSION_PASSES_TD
