// ms-autodiff: the backward IR of dense, conv2d, softmax, max_pool2d,
// batch_norm and a broadcasting add; forward ops are kept and reused.
// RUN: ms-opt %s -split-input-file --ms-autodiff | FileCheck %s

// CHECK-LABEL: func.func @construct_grad(
// CHECK-SAME: %[[X:.*]]: tensor<4x8xf32>, %[[W:.*]]: tensor<3x8xf32> {ms.param = "fc.weight"}, %[[B:.*]]: tensor<3xf32> {ms.param = "fc.bias"}, %[[S:.*]]: tensor<4x3xf32>)
// CHECK-SAME: -> (tensor<4x3xf32>, tensor<4x8xf32>, tensor<3x8xf32>, tensor<3xf32>)
// CHECK: %[[Y:.*]] = ms.dense %[[X]], %[[W]], %[[B]]
// CHECK: %[[DX:.*]] = ms.matmul %[[S]], %[[W]] : tensor<4x3xf32>, tensor<3x8xf32>
// CHECK: %[[DW:.*]] = ms.matmul %[[S]], %[[X]] transpose_a : tensor<4x3xf32>, tensor<4x8xf32>
// CHECK: %[[DB:.*]] = ms.reduce_sum %[[S]] axes [0] : tensor<4x3xf32>
// CHECK: return %[[Y]], %[[DX]], %[[DW]], %[[DB]]
func.func @construct(%x: tensor<4x8xf32>, %w: tensor<3x8xf32> {ms.param = "fc.weight"}, %b: tensor<3xf32> {ms.param = "fc.bias"}) -> tensor<4x3xf32> {
  %0 = ms.dense %x, %w, %b : tensor<4x8xf32>, tensor<3x8xf32>, tensor<3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// CHECK-LABEL: func.func @construct_grad(
// CHECK-SAME: %[[X:.*]]: tensor<1x4x9x9xf32>, %[[W:.*]]: tensor<6x2x3x3xf32>, %[[B:.*]]: tensor<6xf32>, %[[S:.*]]: tensor<1x6x5x5xf32>)
// CHECK: %[[Y:.*]] = ms.conv2d %[[X]], %[[W]], %[[B]]
// CHECK: %[[DX:.*]] = ms.conv2d_backprop_input %[[S]], %[[W]] shape [1, 4, 9, 9] pad_mode "pad" padding [1, 1, 1, 1] stride [2, 2] group 2 : tensor<1x6x5x5xf32>, tensor<6x2x3x3xf32>
// CHECK: %[[DW:.*]] = ms.conv2d_backprop_filter %[[S]], %[[X]] shape [6, 2, 3, 3] pad_mode "pad" padding [1, 1, 1, 1] stride [2, 2] group 2 : tensor<1x6x5x5xf32>, tensor<1x4x9x9xf32>
// CHECK: %[[DB:.*]] = ms.reduce_sum %[[S]] axes [0, 2, 3] : tensor<1x6x5x5xf32>
// CHECK: return %[[Y]], %[[DX]], %[[DW]], %[[DB]]
func.func @construct(%x: tensor<1x4x9x9xf32>, %w: tensor<6x2x3x3xf32>, %b: tensor<6xf32>) -> tensor<1x6x5x5xf32> {
  %0 = ms.conv2d %x, %w, %b pad_mode "pad" padding [1, 1, 1, 1] stride [2, 2] group 2 : tensor<1x4x9x9xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>
  return %0 : tensor<1x6x5x5xf32>
}

// -----

// softmax: dx = y * (dy - sum(dy * y)), y the forward result.
// CHECK-LABEL: func.func @construct_grad(
// CHECK-SAME: %[[X:.*]]: tensor<4x10xf32>, %[[S:.*]]: tensor<4x10xf32>)
// CHECK: %[[Y:.*]] = ms.softmax %[[X]] axis -1
// CHECK: %[[P:.*]] = ms.mul %[[S]], %[[Y]]
// CHECK: %[[SUM:.*]] = ms.reduce_sum %[[P]] axes [1] keep_dims
// CHECK: %[[D:.*]] = ms.sub %[[S]], %[[SUM]] : tensor<4x10xf32>, tensor<4x1xf32>
// CHECK: %[[DX:.*]] = ms.mul %[[Y]], %[[D]]
// CHECK: return %[[Y]], %[[DX]]
func.func @construct(%x: tensor<4x10xf32>) -> tensor<4x10xf32> {
  %0 = ms.softmax %x axis -1 : tensor<4x10xf32>
  return %0 : tensor<4x10xf32>
}

// -----

// max_pool2d: the gradient is routed to each window's maximum by
// ms.max_pool2d_grad (ties: the first element in window order).
// CHECK-LABEL: func.func @construct_grad(
// CHECK-SAME: %[[X:.*]]: tensor<1x6x28x28xf32>, %[[S:.*]]: tensor<1x6x14x14xf32>)
// CHECK: %[[Y:.*]] = ms.max_pool2d %[[X]]
// CHECK: %[[DX:.*]] = ms.max_pool2d_grad %[[X]], %[[S]] kernel_size [2, 2] stride [2, 2] : tensor<1x6x28x28xf32>, tensor<1x6x14x14xf32>
// CHECK: return %[[Y]], %[[DX]]
func.func @construct(%x: tensor<1x6x28x28xf32>) -> tensor<1x6x14x14xf32> {
  %0 = ms.max_pool2d %x kernel_size [2, 2] stride [2, 2] : tensor<1x6x28x28xf32>
  return %0 : tensor<1x6x14x14xf32>
}

// -----

// batch_norm (inference): gradients of input, gamma and beta; the moving
// statistics are constants, so (asked for by the default wrt, every
// argument) they get zeros.
// CHECK-LABEL: func.func @construct_grad(
// CHECK-SAME: %[[X:[^:]*]]: tensor<2x3x4x4xf32>, %[[G:[^:]*]]: tensor<3xf32>, %[[BETA:[^:]*]]: tensor<3xf32>, %[[M:[^:]*]]: tensor<3xf32>, %[[V:[^:]*]]: tensor<3xf32>, %[[S:[^:]*]]: tensor<2x3x4x4xf32>)
// CHECK: %[[Y:.*]] = ms.batch_norm
// CHECK: %[[EPS:.*]] = arith.constant dense<9.99999974E-6> : tensor<f32>
// CHECK: %[[VE:.*]] = ms.add %[[V]], %[[EPS]]
// CHECK: %[[STD:.*]] = ms.sqrt %[[VE]]
// CHECK: %[[STDC:.*]] = ms.reshape %[[STD]] to [3, 1, 1]
// CHECK: %[[GC:.*]] = ms.reshape %[[G]] to [3, 1, 1]
// CHECK: %[[SG:.*]] = ms.mul %[[S]], %[[GC]]
// CHECK: %[[DX:.*]] = ms.div %[[SG]], %[[STDC]]
// CHECK: %[[MC:.*]] = ms.reshape %[[M]] to [3, 1, 1]
// CHECK: %[[XC:.*]] = ms.sub %[[X]], %[[MC]]
// CHECK: %[[XHAT:.*]] = ms.div %[[XC]], %[[STDC]]
// CHECK: %[[SX:.*]] = ms.mul %[[S]], %[[XHAT]]
// CHECK: %[[DG:.*]] = ms.reduce_sum %[[SX]] axes [0, 2, 3]
// CHECK: %[[DBETA:.*]] = ms.reduce_sum %[[S]] axes [0, 2, 3]
// CHECK: %[[ZM:.*]] = arith.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK: %[[ZV:.*]] = arith.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK: return %[[Y]], %[[DX]], %[[DG]], %[[DBETA]], %[[ZM]], %[[ZV]]
func.func @construct(%x: tensor<2x3x4x4xf32>, %g: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3x4x4xf32> {
  %0 = ms.batch_norm %x, %g, %b, %m, %v : tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
  return %0 : tensor<2x3x4x4xf32>
}

// -----

// A broadcasting add: each operand's cotangent is summed over the dims it
// was stretched along (keep_dims), then reshaped to the operand's shape.
// CHECK-LABEL: func.func @construct_grad(
// CHECK-SAME: %[[A:.*]]: tensor<4x1x5xf32>, %[[B:.*]]: tensor<3x1xf32>, %[[S:.*]]: tensor<4x3x5xf32>)
// CHECK: %[[Y:.*]] = ms.add %[[A]], %[[B]]
// CHECK: %[[SA:.*]] = ms.reduce_sum %[[S]] axes [1] keep_dims : tensor<4x3x5xf32>
// CHECK: %[[SB:.*]] = ms.reduce_sum %[[S]] axes [0, 2] keep_dims : tensor<4x3x5xf32>
// CHECK: %[[DB:.*]] = ms.reshape %[[SB]] to [3, 1] : tensor<1x3x1xf32>
// CHECK: return %[[Y]], %[[SA]], %[[DB]]
func.func @construct(%a: tensor<4x1x5xf32>, %b: tensor<3x1xf32>) -> tensor<4x3x5xf32> {
  %0 = ms.add %a, %b : tensor<4x1x5xf32>, tensor<3x1xf32>
  return %0 : tensor<4x3x5xf32>
}

// -----

// A value used twice sums its cotangents with ms.add; stop_gradient passes
// none; an argument nothing reaches gets zeros.
// CHECK-LABEL: func.func @construct_grad(
// CHECK-SAME: %[[X:[^:]*]]: tensor<3xf32>, %[[Z:[^:]*]]: tensor<3xf32>, %[[U:[^:]*]]: tensor<2xf32>, %[[S0:[^:]*]]: tensor<3xf32>, %[[S1:[^:]*]]: tensor<3xf32>)
// CHECK-SAME: -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2xf32>)
// CHECK: %[[SQ:.*]] = ms.mul %[[X]], %[[X]]
// CHECK: %[[SG:.*]] = ms.stop_gradient %[[Z]]
// CHECK: %[[P:.*]] = ms.mul %[[SQ]], %[[SG]]
// CHECK: %[[D1:.*]] = ms.mul %[[S0]], %[[SG]]
// CHECK: %[[D2:.*]] = ms.mul %[[D1]], %[[X]]
// CHECK: %[[D3:.*]] = ms.mul %[[D1]], %[[X]]
// CHECK: %[[D4:.*]] = ms.add %[[S1]], %[[D2]]
// CHECK: %[[DX:.*]] = ms.add %[[D4]], %[[D3]]
// CHECK: %[[DZ:.*]] = arith.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK: %[[DU:.*]] = arith.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK: return %[[P]], %[[X]], %[[DX]], %[[DZ]], %[[DU]]
func.func @construct(%x: tensor<3xf32>, %z: tensor<3xf32>, %u: tensor<2xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %0 = ms.mul %x, %x : tensor<3xf32>, tensor<3xf32>
  %1 = ms.stop_gradient %z : tensor<3xf32>
  %2 = ms.mul %0, %1 : tensor<3xf32>, tensor<3xf32>
  return %2, %x : tensor<3xf32>, tensor<3xf32>
}

// -----

// A conv2d of batch 0 has gradients too: an empty dx, and a dw of zeros
// (issue 55, item 5: the empty batch aborted the shape rule of dx).
// CHECK-LABEL: func.func @construct_grad(
// CHECK: ms.conv2d_backprop_input %{{.*}}, %{{.*}} shape [0, 3, 8, 8] pad_mode "valid" : tensor<0x4x6x6xf32>, tensor<4x3x3x3xf32>
// CHECK: ms.conv2d_backprop_filter %{{.*}}, %{{.*}} shape [4, 3, 3, 3] pad_mode "valid" : tensor<0x4x6x6xf32>, tensor<0x3x8x8xf32>
func.func @construct(%x: tensor<0x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<0x4x6x6xf32> {
  %y = ms.conv2d %x, %w pad_mode "valid" : tensor<0x3x8x8xf32>, tensor<4x3x3x3xf32>
  return %y : tensor<0x4x6x6xf32>
}

// -----

// floor is piecewise constant: its input gets zeros (MindSpore's Floor bprop).
// CHECK-LABEL: func.func @construct_grad(
// CHECK-SAME: %[[X:[^:]*]]: tensor<4xf32>, %{{[^:]*}}: tensor<4xf32>)
// CHECK: %[[Y:.*]] = ms.floor %[[X]] : tensor<4xf32>
// CHECK: %[[DX:.*]] = arith.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK: return %[[Y]], %[[DX]]
func.func @construct(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ms.floor %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
