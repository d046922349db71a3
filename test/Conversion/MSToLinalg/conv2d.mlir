// conv2d: zero padding by tensor.pad, channels split into groups by reshapes,
// one linalg.generic accumulating over (c, kh, kw), then the bias.
// RUN: ms-opt %s --convert-ms-to-linalg | FileCheck %s

// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d5, d3 * 2 + d6, d4 * 2 + d7 * 2)>
// CHECK-DAG: #[[W:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d2, d5, d6, d7)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func @conv
// CHECK: %[[PAD:.*]] = tensor.pad %{{.*}} low[0, 0, 1, 2] high[0, 0, 1, 2]
// CHECK: tensor<1x4x8x8xf32> to tensor<1x4x10x12xf32>
// CHECK: %[[XG:.*]] = tensor.expand_shape %[[PAD]] {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 2, 2, 10, 12]
// CHECK: %[[WG:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2], [3], [4]] output_shape [2, 3, 2, 3, 3]
// CHECK: %[[ACC:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x2x3x4x4xf32>)
// CHECK: %[[CONV:.*]] = linalg.generic {indexing_maps = [#[[IN]], #[[W]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%[[XG]], %[[WG]] : tensor<1x2x2x10x12xf32>, tensor<2x3x2x3x3xf32>) outs(%[[ACC]] : tensor<1x2x3x4x4xf32>)
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: %[[Y:.*]] = tensor.collapse_shape %[[CONV]] {{\[\[}}0], [1, 2], [3], [4]] : tensor<1x2x3x4x4xf32> into tensor<1x6x4x4xf32>
// CHECK: %[[B:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0, 1, 2]] output_shape [6, 1, 1]
// CHECK: linalg.generic {{.*}} ins(%[[Y]], %[[B]] : tensor<1x6x4x4xf32>, tensor<6x1x1xf32>)
func.func @conv(%x: tensor<1x4x8x8xf32>, %w: tensor<6x2x3x3xf32>, %b: tensor<6xf32>) -> tensor<1x6x4x4xf32> {
  %0 = ms.conv2d %x, %w, %b pad_mode "pad" padding [1, 1, 2, 2] stride [2, 2] dilation [1, 2] group 2 : tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>
  return %0 : tensor<1x6x4x4xf32>
}

// pad_mode "same" (MindSpore's default) pads the extra row at the bottom.
// CHECK-LABEL: func @same
// CHECK: tensor.pad %{{.*}} low[0, 0, 0, 0] high[0, 0, 1, 1]
func.func @same(%x: tensor<1x1x4x4xf32>, %w: tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32> {
  %0 = ms.conv2d %x, %w : tensor<1x1x4x4xf32>, tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x4x4xf32>
}
