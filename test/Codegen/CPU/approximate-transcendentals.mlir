// RUN: ms-opt %s --ms-approximate-transcendentals | FileCheck %s
// RUN: ms-opt %s --ms-approximate-transcendentals \
// RUN:   | FileCheck %s --check-prefix=INRANGE
// RUN: ms-opt %s --ms-approximate-transcendentals --convert-math-to-llvm \
// RUN:   --convert-arith-to-llvm --convert-func-to-llvm \
// RUN:   --reconcile-unrealized-casts | FileCheck %s --check-prefix=LLVM

// f32 exp, log, tanh and erf, scalar or vector, become arithmetic: no math
// op but fma, absf and copysign (exact, lowered to LLVM intrinsics) remains,
// and no call.
// CHECK-NOT: math.exp
// CHECK-NOT: math.log
// CHECK-NOT: math.tanh
// CHECK-NOT: math.erf
// CHECK-NOT: call
// LLVM-NOT: llvm.call
// LLVM-NOT: llvm.intr.exp{{.*}}f32
// LLVM-NOT: llvm.intr.log{{.*}}f32
// LLVM-NOT: llvm.func @{{.*}}f(

// exp: clamp (NaN-free), round k by the 1.5 * 2^23 shift, two-part ln2
// reduction by fma, a degree-6 Horner polynomial, and 2^k applied as two
// exact powers of two; NaN restored at the end.
// CHECK-LABEL: func @exp_vector
// CHECK-SAME: (%[[X:.*]]: vector<16xf32>)
// CHECK: %[[MIN:.*]] = arith.minnumf %[[X]], %{{.*}} : vector<16xf32>
// CHECK: %[[XC:.*]] = arith.maxnumf %[[MIN]], %{{.*}} : vector<16xf32>
// CHECK: arith.constant dense<0x4B400000> : vector<16xf32>
// CHECK: %[[K:.*]] = arith.subf
// CHECK: %[[NK:.*]] = arith.negf %[[K]]
// CHECK: %[[R0:.*]] = math.fma %[[NK]], %{{.*}}, %[[XC]] : vector<16xf32>
// CHECK: %[[R:.*]] = math.fma %[[NK]], %{{.*}}, %[[R0]] : vector<16xf32>
// CHECK-COUNT-6: math.fma %{{.*}}, %[[R]], %{{.*}} : vector<16xf32>
// CHECK: arith.fptosi %[[K]] : vector<16xf32> to vector<16xi32>
// CHECK: arith.shrsi
// CHECK: arith.bitcast %{{.*}} : vector<16xi32> to vector<16xf32>
// CHECK: arith.mulf
// CHECK: arith.bitcast %{{.*}} : vector<16xi32> to vector<16xf32>
// CHECK: %[[RES:.*]] = arith.mulf
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : vector<16xf32>
// CHECK: %[[OUT:.*]] = arith.select %[[NAN]], %[[X]], %[[RES]]
// CHECK: return %[[OUT]]
func.func @exp_vector(%x: vector<16xf32>) -> vector<16xf32> {
  %0 = math.exp %x : vector<16xf32>
  return %0 : vector<16xf32>
}

// log: denormals scaled by 2^23, exponent and mantissa split by bit
// operations, log1p of the reduced mantissa as a polynomial, the exponent
// times a two-part ln2; then +inf, x < 0, +-0 and NaN.
// CHECK-LABEL: func @log_scalar
// CHECK-SAME: (%[[X:.*]]: f32)
// CHECK: %[[DEN:.*]] = arith.cmpf olt, %[[X]], %{{.*}} : f32
// CHECK: arith.bitcast %{{.*}} : f32 to i32
// CHECK: arith.shrsi
// CHECK: arith.andi
// CHECK: arith.ori
// CHECK: arith.sitofp
// CHECK-COUNT-8: math.fma
// CHECK: %[[INF:.*]] = arith.constant 0x7F800000 : f32
// CHECK: arith.cmpf oeq, %[[X]], %[[INF]]
// CHECK: %[[NEG:.*]] = arith.cmpf olt, %[[X]]
// CHECK: %[[QNAN:.*]] = arith.constant 0x7FC00000 : f32
// CHECK: arith.select %[[NEG]], %[[QNAN]]
// CHECK: %[[ZERO:.*]] = arith.cmpf oeq, %[[X]]
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: arith.select %[[ZERO]], %[[NINF]]
// CHECK: arith.cmpf uno, %[[X]], %[[X]]
// CHECK: arith.select
// CHECK-NEXT: return
func.func @log_scalar(%x: f32) -> f32 {
  %0 = math.log %x : f32
  return %0 : f32
}

// tanh: odd polynomial below 0.875, 1 - 2 / (exp(2|x|) + 1) above, sign
// copied from x. |x| is clamped to 10 once: exp's own clamps to
// [-104, 89] would be no-ops on 2 min(|x|, 10), and k is rounded from
// min(|x|, 10) * (2 log2 e), the same product as (2 min(|x|, 10)) * log2 e.
// 2^k (k in [0, 29]) is applied in one exact product, not two (INRANGE).
// CHECK-LABEL: func @tanh_vector
// CHECK-SAME: (%[[X:.*]]: vector<8xf32>)
// CHECK: %[[A:.*]] = math.absf %[[X]]
// CHECK: %[[AC:.*]] = arith.minnumf %[[A]]
// CHECK: %[[TWICE:.*]] = arith.addf %[[AC]], %[[AC]]
// CHECK: %[[L2E:.*]] = arith.constant dense<2.885390{{[0-9]*}}e+00>
// CHECK: %[[KX:.*]] = arith.mulf %[[AC]], %[[L2E]]
// CHECK: arith.addf %[[KX]]
// CHECK: math.fma %{{.*}}, %{{.*}}, %[[TWICE]]
// CHECK: arith.divf
// CHECK: %[[SEL:.*]] = arith.select
// CHECK: math.copysign %[[SEL]], %[[X]] : vector<8xf32>
// INRANGE-LABEL: func @tanh_vector
// INRANGE: arith.minnumf
// INRANGE-NOT: arith.m{{in|ax}}numf
// INRANGE-NOT: arith.shrsi
// INRANGE: return
func.func @tanh_vector(%x: vector<8xf32>) -> vector<8xf32> {
  %0 = math.tanh %x : vector<8xf32>
  return %0 : vector<8xf32>
}

// erf: polynomial in x^2 below 1.125, 1 - exp(P(|x| - 2)) above (the exp
// without its clamps or NaN check: P stays in [-17.4, 0); 2^k applied
// once), 1 from 3.92.
// CHECK-LABEL: func @erf_scalar
// CHECK: math.absf
// CHECK-COUNT-8: math.fma
// CHECK: arith.constant 3.920000e+00 : f32
// CHECK: arith.minnumf
// CHECK-COUNT-9: math.fma
// CHECK: math.copysign
// CHECK: arith.cmpf uno
// CHECK-NOT: arith.cmpf uno
// CHECK: return
// INRANGE-LABEL: func @erf_scalar
// INRANGE: arith.minnumf
// INRANGE-NOT: arith.m{{in|ax}}numf
// INRANGE-NOT: arith.shrsi
// INRANGE: return
func.func @erf_scalar(%x: f32) -> f32 {
  %0 = math.erf %x : f32
  return %0 : f32
}

// exp(-|x|) (sigmoid's): the argument is at most -0, so only the lower
// clamp remains; NaN still clamps to a number and is restored at the end.
// CHECK-LABEL: func @exp_of_negated_abs
// CHECK-NOT: arith.minnumf
// CHECK: arith.maxnumf
// CHECK-NOT: arith.minnumf
// CHECK: arith.cmpf uno
// CHECK: return
func.func @exp_of_negated_abs(%x: vector<16xf32>) -> vector<16xf32> {
  %a = math.absf %x : vector<16xf32>
  %n = arith.negf %a : vector<16xf32>
  %0 = math.exp %n : vector<16xf32>
  return %0 : vector<16xf32>
}

// Multi-dimensional vectors keep their shape.
// CHECK-LABEL: func @exp_2d
// CHECK: math.fma %{{.*}} : vector<2x4xf32>
// CHECK: arith.bitcast %{{.*}} : vector<2x4xi32> to vector<2x4xf32>
func.func @exp_2d(%x: vector<2x4xf32>) -> vector<2x4xf32> {
  %0 = math.exp %x : vector<2x4xf32>
  return %0 : vector<2x4xf32>
}

// Other element types are left alone (ms computes in f32).
// CHECK-LABEL: func @exp_f64
// CHECK: math.exp %{{.*}} : f64
func.func @exp_f64(%x: f64) -> f64 {
  %0 = math.exp %x : f64
  return %0 : f64
}
