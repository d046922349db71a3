// Every verifier and shape-inference error of the indexing, comparison,
// logical, select, cast and training-dropout ops.
// RUN: ms-opt %s -split-input-file -verify-diagnostics

func.func @one_hot_negative_depth(%l: tensor<4xi32>) {
  // expected-error@+1 {{'ms.one_hot' op depth -1 must not be negative}}
  %0 = ms.one_hot %l depth -1 : tensor<4xi32>
  return
}

// -----

func.func @one_hot_axis(%l: tensor<4xi32>) {
  // expected-error@+1 {{'ms.one_hot' op axis 2 is out of range for indices [4] (expected -1 or [0, 2))}}
  %0 = ms.one_hot %l depth 3 axis 2 : tensor<4xi32>
  return
}

// -----

func.func @one_hot_float_indices(%l: tensor<4xf32>) {
  // expected-error@+1 {{operand #0 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values}}
  %0 = "ms.one_hot"(%l) {depth = 3 : i64} : (tensor<4xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @one_hot_no_depth(%l: tensor<4xi32>) {
  // expected-error@+1 {{'ms.one_hot' op requires attribute 'depth'}}
  %0 = "ms.one_hot"(%l) : (tensor<4xi32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @one_hot_overflow(%l: tensor<4611686018427387904xi32>) {
  // expected-error@+1 {{'ms.one_hot' op result shape [4611686018427387904, 4] has more elements than int64 can count}}
  %0 = ms.one_hot %l depth 4 : tensor<4611686018427387904xi32>
  return
}

// -----

func.func @one_hot_dynamic(%l: tensor<?xi32>) {
  // expected-error@+1 {{'ms.one_hot' op indices must be a ranked tensor of static shape, got 'tensor<?xi32>'}}
  %0 = ms.one_hot %l depth 4 : tensor<?xi32>
  return
}

// -----

func.func @argmax_axis(%x: tensor<4x5xf32>) {
  // expected-error@+1 {{'ms.argmax' op axis 2 is out of range for rank 2 (expected [-2, 2))}}
  %0 = ms.argmax %x axis 2 output_type i32 : tensor<4x5xf32>
  return
}

// -----

func.func @argmax_rank0(%x: tensor<f32>) {
  // expected-error@+1 {{'ms.argmin' op input must have rank 1 or more}}
  %0 = ms.argmin %x output_type i32 : tensor<f32>
  return
}

// -----

func.func @argmax_output_type(%x: tensor<4x5xf32>) {
  // expected-error@+1 {{'ms.argmax' op output_type must be i32 or i64, got 'i16'}}
  %0 = ms.argmax %x output_type i16 : tensor<4x5xf32>
  return
}

// -----

func.func @argmax_empty_axis(%x: tensor<4x0xf32>) {
  // expected-error@+1 {{'ms.argmax' op axis -1 of input [4, 0] is empty; it has no extreme value}}
  %0 = ms.argmax %x output_type i64 : tensor<4x0xf32>
  return
}

// -----

func.func @argmax_no_output_type(%x: tensor<4x5xf32>) {
  // expected-error@+1 {{'ms.argmax' op requires attribute 'output_type'}}
  %0 = "ms.argmax"(%x) {axis = 1 : i64} : (tensor<4x5xf32>) -> tensor<4xi32>
  return
}

// -----

func.func @argmax_bool(%x: tensor<4xi1>) {
  // expected-error@+1 {{operand #0 must be ranked tensor of numbers (f16, bf16, f32, f64, i8, i16, i32, i64 or ui8), but got 'tensor<4xi1>'}}
  %0 = "ms.argmax"(%x) {axis = 0 : i64, output_type = i32} : (tensor<4xi1>) -> tensor<i32>
  return
}

// -----

func.func @compare_types(%x: tensor<4xf32>, %y: tensor<4xi32>) {
  // expected-error@+1 {{'ms.equal' op element types differ: lhs 'f32' vs rhs 'i32'}}
  %0 = ms.equal %x, %y : tensor<4xf32>, tensor<4xi32>
  return
}

// -----

func.func @compare_broadcast(%x: tensor<4xf32>, %y: tensor<3xf32>) {
  // expected-error@+1 {{'ms.less' op operands do not broadcast: lhs shape [4] vs rhs shape [3]}}
  %0 = ms.less %x, %y : tensor<4xf32>, tensor<3xf32>
  return
}

// -----

func.func @compare_dynamic(%x: tensor<?x4xf32>, %y: tensor<3xf32>) {
  // expected-error@+1 {{'ms.greater' op operands do not broadcast: lhs shape [?, 4] vs rhs shape [3]}}
  %0 = ms.greater %x, %y : tensor<?x4xf32>, tensor<3xf32>
  return
}

// -----

func.func @logical_not_bool(%x: tensor<4xi32>) {
  // expected-error@+1 {{'ms.logical_and' op operands must be bool (i1) tensors, got 'i32'}}
  %0 = ms.logical_and %x, %x : tensor<4xi32>, tensor<4xi32>
  return
}

// -----

func.func @select_condition(%c: tensor<4xf32>, %x: tensor<4xf32>) {
  // expected-error@+1 {{'ms.select' op condition must be a bool (i1) tensor, got 'f32'}}
  %0 = ms.select %c, %x, %x : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  return
}

// -----

func.func @select_types(%c: tensor<4xi1>, %x: tensor<4xf32>, %y: tensor<4xi32>) {
  // expected-error@+1 {{'ms.select' op element types differ: true_value 'f32' vs false_value 'i32'}}
  %0 = ms.select %c, %x, %y : tensor<4xi1>, tensor<4xf32>, tensor<4xi32>
  return
}

// -----

func.func @select_broadcast(%c: tensor<3xi1>, %x: tensor<4xf32>) {
  // expected-error@+1 {{'ms.select' op operands do not broadcast: condition [3], true_value [4], false_value [4]}}
  %0 = ms.select %c, %x, %x : tensor<3xi1>, tensor<4xf32>, tensor<4xf32>
  return
}

// -----

func.func @cast_target(%x: tensor<4xf32>) {
  // expected-error@+1 {{'ms.cast' op cannot cast to 'ui16'; expected f16, bf16, f32, f64, i1, i8, i16, i32, i64 or ui8}}
  %0 = ms.cast %x to ui16 : tensor<4xf32>
  return
}

// -----

func.func @cast_no_target(%x: tensor<4xf32>) {
  // expected-error@+1 {{'ms.cast' op requires attribute 'to'}}
  %0 = "ms.cast"(%x) : (tensor<4xf32>) -> tensor<4xi32>
  return
}

// -----

func.func @dropout_training_without_state(%x: tensor<4xf32>) {
  // expected-error@+1 {{'ms.dropout' op in training mode needs an rng_state operand (tensor<2xi64>: [seed, offset])}}
  %0 = ms.dropout %x {training} : tensor<4xf32>
  return
}

// -----

func.func @dropout_state_without_training(%x: tensor<4xf32>, %s: tensor<2xi64>) {
  // expected-error@+1 {{'ms.dropout' op has an rng_state operand but no training flag}}
  %0 = ms.dropout %x, %s : tensor<4xf32>, tensor<2xi64>
  return
}

// -----

func.func @dropout_state_shape(%x: tensor<4xf32>, %s: tensor<3xi64>) {
  // expected-error@+1 {{'ms.dropout' op rng_state must be tensor<2xi64> ([seed, offset]), got 'tensor<3xi64>'}}
  %0 = ms.dropout %x, %s {training} : tensor<4xf32>, tensor<3xi64>
  return
}
