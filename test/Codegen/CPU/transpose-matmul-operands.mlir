// ms-transpose-matmul-operands: a transposed-B matmul (a dense layer's
// x @ w^T) becomes (w @ x^T)^T with a fill kept a fill; a transposed-A
// matmul (a gradient's dw = dy^T @ x) becomes a plain matmul of the
// materialized dy^T. Plain matmuls are left alone.
// RUN: ms-opt %s --ms-transpose-matmul-operands | FileCheck %s

// CHECK-LABEL: func @transposed_b
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[W:.*]]: tensor<16x8xf32>)
// CHECK: %[[XT:.*]] = linalg.transpose ins(%[[X]] : tensor<4x8xf32>) outs(%{{.*}} : tensor<8x4xf32>) permutation = [1, 0]
// CHECK: %[[INIT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<16x4xf32>)
// CHECK: %[[CT:.*]] = linalg.matmul ins(%[[W]], %[[XT]] : tensor<16x8xf32>, tensor<8x4xf32>) outs(%[[INIT]] : tensor<16x4xf32>)
// CHECK: %[[C:.*]] = linalg.transpose ins(%[[CT]] : tensor<16x4xf32>) outs(%{{.*}} : tensor<4x16xf32>) permutation = [1, 0]
// CHECK: return %[[C]]
func.func @transposed_b(%x: tensor<4x8xf32>, %w: tensor<16x8xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%x, %w : tensor<4x8xf32>, tensor<16x8xf32>) outs(%init : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// CHECK-LABEL: func @transposed_a
// CHECK-SAME: (%[[DY:.*]]: tensor<4x16xf32>, %[[X:.*]]: tensor<4x8xf32>, %[[ACC:.*]]: tensor<16x8xf32>)
// CHECK: %[[DYT:.*]] = linalg.transpose ins(%[[DY]] : tensor<4x16xf32>) outs(%{{.*}} : tensor<16x4xf32>) permutation = [1, 0]
// CHECK: %[[DW:.*]] = linalg.matmul ins(%[[DYT]], %[[X]] : tensor<16x4xf32>, tensor<4x8xf32>) outs(%[[ACC]] : tensor<16x8xf32>)
// CHECK: return %[[DW]]
func.func @transposed_a(%dy: tensor<4x16xf32>, %x: tensor<4x8xf32>, %acc: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] ins(%dy, %x : tensor<4x16xf32>, tensor<4x8xf32>) outs(%acc : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// CHECK-LABEL: func @plain
// CHECK-NOT: linalg.transpose
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8x16xf32>)
func.func @plain(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %acc: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%acc : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
