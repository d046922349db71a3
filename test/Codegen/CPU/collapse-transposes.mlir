// A copy to rotated dims is a matrix transpose: input [A..., B...] to
// output [B..., A...]. It becomes a 2-D linalg.transpose between
// collapse_shape and expand_shape, whatever the sizes. Other copies, and
// generics that compute, are left alone.
// RUN: ms-opt %s --ms-collapse-transposes --split-input-file | FileCheck %s

#in = affine_map<(d0, d1, d2) -> (d2, d0, d1)>
#out = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// [32, 2, 8] to [2, 8, 32]: a [32, 16] matrix transposed.
// CHECK-LABEL: func @rotate
// CHECK-SAME: (%[[X:.*]]: tensor<32x2x8xf32>)
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<2x8x32xf32>
// CHECK: %[[MATRIX:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0], [1, 2]] : tensor<32x2x8xf32> into tensor<32x16xf32>
// CHECK: %[[OUT:.*]] = tensor.collapse_shape %[[EMPTY]] {{\[}}[0, 1], [2]] : tensor<2x8x32xf32> into tensor<16x32xf32>
// CHECK: %[[T:.*]] = linalg.transpose ins(%[[MATRIX]] : tensor<32x16xf32>) outs(%[[OUT]] : tensor<16x32xf32>) permutation = [1, 0]
// CHECK: %[[R:.*]] = tensor.expand_shape %[[T]] {{\[}}[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xf32> into tensor<2x8x32xf32>
// CHECK: return %[[R]]
// CHECK-NOT: linalg.generic
func.func @rotate(%x: tensor<32x2x8xf32>) -> tensor<2x8x32xf32> {
  %e = tensor.empty() : tensor<2x8x32xf32>
  %t = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<32x2x8xf32>) outs(%e : tensor<2x8x32xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<2x8x32xf32>
  return %t : tensor<2x8x32xf32>
}

// -----

#swap = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
#out = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// Swapping the inner two dims is not a rotation (it is 16 transposes).
// CHECK-LABEL: func @not_a_rotation
// CHECK-NOT: linalg.transpose
// CHECK: linalg.generic
func.func @not_a_rotation(%x: tensor<16x16x16xf32>) -> tensor<16x16x16xf32> {
  %e = tensor.empty() : tensor<16x16x16xf32>
  %t = linalg.generic {indexing_maps = [#swap, #out], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<16x16x16xf32>) outs(%e : tensor<16x16x16xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<16x16x16xf32>
  return %t : tensor<16x16x16xf32>
}

// -----

#in2 = affine_map<(d0, d1) -> (d1, d0)>
#out2 = affine_map<(d0, d1) -> (d0, d1)>

// Any sizes (24 x 10, f64 too); a body that computes is not a copy.
// CHECK-LABEL: func @sizes_and_bodies
// CHECK: linalg.transpose ins(%{{.*}} : tensor<10x24xf64>) outs(%{{.*}} : tensor<24x10xf64>) permutation = [1, 0]
// CHECK: linalg.generic
// CHECK: arith.negf
func.func @sizes_and_bodies(%x: tensor<10x24xf64>, %y: tensor<16x16xf32>) -> (tensor<24x10xf64>, tensor<16x16xf32>) {
  %e = tensor.empty() : tensor<24x10xf64>
  %t = linalg.generic {indexing_maps = [#in2, #out2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<10x24xf64>) outs(%e : tensor<24x10xf64>) {
  ^bb0(%a: f64, %b: f64):
    linalg.yield %a : f64
  } -> tensor<24x10xf64>
  %e2 = tensor.empty() : tensor<16x16xf32>
  %n = linalg.generic {indexing_maps = [#in2, #out2], iterator_types = ["parallel", "parallel"]} ins(%y : tensor<16x16xf32>) outs(%e2 : tensor<16x16xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.negf %a : f32
    linalg.yield %m : f32
  } -> tensor<16x16xf32>
  return %t, %n : tensor<24x10xf64>, tensor<16x16xf32>
}

// -----

// A named transpose of more dims (fusion's reshape propagation makes one of
// a flattened image's x^T) is matched the same way: [64, 1, 2, 3] to
// [1, 2, 3, 64], a [64, 6] matrix transposed.
// CHECK-LABEL: func @named_rotate
// CHECK-SAME: (%[[X:.*]]: tensor<64x1x2x3xf32>)
// CHECK: %[[MATRIX:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0], [1, 2, 3]] : tensor<64x1x2x3xf32> into tensor<64x6xf32>
// CHECK: %[[T:.*]] = linalg.transpose ins(%[[MATRIX]] : tensor<64x6xf32>) outs(%{{.*}} : tensor<6x64xf32>) permutation = [1, 0]
// CHECK: %[[R:.*]] = tensor.expand_shape %[[T]] {{\[}}[0, 1, 2], [3]] output_shape [1, 2, 3, 64] : tensor<6x64xf32> into tensor<1x2x3x64xf32>
// CHECK: return %[[R]]
func.func @named_rotate(%x: tensor<64x1x2x3xf32>) -> tensor<1x2x3x64xf32> {
  %e = tensor.empty() : tensor<1x2x3x64xf32>
  %t = linalg.transpose ins(%x : tensor<64x1x2x3xf32>) outs(%e : tensor<1x2x3x64xf32>) permutation = [1, 2, 3, 0]
  return %t : tensor<1x2x3x64xf32>
}

// -----

// A named transpose that is not a rotation stays named.
// CHECK-LABEL: func @named_swap_inner
// CHECK: linalg.transpose {{.*}} permutation = [0, 2, 1]
// CHECK-NOT: linalg.generic
func.func @named_swap_inner(%x: tensor<2x3x4xf32>) -> tensor<2x4x3xf32> {
  %e = tensor.empty() : tensor<2x4x3xf32>
  %t = linalg.transpose ins(%x : tensor<2x3x4xf32>) outs(%e : tensor<2x4x3xf32>) permutation = [0, 2, 1]
  return %t : tensor<2x4x3xf32>
}
