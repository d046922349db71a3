// Folds and canonicalizations of the ms dialect.
// RUN: ms-opt %s -canonicalize | FileCheck %s

// CHECK-LABEL: func @flatten_of_flatten
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[F:.*]] = ms.flatten %[[X]] : tensor<2x3x4xf32>
// CHECK-NEXT: return %[[F]]
func.func @flatten_of_flatten(%x: tensor<2x3x4xf32>) -> tensor<2x12xf32> {
  %0 = ms.flatten %x : tensor<2x3x4xf32>
  %1 = ms.flatten %0 : tensor<2x12xf32>
  return %1 : tensor<2x12xf32>
}

// CHECK-LABEL: func @reshape_chain
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[R:.*]] = ms.reshape %[[X]] to [4, 6] : tensor<2x3x4xf32>
// CHECK-NEXT: return %[[R]]
func.func @reshape_chain(%x: tensor<2x3x4xf32>) -> tensor<4x6xf32> {
  %0 = ms.reshape %x to [6, 4] : tensor<2x3x4xf32>
  %1 = ms.reshape %0 to [24] : tensor<6x4xf32>
  %2 = ms.reshape %1 to [4, -1] : tensor<24xf32>
  return %2 : tensor<4x6xf32>
}

// CHECK-LABEL: func @reshape_of_flatten
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[R:.*]] = ms.reshape %[[X]] to [24] : tensor<2x3x4xf32>
// CHECK-NEXT: return %[[R]]
func.func @reshape_of_flatten(%x: tensor<2x3x4xf32>) -> tensor<24xf32> {
  %0 = ms.flatten %x : tensor<2x3x4xf32>
  %1 = ms.reshape %0 to [24] : tensor<2x12xf32>
  return %1 : tensor<24xf32>
}

// CHECK-LABEL: func @reshape_identity
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: return %[[X]]
func.func @reshape_identity(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = ms.reshape %x to [2, 3] : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func @relu_of_relu
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[R:.*]] = ms.relu %[[X]] : tensor<4xf32>
// CHECK-NEXT: return %[[R]]
func.func @relu_of_relu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ms.relu %x : tensor<4xf32>
  %1 = ms.relu %0 : tensor<4xf32>
  %2 = ms.relu %1 : tensor<4xf32>
  return %2 : tensor<4xf32>
}

// CHECK-LABEL: func @neg_of_neg
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[X]]
func.func @neg_of_neg(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ms.neg %x : tensor<4xf32>
  %1 = ms.neg %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// CHECK-LABEL: func @abs_of_abs
// CHECK-NEXT: %[[A:.*]] = ms.abs
// CHECK-NEXT: return %[[A]]
func.func @abs_of_abs(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ms.abs %x : tensor<4xf32>
  %1 = ms.abs %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// CHECK-LABEL: func @transpose_of_transpose
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[T:.*]] = ms.transpose %[[X]] perm [2, 1, 0] : tensor<2x3x4xf32>
// CHECK-NEXT: return %[[T]]
func.func @transpose_of_transpose(%x: tensor<2x3x4xf32>) -> tensor<4x3x2xf32> {
  %0 = ms.transpose %x perm [1, 2, 0] : tensor<2x3x4xf32>
  %1 = ms.transpose %0 perm [1, 0, 2] : tensor<3x4x2xf32>
  return %1 : tensor<4x3x2xf32>
}

// CHECK-LABEL: func @transpose_roundtrip
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: return %[[X]]
func.func @transpose_roundtrip(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = ms.transpose %x perm [1, 0] : tensor<2x3xf32>
  %1 = ms.transpose %0 perm [1, 0] : tensor<3x2xf32>
  return %1 : tensor<2x3xf32>
}

// CHECK-LABEL: func @dropout_inference
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[X]]
func.func @dropout_inference(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ms.dropout %x {p = 0.5 : f32} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @dropout_training_stays
// CHECK: ms.dropout
func.func @dropout_training_stays(%x: tensor<4xf32>, %s: tensor<2xi64>) -> tensor<4xf32> {
  %0 = ms.dropout %x, %s {training} : tensor<4xf32>, tensor<2xi64>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @concat_single
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[X]]
func.func @concat_single(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ms.concat %x axis 0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Relu after a different op is kept.
// CHECK-LABEL: func @relu_kept
// CHECK: ms.neg
// CHECK: ms.relu
func.func @relu_kept(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ms.neg %x : tensor<4xf32>
  %1 = ms.relu %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}
