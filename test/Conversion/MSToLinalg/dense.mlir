// ms.dense and ms.matmul lower to zero-filled linalg contractions; a bias is
// added afterwards by its own elementwise generic.
// RUN: ms-opt %s --convert-ms-to-linalg | FileCheck %s

// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[WT:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>

// CHECK-LABEL: func @dense
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[W:.*]]: tensor<3x8xf32>, %[[B:.*]]: tensor<3xf32>)
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<4x3xf32>)
// CHECK: %[[MM:.*]] = linalg.matmul indexing_maps = [#[[A]], #[[WT]], #[[C]]] ins(%[[X]], %[[W]] : tensor<4x8xf32>, tensor<3x8xf32>) outs(%[[INIT]] : tensor<4x3xf32>)
// CHECK: %[[OUT:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[MM]], %[[B]] : tensor<4x3xf32>, tensor<3xf32>)
// CHECK: arith.addf
// CHECK: return %[[OUT]]
func.func @dense(%x: tensor<4x8xf32>, %w: tensor<3x8xf32>, %b: tensor<3xf32>) -> tensor<4x3xf32> {
  %0 = ms.dense %x, %w, %b : tensor<4x8xf32>, tensor<3x8xf32>, tensor<3xf32>
  return %0 : tensor<4x3xf32>
}

// Leading dims collapse into the rows of one matmul and expand back.
// CHECK-LABEL: func @dense_rank3
// CHECK: %[[C2:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : tensor<2x4x8xf32> into tensor<8x8xf32>
// CHECK: %[[MM:.*]] = linalg.matmul {{.*}} ins(%[[C2]], %{{.*}} : tensor<8x8xf32>, tensor<3x8xf32>)
// CHECK-NOT: linalg.generic
// CHECK: tensor.expand_shape %[[MM]] {{\[\[}}0, 1], [2]] output_shape [2, 4, 3] : tensor<8x3xf32> into tensor<2x4x3xf32>
func.func @dense_rank3(%x: tensor<2x4x8xf32>, %w: tensor<3x8xf32>) -> tensor<2x4x3xf32> {
  %0 = ms.dense %x, %w : tensor<2x4x8xf32>, tensor<3x8xf32>
  return %0 : tensor<2x4x3xf32>
}

// CHECK-LABEL: func @dense_rank1
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [1, 8] : tensor<8xf32> into tensor<1x8xf32>
// CHECK: linalg.matmul
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<1x3xf32> into tensor<3xf32>
func.func @dense_rank1(%x: tensor<8xf32>, %w: tensor<3x8xf32>) -> tensor<3xf32> {
  %0 = ms.dense %x, %w : tensor<8xf32>, tensor<3x8xf32>
  return %0 : tensor<3xf32>
}
