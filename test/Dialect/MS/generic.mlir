// The generic form, written by hand from the op names, verifies and prints
// back in the custom form; inferred result types match the written ones.
// RUN: ms-opt %s | FileCheck %s

// CHECK-LABEL: func @generic
func.func @generic(%x: tensor<64x784xf32>, %w: tensor<512x784xf32>,
                   %b: tensor<512xf32>, %a: tensor<4x3xf32>) {
  // CHECK: ms.dense %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x784xf32>, tensor<512x784xf32>, tensor<512xf32>
  %0 = "ms.dense"(%x, %w, %b) : (tensor<64x784xf32>, tensor<512x784xf32>, tensor<512xf32>) -> tensor<64x512xf32>
  // CHECK: ms.relu %{{.*}} : tensor<64x512xf32>
  %1 = "ms.relu"(%0) : (tensor<64x512xf32>) -> tensor<64x512xf32>
  // CHECK: ms.matmul %{{.*}}, %{{.*}} transpose_b : tensor<4x3xf32>, tensor<4x3xf32>
  %2 = "ms.matmul"(%a, %a) {transpose_b} : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x4xf32>
  // CHECK: ms.reduce_sum %{{.*}} axes [0] keep_dims : tensor<4x3xf32>
  %3 = "ms.reduce_sum"(%a) {axes = array<i64: 0>, keep_dims} : (tensor<4x3xf32>) -> tensor<1x3xf32>
  // CHECK: ms.softmax %{{.*}} axis 1 : tensor<4x3xf32>
  %4 = "ms.softmax"(%a) {axis = 1 : i64} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  // CHECK: ms.reshape %{{.*}} to [3, 4] : tensor<4x3xf32>
  %5 = "ms.reshape"(%a) {shape = array<i64: 3, 4>} : (tensor<4x3xf32>) -> tensor<3x4xf32>
  // CHECK: ms.add %{{.*}}, %{{.*}} : tensor<4x3xf32>, tensor<1x3xf32>
  %6 = "ms.add"(%a, %3) : (tensor<4x3xf32>, tensor<1x3xf32>) -> tensor<4x3xf32>
  // CHECK: ms.floor %{{.*}} : tensor<4x3xf32>
  %7 = "ms.floor"(%a) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return
}
