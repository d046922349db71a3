// RUN: ms-opt %s --convert-ms-to-linalg | FileCheck %s

// Float pow is math.powf in one broadcasting generic.
// CHECK-LABEL: func @pow_f32
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x5xf32>, tensor<5xf32>)
// CHECK: math.powf %{{.*}}, %{{.*}} : f32
func.func @pow_f32(%x: tensor<4x5xf32>, %y: tensor<5xf32>) -> tensor<4x5xf32> {
  %0 = ms.pow %x, %y : tensor<4x5xf32>, tensor<5xf32>
  return %0 : tensor<4x5xf32>
}

// Integer pow squares over every exponent bit (8 for i8) and selects the
// truncated reciprocal for a negative exponent.
// CHECK-LABEL: func @pow_i8
// CHECK-COUNT-8: arith.shrui
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : i8
// CHECK: arith.select %[[NEG]]
func.func @pow_i8(%x: tensor<3xi8>, %y: tensor<3xi8>) -> tensor<3xi8> {
  %0 = ms.pow %x, %y : tensor<3xi8>, tensor<3xi8>
  return %0 : tensor<3xi8>
}

// Signed floor division: a safe divisor of 1 for 0 and -1, truncating
// divsi/remsi, one step down where the remainder's sign differs; -x for a
// divisor of -1 and 0 for a divisor of 0.
// CHECK-LABEL: func @floor_div_i32
// CHECK: %[[ZERO:.*]] = arith.cmpi eq, %[[B:.*]], %{{.*}} : i32
// CHECK: %[[M1:.*]] = arith.cmpi eq, %[[B]], %{{.*}} : i32
// CHECK: %[[SPECIAL:.*]] = arith.ori %[[ZERO]], %[[M1]] : i1
// CHECK: %[[SAFE:.*]] = arith.select %[[SPECIAL]], %{{.*}}, %[[B]] : i32
// CHECK: %[[Q:.*]] = arith.divsi %[[A:.*]], %[[SAFE]] : i32
// CHECK: arith.remsi %[[A]], %[[SAFE]] : i32
// CHECK: arith.xori
// CHECK: %[[QM1:.*]] = arith.subi %[[Q]], %{{.*}} : i32
// CHECK: %[[FLOOR:.*]] = arith.select %{{.*}}, %[[QM1]], %[[Q]] : i32
// CHECK: %[[NEGA:.*]] = arith.subi %{{.*}}, %[[A]] : i32
// CHECK: %[[R:.*]] = arith.select %[[M1]], %[[NEGA]], %[[FLOOR]] : i32
// CHECK: %[[OUT:.*]] = arith.select %[[ZERO]], %{{.*}}, %[[R]] : i32
// CHECK: linalg.yield %[[OUT]] : i32
func.func @floor_div_i32(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32> {
  %0 = ms.floor_div %x, %y : tensor<4xi32>, tensor<4xi32>
  return %0 : tensor<4xi32>
}

// Unsigned operands are stored as signless i8 (StorageTypes.cpp) and divide
// with divui.
// CHECK-LABEL: func @floor_div_ui8
// CHECK-SAME: (%{{.*}}: tensor<4xi8>, %{{.*}}: tensor<4xi8>) -> tensor<4xi8>
// CHECK: linalg.generic
// CHECK: arith.divui
func.func @floor_div_ui8(%x: tensor<4xui8>, %y: tensor<4xui8>) -> tensor<4xui8> {
  %0 = ms.floor_div %x, %y : tensor<4xui8>, tensor<4xui8>
  return %0 : tensor<4xui8>
}

// Float floor division is numpy's: (a - fmod(a, b)) / b, stepped and
// rounded to the floor; b = 0 gives a / b.
// CHECK-LABEL: func @floor_div_f64
// CHECK: %[[MOD:.*]] = arith.remf %[[A:.*]], %[[B:.*]] : f64
// CHECK: %[[DIFF:.*]] = arith.subf %[[A]], %[[MOD]] : f64
// CHECK: arith.divf %[[DIFF]], %[[B]] : f64
// CHECK: math.floor
// CHECK: %[[Q:.*]] = arith.divf %[[A]], %[[B]] : f64
// CHECK: %[[BZERO:.*]] = arith.cmpf oeq, %[[B]], %{{.*}} : f64
// CHECK: arith.select %[[BZERO]], %[[Q]], %{{.*}} : f64
func.func @floor_div_f64(%x: tensor<2xf64>, %y: tensor<f64>) -> tensor<2xf64> {
  %0 = ms.floor_div %x, %y : tensor<2xf64>, tensor<f64>
  return %0 : tensor<2xf64>
}

// Float remainder: fmod stepped by b where the signs differ, a zero of b's
// sign for an exact division.
// CHECK-LABEL: func @floor_mod_f32
// CHECK: %[[MOD:.*]] = arith.remf %{{.*}}, %[[B:.*]] : f32
// CHECK: %[[NZ:.*]] = arith.cmpf une, %[[MOD]], %{{.*}} : f32
// CHECK: %[[SUM:.*]] = arith.addf %[[MOD]], %[[B]] : f32
// CHECK: %[[STEPPED:.*]] = arith.select %{{.*}}, %[[SUM]], %[[MOD]] : f32
// CHECK: %[[SZ:.*]] = math.copysign %{{.*}}, %[[B]] : f32
// CHECK: arith.select %[[NZ]], %[[STEPPED]], %[[SZ]] : f32
func.func @floor_mod_f32(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ms.floor_mod %x, %y : tensor<4xf32>, tensor<4xf32>
  return %0 : tensor<4xf32>
}

// fmod: arith.remf for floats, a guarded remsi for integers.
// CHECK-LABEL: func @fmod
// CHECK: arith.remf %{{.*}}, %{{.*}} : f32
// CHECK: %[[SAFE:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : i64
// CHECK: arith.remsi %{{.*}}, %[[SAFE]] : i64
func.func @fmod(%x: tensor<4xf32>, %i: tensor<4xi64>) -> (tensor<4xf32>, tensor<4xi64>) {
  %0 = ms.fmod %x, %x : tensor<4xf32>, tensor<4xf32>
  %1 = ms.fmod %i, %i : tensor<4xi64>, tensor<4xi64>
  return %0, %1 : tensor<4xf32>, tensor<4xi64>
}
