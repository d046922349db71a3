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

// -----

// On the ms ops themselves, before their lowering (the ms-to-linalg stage
// runs the check first): interpolate's lowering builds source-index tables
// as long as its output, and would abort allocating them.
func.func @interpolate_before_lowering(%x: tensor<1x1x4x4xf32>) {
  // expected-error@+1 {{this op needs a tensor<1x1x2147483648x2147483648xf32> intermediate of more than 8 EiB, more than the max-bytes bound of 1 KiB}}
  %0 = ms.interpolate %x size [2147483648, 2147483648] mode "nearest" : tensor<1x1x4x4xf32>
  return
}
