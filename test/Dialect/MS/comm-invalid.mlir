// Every verifier and shape-inference error of all_reduce.
// RUN: ms-opt %s -split-input-file -verify-diagnostics

func.func @reduce_op(%x: tensor<8xf32>) {
  // expected-error@+1 {{'ms.all_reduce' op reduce_op must be "sum", "max", "min" or "prod", got "mean"}}
  %0 = ms.all_reduce %x reduce_op "mean" : tensor<8xf32>
  return
}

// -----

func.func @dynamic(%x: tensor<?xf32>) {
  // expected-error@+1 {{'ms.all_reduce' op input must have a static shape, got 'tensor<?xf32>'}}
  %0 = ms.all_reduce %x : tensor<?xf32>
  return
}

// -----

func.func @dtype(%x: tensor<8xi32>) {
  // expected-error@+1 {{'ms.all_reduce' op operand #0 must be ranked tensor of f32 or f64, but got 'tensor<8xi32>'}}
  %0 = ms.all_reduce %x : tensor<8xi32>
  return
}

// -----

func.func @result_type(%x: tensor<8xf32>) {
  // expected-error@+2 {{'ms.all_reduce' op inferred type(s) 'tensor<8xf32>' are incompatible with return type(s) of operation 'tensor<4xf32>'}}
  // expected-error@+1 {{'ms.all_reduce' op failed to infer returned types}}
  %0 = "ms.all_reduce"(%x) : (tensor<8xf32>) -> tensor<4xf32>
  return
}
