// ms-widen-half-precision: f16/bf16 compute ops run on f32 between ms.casts
// (one rounding per op); data movement, comparisons, select and casts stay
// in half precision; other dtypes are untouched.
// RUN: ms-opt %s --ms-widen-half-precision | FileCheck %s
// RUN: ms-opt %s --ms-widen-half-precision --canonicalize | FileCheck %s --check-prefix=CANON

// CHECK-LABEL: func @chain
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf16>, %[[W:.*]]: tensor<8x3xf16>)
// CHECK: %[[XW:.*]] = ms.cast %[[X]] to f32 : tensor<4x8xf16>
// CHECK: %[[WW:.*]] = ms.cast %[[W]] to f32 : tensor<8x3xf16>
// CHECK: %[[MM:.*]] = ms.matmul %[[XW]], %[[WW]] : tensor<4x8xf32>, tensor<8x3xf32>
// CHECK: %[[MMH:.*]] = ms.cast %[[MM]] to f16 : tensor<4x3xf32>
// CHECK: %[[T:.*]] = ms.transpose %[[MMH]] perm [1, 0] : tensor<4x3xf16>
// CHECK: %[[TW:.*]] = ms.cast %[[T]] to f32 : tensor<3x4xf16>
// CHECK: %[[S:.*]] = ms.softmax %[[TW]] axis -1 : tensor<3x4xf32>
// CHECK: %[[SH:.*]] = ms.cast %[[S]] to f16 : tensor<3x4xf32>
// CHECK: %[[G:.*]] = ms.greater %[[SH]], %[[SH]] : tensor<3x4xf16>, tensor<3x4xf16>
// CHECK: return %[[SH]], %[[G]]
// The round trip between two ops is one rounding each; canonicalization
// keeps it.
// CANON-LABEL: func @chain
// CANON: ms.cast %{{.*}} to f16 : tensor<4x3xf32>
// CANON: ms.cast %{{.*}} to f32 : tensor<3x4xf16>
func.func @chain(%x: tensor<4x8xf16>, %w: tensor<8x3xf16>) -> (tensor<3x4xf16>, tensor<3x4xi1>) {
  %0 = ms.matmul %x, %w : tensor<4x8xf16>, tensor<8x3xf16>
  %1 = ms.transpose %0 perm [1, 0] : tensor<4x3xf16>
  %2 = ms.softmax %1 axis -1 : tensor<3x4xf16>
  %3 = ms.greater %2, %2 : tensor<3x4xf16>, tensor<3x4xf16>
  return %2, %3 : tensor<3x4xf16>, tensor<3x4xi1>
}

// bf16 alike; only the float operands of a mixed op are cast.
// CHECK-LABEL: func @bf16_mixed
// CHECK: %[[XW:.*]] = ms.cast %{{.*}} to f32 : tensor<4xbf16>
// CHECK: %[[D:.*]] = ms.dropout %[[XW]], %{{.*}} {training} : tensor<4xf32>, tensor<2xi64>
// CHECK: ms.cast %[[D]] to bf16 : tensor<4xf32>
func.func @bf16_mixed(%x: tensor<4xbf16>, %s: tensor<2xi64>) -> tensor<4xbf16> {
  %0 = ms.dropout %x, %s {p = 5.000000e-01 : f32, training} : tensor<4xbf16>, tensor<2xi64>
  return %0 : tensor<4xbf16>
}

// f32, f64 and integer ops are left alone.
// CHECK-LABEL: func @others
// CHECK-NOT: ms.cast
// CHECK: ms.exp %{{.*}} : tensor<4xf64>
// CHECK: ms.add %{{.*}}, %{{.*}} : tensor<4xi8>, tensor<4xi8>
func.func @others(%d: tensor<4xf64>, %i: tensor<4xi8>) -> (tensor<4xf64>, tensor<4xi8>) {
  %0 = ms.exp %d : tensor<4xf64>
  %1 = ms.add %i, %i : tensor<4xi8>, tensor<4xi8>
  return %0, %1 : tensor<4xf64>, tensor<4xi8>
}
