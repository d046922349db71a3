// Each dtype group rejects what it does not take with one error naming the
// op, the operand, the group and the type it got.
// RUN: ms-opt %s -split-input-file -verify-diagnostics

func.func @exp_int(%x: tensor<4xi32>) {
  // expected-error@+1 {{'ms.exp' op operand #0 must be ranked tensor of floats (f16, bf16, f32 or f64), but got 'tensor<4xi32>'}}
  %0 = ms.exp %x : tensor<4xi32>
  return
}

// -----

// floor rounds floats; integers are already whole (ops.floor takes floats).
func.func @floor_int(%x: tensor<4xi32>) {
  // expected-error@+1 {{'ms.floor' op operand #0 must be ranked tensor of floats (f16, bf16, f32 or f64), but got 'tensor<4xi32>'}}
  %0 = ms.floor %x : tensor<4xi32>
  return
}

// -----

func.func @div_uint(%x: tensor<4xui8>) {
  // expected-error@+1 {{'ms.div' op operand #0 must be ranked tensor of floats (f16, bf16, f32 or f64), but got 'tensor<4xui8>'}}
  %0 = ms.div %x, %x : tensor<4xui8>, tensor<4xui8>
  return
}

// -----

func.func @mean_int(%x: tensor<4xi64>) {
  // expected-error@+1 {{'ms.reduce_mean' op operand #0 must be ranked tensor of floats (f16, bf16, f32 or f64), but got 'tensor<4xi64>'}}
  %0 = ms.reduce_mean %x axes [0] : tensor<4xi64>
  return
}

// -----

func.func @softmax_int(%x: tensor<4xi8>) {
  // expected-error@+1 {{'ms.softmax' op operand #0 must be ranked tensor of floats (f16, bf16, f32 or f64), but got 'tensor<4xi8>'}}
  %0 = ms.softmax %x axis -1 : tensor<4xi8>
  return
}

// -----

func.func @conv_int(%x: tensor<1x1x3x3xi32>, %w: tensor<1x1x2x2xi32>) {
  // expected-error@+1 {{'ms.conv2d' op operand #0 must be ranked tensor of floats (f16, bf16, f32 or f64), but got 'tensor<1x1x3x3xi32>'}}
  %0 = ms.conv2d %x, %w pad_mode "valid" : tensor<1x1x3x3xi32>, tensor<1x1x2x2xi32>
  return
}

// -----

func.func @add_bool(%x: tensor<4xi1>) {
  // expected-error@+1 {{'ms.add' op operand #0 must be ranked tensor of numbers (f16, bf16, f32, f64, i8, i16, i32, i64 or ui8), but got 'tensor<4xi1>'}}
  %0 = ms.add %x, %x : tensor<4xi1>, tensor<4xi1>
  return
}

// -----

func.func @reshape_ui16(%x: tensor<4xui16>) {
  // expected-error@+1 {{'ms.reshape' op operand #0 must be ranked tensor of f16, bf16, f32, f64, i1, i8, i16, i32, i64 or ui8, but got 'tensor<4xui16>'}}
  %0 = ms.reshape %x to [2, 2] : tensor<4xui16>
  return
}
