// RUN: ms-opt %s --ms-decompose-aggregates --split-input-file -verify-diagnostics

// Upstream's softmax decomposition builds float constants: an integer
// softmax is an error, not a crash.
func.func @integer_softmax(%x: tensor<4x10xi32>) -> tensor<4x10xi32> {
  %e = tensor.empty() : tensor<4x10xi32>
  // expected-error @+1 {{'linalg.softmax' op can only be decomposed on floating-point operands}}
  %0 = linalg.softmax dimension(1) ins(%x : tensor<4x10xi32>) outs(%e : tensor<4x10xi32>) -> tensor<4x10xi32>
  return %0 : tensor<4x10xi32>
}
