// Collectives survive canonicalization and CSE: every rank must run each.
// RUN: ms-opt %s --canonicalize --cse | FileCheck %s

// CHECK-LABEL: func @kept
// CHECK: %[[A:.*]] = ms.all_reduce %{{.*}} : tensor<8xf32>
// CHECK: %[[B:.*]] = ms.all_reduce %{{.*}} : tensor<8xf32>
// CHECK: return %[[B]]
func.func @kept(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = ms.all_reduce %x : tensor<8xf32>
  %1 = ms.all_reduce %x : tensor<8xf32>
  return %1 : tensor<8xf32>
}
