// Round trip of all_reduce in its custom and generic forms.
// RUN: ms-opt %s | ms-opt | FileCheck %s
// RUN: ms-opt %s --mlir-print-op-generic | ms-opt | FileCheck %s

// CHECK-LABEL: func @all_reduce
func.func @all_reduce(%x: tensor<669706xf32>, %d: tensor<4x8xf64>) -> (tensor<669706xf32>, tensor<4x8xf64>, tensor<4x8xf64>) {
  // CHECK: ms.all_reduce %{{.*}} : tensor<669706xf32>
  %0 = ms.all_reduce %x : tensor<669706xf32>
  // CHECK: ms.all_reduce %{{.*}} reduce_op "max" : tensor<4x8xf64>
  %1 = ms.all_reduce %d reduce_op "max" : tensor<4x8xf64>
  // The default reduce_op prints as nothing.
  // CHECK: ms.all_reduce %{{.*}} : tensor<4x8xf64>
  %2 = ms.all_reduce %d reduce_op "sum" : tensor<4x8xf64>
  return %0, %1, %2 : tensor<669706xf32>, tensor<4x8xf64>, tensor<4x8xf64>
}
