// conv-as-matmul (O1/O2) for the two conv gradients of ungrouped convs,
// summing in the direct forms' orders (grad-ops.mlir) so the bits match O0:
// - conv2d_backprop_input: dy spread into the padded gather layout, then per
//   image (scf.forall) the windows (o, kh, kw, i, j) as a [O*kh*kw, H*W]
//   matrix and one linalg.matmul of the transposed weight [C, O*kh*kw] by it;
// - conv2d_backprop_filter: an scf.for over the batch carrying dw [O,
//   C*kh*kw]; each image's windows as a [OH*OW, C*kh*kw] matrix and one
//   linalg.matmul of dy_n [O, OH*OW] by it, accumulated into dw in order.
// Grouped gradients keep the direct form.
// RUN: ms-opt %s --convert-ms-to-linalg=conv-as-matmul | FileCheck %s

// CHECK-DAG: #[[IN_WIN:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d3 - d1 + 2, d4 - d2 + 2)>
// CHECK-DAG: #[[ID5:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
// CHECK-DAG: #[[F_WIN:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d2, d0 + d3, d1 + d4)>

// CHECK-LABEL: func @input_grad
// CHECK: %[[SPREAD:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 2, 2] [2, 4, 6, 6] [1, 1, 1, 1] : tensor<2x4x6x6xf32> into tensor<2x4x10x10xf32>
// CHECK: %[[WT:.*]] = linalg.transpose ins(%{{.*}} : tensor<4x3x3x3xf32>) outs(%{{.*}} : tensor<3x4x3x3xf32>) permutation = [1, 0, 2, 3]
// CHECK: %[[WM:.*]] = tensor.collapse_shape %[[WT]] {{\[\[}}0], [1, 2, 3]] : tensor<3x4x3x3xf32> into tensor<3x36xf32>
// CHECK: scf.forall (%[[N:.*]]) in (2) shared_outs(%[[ACC:.*]] = %{{.*}}) -> (tensor<2x3x8x8xf32>)
// CHECK: %[[IMG:.*]] = tensor.extract_slice %[[SPREAD]][%[[N]], 0, 0, 0] [1, 4, 10, 10]
// CHECK: %[[COLS:.*]] = linalg.generic {indexing_maps = [#[[IN_WIN]], #[[ID5]]], {{.*}} ins(%[[IMG]] : tensor<4x10x10xf32>) outs(%{{.*}} : tensor<4x3x3x8x8xf32>)
// CHECK: %[[M:.*]] = tensor.collapse_shape %[[COLS]] {{\[\[}}0, 1, 2], [3, 4]] : tensor<4x3x3x8x8xf32> into tensor<36x64xf32>
// CHECK: %[[ZERO:.*]] = linalg.fill
// CHECK: linalg.matmul ins(%[[WM]], %[[M]] : tensor<3x36xf32>, tensor<36x64xf32>) outs(%[[ZERO]] : tensor<3x64xf32>)
// CHECK: tensor.parallel_insert_slice
func.func @input_grad(%dy: tensor<2x4x6x6xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<2x3x8x8xf32> {
  %0 = ms.conv2d_backprop_input %dy, %w shape [2, 3, 8, 8] pad_mode "valid" : tensor<2x4x6x6xf32>, tensor<4x3x3x3xf32>
  return %0 : tensor<2x3x8x8xf32>
}

// CHECK-LABEL: func @filter_grad
// CHECK: %[[ZERO:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4x27xf32>)
// CHECK: %[[DW:.*]] = scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[SUM:.*]] = %[[ZERO]]) -> (tensor<4x27xf32>)
// CHECK: %[[IMG:.*]] = tensor.extract_slice %{{.*}}[%[[N]], 0, 0, 0] [1, 3, 8, 8] [1, 1, 1, 1] : tensor<2x3x8x8xf32> to tensor<3x8x8xf32>
// CHECK: %[[COLS:.*]] = linalg.generic {indexing_maps = [#[[F_WIN]], #[[ID5]]], {{.*}} ins(%[[IMG]] : tensor<3x8x8xf32>) outs(%{{.*}} : tensor<6x6x3x3x3xf32>)
// CHECK: %[[M:.*]] = tensor.collapse_shape %[[COLS]] {{\[\[}}0, 1], [2, 3, 4]] : tensor<6x6x3x3x3xf32> into tensor<36x27xf32>
// CHECK: %[[DYN:.*]] = tensor.extract_slice %{{.*}}[%[[N]], 0, 0, 0] [1, 4, 6, 6] [1, 1, 1, 1] : tensor<2x4x6x6xf32> to tensor<4x6x6xf32>
// CHECK: %[[DYM:.*]] = tensor.collapse_shape %[[DYN]] {{\[\[}}0], [1, 2]] : tensor<4x6x6xf32> into tensor<4x36xf32>
// CHECK: %[[NEXT:.*]] = linalg.matmul ins(%[[DYM]], %[[M]] : tensor<4x36xf32>, tensor<36x27xf32>) outs(%[[SUM]] : tensor<4x27xf32>)
// CHECK: scf.yield %[[NEXT]]
// CHECK: tensor.expand_shape %[[DW]] {{\[\[}}0], [1, 2, 3]] output_shape [4, 3, 3, 3]
func.func @filter_grad(%dy: tensor<2x4x6x6xf32>, %x: tensor<2x3x8x8xf32>) -> tensor<4x3x3x3xf32> {
  %0 = ms.conv2d_backprop_filter %dy, %x shape [4, 3, 3, 3] pad_mode "valid" : tensor<2x4x6x6xf32>, tensor<2x3x8x8xf32>
  return %0 : tensor<4x3x3x3xf32>
}

// CHECK-LABEL: func @grouped_grads
// CHECK-NOT: linalg.matmul
// CHECK: return
func.func @grouped_grads(%dy: tensor<1x4x6x6xf32>, %w: tensor<4x1x3x3xf32>, %x: tensor<1x2x8x8xf32>) -> (tensor<1x2x8x8xf32>, tensor<4x1x3x3xf32>) {
  %0 = ms.conv2d_backprop_input %dy, %w shape [1, 2, 8, 8] pad_mode "valid" group 2 : tensor<1x4x6x6xf32>, tensor<4x1x3x3xf32>
  %1 = ms.conv2d_backprop_filter %dy, %x shape [4, 1, 3, 3] pad_mode "valid" group 2 : tensor<1x4x6x6xf32>, tensor<1x2x8x8xf32>
  return %0, %1 : tensor<1x2x8x8xf32>, tensor<4x1x3x3xf32>
}
