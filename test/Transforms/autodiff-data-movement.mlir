// ms-autodiff of the indexing ops and of conv2d_backprop_input used as a
// layer (nn.Conv2dTranspose).
// RUN: ms-opt %s -split-input-file --ms-autodiff | FileCheck %s

// gather on axis 1: dy's index dims move to the front, one_hot^T @ dy sums
// the picks of each row in order, and the sum moves back to axis 1.
// CHECK-LABEL: func.func @construct_grad(
// CHECK-SAME: %[[X:.*]]: tensor<3x4x5xf32>, %[[I:.*]]: tensor<2x2xi64>, %[[S:.*]]: tensor<3x2x2x5xf32>)
// CHECK: %[[T:.*]] = ms.transpose %[[S]] perm [1, 2, 0, 3] : tensor<3x2x2x5xf32>
// CHECK: %[[FLAT:.*]] = ms.reshape %[[I]] to [4] : tensor<2x2xi64>
// CHECK: %[[HOT:.*]] = ms.one_hot %[[FLAT]] depth 4 : tensor<4xi64>
// CHECK: %[[DY:.*]] = ms.reshape %[[T]] to [4, 15] : tensor<2x2x3x5xf32>
// CHECK: %[[SUM:.*]] = ms.matmul %[[HOT]], %[[DY]] transpose_a : tensor<4x4xf32>, tensor<4x15xf32>
// CHECK: %[[R:.*]] = ms.reshape %[[SUM]] to [4, 3, 5] : tensor<4x15xf32>
// CHECK: %[[DX:.*]] = ms.transpose %[[R]] perm [1, 0, 2] : tensor<4x3x5xf32>
// CHECK: return %{{.*}}, %[[DX]] : tensor<3x2x2x5xf32>, tensor<3x4x5xf32>
func.func @construct(%x: tensor<3x4x5xf32>, %i: tensor<2x2xi64>) -> tensor<3x2x2x5xf32> {
  %0 = ms.gather %x, %i axis 1 : tensor<3x4x5xf32>, tensor<2x2xi64>
  return %0 : tensor<3x2x2x5xf32>
}

// -----

// gather of f64: one_hot is f32, so it is cast to dy's type (0 and 1 are
// exact) before the matmul.
// CHECK-LABEL: func.func @construct_grad(
// CHECK-SAME: %[[X:.*]]: tensor<5x4xf64>, %[[I:.*]]: tensor<3xi32>, %[[S:.*]]: tensor<3x4xf64>)
// CHECK: %[[HOT:.*]] = ms.one_hot %[[I]] depth 5 : tensor<3xi32>
// CHECK: %[[HOT64:.*]] = ms.cast %[[HOT]] to f64 : tensor<3x5xf32>
// CHECK: %[[DX:.*]] = ms.matmul %[[HOT64]], %[[S]] transpose_a : tensor<3x5xf64>, tensor<3x4xf64>
// CHECK: return %{{.*}}, %[[DX]]
func.func @construct(%x: tensor<5x4xf64>, %i: tensor<3xi32>) -> tensor<3x4xf64> {
  %0 = ms.gather %x, %i axis 0 : tensor<5x4xf64>, tensor<3xi32>
  return %0 : tensor<3x4xf64>
}

// -----

// slice_update: the input's cotangent is dy with the slice zeroed, the
// update's is the slice of dy.
// CHECK-LABEL: func.func @construct_grad(
// CHECK-SAME: %[[S:[^:]*]]: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x4xf32>)
// CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<4x4xf32>
// CHECK: %[[DX:.*]] = ms.slice_update %[[S]], %[[Z]] begin [0, 1] end [4, 8] strides [1, 2]
// CHECK: %[[DU:.*]] = ms.slice %[[S]] begin [0, 1] end [4, 8] strides [1, 2]
// CHECK: return %{{.*}}, %[[DX]], %[[DU]]
func.func @construct(%x: tensor<4x8xf32>, %u: tensor<4x4xf32>) -> tensor<4x8xf32> {
  %0 = ms.slice_update %x, %u begin [0, 1] end [4, 8] strides [1, 2] : tensor<4x8xf32>, tensor<4x4xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// scatter_update: the input's cotangent is dy with the written rows
// zeroed, the updates' is gather(dy, indices); the indices get none.
// CHECK-LABEL: func.func @construct_grad(
// CHECK-SAME: %[[I:[^:]*]]: tensor<3xi64>, %{{[^:]*}}: tensor<3x4xf32>, %[[S:[^:]*]]: tensor<10x4xf32>) -> (tensor<10x4xf32>, tensor<10x4xf32>, tensor<3x4xf32>)
// CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<3x4xf32>
// CHECK: %[[DX:.*]] = ms.scatter_update %[[S]], %[[I]], %[[Z]]
// CHECK: %[[DU:.*]] = ms.gather %[[S]], %[[I]] axis 0
// CHECK: return %{{.*}}, %[[DX]], %[[DU]]
func.func @construct(%x: tensor<10x4xf32>, %i: tensor<3xi64>, %u: tensor<3x4xf32>) -> tensor<10x4xf32> {
  %0 = ms.scatter_update %x, %i, %u : tensor<10x4xf32>, tensor<3xi64>, tensor<3x4xf32>
  return %0 : tensor<10x4xf32>
}

// -----

// conv2d_backprop_input as a layer: dx is the conv2d of dy with the same
// geometry, dw the filter gradient against x.
// CHECK-LABEL: func.func @construct_grad(
// CHECK-SAME: %[[X:[^:]*]]: tensor<1x6x5x5xf32>, %[[W:[^:]*]]: tensor<6x2x3x3xf32>, %[[S:[^:]*]]: tensor<1x4x9x9xf32>)
// CHECK: %[[DX:.*]] = ms.conv2d %[[S]], %[[W]] pad_mode "pad" padding [1, 1, 1, 1] stride [2, 2] group 2 : tensor<1x4x9x9xf32>, tensor<6x2x3x3xf32>
// CHECK: %[[DW:.*]] = ms.conv2d_backprop_filter %[[X]], %[[S]] shape [6, 2, 3, 3] pad_mode "pad" padding [1, 1, 1, 1] stride [2, 2] group 2 : tensor<1x6x5x5xf32>, tensor<1x4x9x9xf32>
// CHECK: return %{{.*}}, %[[DX]], %[[DW]]
func.func @construct(%x: tensor<1x6x5x5xf32>, %w: tensor<6x2x3x3xf32>) -> tensor<1x4x9x9xf32> {
  %0 = ms.conv2d_backprop_input %x, %w shape [1, 4, 9, 9] pad_mode "pad" padding [1, 1, 1, 1] stride [2, 2] group 2 : tensor<1x6x5x5xf32>, tensor<6x2x3x3xf32>
  return %0 : tensor<1x4x9x9xf32>
}
