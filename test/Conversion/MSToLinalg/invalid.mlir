// RUN: ms-opt %s --convert-ms-to-linalg -split-input-file -verify-diagnostics

func.func @dropout_training(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'ms.dropout' op in training mode is not supported; ms runs inference only (call set_train(False))}}
  %0 = ms.dropout %x {training} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
