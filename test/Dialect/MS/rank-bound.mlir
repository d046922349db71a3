// Every ms op's operands and results have rank at most 8 (ms::kMaxRank,
// MindSpore's bound for most ops): the trait MS_BoundedRank, on every op
// through MS_Op.
// RUN: ms-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @rank_8_is_fine
// CHECK: ms.relu
func.func @rank_8_is_fine(%x: tensor<1x2x1x2x1x2x1x2xf32>) -> tensor<1x2x1x2x1x2x1x2xf32> {
  %0 = ms.relu %x : tensor<1x2x1x2x1x2x1x2xf32>
  return %0 : tensor<1x2x1x2x1x2x1x2xf32>
}

// -----

func.func @operand_rank_9(%x: tensor<1x1x1x1x1x1x1x1x2xf32>) {
  // expected-error@+1 {{'ms.relu' op operand #0 has rank 9; ms ops take tensors of rank at most 8, as MindSpore's do}}
  %0 = ms.relu %x : tensor<1x1x1x1x1x1x1x1x2xf32>
  return
}

// -----

func.func @operand_rank_9_second(%x: tensor<2xf32>, %y: tensor<1x1x1x1x1x1x1x1x2xf32>) {
  // expected-error@+1 {{'ms.add' op operand #1 has rank 9}}
  %0 = ms.add %x, %y : tensor<2xf32>, tensor<1x1x1x1x1x1x1x1x2xf32>
  return
}

// -----

func.func @result_rank_9(%x: tensor<512xf32>) {
  // expected-error@+1 {{'ms.reshape' op result #0 has rank 9}}
  %0 = ms.reshape %x to [2, 2, 2, 2, 2, 2, 2, 2, 2] : tensor<512xf32>
  return
}
