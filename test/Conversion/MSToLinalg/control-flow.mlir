// ms ops inside scf.if / scf.while regions lower like any other: the
// conversion reaches into the regions and leaves the scf ops (now on the
// lowered tensors) in place.
// RUN: ms-opt %s --convert-ms-to-linalg | FileCheck %s
// RUN: ms-opt %s --convert-ms-to-linalg | FileCheck %s --check-prefix=NONE
// NONE-NOT: ms.

// CHECK-LABEL: func @branch
// CHECK: scf.if %{{.*}} -> (tensor<4xf32>) {
// CHECK:   linalg.generic
// CHECK:     arith.maximumf
// CHECK:   scf.yield
// CHECK: } else {
// CHECK:   linalg.generic
// CHECK:     arith.negf
// CHECK:   scf.yield
func.func @branch(%x: tensor<4xf32>, %c: tensor<i1>) -> tensor<4xf32> {
  %b = tensor.extract %c[] : tensor<i1>
  %r = scf.if %b -> (tensor<4xf32>) {
    %y = ms.relu %x : tensor<4xf32>
    scf.yield %y : tensor<4xf32>
  } else {
    %y = ms.neg %x : tensor<4xf32>
    scf.yield %y : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// CHECK-LABEL: func @loop
// CHECK: scf.while
// CHECK:   linalg.generic
// CHECK:     arith.cmpi slt
// CHECK:   scf.condition
// CHECK: } do {
// CHECK:   linalg.generic
// CHECK:     arith.addf
// CHECK:   scf.yield
func.func @loop(%x: tensor<4xf32>, %n: tensor<i32>) -> tensor<4xf32> {
  %i0 = arith.constant dense<0> : tensor<i32>
  %one = arith.constant dense<1> : tensor<i32>
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

// Canonicalization turns an scf.if that yields bool constants (a break flag)
// into a select of bool tensors; it selects their stored bytes.
// CHECK-LABEL: func @flag
// CHECK-SAME: (%{{.*}}: i1) -> tensor<i8>
// CHECK: %[[T:.*]] = arith.constant dense<1> : tensor<i8>
// CHECK: %[[F:.*]] = arith.constant dense<0> : tensor<i8>
// CHECK: arith.select %{{.*}}, %[[T]], %[[F]] : tensor<i8>
func.func @flag(%b: i1) -> tensor<i1> {
  %t = arith.constant dense<true> : tensor<i1>
  %f = arith.constant dense<false> : tensor<i1>
  %r = arith.select %b, %t, %f : tensor<i1>
  return %r : tensor<i1>
}
