// O1: the matmul on register tiles like every level's (weights streamed by
// rows), then fusion: bias and relu in one loop nest on the matmul's
// [out, batch] rows, and one transpose back after it.
// RUN: ms-opt %s --pass-pipeline="builtin.module(canonicalize,convert-ms-to-linalg{conv-as-matmul},ms-decompose-aggregates,ms-vectorize-convs,ms-transpose-matmul-operands,canonicalize,ms-vectorize-matmuls{num-threads=1 vector-registers=16},ms-sink-transposes,canonicalize,func.func(linalg-generalize-named-ops),ms-contraction-to-fma,ms-interchange-contractions,canonicalize,ms-collapse-transposes,linalg-fuse-elementwise-ops,canonicalize,ms-collapse-transposes,ms-fuse-batch-loops,canonicalize,ms-vectorize-pooling,canonicalize)" | FileCheck %s
// RUN: ms-opt %s --ms-pipeline-O1 | FileCheck %s --check-prefix=LLVM

// CHECK-LABEL: func @construct
// The matmul, 10 rows as a 6-row and a 4-row tile, K in order.
// CHECK: vector.contract {{.*}} : vector<6x1xf32>, vector<1x4xf32> into vector<6x4xf32>
// CHECK: vector.contract {{.*}} : vector<4x1xf32>, vector<1x4xf32> into vector<4x4xf32>
// One epilogue loop nest on [10, 4]: bias, relu; then the transpose back.
// CHECK: %[[EPI:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} outs(%{{.*}} : tensor<10x4xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.addf
// CHECK-NEXT: arith.maximumf
// CHECK-NEXT: linalg.yield
// CHECK-NOT: linalg.generic
// CHECK: linalg.transpose ins(%[[EPI]] : tensor<10x4xf32>) outs(%{{.*}} : tensor<4x10xf32>) permutation = [1, 0]
// LLVM: llvm.func @_mlir_ciface_construct
func.func @construct(%x: tensor<4x16xf32>, %w: tensor<10x16xf32> {ms.param = "fc.weight"},
                     %b: tensor<10xf32> {ms.param = "fc.bias"}) -> tensor<4x10xf32> {
  %0 = ms.dense %x, %w, %b : tensor<4x16xf32>, tensor<10x16xf32>, tensor<10xf32>
  %1 = ms.relu %0 : tensor<4x10xf32>
  return %1 : tensor<4x10xf32>
}
