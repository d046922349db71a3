// conv-as-matmul (O1/O2): an ungrouped conv becomes im2col one image at a
// time in an scf.forall over the batch: the image's windows copied into a
// [C*kh*kw, OH*OW] matrix, one linalg.matmul of the [O, C*kh*kw] weight by it
// into the image's slice of the NCHW result (inserted as a whole [1, O, OH,
// OW] image), then the bias. Grouped convs keep the direct form.
// RUN: ms-opt %s --convert-ms-to-linalg=conv-as-matmul | FileCheck %s

// CHECK-DAG: #[[WIN:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d3 * 2 + d1, d4 * 2 + d2)>
// CHECK-DAG: #[[ID5:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func @conv
// CHECK: %[[PAD:.*]] = tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: %[[W:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2, 3]] : tensor<5x3x3x3xf32> into tensor<5x27xf32>
// CHECK: %[[OUT:.*]] = scf.forall (%[[N:.*]]) in (2) shared_outs(%[[ACC:.*]] = %{{.*}}) -> (tensor<2x5x5x5xf32>)
// CHECK: %[[IMG:.*]] = tensor.extract_slice %[[PAD]][%[[N]], 0, 0, 0] [1, 3, 11, 11] [1, 1, 1, 1] : tensor<2x3x11x11xf32> to tensor<3x11x11xf32>
// CHECK: %[[COLS:.*]] = linalg.generic {indexing_maps = [#[[WIN]], #[[ID5]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%[[IMG]] : tensor<3x11x11xf32>) outs(%{{.*}} : tensor<3x3x3x5x5xf32>)
// CHECK: %[[M:.*]] = tensor.collapse_shape %[[COLS]] {{\[\[}}0, 1, 2], [3, 4]] : tensor<3x3x3x5x5xf32> into tensor<27x25xf32>
// CHECK: %[[SLOT:.*]] = tensor.extract_slice %[[ACC]][%[[N]], 0, 0, 0] [1, 5, 5, 5] [1, 1, 1, 1] : tensor<2x5x5x5xf32> to tensor<1x5x5x5xf32>
// CHECK: %[[SLOT2D:.*]] = tensor.collapse_shape %[[SLOT]] {{\[\[}}0, 1], [2, 3]] : tensor<1x5x5x5xf32> into tensor<5x25xf32>
// CHECK: %[[ZERO:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[SLOT2D]] : tensor<5x25xf32>)
// CHECK: %[[P:.*]] = linalg.matmul ins(%[[W]], %[[M]] : tensor<5x27xf32>, tensor<27x25xf32>) outs(%[[ZERO]] : tensor<5x25xf32>)
// CHECK: %[[PIMG:.*]] = tensor.expand_shape %[[P]] {{\[\[}}0, 1], [2, 3]] output_shape [1, 5, 5, 5]
// CHECK: tensor.parallel_insert_slice %[[PIMG]] into %[[ACC]][%[[N]], 0, 0, 0] [1, 5, 5, 5] [1, 1, 1, 1]
// CHECK: linalg.generic {{.*}} ins(%[[OUT]], %{{.*}} : tensor<2x5x5x5xf32>, tensor<5x1x1xf32>)
// CHECK: arith.addf
func.func @conv(%x: tensor<2x3x9x9xf32>, %w: tensor<5x3x3x3xf32>, %b: tensor<5xf32>) -> tensor<2x5x5x5xf32> {
  %0 = ms.conv2d %x, %w, %b stride [2, 2] : tensor<2x3x9x9xf32>, tensor<5x3x3x3xf32>, tensor<5xf32>
  return %0 : tensor<2x5x5x5xf32>
}

// CHECK-LABEL: func @grouped
// CHECK-NOT: scf.forall
// CHECK-NOT: linalg.matmul
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]
func.func @grouped(%x: tensor<1x4x8x8xf32>, %w: tensor<6x2x3x3xf32>) -> tensor<1x6x8x8xf32> {
  %0 = ms.conv2d %x, %w group 2 : tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>
  return %0 : tensor<1x6x8x8xf32>
}
