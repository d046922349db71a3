// ms-autodiff saved-forward (what PyNative runs): the forward values the
// backward reads, and the results, are arguments tagged with their
// (op, result) position in @construct; no forward op is left, except
// constants, which cost less to materialize than to pass.
// RUN: ms-opt %s -split-input-file --ms-autodiff='wrt=1,2 saved-forward' | FileCheck %s
// RUN: ms-opt %s -split-input-file --ms-autodiff='wrt=1,2' | FileCheck %s --check-prefix=RECOMPUTE

// CHECK-LABEL: func.func @construct_grad(
// CHECK-SAME: %[[X:[^:]*]]: tensor<4x8xf32>, %[[W:[^:]*]]: tensor<3x8xf32> {ms.param = "fc.weight"}, %[[B:[^:]*]]: tensor<3xf32> {ms.param = "fc.bias"},
// CHECK-SAME: %[[R:[^:]*]]: tensor<4x3xf32> {ms.saved = array<i64: 1, 0>}, %[[L:[^:]*]]: tensor<f32> {ms.saved = array<i64: 4, 0>}, %[[S:[^:]*]]: tensor<f32>)
// CHECK-SAME: -> (tensor<f32>, tensor<3x8xf32>, tensor<3xf32>)
// CHECK-NOT: ms.dense
// CHECK-NOT: ms.relu %
// CHECK: %[[C:.*]] = arith.constant dense<2.000000e+00> : tensor<4x3xf32>
// CHECK: ms.mul %{{.*}}, %[[C]]
// CHECK: %[[DY:.*]] = ms.relu_grad %{{.*}}, %[[R]]
// CHECK: %[[DW:.*]] = ms.matmul %[[DY]], %[[X]] transpose_a
// CHECK: %[[DB:.*]] = ms.reduce_sum %[[DY]] axes [0]
// CHECK: return %[[L]], %[[DW]], %[[DB]]

// Without the option the forward ops stay in the gradient function.
// RECOMPUTE-LABEL: func.func @construct_grad(
// RECOMPUTE-NOT: ms.saved
// RECOMPUTE: ms.dense
// RECOMPUTE: ms.relu %
func.func @construct(%x: tensor<4x8xf32>, %w: tensor<3x8xf32> {ms.param = "fc.weight"}, %b: tensor<3xf32> {ms.param = "fc.bias"}) -> tensor<f32> {
  %0 = ms.dense %x, %w, %b : tensor<4x8xf32>, tensor<3x8xf32>, tensor<3xf32>
  %1 = ms.relu %0 : tensor<4x3xf32>
  %c = arith.constant dense<2.0> : tensor<4x3xf32>
  %2 = ms.mul %1, %c : tensor<4x3xf32>, tensor<4x3xf32>
  %3 = ms.reduce_sum %2 axes [0, 1] : tensor<4x3xf32>
  return %3 : tensor<f32>
}

// -----

// Only values the backward reads are passed: neg's result feeds exp alone
// (neg's rule does not read it); exp's result is read by exp's rule and
// returned, and is one argument.
// CHECK-LABEL: func.func @construct_grad(
// CHECK-SAME: %{{[^:]*}}: tensor<4xf32>, %{{[^:]*}}: tensor<4xf32>, %{{[^:]*}}: tensor<4xf32>, %[[Y:[^:]*]]: tensor<4xf32> {ms.saved = array<i64: 1, 0>}, %[[S:[^:]*]]: tensor<4xf32>)
// CHECK-NOT: ms.exp
// CHECK: %[[D:.*]] = ms.mul %[[S]], %[[Y]]
// CHECK: %[[DX:.*]] = ms.neg %[[D]]
// CHECK: return %[[Y]], %[[DX]]
func.func @construct(%w: tensor<4xf32>, %x: tensor<4xf32>, %v: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ms.neg %x : tensor<4xf32>
  %1 = ms.exp %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}
