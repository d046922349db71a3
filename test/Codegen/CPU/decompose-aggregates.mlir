// RUN: ms-opt %s --ms-decompose-aggregates | FileCheck %s

// CHECK-LABEL: func @softmax
// CHECK-NOT: linalg.softmax
// CHECK: linalg.generic {{.*}}["parallel", "reduction"]
// CHECK: arith.maxnumf
// CHECK: math.exp
// CHECK: arith.addf
// CHECK: arith.divf
func.func @softmax(%x: tensor<4x10xf32>) -> tensor<4x10xf32> {
  %e = tensor.empty() : tensor<4x10xf32>
  %0 = linalg.softmax dimension(1) ins(%x : tensor<4x10xf32>) outs(%e : tensor<4x10xf32>) -> tensor<4x10xf32>
  return %0 : tensor<4x10xf32>
}
