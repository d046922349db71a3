// ms-to-linalg lowers static shapes; a ? that reaches it (a pipeline runs
// ms-split-dynamic-batch first) is an error naming the op, not a crash.
// RUN: ms-opt %s --convert-ms-to-linalg -verify-diagnostics

func.func @relu(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error@+1 {{'ms.relu' op has a ? dim; ms ops lower on static shapes (a ? batch is split into static tiles by ms-split-dynamic-batch first, as every pipeline does)}}
  %0 = ms.relu %x : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
