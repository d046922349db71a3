// O1: weights streamed by rows, contraction loops interchanged so the
// innermost loop is parallel, and bias + relu (with the transpose back) fused
// into one loop nest.
// RUN: ms-opt %s --pass-pipeline="builtin.module(canonicalize,convert-ms-to-linalg,ms-decompose-aggregates,ms-transpose-matmul-operands,canonicalize,func.func(linalg-generalize-named-ops),ms-contraction-to-fma,ms-interchange-contractions,linalg-fuse-elementwise-ops,canonicalize)" | FileCheck %s
// RUN: ms-opt %s --ms-pipeline-O1 | FileCheck %s --check-prefix=LLVM

// CHECK-LABEL: func @construct
// The matmul, with x^T fused in: loops (n, k, m), FMA accumulation.
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "parallel"]{{.*}} ins(%{{.*}}, %{{.*}} : tensor<10x16xf32>, tensor<4x16xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: math.fma
// One epilogue loop nest: transpose back, bias, relu.
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} outs(%{{.*}} : tensor<4x10xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.addf
// CHECK-NEXT: arith.maximumf
// CHECK-NEXT: linalg.yield
// CHECK-NOT: linalg.generic
// LLVM: llvm.func @_mlir_ciface_construct
func.func @construct(%x: tensor<4x16xf32>, %w: tensor<10x16xf32> {ms.param = "fc.weight"},
                     %b: tensor<10xf32> {ms.param = "fc.bias"}) -> tensor<4x10xf32> {
  %0 = ms.dense %x, %w, %b : tensor<4x16xf32>, tensor<10x16xf32>, tensor<10xf32>
  %1 = ms.relu %0 : tensor<4x10xf32>
  return %1 : tensor<4x10xf32>
}
