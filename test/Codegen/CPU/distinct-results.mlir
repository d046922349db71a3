// RUN: ms-opt %s --ms-distinct-results | FileCheck %s

// A value returned twice: the second occurrence is a copy, so that
// buffer-results-to-out-params gives each result its own buffer.
// CHECK-LABEL: func.func @twice(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>
// CHECK: %[[Y:.*]] = ms.relu %[[X]]
// CHECK: %[[C:.*]] = bufferization.alloc_tensor() copy(%[[Y]]) : tensor<4xf32>
// CHECK: return %[[Y]], %[[C]], %[[X]]
func.func @twice(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %y = ms.relu %x : tensor<4xf32>
  return %y, %y, %x : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// Three times, an argument included, and a ? dim: a copy for each repeat.
// CHECK-LABEL: func.func @thrice(
// CHECK-SAME: %[[A:.*]]: tensor<?x3xf32>
// CHECK: %[[C1:.*]] = bufferization.alloc_tensor() copy(%[[A]]) : tensor<?x3xf32>
// CHECK: %[[C2:.*]] = bufferization.alloc_tensor() copy(%[[A]]) : tensor<?x3xf32>
// CHECK: return %[[A]], %[[C1]], %[[C2]]
func.func @thrice(%a: tensor<?x3xf32>) -> (tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x3xf32>) {
  return %a, %a, %a : tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x3xf32>
}

// Distinct results, and private functions, stay as they are.
// CHECK-LABEL: func.func @distinct(
// CHECK-NOT: alloc_tensor
// CHECK: return
func.func @distinct(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %y = ms.relu %x : tensor<4xf32>
  return %x, %y : tensor<4xf32>, tensor<4xf32>
}
// CHECK-LABEL: func.func private @helper(
// CHECK-NOT: alloc_tensor
// CHECK: return
func.func private @helper(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  return %x, %x : tensor<4xf32>, tensor<4xf32>
}
