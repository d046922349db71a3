// Every verifier and shape-inference error of pow, floor_div, floor_mod and
// fmod.
// RUN: ms-opt %s -split-input-file -verify-diagnostics

func.func @pow_no_broadcast(%x: tensor<4x5xf32>, %y: tensor<4xf32>) {
  // expected-error@+1 {{'ms.pow' op operands do not broadcast: lhs shape [4, 5] vs rhs shape [4]}}
  %0 = ms.pow %x, %y : tensor<4x5xf32>, tensor<4xf32>
  return
}

// -----

func.func @floor_div_mixed(%x: tensor<4xf32>, %y: tensor<4xi32>) {
  // expected-error@+1 {{'ms.floor_div' op element types differ: lhs 'f32' vs rhs 'i32'}}
  %0 = ms.floor_div %x, %y : tensor<4xf32>, tensor<4xi32>
  return
}

// -----

func.func @floor_mod_bool(%x: tensor<4xi1>) {
  // expected-error@+1 {{operand #0 must be ranked tensor of numbers (f16, bf16, f32, f64, i8, i16, i32, i64 or ui8), but got}}
  %0 = "ms.floor_mod"(%x, %x) : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @fmod_dynamic(%x: tensor<?x3xf32>, %y: tensor<4xf32>) {
  // expected-error@+1 {{'ms.fmod' op operands do not broadcast: lhs shape [?, 3] vs rhs shape [4]}}
  %0 = ms.fmod %x, %y : tensor<?x3xf32>, tensor<4xf32>
  return
}

// -----

func.func @pow_wrong_result(%x: tensor<4xi32>) {
  // expected-error@+2 {{'ms.pow' op inferred type(s) 'tensor<4xi32>' are incompatible with return type(s) of operation 'tensor<4xf32>'}}
  // expected-error@+1 {{'ms.pow' op failed to infer returned types}}
  %0 = "ms.pow"(%x, %x) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xf32>
  return
}
