// Graphs with tensor-dependent control flow compile at every level: the ms
// ops inside scf.if / scf.while lower, the loop-carried tensors bufferize
// (one-shot bufferization allows the loop's new buffers), and the scf ops
// become branches in the LLVM dialect.
// RUN: ms-opt %s --ms-pipeline-O0 | FileCheck %s
// RUN: ms-opt %s --ms-pipeline-O1 | FileCheck %s
// RUN: ms-opt %s --ms-pipeline-O2=num-threads=2 | FileCheck %s
// RUN: ms-opt %s --ms-pipeline-O2=num-threads=1 | FileCheck %s --check-prefix=NONE

// CHECK: llvm.func @construct(
// CHECK: llvm.cond_br
// CHECK: llvm.func @_mlir_ciface_construct(
// NONE-NOT: {{= (ms|linalg|tensor|memref|bufferization|affine|scf)\.[a-z_]+ }}
// NONE-NOT: func.func

func.func @construct(%x: tensor<8x16xf32>, %n: tensor<i32>) -> tensor<8x16xf32> {
  %i0 = arith.constant dense<0> : tensor<i32>
  %one = arith.constant dense<1> : tensor<i32>
  %r:2 = scf.while (%i = %i0, %a = %x) : (tensor<i32>, tensor<8x16xf32>) -> (tensor<i32>, tensor<8x16xf32>) {
    %lt = ms.less %i, %n : tensor<i32>, tensor<i32>
    %b = tensor.extract %lt[] : tensor<i1>
    scf.condition(%b) %i, %a : tensor<i32>, tensor<8x16xf32>
  } do {
  ^bb0(%i: tensor<i32>, %a: tensor<8x16xf32>):
    %a2 = ms.add %a, %a : tensor<8x16xf32>, tensor<8x16xf32>
    %i2 = ms.add %i, %one : tensor<i32>, tensor<i32>
    scf.yield %i2, %a2 : tensor<i32>, tensor<8x16xf32>
  }
  %s = ms.reduce_sum %r#1 axes [0, 1] : tensor<8x16xf32>
  %limit = arith.constant dense<100.0> : tensor<f32>
  %big = ms.greater %s, %limit : tensor<f32>, tensor<f32>
  %c = tensor.extract %big[] : tensor<i1>
  %out = scf.if %c -> (tensor<8x16xf32>) {
    %y = ms.relu %r#1 : tensor<8x16xf32>
    %z = ms.matmul %y, %r#1 transpose_b : tensor<8x16xf32>, tensor<8x16xf32>
    %w = ms.matmul %z, %y : tensor<8x8xf32>, tensor<8x16xf32>
    scf.yield %w : tensor<8x16xf32>
  } else {
    %y = ms.neg %r#1 : tensor<8x16xf32>
    scf.yield %y : tensor<8x16xf32>
  }
  return %out : tensor<8x16xf32>
}
