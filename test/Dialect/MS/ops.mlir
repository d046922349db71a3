// Round trip of every ms op in its custom form: print, parse again, print
// again, and check the two prints agree.
// RUN: ms-opt %s | ms-opt | FileCheck %s
// RUN: ms-opt %s --mlir-print-op-generic | ms-opt | FileCheck %s

// CHECK-LABEL: func @linear
func.func @linear(%x: tensor<64x784xf32>, %w: tensor<512x784xf32>,
                  %b: tensor<512xf32>, %x3: tensor<2x3x784xf32>)
    -> (tensor<64x512xf32>, tensor<64x512xf32>, tensor<2x3x512xf32>) {
  // CHECK: ms.dense %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x784xf32>, tensor<512x784xf32>, tensor<512xf32>
  %0 = ms.dense %x, %w, %b : tensor<64x784xf32>, tensor<512x784xf32>, tensor<512xf32>
  // CHECK: ms.dense %{{.*}}, %{{.*}} : tensor<64x784xf32>, tensor<512x784xf32>{{$}}
  %1 = ms.dense %x, %w : tensor<64x784xf32>, tensor<512x784xf32>
  // CHECK: ms.dense {{.*}} : tensor<2x3x784xf32>, tensor<512x784xf32>, tensor<512xf32>
  %2 = ms.dense %x3, %w, %b : tensor<2x3x784xf32>, tensor<512x784xf32>, tensor<512xf32>
  return %0, %1, %2 : tensor<64x512xf32>, tensor<64x512xf32>, tensor<2x3x512xf32>
}

// CHECK-LABEL: func @matmul
func.func @matmul(%a: tensor<4x3xf32>, %b: tensor<3x5xf32>, %bt: tensor<5x3xf32>,
                  %at: tensor<3x4xf32>, %p: tensor<8x4x3xf32>, %q: tensor<2x1x3x5xf32>)
    -> (tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<2x8x4x5xf32>) {
  // CHECK: ms.matmul %{{.*}}, %{{.*}} : tensor<4x3xf32>, tensor<3x5xf32>
  %0 = ms.matmul %a, %b : tensor<4x3xf32>, tensor<3x5xf32>
  // CHECK: ms.matmul %{{.*}}, %{{.*}} transpose_b : tensor<4x3xf32>, tensor<5x3xf32>
  %1 = ms.matmul %a, %bt transpose_b : tensor<4x3xf32>, tensor<5x3xf32>
  // CHECK: ms.matmul %{{.*}}, %{{.*}} transpose_a : tensor<3x4xf32>, tensor<3x5xf32>
  %2 = ms.matmul %at, %b transpose_a : tensor<3x4xf32>, tensor<3x5xf32>
  // CHECK: ms.matmul %{{.*}}, %{{.*}} transpose_a transpose_b : tensor<3x4xf32>, tensor<5x3xf32>
  %3 = ms.matmul %at, %bt transpose_a transpose_b : tensor<3x4xf32>, tensor<5x3xf32>
  // CHECK: ms.matmul %{{.*}}, %{{.*}} : tensor<8x4x3xf32>, tensor<2x1x3x5xf32>
  %4 = ms.matmul %p, %q : tensor<8x4x3xf32>, tensor<2x1x3x5xf32>
  return %0, %1, %2, %3, %4 : tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<2x8x4x5xf32>
}

// CHECK-LABEL: func @conv
func.func @conv(%x: tensor<1x4x8x8xf32>, %w: tensor<6x2x3x3xf32>, %b: tensor<6xf32>, %w1: tensor<6x4x3x3xf32>) {
  // CHECK: ms.conv2d %{{.*}}, %{{.*}} : tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>{{$}}
  %0 = ms.conv2d %x, %w1 : tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>
  // CHECK: ms.conv2d %{{.*}}, %{{.*}}, %{{.*}} pad_mode "pad" padding [1, 1, 2, 2] stride [2, 2] dilation [1, 2] group 2 : tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>
  %1 = ms.conv2d %x, %w, %b pad_mode "pad" padding [1, 1, 2, 2] stride [2, 2] dilation [1, 2] group 2 : tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>
  // CHECK: ms.conv2d %{{.*}}, %{{.*}} pad_mode "valid" : tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>
  %2 = ms.conv2d %x, %w1 pad_mode "valid" : tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>
  return
}

// CHECK-LABEL: func @pool
func.func @pool(%x: tensor<1x6x28x28xf32>) {
  // CHECK: ms.max_pool2d %{{.*}} kernel_size [2, 2] stride [2, 2] : tensor<1x6x28x28xf32>
  %0 = ms.max_pool2d %x kernel_size [2, 2] stride [2, 2] : tensor<1x6x28x28xf32>
  // CHECK: ms.avg_pool2d %{{.*}} kernel_size [3, 3] pad_mode "same" : tensor<1x6x28x28xf32>
  %1 = ms.avg_pool2d %x kernel_size [3, 3] pad_mode "same" : tensor<1x6x28x28xf32>
  // CHECK: ms.max_pool2d %{{.*}} : tensor<1x6x28x28xf32>
  %2 = ms.max_pool2d %x : tensor<1x6x28x28xf32>
  return
}

// CHECK-LABEL: func @batch_norm
func.func @batch_norm(%x: tensor<8x6x4x4xf32>, %p: tensor<6xf32>) {
  // CHECK: ms.batch_norm %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<8x6x4x4xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>
  %0 = ms.batch_norm %x, %p, %p, %p, %p : tensor<8x6x4x4xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>
  // CHECK: ms.batch_norm {{.*}} epsilon 1.000000e-03 :
  %1 = ms.batch_norm %x, %p, %p, %p, %p epsilon 1.000000e-03 : tensor<8x6x4x4xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>
  return
}

// CHECK-LABEL: func @layer_norm
func.func @layer_norm(%x: tensor<8x16x32xf32>, %p: tensor<16x32xf32>, %q: tensor<32xf32>) {
  // CHECK: ms.layer_norm %{{.*}}, %{{.*}}, %{{.*}} : tensor<8x16x32xf32>, tensor<32xf32>, tensor<32xf32>
  %0 = ms.layer_norm %x, %q, %q : tensor<8x16x32xf32>, tensor<32xf32>, tensor<32xf32>
  // CHECK: ms.layer_norm {{.*}} begin_norm_axis 1 begin_params_axis 1 epsilon 1.000000e-03 :
  %1 = ms.layer_norm %x, %p, %p begin_norm_axis 1 begin_params_axis 1 epsilon 1.000000e-03 : tensor<8x16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>
  // CHECK: ms.layer_norm {{.*}} begin_norm_axis -2 :
  %2 = ms.layer_norm %x, %q, %q begin_norm_axis -2 : tensor<8x16x32xf32>, tensor<32xf32>, tensor<32xf32>
  return
}

// CHECK-LABEL: func @binary
func.func @binary(%x: tensor<4x10xf32>, %y: tensor<10xf32>, %z: tensor<4x1xf32>) {
  // CHECK: ms.add %{{.*}}, %{{.*}} : tensor<4x10xf32>, tensor<10xf32>
  %0 = ms.add %x, %y : tensor<4x10xf32>, tensor<10xf32>
  // CHECK: ms.sub %{{.*}}, %{{.*}} : tensor<10xf32>, tensor<4x10xf32>
  %1 = ms.sub %y, %x : tensor<10xf32>, tensor<4x10xf32>
  // CHECK: ms.mul %{{.*}}, %{{.*}} : tensor<4x1xf32>, tensor<10xf32>
  %2 = ms.mul %z, %y : tensor<4x1xf32>, tensor<10xf32>
  // CHECK: ms.div %{{.*}}, %{{.*}} : tensor<4x10xf32>, tensor<4x1xf32>
  %3 = ms.div %x, %z : tensor<4x10xf32>, tensor<4x1xf32>
  // CHECK: ms.maximum %{{.*}}, %{{.*}} : tensor<4x10xf32>, tensor<4x10xf32>
  %4 = ms.maximum %x, %x : tensor<4x10xf32>, tensor<4x10xf32>
  // CHECK: ms.minimum %{{.*}}, %{{.*}} : tensor<4x10xf32>, tensor<10xf32>
  %5 = ms.minimum %x, %y : tensor<4x10xf32>, tensor<10xf32>
  return
}

// CHECK-LABEL: func @unary
func.func @unary(%x: tensor<4x10xf32>) {
  // CHECK: ms.relu %{{.*}} : tensor<4x10xf32>
  %0 = ms.relu %x : tensor<4x10xf32>
  // CHECK: ms.sigmoid %{{.*}} : tensor<4x10xf32>
  %1 = ms.sigmoid %x : tensor<4x10xf32>
  // CHECK: ms.tanh %{{.*}} : tensor<4x10xf32>
  %2 = ms.tanh %x : tensor<4x10xf32>
  // CHECK: ms.gelu %{{.*}} : tensor<4x10xf32>
  %3 = ms.gelu %x : tensor<4x10xf32>
  // CHECK: ms.gelu %{{.*}} {approximate = false} : tensor<4x10xf32>
  %4 = ms.gelu %x {approximate = false} : tensor<4x10xf32>
  // CHECK: ms.exp %{{.*}} : tensor<4x10xf32>
  %5 = ms.exp %x : tensor<4x10xf32>
  // CHECK: ms.log %{{.*}} : tensor<4x10xf32>
  %6 = ms.log %x : tensor<4x10xf32>
  // CHECK: ms.sqrt %{{.*}} : tensor<4x10xf32>
  %7 = ms.sqrt %x : tensor<4x10xf32>
  // CHECK: ms.neg %{{.*}} : tensor<4x10xf32>
  %8 = ms.neg %x : tensor<4x10xf32>
  // CHECK: ms.abs %{{.*}} : tensor<4x10xf32>
  %9 = ms.abs %x : tensor<4x10xf32>
  // CHECK: ms.dropout %{{.*}} {p = 2.500000e-01 : f32} : tensor<4x10xf32>
  %10 = ms.dropout %x {p = 0.25 : f32} : tensor<4x10xf32>
  // CHECK: ms.floor %{{.*}} : tensor<4x10xf32>
  %11 = ms.floor %x : tensor<4x10xf32>
  return
}

// CHECK-LABEL: func @dropout_training
func.func @dropout_training(%x: tensor<4x10xf32>, %s: tensor<2xi64>) {
  // CHECK: ms.dropout %{{.*}}, %{{.*}} {training} : tensor<4x10xf32>, tensor<2xi64>
  %0 = ms.dropout %x, %s {training} : tensor<4x10xf32>, tensor<2xi64>
  return
}

// CHECK-LABEL: func @shapes
func.func @shapes(%x: tensor<64x1x28x28xf32>, %a: tensor<4x3xf32>, %b: tensor<4x5xf32>) {
  // CHECK: ms.flatten %{{.*}} : tensor<64x1x28x28xf32>
  %0 = ms.flatten %x : tensor<64x1x28x28xf32>
  // CHECK: ms.reshape %{{.*}} to [64, -1] : tensor<64x1x28x28xf32>
  %1 = ms.reshape %x to [64, -1] : tensor<64x1x28x28xf32>
  // CHECK: ms.transpose %{{.*}} perm [1, 0] : tensor<4x3xf32>
  %2 = ms.transpose %a perm [1, 0] : tensor<4x3xf32>
  // CHECK: ms.concat %{{.*}}, %{{.*}} axis 1 : tensor<4x3xf32>, tensor<4x5xf32>
  %3 = ms.concat %a, %b axis 1 : tensor<4x3xf32>, tensor<4x5xf32>
  // CHECK: ms.concat %{{.*}}, %{{.*}} axis -2 : tensor<4x3xf32>, tensor<4x3xf32>
  %4 = ms.concat %a, %a axis -2 : tensor<4x3xf32>, tensor<4x3xf32>
  return
}

// CHECK-LABEL: func @reductions
func.func @reductions(%x: tensor<4x10xf32>) {
  // CHECK: ms.softmax %{{.*}} axis -1 : tensor<4x10xf32>
  %0 = ms.softmax %x axis -1 : tensor<4x10xf32>
  // CHECK: ms.log_softmax %{{.*}} axis 0 : tensor<4x10xf32>
  %1 = ms.log_softmax %x axis 0 : tensor<4x10xf32>
  // CHECK: ms.reduce_sum %{{.*}} axes [1] : tensor<4x10xf32>
  %2 = ms.reduce_sum %x axes [1] : tensor<4x10xf32>
  // CHECK: ms.reduce_mean %{{.*}} axes [0, 1] keep_dims : tensor<4x10xf32>
  %3 = ms.reduce_mean %x axes [0, 1] keep_dims : tensor<4x10xf32>
  // CHECK: ms.reduce_max %{{.*}} axes [] : tensor<4x10xf32>
  %4 = ms.reduce_max %x axes [] : tensor<4x10xf32>
  return
}

// A stride past the image is fine in "same" mode: one output per dim.
// CHECK-LABEL: func @huge_stride
func.func @huge_stride(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>) -> tensor<1x6x1x1xf32> {
  // CHECK: ms.conv2d {{.*}} stride [9223372036854775807, 9223372036854775807]
  %0 = ms.conv2d %x, %w stride [9223372036854775807, 9223372036854775807] : tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>
  return %0 : tensor<1x6x1x1xf32>
}
