// A copy to rotated dims is a matrix transpose: input [A..., B...] to
// output [B..., A...]. It becomes loops over 16x16 blocks (two 8-lane
// registers square): the block's 16 rows read as vectors, transposed by
// 64 shuffles, written as the output block's rows. Other copies and
// matrices the block does not divide are left alone.
// RUN: ms-opt %s --ms-vectorize-transposes="vector-lanes=8" --canonicalize --cse --split-input-file | FileCheck %s

#in = affine_map<(d0, d1, d2) -> (d2, d0, d1)>
#out = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// [32, 2, 8] to [2, 8, 32]: a [32, 16] matrix transposed, 2 blocks.
// CHECK-LABEL: func @rotate
// CHECK-SAME: (%[[X:.*]]: tensor<32x2x8xf32>)
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<2x8x32xf32>
// CHECK: %[[MATRIX:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0], [1, 2]] : tensor<32x2x8xf32> into tensor<32x16xf32>
// CHECK: %[[OUT:.*]] = tensor.collapse_shape %[[EMPTY]] {{\[}}[0, 1], [2]] : tensor<2x8x32xf32> into tensor<16x32xf32>
// CHECK: %[[T:.*]] = scf.for %[[I0:[[:alnum:]_]+]] = %{{.*}} to %[[C32:[[:alnum:]_]+]] step %[[C16:[[:alnum:]_]+]] iter_args(%[[ACC:[[:alnum:]_]+]] = %[[OUT]]) -> (tensor<16x32xf32>)
// CHECK: %[[R0:.*]] = vector.transfer_read %[[MATRIX]][%[[I0]], %[[C0:[[:alnum:]_]+]]], %{{.*}} {in_bounds = [true]} : tensor<32x16xf32>, vector<16xf32>
// CHECK-COUNT-15: vector.transfer_read %[[MATRIX]]
// CHECK: vector.shuffle %[[R0]], %{{.*}} [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23] : vector<16xf32>, vector<16xf32>
// CHECK-COUNT-63: vector.shuffle
// CHECK-NOT: vector.shuffle
// CHECK: %[[W0:.*]] = vector.transfer_write %{{.*}}, %[[ACC]][%[[C0]], %[[I0]]] {in_bounds = [true]} : vector<16xf32>, tensor<16x32xf32>
// CHECK-COUNT-15: vector.transfer_write
// CHECK: scf.yield
// CHECK: tensor.expand_shape %[[T]] {{\[}}[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xf32> into tensor<2x8x32xf32>
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
// CHECK-NOT: vector.
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

// 24 rows are not whole 16-row blocks; a body that computes is not a copy.
// CHECK-LABEL: func @left_alone
// CHECK-NOT: vector.
// CHECK: linalg.generic
// CHECK: linalg.generic
func.func @left_alone(%x: tensor<24x16xf32>, %y: tensor<16x16xf32>) -> (tensor<16x24xf32>, tensor<16x16xf32>) {
  %e = tensor.empty() : tensor<16x24xf32>
  %t = linalg.generic {indexing_maps = [#in2, #out2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<24x16xf32>) outs(%e : tensor<16x24xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<16x24xf32>
  %e2 = tensor.empty() : tensor<16x16xf32>
  %n = linalg.generic {indexing_maps = [#in2, #out2], iterator_types = ["parallel", "parallel"]} ins(%y : tensor<16x16xf32>) outs(%e2 : tensor<16x16xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.negf %a : f32
    linalg.yield %m : f32
  } -> tensor<16x16xf32>
  return %t, %n : tensor<16x24xf32>, tensor<16x16xf32>
}
