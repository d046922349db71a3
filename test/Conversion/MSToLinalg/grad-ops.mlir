// Lowering of the gradient ops (MSGradOps.td). The pool and conv gradients
// are gathers: the output gradient is spread out by the strides (zeros, or
// -1 for max_pool's window indices, between) so that each input element
// reads the windows that covered it through an affine map, summing over the
// window offsets in order.
// RUN: ms-opt %s -split-input-file --convert-ms-to-linalg | FileCheck %s

// CHECK-LABEL: func @relu_grad
// CHECK: linalg.generic
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[P:.*]] = arith.cmpf ogt, %{{.*}}, %[[Z]] : f32
// CHECK: arith.select %[[P]], %{{.*}}, %[[Z]] : f32
func.func @relu_grad(%dy: tensor<4x6xf32>, %y: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %0 = ms.relu_grad %dy, %y : tensor<4x6xf32>, tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

// CHECK-LABEL: func @gelu_grad
// CHECK: linalg.generic
// CHECK: math.tanh
// CHECK: linalg.generic
// CHECK: math.erf
// CHECK: math.exp
func.func @gelu_grad(%dy: tensor<4x6xf32>, %x: tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>) {
  %0 = ms.gelu_grad %dy, %x : tensor<4x6xf32>, tensor<4x6xf32>
  %1 = ms.gelu_grad %dy, %x {approximate = false} : tensor<4x6xf32>, tensor<4x6xf32>
  return %0, %1 : tensor<4x6xf32>, tensor<4x6xf32>
}

// -----

// CHECK-LABEL: func @stop_gradient_and_slice
// CHECK-SAME: (%[[X:.*]]: tensor<4x6xf32>)
// CHECK: %[[S:.*]] = tensor.extract_slice %[[X]][1, 2] [2, 4] [1, 1] : tensor<4x6xf32> to tensor<2x4xf32>
// CHECK: return %[[X]], %[[S]]
func.func @stop_gradient_and_slice(%x: tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<2x4xf32>) {
  %0 = ms.stop_gradient %x : tensor<4x6xf32>
  %1 = ms.slice %x begin [1, 2] end [3, 6] strides [1, 1] : tensor<4x6xf32>
  return %0, %1 : tensor<4x6xf32>, tensor<2x4xf32>
}

// -----

// Overlapping windows (3x3, stride 2): each position sums the windows that
// cover it.
// CHECK-DAG: #[[WIN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>
// CHECK-DAG: #[[GATHER:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 - d4 + 2, d3 - d5 + 2)>
// CHECK-LABEL: func @max_pool2d_grad
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x7x7xf32>, %[[DY:.*]]: tensor<1x2x3x3xf32>)
// The first maximum of each window, as its row-major offset.
// CHECK: %[[ARG:.*]]:2 = linalg.generic {indexing_maps = [#[[WIN]], {{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[X]],
// CHECK: arith.cmpf ogt
// CHECK: %[[DYS:.*]] = tensor.insert_slice %[[DY]] into %{{.*}}[0, 0, 2, 2] [1, 2, 3, 3] [1, 1, 2, 2] : tensor<1x2x3x3xf32> into tensor<1x2x9x9xf32>
// CHECK: %[[IDX:.*]] = tensor.insert_slice %[[ARG]]#1 into %{{.*}}[0, 0, 2, 2] [1, 2, 3, 3] [1, 1, 2, 2]
// CHECK: linalg.generic {indexing_maps = [#[[GATHER]], #[[GATHER]], {{.*}}]{{.*}} ins(%[[DYS]], %[[IDX]], %{{.*}} : tensor<1x2x9x9xf32>, tensor<1x2x9x9xf32>, tensor<3x3xf32>) outs(%{{.*}} : tensor<1x2x7x7xf32>)
// CHECK: arith.cmpf oeq
// CHECK: arith.select
// CHECK: arith.addf
func.func @max_pool2d_grad(%x: tensor<1x2x7x7xf32>, %dy: tensor<1x2x3x3xf32>) -> tensor<1x2x7x7xf32> {
  %0 = ms.max_pool2d_grad %x, %dy kernel_size [3, 3] stride [2, 2] : tensor<1x2x7x7xf32>, tensor<1x2x3x3xf32>
  return %0 : tensor<1x2x7x7xf32>
}

// -----

// max_pool2d_grad_grad ("same": 1 row and column after): x padded with
// -inf and grad with 0, read window by window together; a strict > keeps
// the first maximum and takes grad's element there, and the first tap is
// taken unless a later one is greater (a window with nothing above -inf
// picks its first position, as max_pool2d_grad routes it).
// CHECK-DAG: #[[WIN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>
// CHECK-LABEL: func @max_pool2d_grad_grad
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x6x6xf32>, %[[G:.*]]: tensor<1x2x6x6xf32>)
// CHECK: %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[XP:.*]] = tensor.pad %[[X]] low[0, 0, 0, 0] high[0, 0, 1, 1]
// CHECK: tensor.yield %[[NEG]]
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[GP:.*]] = tensor.pad %[[G]] low[0, 0, 0, 0] high[0, 0, 1, 1]
// CHECK: tensor.yield %[[ZERO]]
// CHECK: %[[R:.*]]:2 = linalg.generic {indexing_maps = [#[[WIN]], #[[WIN]], {{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[XP]], %[[GP]], %{{.*}} : tensor<1x2x7x7xf32>, tensor<1x2x7x7xf32>, tensor<3x3xf32>)
// CHECK-NEXT: ^bb0(%[[XIN:.*]]: f32, %[[GIN:.*]]: f32, %{{.*}}: f32, %[[BEST:.*]]: f32, %[[PICK:.*]]: f32):
// CHECK-NEXT: %[[GT:.*]] = arith.cmpf ogt, %[[XIN]], %[[BEST]]
// CHECK-DAG: %[[KH:.*]] = linalg.index 4
// CHECK-DAG: %[[KW:.*]] = linalg.index 5
// CHECK: %[[ROW0:.*]] = arith.cmpi eq, %[[KH]]
// CHECK-NEXT: %[[COL0:.*]] = arith.cmpi eq, %[[KW]]
// CHECK-NEXT: %[[FIRST:.*]] = arith.andi %[[ROW0]], %[[COL0]]
// CHECK-NEXT: %[[TAKE:.*]] = arith.ori %[[GT]], %[[FIRST]]
// CHECK-NEXT: %[[M:.*]] = arith.select %[[GT]], %[[XIN]], %[[BEST]]
// CHECK-NEXT: %[[P:.*]] = arith.select %[[TAKE]], %[[GIN]], %[[PICK]]
// CHECK-NEXT: linalg.yield %[[M]], %[[P]]
// CHECK: return %[[R]]#1 : tensor<1x2x3x3xf32>
func.func @max_pool2d_grad_grad(%x: tensor<1x2x6x6xf32>, %g: tensor<1x2x6x6xf32>) -> tensor<1x2x3x3xf32> {
  %0 = ms.max_pool2d_grad_grad %x, %g kernel_size [3, 3] stride [2, 2] pad_mode "same" : tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>
  return %0 : tensor<1x2x3x3xf32>
}

// -----

// Windows that tile the input (2x2, stride 2, 6 = 3 * 2): one elementwise
// generic over the [1, 2, 3, 2, 3, 2] tile view (i, a, j, b). Each element
// reads its window's four taps, finds the first maximum with the strict >
// from -inf, and takes dy[i, j] if that tap is its own offset a * 2 + b.
// No argmax tensor and no index division (ms-vectorize-pooling turns this
// generic into row vectors).
// CHECK-DAG: #[[T00:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, 0, d4, 0)>
// CHECK-DAG: #[[T11:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, 1, d4, 1)>
// CHECK-DAG: #[[TILE:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d4)>
// CHECK-LABEL: func @max_pool2d_grad_tiles
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x6x6xf32>, %[[DY:.*]]: tensor<1x2x3x3xf32>)
// CHECK: %[[V:.*]] = tensor.expand_shape %[[X]] {{\[}}[0], [1], [2, 3], [4, 5]] output_shape [1, 2, 3, 2, 3, 2]
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[T00]], {{.*}}, #[[T11]], #[[TILE]], {{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%[[V]], %[[V]], %[[V]], %[[V]], %[[DY]] :
// CHECK-COUNT-4: arith.cmpf ogt
// CHECK: linalg.index 3
// CHECK: linalg.index 5
// CHECK: arith.cmpi eq
// CHECK: arith.select
// CHECK-NOT: arith.remui
// CHECK-NOT: arith.addf
// CHECK: tensor.collapse_shape %[[R]] {{\[}}[0], [1], [2, 3], [4, 5]] : tensor<1x2x3x2x3x2xf32> into tensor<1x2x6x6xf32>
func.func @max_pool2d_grad_tiles(%x: tensor<1x2x6x6xf32>, %dy: tensor<1x2x3x3xf32>) -> tensor<1x2x6x6xf32> {
  %0 = ms.max_pool2d_grad %x, %dy kernel_size [2, 2] stride [2, 2] : tensor<1x2x6x6xf32>, tensor<1x2x3x3xf32>
  return %0 : tensor<1x2x6x6xf32>
}

// -----

// "same" padding (1 row and column after): the counts of real elements
// come from pooling padded ones, as in the forward op.
// CHECK-DAG: #[[GATHER:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 - d4 + 2, d3 - d5 + 2)>
// CHECK-LABEL: func @avg_pool2d_grad
// CHECK: tensor.pad %{{.*}} low[0, 0, 0, 0] high[0, 0, 1, 1]
// CHECK: linalg.generic
// CHECK: arith.divf
// CHECK: %[[S:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 2, 2] [1, 2, 3, 3] [1, 1, 2, 2] : tensor<1x2x3x3xf32> into tensor<1x2x9x9xf32>
// CHECK: linalg.generic {indexing_maps = [#[[GATHER]], {{.*}}]{{.*}} ins(%[[S]], %{{.*}} : tensor<1x2x9x9xf32>, tensor<3x3xf32>) outs(%{{.*}} : tensor<1x2x6x6xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32, %[[OUT:.*]]: f32):
// CHECK-NEXT: arith.addf %[[OUT]], %[[IN]]
func.func @avg_pool2d_grad(%x: tensor<1x2x6x6xf32>, %dy: tensor<1x2x3x3xf32>) -> tensor<1x2x6x6xf32> {
  %0 = ms.avg_pool2d_grad %x, %dy kernel_size [3, 3] stride [2, 2] pad_mode "same" : tensor<1x2x6x6xf32>, tensor<1x2x3x3xf32>
  return %0 : tensor<1x2x6x6xf32>
}

// -----

// dx over (n, g, c, i, j, o, kh, kw): dy spread by the stride, read at
// i + pad_top + (KH - 1 - kh) * dilation.
// CHECK-DAG: #[[DY:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d5, d3 - d6 * 2 + 5, d4 - d7 * 2 + 2)>
// CHECK-DAG: #[[W:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d5, d2, d6, d7)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func @conv2d_backprop_input
// CHECK: %[[S:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 4, 2] [1, 6, 4, 8] [1, 1, 2, 1] : tensor<1x6x4x8xf32> into tensor<1x6x16x12xf32>
// CHECK: %[[GS:.*]] = tensor.expand_shape %[[S]] {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 2, 3, 16, 12]
// CHECK: %[[GW:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2], [3], [4]] output_shape [2, 3, 2, 3, 2]
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[DY]], #[[W]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%[[GS]], %[[GW]] : tensor<1x2x3x16x12xf32>, tensor<2x3x2x3x2xf32>) outs(%{{.*}} : tensor<1x2x2x9x9xf32>)
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: tensor.collapse_shape %[[R]] {{\[\[}}0], [1, 2], [3], [4]] : tensor<1x2x2x9x9xf32> into tensor<1x4x9x9xf32>
func.func @conv2d_backprop_input(%dy: tensor<1x6x4x8xf32>, %w: tensor<6x2x3x2xf32>) -> tensor<1x4x9x9xf32> {
  %0 = ms.conv2d_backprop_input %dy, %w shape [1, 4, 9, 9] pad_mode "pad" padding [1, 2, 0, 1] stride [2, 1] dilation [2, 2] group 2 : tensor<1x6x4x8xf32>, tensor<6x2x3x2xf32>
  return %0 : tensor<1x4x9x9xf32>
}

// -----

// dw over (g, o, c, kh, kw, n, oh, ow) on the padded input.
// CHECK-DAG: #[[DY:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d5, d0, d1, d6, d7)>
// CHECK-DAG: #[[X:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d5, d0, d2, d6 * 2 + d3 * 2, d7 + d4 * 2)>
// CHECK-LABEL: func @conv2d_backprop_filter
// CHECK: %[[P:.*]] = tensor.pad %{{.*}} low[0, 0, 1, 0] high[0, 0, 2, 1]
// CHECK: %[[GX:.*]] = tensor.expand_shape %[[P]] {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 2, 2, 12, 10]
// CHECK: %[[GDY:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 2, 3, 4, 8]
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[DY]], #[[X]], {{.*}}]{{.*}} ins(%[[GDY]], %[[GX]] : tensor<1x2x3x4x8xf32>, tensor<1x2x2x12x10xf32>) outs(%{{.*}} : tensor<2x3x2x3x2xf32>)
// CHECK: tensor.collapse_shape %[[R]] {{\[\[}}0, 1], [2], [3], [4]] : tensor<2x3x2x3x2xf32> into tensor<6x2x3x2xf32>
func.func @conv2d_backprop_filter(%dy: tensor<1x6x4x8xf32>, %x: tensor<1x4x9x9xf32>) -> tensor<6x2x3x2xf32> {
  %0 = ms.conv2d_backprop_filter %dy, %x shape [6, 2, 3, 2] pad_mode "pad" padding [1, 2, 0, 1] stride [2, 1] dilation [2, 2] group 2 : tensor<1x6x4x8xf32>, tensor<1x4x9x9xf32>
  return %0 : tensor<6x2x3x2xf32>
}
