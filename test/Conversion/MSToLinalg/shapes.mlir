// RUN: ms-opt %s --convert-ms-to-linalg | FileCheck %s

// CHECK-LABEL: func @flatten
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2, 3]] : tensor<64x1x28x28xf32> into tensor<64x784xf32>
func.func @flatten(%x: tensor<64x1x28x28xf32>) -> tensor<64x784xf32> {
  %0 = ms.flatten %x : tensor<64x1x28x28xf32>
  return %0 : tensor<64x784xf32>
}

// CHECK-LABEL: func @reshape
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2]] : tensor<2x3x4xf32> into tensor<24xf32>
// CHECK: tensor.expand_shape %[[FLAT]] {{\[\[}}0, 1]] output_shape [4, 6] : tensor<24xf32> into tensor<4x6xf32>
func.func @reshape(%x: tensor<2x3x4xf32>) -> tensor<4x6xf32> {
  %0 = ms.reshape %x to [4, 6] : tensor<2x3x4xf32>
  return %0 : tensor<4x6xf32>
}

// CHECK-LABEL: func @reshape_to_scalar
// CHECK: tensor.collapse_shape %{{.*}} [] : tensor<1x1xf32> into tensor<f32>
func.func @reshape_to_scalar(%x: tensor<1x1xf32>) -> tensor<f32> {
  %0 = ms.reshape %x to [] : tensor<1x1xf32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func @transpose
// CHECK: linalg.transpose ins(%{{.*}} : tensor<4x3xf32>) outs(%{{.*}} : tensor<3x4xf32>) permutation = [1, 0]
func.func @transpose(%a: tensor<4x3xf32>) -> tensor<3x4xf32> {
  %0 = ms.transpose %a perm [1, 0] : tensor<4x3xf32>
  return %0 : tensor<3x4xf32>
}

// CHECK-LABEL: func @concat
// CHECK-SAME: (%[[A:.*]]: tensor<4x3xf32>, %[[B:.*]]: tensor<4x5xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK: %[[S0:.*]] = tensor.insert_slice %[[A]] into %[[E]][0, 0] [4, 3] [1, 1]
// CHECK: tensor.insert_slice %[[B]] into %[[S0]][0, 3] [4, 5] [1, 1]
func.func @concat(%a: tensor<4x3xf32>, %b: tensor<4x5xf32>) -> tensor<4x8xf32> {
  %0 = ms.concat %a, %b axis -1 : tensor<4x3xf32>, tensor<4x5xf32>
  return %0 : tensor<4x8xf32>
}

// Dropout at inference is the identity.
// CHECK-LABEL: func @dropout
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[X]]
func.func @dropout(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ms.dropout %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
