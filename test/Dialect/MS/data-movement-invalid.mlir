// Every shape error of slice, broadcast_to, pad and gather.
// RUN: ms-opt %s -split-input-file -verify-diagnostics

func.func @slice_rank(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'ms.slice' op begin [0] has 1 entries but the input has rank 2}}
  %0 = ms.slice %x begin [0] end [4, 8] strides [1, 1] : tensor<4x8xf32>
  return
}

// -----

func.func @slice_bounds(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'ms.slice' op dim 1: begin 2 and end 9 must satisfy 0 <= begin <= end <= 8}}
  %0 = ms.slice %x begin [0, 2] end [4, 9] strides [1, 1] : tensor<4x8xf32>
  return
}

// -----

func.func @slice_stride(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'ms.slice' op dim 0: stride 0 must be at least 1}}
  %0 = ms.slice %x begin [0, 0] end [4, 8] strides [0, 1] : tensor<4x8xf32>
  return
}

// -----

func.func @broadcast_incompatible(%x: tensor<3xf32>) {
  // expected-error@+1 {{'ms.broadcast_to' op cannot broadcast [3] to [2, 4]}}
  %0 = ms.broadcast_to %x to [2, 4] : tensor<3xf32>
  return
}

// -----

func.func @broadcast_lower_rank(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'ms.broadcast_to' op cannot broadcast [2, 3] to [3]}}
  %0 = ms.broadcast_to %x to [3] : tensor<2x3xf32>
  return
}

// -----

func.func @broadcast_negative(%x: tensor<3xf32>) {
  // expected-error@+1 {{'ms.broadcast_to' op shape [-1, 3] has a negative dimension}}
  %0 = ms.broadcast_to %x to [-1, 3] : tensor<3xf32>
  return
}

// -----

func.func @broadcast_huge(%x: tensor<3xf32>) {
  // expected-error@+1 {{'ms.broadcast_to' op shape shape [4294967296, 4294967296, 3] has more elements than int64 can count}}
  %0 = ms.broadcast_to %x to [4294967296, 4294967296, 3] : tensor<3xf32>
  return
}

// -----

func.func @pad_rank(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'ms.pad' op high [1] has 1 entries but the input has rank 2}}
  %0 = ms.pad %x low [0, 0] high [1] : tensor<4x8xf32>
  return
}

// -----

func.func @pad_negative(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'ms.pad' op dim 1: padding -1 and 0 must not be negative}}
  %0 = ms.pad %x low [0, -1] high [0, 0] : tensor<4x8xf32>
  return
}

// -----

func.func @pad_overflow(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'ms.pad' op dim 0: padded size overflows int64}}
  %0 = ms.pad %x low [9223372036854775807, 0] high [0, 0] : tensor<4x8xf32>
  return
}

// -----

func.func @pad_result_too_large(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'ms.pad' op result shape [4611686018427387904, 4611686018427387904] has more elements than int64 can count}}
  %0 = ms.pad %x low [4611686018427387900, 4611686018427387896] high [0, 0] : tensor<4x8xf32>
  return
}

// -----

func.func @gather_axis(%x: tensor<4x8xf32>, %i: tensor<3xi32>) {
  // expected-error@+1 {{'ms.gather' op axis 2 is out of range for rank 2 (expected [-2, 2))}}
  %0 = ms.gather %x, %i axis 2 : tensor<4x8xf32>, tensor<3xi32>
  return
}

// -----

func.func @gather_scalar(%x: tensor<f32>, %i: tensor<3xi32>) {
  // expected-error@+1 {{'ms.gather' op input must have rank 1 or more}}
  %0 = ms.gather %x, %i axis 0 : tensor<f32>, tensor<3xi32>
  return
}

// -----

func.func @gather_float_indices(%x: tensor<4x8xf32>, %i: tensor<3xf32>) {
  // expected-error@+1 {{'ms.gather' op operand #1 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values}}
  %0 = "ms.gather"(%x, %i) {axis = 0 : i64} : (tensor<4x8xf32>, tensor<3xf32>) -> tensor<3x8xf32>
  return
}

// -----

func.func @slice_update_shape(%x: tensor<4x8xf32>, %u: tensor<4x3xf32>) {
  // expected-error@+1 {{'ms.slice_update' op update has shape [4, 3] but the slice has shape [4, 4]}}
  %0 = ms.slice_update %x, %u begin [0, 1] end [4, 8] strides [1, 2] : tensor<4x8xf32>, tensor<4x3xf32>
  return
}

// -----

func.func @slice_update_bounds(%x: tensor<4x8xf32>, %u: tensor<4x3xf32>) {
  // expected-error@+1 {{'ms.slice_update' op dim 1: begin 2 and end 9 must satisfy 0 <= begin <= end <= 8}}
  %0 = ms.slice_update %x, %u begin [0, 2] end [4, 9] strides [1, 3] : tensor<4x8xf32>, tensor<4x3xf32>
  return
}

// -----

func.func @slice_update_rank(%x: tensor<4x8xf32>, %u: tensor<4x3xf32>) {
  // expected-error@+1 {{'ms.slice_update' op strides [1] has 1 entries but the input has rank 2}}
  %0 = ms.slice_update %x, %u begin [0, 2] end [4, 5] strides [1] : tensor<4x8xf32>, tensor<4x3xf32>
  return
}

// -----

func.func @slice_update_stride(%x: tensor<4x8xf32>, %u: tensor<4x3xf32>) {
  // expected-error@+1 {{'ms.slice_update' op dim 1: stride 0 must be at least 1}}
  %0 = ms.slice_update %x, %u begin [0, 2] end [4, 5] strides [1, 0] : tensor<4x8xf32>, tensor<4x3xf32>
  return
}

// -----

func.func @slice_update_dtype(%x: tensor<4x8xf32>, %u: tensor<4x3xi32>) {
  // expected-error@+1 {{'ms.slice_update' op update element type 'i32' differs from input's 'f32'}}
  %0 = ms.slice_update %x, %u begin [0, 2] end [4, 5] strides [1, 1] : tensor<4x8xf32>, tensor<4x3xi32>
  return
}

// -----

func.func @scatter_update_shape(%x: tensor<10x4xf32>, %i: tensor<3xi32>, %u: tensor<3x5xf32>) {
  // expected-error@+1 {{'ms.scatter_update' op updates has shape [3, 5], expected [3, 4] (indices.shape + input.shape[1:])}}
  %0 = ms.scatter_update %x, %i, %u : tensor<10x4xf32>, tensor<3xi32>, tensor<3x5xf32>
  return
}

// -----

func.func @scatter_update_scalar(%x: tensor<f32>, %i: tensor<i32>, %u: tensor<f32>) {
  // expected-error@+1 {{'ms.scatter_update' op input must have rank 1 or more}}
  %0 = ms.scatter_update %x, %i, %u : tensor<f32>, tensor<i32>, tensor<f32>
  return
}

// -----

func.func @scatter_update_dtype(%x: tensor<10xf32>, %i: tensor<2xi32>, %u: tensor<2xf16>) {
  // expected-error@+1 {{'ms.scatter_update' op updates element type 'f16' differs from input's 'f32'}}
  %0 = ms.scatter_update %x, %i, %u : tensor<10xf32>, tensor<2xi32>, tensor<2xf16>
  return
}

// -----

func.func @scatter_update_float_indices(%x: tensor<10xf32>, %i: tensor<2xf32>, %u: tensor<2xf32>) {
  // expected-error@+1 {{'ms.scatter_update' op operand #1 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values}}
  %0 = "ms.scatter_update"(%x, %i, %u) : (tensor<10xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<10xf32>
  return
}
