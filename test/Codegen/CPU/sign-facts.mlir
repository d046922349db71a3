// RUN: ms-opt %s --ms-sign-facts --split-input-file | FileCheck %s
// RUN: ms-opt %s --ms-sign-facts --ms-approximate-transcendentals \
// RUN:   --split-input-file | FileCheck %s --check-prefix=EXPANDED
// RUN: ms-opt %s --ms-sign-facts=rewrite-maximum=false --split-input-file \
// RUN:   | FileCheck %s --check-prefix=KEEPMAX

// tanh of max(|x|, y): its sign bit is clear unless NaN, so the tanh is
// marked, and it expands without |x| and copysign.
// CHECK-LABEL: func @tanh_of_max_of_abs
// CHECK: %[[A:.*]] = math.absf %arg0
// CHECK: %[[GT:.*]] = arith.cmpf ogt, %arg1, %[[A]]
// CHECK: %[[L:.*]] = arith.select %[[GT]], %arg1, %[[A]]
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %arg1, %arg1
// CHECK: %[[M:.*]] = arith.select %[[NAN]], %arg1, %[[L]]
// CHECK-NOT: arith.maximumf
// CHECK: math.tanh %[[M]] {ms.sign_clear_operand}
// EXPANDED-LABEL: func @tanh_of_max_of_abs
// EXPANDED: math.absf
// EXPANDED-NOT: math.absf
// EXPANDED-NOT: math.copysign
// EXPANDED: return
// Without the maximum rewrite the tanh is marked all the same.
// KEEPMAX-LABEL: func @tanh_of_max_of_abs
// KEEPMAX: %[[M:.*]] = arith.maximumf
// KEEPMAX: math.tanh %[[M]] {ms.sign_clear_operand}
func.func @tanh_of_max_of_abs(%x: vector<16xf32>, %y: vector<16xf32>)
    -> vector<16xf32> {
  %a = math.absf %x : vector<16xf32>
  %m = arith.maximumf %a, %y : vector<16xf32>
  %t = math.tanh %m : vector<16xf32>
  return %t : vector<16xf32>
}

// Unknown signs: no mark, and the expansion keeps its sign handling.
// CHECK-LABEL: func @tanh_of_unknown_sign
// CHECK: math.tanh %{{.*}} : vector<16xf32>
// CHECK-NOT: ms.sign_clear_operand
// EXPANDED-LABEL: func @tanh_of_unknown_sign
// EXPANDED: math.absf
// EXPANDED: math.copysign
func.func @tanh_of_unknown_sign(%x: vector<16xf32>, %y: vector<16xf32>)
    -> vector<16xf32> {
  %a = math.absf %x : vector<16xf32>
  %s = arith.addf %a, %y : vector<16xf32>
  %t = math.tanh %s : vector<16xf32>
  return %t : vector<16xf32>
}

// -----

// Sums, products and quotients of such values, an exp, a constant with a
// clear sign bit: erf's operand's sign bit is clear unless NaN.
// CHECK-LABEL: func @erf_of_products
// CHECK: math.erf %{{.*}} {ms.sign_clear_operand} : f32
// EXPANDED-LABEL: func @erf_of_products
// EXPANDED-NOT: math.copysign
// EXPANDED: return
func.func @erf_of_products(%x: f32, %y: f32) -> f32 {
  %c = arith.constant 0.5 : f32
  %e = math.exp %x : f32
  %a = math.absf %y : f32
  %p = arith.mulf %e, %c : f32
  %q = arith.divf %p, %a : f32
  %s = arith.addf %q, %e : f32
  %r = math.erf %s : f32
  return %r : f32
}

// gelu's tanh form on m = 3 max(|x|, y): tanh's operand reads |x| through
// seven ops, c (m + k m^3).
// CHECK-LABEL: func @gelu_tanh_form
// CHECK: math.tanh %{{.*}} {ms.sign_clear_operand} : f32
func.func @gelu_tanh_form(%x: f32, %y: f32) -> f32 {
  %three = arith.constant 3.0 : f32
  %k = arith.constant 0.044715 : f32
  %c = arith.constant 0.797884583 : f32
  %a = math.absf %x : f32
  %mx = arith.maximumf %a, %y : f32
  %m = arith.mulf %mx, %three : f32
  %m2 = arith.mulf %m, %m : f32
  %m3 = arith.mulf %m2, %m : f32
  %km3 = arith.mulf %m3, %k : f32
  %s = arith.addf %m, %km3 : f32
  %u = arith.mulf %s, %c : f32
  %t = math.tanh %u : f32
  return %t : f32
}

// relu (max with +0) has a clear sign bit unless NaN; -0 as a constant
// has not.
// CHECK-LABEL: func @tanh_of_relu
// CHECK: math.tanh %{{.*}} {ms.sign_clear_operand}
// CHECK: math.tanh %{{.*}} : f32
// CHECK-NOT: ms.sign_clear_operand
func.func @tanh_of_relu(%x: f32) -> (f32, f32) {
  %zero = arith.constant 0.0 : f32
  %negzero = arith.constant -0.0 : f32
  %r = arith.maximumf %x, %zero : f32
  %t = math.tanh %r : f32
  %n = arith.minimumf %x, %negzero : f32
  %u = math.tanh %n : f32
  return %t, %u : f32, f32
}

// -----

// A maximum is rewritten only when its first operand's sign bit is clear,
// NaN included, and only on vectors: the sign test orders the operands by
// the first one, and the rewrite repeats the backend's vector expansion.
// CHECK-LABEL: func @maximums_left_alone
// CHECK: arith.maximumf %arg1, %{{.*}} : vector<16xf32>
// CHECK: arith.maximumf %{{.*}}, %arg3 : f32
// CHECK: arith.maximumf %{{.*}}, %arg1 : vector<16xf32>
func.func @maximums_left_alone(%x: vector<16xf32>, %y: vector<16xf32>,
                               %s: f32, %t: f32) -> (vector<16xf32>, f32,
                                                    vector<16xf32>) {
  %a = math.absf %x : vector<16xf32>
  %m = arith.maximumf %y, %a : vector<16xf32>
  %sa = math.absf %s : f32
  %sm = arith.maximumf %sa, %t : f32
  // relu's result may be a NaN with its sign bit set.
  %zero = arith.constant dense<0.0> : vector<16xf32>
  %r = arith.maximumf %x, %zero : vector<16xf32>
  %rm = arith.maximumf %r, %y : vector<16xf32>
  return %m, %sm, %rm : vector<16xf32>, f32, vector<16xf32>
}

// A constant of clear-signed values, a NaN among them.
// CHECK-LABEL: func @maximum_of_constant
// CHECK: arith.cmpf ogt
// CHECK-NOT: arith.maximumf
// KEEPMAX-LABEL: func @maximum_of_constant
// KEEPMAX: arith.maximumf
func.func @maximum_of_constant(%y: vector<4xf32>) -> vector<4xf32> {
  %c = arith.constant dense<[0.0, 1.0, 2.0, 0x7FC00000]> : vector<4xf32>
  %m = arith.maximumf %c, %y : vector<4xf32>
  return %m : vector<4xf32>
}

// CHECK-LABEL: func @maximum_of_negative_zero_constant
// CHECK: arith.maximumf
func.func @maximum_of_negative_zero_constant(%y: vector<2xf32>)
    -> vector<2xf32> {
  %c = arith.constant dense<[1.0, -0.0]> : vector<2xf32>
  %m = arith.maximumf %c, %y : vector<2xf32>
  return %m : vector<2xf32>
}
