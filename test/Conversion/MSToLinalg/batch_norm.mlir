// batch_norm: one elementwise generic, (x - mean) / sqrt(var + eps) * gamma
// + beta, with the [C] parameters reshaped to [C, 1, 1].
// RUN: ms-opt %s --convert-ms-to-linalg | FileCheck %s

// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[CH:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
// CHECK-LABEL: func @bn
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1, 2]] output_shape [6, 1, 1]
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[CH]], #[[CH]], #[[CH]], #[[CH]], #[[ID]]]
// CHECK: %[[C:.*]] = arith.subf
// CHECK: %[[E:.*]] = arith.constant 9.99999974E-6 : f32
// CHECK: %[[S:.*]] = arith.addf %{{.*}}, %[[E]]
// CHECK: %[[R:.*]] = math.sqrt %[[S]]
// CHECK: %[[N:.*]] = arith.divf %[[C]], %[[R]]
// CHECK: %[[G:.*]] = arith.mulf %[[N]]
// CHECK: arith.addf %[[G]]
func.func @bn(%x: tensor<8x6x4x4xf32>, %g: tensor<6xf32>, %b: tensor<6xf32>, %m: tensor<6xf32>, %v: tensor<6xf32>) -> tensor<8x6x4x4xf32> {
  %0 = ms.batch_norm %x, %g, %b, %m, %v : tensor<8x6x4x4xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>
  return %0 : tensor<8x6x4x4xf32>
}
