// Tensor-dependent control flow: ms ops inside the regions of scf.if and
// scf.while (what graph capture emits for a tensor `if`/`while`/`for range`)
// print, parse and verify, in the custom and the generic form.
// RUN: ms-opt %s | ms-opt | FileCheck %s
// RUN: ms-opt %s --mlir-print-op-generic | ms-opt | FileCheck %s

// CHECK-LABEL: func @branch
func.func @branch(%x: tensor<4xf32>, %c: tensor<i1>) -> tensor<4xf32> {
  %b = tensor.extract %c[] : tensor<i1>
  // CHECK: scf.if %{{.*}} -> (tensor<4xf32>) {
  // CHECK:   ms.relu %{{.*}} : tensor<4xf32>
  // CHECK:   ms.add %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xf32>
  // CHECK:   scf.yield %{{.*}} : tensor<4xf32>
  // CHECK: } else {
  // CHECK:   ms.neg %{{.*}} : tensor<4xf32>
  %r = scf.if %b -> (tensor<4xf32>) {
    %y = ms.relu %x : tensor<4xf32>
    %z = ms.add %y, %x : tensor<4xf32>, tensor<4xf32>
    scf.yield %z : tensor<4xf32>
  } else {
    %y = ms.neg %x : tensor<4xf32>
    scf.yield %y : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// CHECK-LABEL: func @loop
func.func @loop(%x: tensor<4xf32>, %n: tensor<i32>) -> tensor<4xf32> {
  %i0 = arith.constant dense<0> : tensor<i32>
  %one = arith.constant dense<1> : tensor<i32>
  // CHECK: scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>) {
  // CHECK:   ms.less %{{.*}}, %{{.*}} : tensor<i32>, tensor<i32>
  // CHECK:   scf.condition
  // CHECK: } do {
  // CHECK:   ms.add %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xf32>
  // CHECK:   scf.yield
  %r:2 = scf.while (%i = %i0, %a = %x) : (tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>) {
    %lt = ms.less %i, %n : tensor<i32>, tensor<i32>
    %b = tensor.extract %lt[] : tensor<i1>
    scf.condition(%b) %i, %a : tensor<i32>, tensor<4xf32>
  } do {
  ^bb0(%i: tensor<i32>, %a: tensor<4xf32>):
    %a2 = ms.add %a, %a : tensor<4xf32>, tensor<4xf32>
    %i2 = ms.add %i, %one : tensor<i32>, tensor<i32>
    scf.yield %i2, %a2 : tensor<i32>, tensor<4xf32>
  }
  return %r#1 : tensor<4xf32>
}
