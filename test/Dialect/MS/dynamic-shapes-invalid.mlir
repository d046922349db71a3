// The dims a kernel needs at compile time may not be ?: a conv's and a
// pool's channels and spatial sizes, a batch_norm's channels, a
// layer_norm's normalized dims. Known dims are still checked against each
// other.
// RUN: ms-opt %s -split-input-file -verify-diagnostics

func.func @conv_channels(%x: tensor<4x?x8x8xf32>, %w: tensor<2x3x3x3xf32>) {
  // expected-error@+1 {{'ms.conv2d' op input [4, ?, 8, 8] has a dynamic (?) channel count at dim 1; only its other dims may be dynamic}}
  %0 = ms.conv2d %x, %w : tensor<4x?x8x8xf32>, tensor<2x3x3x3xf32>
  return
}

// -----

func.func @pool_spatial(%x: tensor<?x3x?x8xf32>) {
  // expected-error@+1 {{'ms.max_pool2d' op input [?, 3, ?, 8] has a dynamic (?) spatial size at dim 2; only its other dims may be dynamic}}
  %0 = ms.max_pool2d %x kernel_size [2, 2] stride [2, 2] : tensor<?x3x?x8xf32>
  return
}

// -----

func.func @batch_norm_channels(%x: tensor<2x?xf32>, %p: tensor<4xf32>) {
  // expected-error@+2 {{'ms.batch_norm' op input [2, ?] has a dynamic (?) channel count at dim 1}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = "ms.batch_norm"(%x, %p, %p, %p, %p) : (tensor<2x?xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x?xf32>
  return
}

// -----

func.func @layer_norm_dims(%x: tensor<2x?xf32>, %p: tensor<4xf32>) {
  // expected-error@+2 {{'ms.layer_norm' op input [2, ?] has a dynamic (?) normalized size at dim 1}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = "ms.layer_norm"(%x, %p, %p) : (tensor<2x?xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x?xf32>
  return
}

// -----

func.func @dense_known_dims(%x: tensor<?x5xf32>, %w: tensor<3x4xf32>) {
  // expected-error@+1 {{'ms.dense' op input feature size 5 (last dim of input [?, 5]) does not match weight in-dim 4}}
  %0 = ms.dense %x, %w : tensor<?x5xf32>, tensor<3x4xf32>
  return
}

// -----

func.func @dense_dynamic_weight(%x: tensor<?x4xf32>, %w: tensor<?x4xf32>) {
  // expected-error@+1 {{'ms.dense' op weight must have a static shape, got 'tensor<?x4xf32>'}}
  %0 = ms.dense %x, %w : tensor<?x4xf32>, tensor<?x4xf32>
  return
}

// -----

func.func @broadcast_known(%x: tensor<?x4xf32>, %y: tensor<3xf32>) {
  // expected-error@+1 {{'ms.add' op operands do not broadcast: lhs shape [?, 4] vs rhs shape [3]}}
  %0 = ms.add %x, %y : tensor<?x4xf32>, tensor<3xf32>
  return
}

// -----

func.func @reshape_ambiguous(%x: tensor<?x4xf32>) {
  // expected-error@+1 {{'ms.reshape' op cannot reshape [?, 4] to [-1, 0] (the -1 dim is ambiguous)}}
  %0 = ms.reshape %x to [-1, 0] : tensor<?x4xf32>
  return
}
