// RUN: ms-opt %s --ms-check-tensor-sizes="max-bytes=1024" --split-input-file -verify-diagnostics | FileCheck %s

// A tensor of exactly max-bytes passes; one element more does not (the
// default bound, the machine's memory, is checked through ms-run in
// test/Run/errors/intermediates.test).
// CHECK-LABEL: func @at_the_bound
func.func @at_the_bound(%x: tensor<256xf32>) -> tensor<256xf32> {
  %0 = tensor.empty() : tensor<256xf32>
  return %0 : tensor<256xf32>
}

// -----

func.func @past_the_bound() -> tensor<257xf32> {
  // expected-error @+1 {{this op needs a tensor<257xf32> intermediate of 1.0 KiB, more than the max-bytes bound of 1 KiB}}
  %0 = tensor.empty() : tensor<257xf32>
  return %0 : tensor<257xf32>
}

// -----

// Byte sizes past int64 are caught in checked arithmetic, whatever the bound.
func.func @overflowing_bytes() -> tensor<4611686018427387904x2xf32> {
  // expected-error @+1 {{this op needs a tensor<4611686018427387904x2xf32> intermediate of more than 8 EiB, more than}}
  %0 = tensor.empty() : tensor<4611686018427387904x2xf32>
  return %0 : tensor<4611686018427387904x2xf32>
}
