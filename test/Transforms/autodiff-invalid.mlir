// Every error ms-autodiff emits, located at the op or function at fault.
// RUN: ms-opt %s -split-input-file --ms-autodiff -verify-diagnostics
// RUN: not ms-opt %s -split-input-file --ms-autodiff='func=nope' 2>&1 | FileCheck %s --check-prefix=NOFUNC
// RUN: not ms-opt %s -split-input-file --ms-autodiff='wrt=7' 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not ms-opt %s -split-input-file --ms-autodiff='wrt=1' 2>&1 | FileCheck %s --check-prefix=NOTFLOAT

// NOFUNC: error: ms-autodiff: no function named '@nope'
// RANGE: error: ms-autodiff: wrt index 7 is out of range: '@construct' has 2 arguments
// NOTFLOAT: error: ms-autodiff: wrt argument 1 of '@construct' has type 'tensor<3xi32>', not a float tensor

// Every ms op has a rule; an op of another dialect on the gradient's path
// has none.
func.func @construct(%x: tensor<3xf32>, %i: tensor<3xi32>) -> tensor<3xf32> {
  // expected-error@+1 {{ms-autodiff: 'arith.addf' has no gradient rule}}
  %0 = arith.addf %x, %x : tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// A loop whose condition region changes what it passes on has no reverse
// (graph capture never makes one; autodiff-scf.mlir has the ones it makes).
func.func @construct(%x: tensor<3xf32>, %n: i1) -> tensor<3xf32> {
  // expected-error@+1 {{ms-autodiff: 'scf.while' has no gradient rule when its condition region changes the values it passes on}}
  %0 = scf.while (%a = %x) : (tensor<3xf32>) -> tensor<3xf32> {
    %r = ms.relu %a : tensor<3xf32>
    scf.condition(%n) %r : tensor<3xf32>
  } do {
  ^bb0(%b: tensor<3xf32>):
    %1 = ms.neg %b : tensor<3xf32>
    scf.yield %1 : tensor<3xf32>
  }
  return %0 : tensor<3xf32>
}

// -----

// expected-error@+1 {{ms-autodiff: cannot name the gradient function '@construct_grad': the name is taken}}
func.func @construct(%x: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
func.func @construct_grad(%x: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}

// -----

// expected-error@+1 {{ms-autodiff: '@construct' has no body to differentiate}}
func.func private @construct(tensor<3xf32>) -> tensor<3xf32>
