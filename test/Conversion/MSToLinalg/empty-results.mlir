// RUN: ms-opt %s --convert-ms-to-linalg | FileCheck %s

// An op whose results are empty computes nothing: a tensor.empty each
// (the family lowerings would slice a dim of 0, which tensor ops reject).
// CHECK-LABEL: func.func @empty_batch(
// CHECK-NOT: ms.
// CHECK: %[[DX:.*]] = tensor.empty() : tensor<0x3x8x8xf32>
// CHECK: %[[R:.*]] = tensor.empty() : tensor<0x4xf32>
// CHECK: return %[[DX]], %[[R]]
func.func @empty_batch(%dy: tensor<0x4x6x6xf32>, %w: tensor<4x3x3x3xf32>, %x: tensor<0x4xf32>) -> (tensor<0x3x8x8xf32>, tensor<0x4xf32>) {
  %dx = ms.conv2d_backprop_input %dy, %w shape [0, 3, 8, 8] pad_mode "valid" : tensor<0x4x6x6xf32>, tensor<4x3x3x3xf32>
  %r = ms.relu %x : tensor<0x4xf32>
  return %dx, %r : tensor<0x3x8x8xf32>, tensor<0x4xf32>
}

// Bools are stored as i8: so is an empty one.
// CHECK-LABEL: func.func @empty_bool(
// CHECK: tensor.empty() : tensor<0xi8>
func.func @empty_bool(%a: tensor<0xf32>, %b: tensor<0xf32>) -> tensor<0xi1> {
  %c = ms.greater %a, %b : tensor<0xf32>, tensor<0xf32>
  return %c : tensor<0xi1>
}

// A reduction of an empty tensor to a non-empty one still computes.
// CHECK-LABEL: func.func @sum_of_empty(
// CHECK: linalg
func.func @sum_of_empty(%x: tensor<0x4xf32>) -> tensor<4xf32> {
  %s = ms.reduce_sum %x axes [0] : tensor<0x4xf32>
  return %s : tensor<4xf32>
}
