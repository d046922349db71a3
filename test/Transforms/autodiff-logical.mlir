// ms-autodiff through select, training dropout and casts: the comparison
// carries no cotangent, dropout's is the same dropout (same rng_state, so
// the same mask), select's goes to the chosen operand, a float cast casts
// back.
// RUN: ms-opt %s --ms-autodiff='func=f wrt=0,1' | FileCheck %s

// CHECK-LABEL: func.func @f_grad(
// CHECK-SAME: %[[X:[^:]*]]: tensor<4x3xf32>, %[[Y:[^:]*]]: tensor<3xf32>, %[[S:[^:]*]]: tensor<2xi64>, %[[DY:[^:]*]]: tensor<4x3xf32>)
// CHECK: %[[M:.*]] = ms.greater %[[X]], %[[Y]]
// CHECK: %[[C1:.*]] = ms.cast %[[DY]] to f16 : tensor<4x3xf32>
// CHECK: %[[C2:.*]] = ms.cast %[[C1]] to f32 : tensor<4x3xf16>
// CHECK: %[[D:.*]] = ms.dropout %[[C2]], %[[S]] {p = 2.500000e-01 : f32, training}
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<f32>
// CHECK: %[[DX:.*]] = ms.select %[[M]], %[[D]], %[[ZERO]]
// CHECK: %[[DYF:.*]] = ms.select %[[M]], %[[ZERO]], %[[D]]
// CHECK: %[[SUM:.*]] = ms.reduce_sum %[[DYF]] axes [0] keep_dims
// CHECK: %[[DYS:.*]] = ms.reshape %[[SUM]] to [3]
// CHECK: return %{{.*}}, %[[DX]], %[[DYS]]
func.func @f(%x: tensor<4x3xf32>, %y: tensor<3xf32>, %s: tensor<2xi64>) -> tensor<4x3xf32> {
  %m = ms.greater %x, %y : tensor<4x3xf32>, tensor<3xf32>
  %0 = ms.select %m, %x, %y : tensor<4x3xi1>, tensor<4x3xf32>, tensor<3xf32>
  %1 = ms.dropout %0, %s {p = 2.500000e-01 : f32, training} : tensor<4x3xf32>, tensor<2xi64>
  %2 = ms.cast %1 to f16 : tensor<4x3xf32>
  %3 = ms.cast %2 to f32 : tensor<4x3xf16>
  return %3 : tensor<4x3xf32>
}
