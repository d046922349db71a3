// Round trip of cumsum, argsort, gather_elements and gather_elements_grad
// in their custom and generic forms.
// RUN: ms-opt %s | ms-opt | FileCheck %s
// RUN: ms-opt %s --mlir-print-op-generic | ms-opt | FileCheck %s

// CHECK-LABEL: func @scan_sort
func.func @scan_sort(%x: tensor<4x5xf32>, %i: tensor<6xi64>, %d: tensor<3xf64>, %u: tensor<2x3xui8>, %idx: tensor<4x2xi32>, %dy: tensor<4x2xf32>) {
  // CHECK: ms.cumsum %{{.*}} axis 1 : tensor<4x5xf32>
  %0 = ms.cumsum %x axis 1 : tensor<4x5xf32>
  // CHECK: ms.cumsum %{{.*}} axis -1 exclusive reverse : tensor<6xi64>
  %1 = ms.cumsum %i axis -1 exclusive reverse : tensor<6xi64>
  // CHECK: ms.argsort %{{[^ ]*}} output_type i32 : tensor<4x5xf32>
  %2 = ms.argsort %x output_type i32 : tensor<4x5xf32>
  // CHECK: ms.argsort %{{.*}} axis 1 descending k 2 output_type i32 : tensor<4x5xf32>
  %3 = ms.argsort %x axis 1 descending k 2 output_type i32 : tensor<4x5xf32>
  // CHECK: ms.argsort %{{.*}} axis 0 output_type i64 : tensor<3xf64>
  %4 = ms.argsort %d axis 0 output_type i64 : tensor<3xf64>
  // CHECK: ms.argsort %{{.*}} axis 0 k 1 output_type i32 : tensor<2x3xui8>
  %5 = ms.argsort %u axis 0 k 1 output_type i32 : tensor<2x3xui8>
  // CHECK: ms.gather_elements %{{.*}}, %{{.*}} axis 1 : tensor<4x5xf32>, tensor<4x2xi32>
  %6 = ms.gather_elements %x, %idx axis 1 : tensor<4x5xf32>, tensor<4x2xi32>
  // CHECK: ms.gather_elements_grad %{{.*}}, %{{.*}} axis -1 size 5 : tensor<4x2xf32>, tensor<4x2xi32>
  %7 = ms.gather_elements_grad %dy, %idx axis -1 size 5 : tensor<4x2xf32>, tensor<4x2xi32>
  return
}
