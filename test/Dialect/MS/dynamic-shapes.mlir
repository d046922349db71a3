// The shape rules with a ? (dynamic) batch dim: results keep the ?, the
// known dims are inferred and checked as usual; custom and generic forms
// round-trip.
// RUN: ms-opt %s | FileCheck %s
// RUN: ms-opt %s --mlir-print-op-generic | ms-opt | FileCheck %s

// CHECK-LABEL: func.func @lenet_like
func.func @lenet_like(%x: tensor<?x1x32x32xf32>, %c: tensor<6x1x5x5xf32>,
                      %w: tensor<10x1176xf32>, %b: tensor<10xf32>)
    -> tensor<?xi64> {
  // CHECK: ms.conv2d %{{.*}} : tensor<?x1x32x32xf32>, tensor<6x1x5x5xf32>
  %0 = ms.conv2d %x, %c pad_mode "valid" : tensor<?x1x32x32xf32>, tensor<6x1x5x5xf32>
  // CHECK: ms.relu %{{.*}} : tensor<?x6x28x28xf32>
  %1 = ms.relu %0 : tensor<?x6x28x28xf32>
  // CHECK: ms.max_pool2d %{{.*}} : tensor<?x6x28x28xf32>
  %2 = ms.max_pool2d %1 kernel_size [2, 2] stride [2, 2] : tensor<?x6x28x28xf32>
  // CHECK: ms.flatten %{{.*}} : tensor<?x6x14x14xf32>
  %3 = ms.flatten %2 : tensor<?x6x14x14xf32>
  // CHECK: ms.dense %{{.*}} : tensor<?x1176xf32>, tensor<10x1176xf32>, tensor<10xf32>
  %4 = ms.dense %3, %w, %b : tensor<?x1176xf32>, tensor<10x1176xf32>, tensor<10xf32>
  // CHECK: ms.log_softmax %{{.*}} axis -1 : tensor<?x10xf32>
  %5 = ms.log_softmax %4 axis -1 : tensor<?x10xf32>
  // CHECK: %[[I:.*]] = ms.argmax %{{.*}} axis 1 output_type i64 : tensor<?x10xf32>
  %6 = ms.argmax %5 axis 1 output_type i64 : tensor<?x10xf32>
  // CHECK: return %[[I]] : tensor<?xi64>
  return %6 : tensor<?xi64>
}

// CHECK-LABEL: func.func @shapes
func.func @shapes(%x: tensor<?x4x5xf32>, %y: tensor<5xf32>, %z: tensor<1x4x5xf32>,
                  %m: tensor<5x3xf32>)
    -> (tensor<?x4x5xf32>, tensor<?x4x5xf32>, tensor<?x20xf32>, tensor<?x5x4xf32>,
        tensor<?x4xf32>, tensor<?x4x3xf32>, tensor<?x8x5xf32>) {
  // Broadcasting against a known trailing shape and against 1 keeps the ?.
  %0 = "ms.add"(%x, %y) : (tensor<?x4x5xf32>, tensor<5xf32>) -> tensor<?x4x5xf32>
  %1 = "ms.mul"(%x, %z) : (tensor<?x4x5xf32>, tensor<1x4x5xf32>) -> tensor<?x4x5xf32>
  // A -1 reshape of a ? input is ?.
  %2 = "ms.reshape"(%x) {shape = array<i64: -1, 20>} : (tensor<?x4x5xf32>) -> tensor<?x20xf32>
  %3 = "ms.transpose"(%x) {perm = array<i64: 0, 2, 1>} : (tensor<?x4x5xf32>) -> tensor<?x5x4xf32>
  %4 = "ms.reduce_sum"(%x) {axes = array<i64: 2>} : (tensor<?x4x5xf32>) -> tensor<?x4xf32>
  %5 = "ms.matmul"(%x, %m) : (tensor<?x4x5xf32>, tensor<5x3xf32>) -> tensor<?x4x3xf32>
  %6 = "ms.concat"(%x, %x) {axis = 1 : i64} : (tensor<?x4x5xf32>, tensor<?x4x5xf32>) -> tensor<?x8x5xf32>
  // CHECK: ms.add %{{.*}} : tensor<?x4x5xf32>, tensor<5xf32>
  // CHECK: ms.mul %{{.*}} : tensor<?x4x5xf32>, tensor<1x4x5xf32>
  // CHECK: ms.reshape %{{.*}} to [-1, 20] : tensor<?x4x5xf32>
  // CHECK: ms.transpose %{{.*}} perm [0, 2, 1] : tensor<?x4x5xf32>
  // CHECK: ms.reduce_sum %{{.*}} axes [2] : tensor<?x4x5xf32>
  // CHECK: ms.matmul %{{.*}} : tensor<?x4x5xf32>, tensor<5x3xf32>
  // CHECK: ms.concat %{{.*}} axis 1 : tensor<?x4x5xf32>, tensor<?x4x5xf32>
  // CHECK: return {{.*}} : tensor<?x4x5xf32>, tensor<?x4x5xf32>, tensor<?x20xf32>, tensor<?x5x4xf32>, tensor<?x4xf32>, tensor<?x4x3xf32>, tensor<?x8x5xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<?x4x5xf32>, tensor<?x4x5xf32>, tensor<?x20xf32>, tensor<?x5x4xf32>, tensor<?x4xf32>, tensor<?x4x3xf32>, tensor<?x8x5xf32>
}
