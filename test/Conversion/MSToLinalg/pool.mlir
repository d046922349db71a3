// Pooling: one linalg.generic over (n, c, oh, ow, kh, kw) with a window-shaped
// operand; max pads with -inf, avg pads with 0 and divides by the count of
// real elements (the same pooling applied to a padded tensor of ones).
// RUN: ms-opt %s --convert-ms-to-linalg | FileCheck %s

// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>
// CHECK-DAG: #[[WIN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
// CHECK-LABEL: func @max_valid
// CHECK-NOT: tensor.pad
// CHECK: %[[W:.*]] = tensor.empty() : tensor<2x2xf32>
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[WIN]], {{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%{{.*}}, %[[W]] : tensor<1x6x28x28xf32>, tensor<2x2xf32>)
// CHECK: arith.maximumf
func.func @max_valid(%x: tensor<1x6x28x28xf32>) -> tensor<1x6x14x14xf32> {
  %0 = ms.max_pool2d %x kernel_size [2, 2] stride [2, 2] : tensor<1x6x28x28xf32>
  return %0 : tensor<1x6x14x14xf32>
}

// CHECK-LABEL: func @avg_same
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: tensor.yield %[[Z]]
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x3x9x9xf32>, tensor<3x3xf32>)
// CHECK: arith.addf
// CHECK: %[[CNT:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x1x9x9xf32>, tensor<3x3xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[SUM]], %[[CNT]] : tensor<1x3x4x4xf32>, tensor<1x1x4x4xf32>)
// CHECK: arith.divf
func.func @avg_same(%x: tensor<1x3x7x7xf32>) -> tensor<1x3x4x4xf32> {
  %0 = ms.avg_pool2d %x kernel_size [3, 3] stride [2, 2] pad_mode "same" : tensor<1x3x7x7xf32>
  return %0 : tensor<1x3x4x4xf32>
}
