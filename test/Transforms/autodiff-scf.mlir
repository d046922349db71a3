// ms-autodiff through scf.if and scf.while. The reverse of an if is an scf.if on the same
// condition whose branches recompute their forward branch and yield the
// cotangents of the values they read from above, each starting from the
// partial sum made after the if (here %S for x, from the add).
// RUN: ms-opt %s -split-input-file --ms-autodiff='wrt=0,1' | FileCheck %s

// CHECK-LABEL: func.func @construct_grad(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>, %[[W:.*]]: tensor<4xf32>, %[[C:.*]]: i1, %[[S:.*]]: tensor<4xf32>)
// CHECK: %[[P:.*]] = ms.mul %[[X]], %[[W]]
// CHECK: %[[Y:.*]] = scf.if %[[C]] -> (tensor<4xf32>)
// CHECK: %[[OUT:.*]] = ms.add %[[Y]], %[[X]]
// CHECK: %[[G:.*]]:3 = scf.if %[[C]] -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
// CHECK-NEXT: %[[E:.*]] = ms.exp %[[P]]
// CHECK-NEXT: %[[DE:.*]] = ms.mul %[[S]], %[[X]]
// CHECK-NEXT: %[[SE:.*]] = ms.mul %[[S]], %[[E]]
// CHECK-NEXT: %[[DX:.*]] = ms.add %[[S]], %[[SE]]
// CHECK-NEXT: %[[DP:.*]] = ms.mul %[[DE]], %[[E]]
// CHECK-NEXT: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-NEXT: scf.yield %[[DP]], %[[DX]], %[[Z]]
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[Z2:.*]] = arith.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-NEXT: scf.yield %[[Z2]], %[[S]], %[[S]]
// CHECK: %[[DXP:.*]] = ms.mul %[[G]]#0, %[[W]]
// CHECK: %[[DWP:.*]] = ms.mul %[[G]]#0, %[[X]]
// CHECK: %[[GX:.*]] = ms.add %[[G]]#1, %[[DXP]]
// CHECK: %[[GW:.*]] = ms.add %[[G]]#2, %[[DWP]]
// CHECK: return %[[OUT]], %[[GX]], %[[GW]]
func.func @construct(%x: tensor<4xf32>, %w: tensor<4xf32>, %c: i1) -> tensor<4xf32> {
  %0 = ms.mul %x, %w : tensor<4xf32>, tensor<4xf32>
  %1 = scf.if %c -> (tensor<4xf32>) {
    %2 = ms.exp %0 : tensor<4xf32>
    %3 = ms.mul %2, %x : tensor<4xf32>, tensor<4xf32>
    scf.yield %3 : tensor<4xf32>
  } else {
    scf.yield %w : tensor<4xf32>
  }
  %4 = ms.add %1, %x : tensor<4xf32>, tensor<4xf32>
  return %4 : tensor<4xf32>
}

// -----

// Nested ifs: the inner one's reverse sits in the outer one's reverse
// branch. An if whose regions read nothing active has no reverse.
// CHECK-LABEL: func.func @construct_grad(
// CHECK: scf.if
// CHECK: scf.if
// CHECK: %[[G:.*]] = scf.if %{{.*}} -> (tensor<2xf32>) {
// CHECK: scf.if %{{.*}} -> (tensor<2xf32>) {
// CHECK: ms.relu_grad
// CHECK: } else {
// CHECK: ms.neg
// CHECK: } else {
// CHECK-NOT: scf.if
// CHECK: return
func.func @construct(%x: tensor<2xf32>, %w: tensor<2xf32>, %c: i1, %d: i1) -> tensor<2xf32> {
  %k = scf.if %d -> (tensor<2xf32>) {
    %one = arith.constant dense<1.0> : tensor<2xf32>
    scf.yield %one : tensor<2xf32>
  } else {
    %two = arith.constant dense<2.0> : tensor<2xf32>
    scf.yield %two : tensor<2xf32>
  }
  %0 = scf.if %c -> (tensor<2xf32>) {
    %1 = scf.if %d -> (tensor<2xf32>) {
      %2 = ms.relu %x : tensor<2xf32>
      scf.yield %2 : tensor<2xf32>
    } else {
      %3 = ms.neg %x : tensor<2xf32>
      scf.yield %3 : tensor<2xf32>
    }
    scf.yield %1 : tensor<2xf32>
  } else {
    scf.yield %x : tensor<2xf32>
  }
  %4 = ms.mul %0, %k : tensor<2xf32>, tensor<2xf32>
  return %4 : tensor<2xf32>
}

// -----

// scf.while: the forward loop counts its iterations; the reverse is an
// scf.for over them, last first, recomputing the state before iteration j
// from the inits and carrying the cotangent of the state and the running
// sum of w's cotangent.
// CHECK-LABEL: func.func @construct_grad(
// CHECK-SAME: %[[X:.*]]: tensor<3xf32>, %[[W:.*]]: tensor<3xf32>, %[[S:.*]]: tensor<3xf32>)
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[L:.*]]:2 = scf.while (%[[A:.*]] = %[[X]], %[[I:.*]] = %[[C0]]) : (tensor<3xf32>, index) -> (tensor<3xf32>, index)
// CHECK: scf.condition(%{{.*}}) %{{.*}}, %{{.*}} : tensor<3xf32>, index
// CHECK: arith.addi %{{.*}}, %{{.*}} : index
// CHECK: %[[OUT:.*]] = ms.mul %[[L]]#0, %[[W]]
// CHECK: %[[DA:.*]] = ms.mul %[[S]], %[[W]]
// CHECK: %[[DW:.*]] = ms.mul %[[S]], %[[L]]#0
// CHECK: %[[R:.*]]:2 = scf.for %[[K:.*]] = %{{.*}} to %[[L]]#1 step %{{.*}} iter_args(%[[G:.*]] = %[[DA]], %[[GW:.*]] = %[[DW]])
// CHECK: %[[LAST:.*]] = arith.subi %[[L]]#1, %{{.*}} : index
// CHECK: %[[J:.*]] = arith.subi %[[LAST]], %[[K]] : index
// CHECK: %[[STATE:.*]] = scf.for %{{.*}} = %{{.*}} to %[[J]] step %{{.*}} iter_args(%{{.*}} = %[[X]])
// CHECK: ms.tanh
// CHECK: scf.yield
// CHECK: %[[M:.*]] = ms.mul %[[STATE]], %[[W]]
// CHECK: %[[T:.*]] = ms.tanh %[[M]]
// CHECK: %[[GT:.*]] = ms.mul %[[G]], %{{.*}}
// CHECK: %[[GA:.*]] = ms.mul %[[GT]], %[[W]]
// CHECK: %[[GWJ:.*]] = ms.mul %[[GT]], %[[STATE]]
// CHECK: %[[NG:.*]] = ms.add %[[G]], %[[GA]]
// CHECK: %[[NGW:.*]] = ms.add %[[GW]], %[[GWJ]]
// CHECK: scf.yield %[[NG]], %[[NGW]]
// CHECK: return %[[OUT]], %[[R]]#0, %[[R]]#1
func.func @construct(%x: tensor<3xf32>, %w: tensor<3xf32>) -> tensor<3xf32> {
  %ten = arith.constant dense<10.0> : tensor<f32>
  %0 = scf.while (%a = %x) : (tensor<3xf32>) -> tensor<3xf32> {
    %s = ms.reduce_sum %a axes [0] : tensor<3xf32>
    %l = ms.less %s, %ten : tensor<f32>, tensor<f32>
    %b = tensor.extract %l[] : tensor<i1>
    scf.condition(%b) %a : tensor<3xf32>
  } do {
  ^bb0(%a: tensor<3xf32>):
    %1 = ms.mul %a, %w : tensor<3xf32>, tensor<3xf32>
    %2 = ms.tanh %1 : tensor<3xf32>
    %3 = ms.add %2, %a : tensor<3xf32>, tensor<3xf32>
    scf.yield %3 : tensor<3xf32>
  }
  %4 = ms.mul %0, %w : tensor<3xf32>, tensor<3xf32>
  return %4 : tensor<3xf32>
}
