// Every verifier and shape-inference error of cumsum, argsort,
// gather_elements and gather_elements_grad.
// RUN: ms-opt %s -split-input-file -verify-diagnostics

func.func @cumsum_axis(%x: tensor<4x5xf32>) {
  // expected-error@+1 {{'ms.cumsum' op axis 2 is out of range for rank 2 (expected [-2, 2))}}
  %0 = ms.cumsum %x axis 2 : tensor<4x5xf32>
  return
}

// -----

func.func @cumsum_rank0(%x: tensor<f32>) {
  // expected-error@+1 {{'ms.cumsum' op input must have rank 1 or more}}
  %0 = ms.cumsum %x axis 0 : tensor<f32>
  return
}

// -----

func.func @cumsum_dynamic(%x: tensor<?xf32>) {
  // expected-error@+1 {{'ms.cumsum' op input must have a static shape, got 'tensor<?xf32>'}}
  %0 = ms.cumsum %x axis 0 : tensor<?xf32>
  return
}

// -----

func.func @cumsum_no_axis(%x: tensor<4xf32>) {
  // expected-error@+1 {{'ms.cumsum' op requires attribute 'axis'}}
  %0 = "ms.cumsum"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @cumsum_bool(%x: tensor<4xi1>) {
  // expected-error@+1 {{operand #0 must be ranked tensor of numbers (f16, bf16, f32, f64, i8, i16, i32, i64 or ui8), but got}}
  %0 = "ms.cumsum"(%x) {axis = 0 : i64} : (tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @argsort_axis(%x: tensor<4x5xf32>) {
  // expected-error@+1 {{'ms.argsort' op axis -3 is out of range for rank 2 (expected [-2, 2))}}
  %0 = ms.argsort %x axis -3 output_type i32 : tensor<4x5xf32>
  return
}

// -----

func.func @argsort_k_too_large(%x: tensor<4x5xf32>) {
  // expected-error@+1 {{'ms.argsort' op k 6 is out of range for axis 1 of size 5 (expected [0, 5])}}
  %0 = ms.argsort %x axis 1 k 6 output_type i32 : tensor<4x5xf32>
  return
}

// -----

func.func @argsort_k_negative(%x: tensor<4x5xf32>) {
  // expected-error@+1 {{'ms.argsort' op k -1 is out of range for axis -1 of size 5 (expected [0, 5])}}
  %0 = ms.argsort %x k -1 output_type i32 : tensor<4x5xf32>
  return
}

// -----

func.func @argsort_output_type(%x: tensor<4xf32>) {
  // expected-error@+1 {{'ms.argsort' op output_type must be i32 or i64, got 'i8'}}
  %0 = ms.argsort %x output_type i8 : tensor<4xf32>
  return
}

// -----

func.func @argsort_no_output_type(%x: tensor<4xf32>) {
  // expected-error@+1 {{'ms.argsort' op requires attribute 'output_type'}}
  %0 = "ms.argsort"(%x) : (tensor<4xf32>) -> tensor<4xi32>
  return
}

// -----

func.func @argsort_rank0(%x: tensor<f32>) {
  // expected-error@+1 {{'ms.argsort' op input must have rank 1 or more}}
  %0 = ms.argsort %x output_type i32 : tensor<f32>
  return
}

// -----

func.func @gather_elements_rank(%x: tensor<4x5xf32>, %i: tensor<4xi32>) {
  // expected-error@+1 {{'ms.gather_elements' op indices must have the rank of input (2), got shape [4]}}
  %0 = ms.gather_elements %x, %i axis 1 : tensor<4x5xf32>, tensor<4xi32>
  return
}

// -----

func.func @gather_elements_other_dim(%x: tensor<4x5xf32>, %i: tensor<3x2xi32>) {
  // expected-error@+1 {{'ms.gather_elements' op indices shape [3, 2] differs from input shape [4, 5] at dim 0 (only axis 1 may differ)}}
  %0 = ms.gather_elements %x, %i axis 1 : tensor<4x5xf32>, tensor<3x2xi32>
  return
}

// -----

func.func @gather_elements_axis(%x: tensor<4x5xf32>, %i: tensor<4x2xi32>) {
  // expected-error@+1 {{'ms.gather_elements' op axis 2 is out of range for rank 2 (expected [-2, 2))}}
  %0 = ms.gather_elements %x, %i axis 2 : tensor<4x5xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @gather_elements_dynamic_indices(%x: tensor<4x5xf32>, %i: tensor<4x?xi32>) {
  // expected-error@+1 {{'ms.gather_elements' op indices must have a static shape, got 'tensor<4x?xi32>'}}
  %0 = ms.gather_elements %x, %i axis 1 : tensor<4x5xf32>, tensor<4x?xi32>
  return
}

// -----

func.func @gather_elements_float_indices(%x: tensor<4x5xf32>, %i: tensor<4x2xf32>) {
  // expected-error@+1 {{operand #1 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values}}
  %0 = "ms.gather_elements"(%x, %i) {axis = 1 : i64} : (tensor<4x5xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @gather_elements_grad_shapes(%dy: tensor<4x2xf32>, %i: tensor<4x3xi32>) {
  // expected-error@+1 {{'ms.gather_elements_grad' op indices shape [4, 3] differs from dy shape [4, 2]}}
  %0 = ms.gather_elements_grad %dy, %i axis 1 size 5 : tensor<4x2xf32>, tensor<4x3xi32>
  return
}

// -----

func.func @gather_elements_grad_size(%dy: tensor<4x2xf32>, %i: tensor<4x2xi32>) {
  // expected-error@+1 {{'ms.gather_elements_grad' op size -1 must not be negative}}
  %0 = ms.gather_elements_grad %dy, %i axis 1 size -1 : tensor<4x2xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @gather_elements_grad_axis(%dy: tensor<4x2xf32>, %i: tensor<4x2xi32>) {
  // expected-error@+1 {{'ms.gather_elements_grad' op axis 5 is out of range for rank 2 (expected [-2, 2))}}
  %0 = ms.gather_elements_grad %dy, %i axis 5 size 3 : tensor<4x2xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @gather_elements_grad_no_size(%dy: tensor<4x2xf32>, %i: tensor<4x2xi32>) {
  // expected-error@+1 {{'ms.gather_elements_grad' op requires attribute 'size'}}
  %0 = "ms.gather_elements_grad"(%dy, %i) {axis = 1 : i64} : (tensor<4x2xf32>, tensor<4x2xi32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @gather_elements_no_axis(%x: tensor<4x5xf32>, %i: tensor<4x2xi32>) {
  // expected-error@+1 {{'ms.gather_elements' op requires attribute 'axis'}}
  %0 = "ms.gather_elements"(%x, %i) : (tensor<4x5xf32>, tensor<4x2xi32>) -> tensor<4x2xf32>
  return
}
