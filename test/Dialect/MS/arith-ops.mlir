// Round trip of pow, floor_div, floor_mod and fmod in their custom and
// generic forms, on float, signed and unsigned element types.
// RUN: ms-opt %s | ms-opt | FileCheck %s
// RUN: ms-opt %s --mlir-print-op-generic | ms-opt | FileCheck %s

// CHECK-LABEL: func @arith
func.func @arith(%x: tensor<4x5xf32>, %y: tensor<5xf32>, %i: tensor<3xi32>, %j: tensor<i32>, %d: tensor<2x3xf64>, %u: tensor<4xui8>, %l: tensor<4xi64>) {
  // CHECK: ms.pow %{{.*}}, %{{.*}} : tensor<4x5xf32>, tensor<5xf32>
  %0 = ms.pow %x, %y : tensor<4x5xf32>, tensor<5xf32>
  // CHECK: ms.pow %{{.*}}, %{{.*}} : tensor<3xi32>, tensor<i32>
  %1 = ms.pow %i, %j : tensor<3xi32>, tensor<i32>
  // CHECK: ms.floor_div %{{.*}}, %{{.*}} : tensor<3xi32>, tensor<i32>
  %2 = ms.floor_div %i, %j : tensor<3xi32>, tensor<i32>
  // CHECK: ms.floor_div %{{.*}}, %{{.*}} : tensor<2x3xf64>, tensor<2x3xf64>
  %3 = ms.floor_div %d, %d : tensor<2x3xf64>, tensor<2x3xf64>
  // CHECK: ms.floor_mod %{{.*}}, %{{.*}} : tensor<4x5xf32>, tensor<5xf32>
  %4 = ms.floor_mod %x, %y : tensor<4x5xf32>, tensor<5xf32>
  // CHECK: ms.floor_mod %{{.*}}, %{{.*}} : tensor<4xui8>, tensor<4xui8>
  %5 = ms.floor_mod %u, %u : tensor<4xui8>, tensor<4xui8>
  // CHECK: ms.fmod %{{.*}}, %{{.*}} : tensor<4xi64>, tensor<4xi64>
  %6 = ms.fmod %l, %l : tensor<4xi64>, tensor<4xi64>
  return
}
