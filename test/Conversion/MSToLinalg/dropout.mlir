// RUN: ms-opt %s --convert-ms-to-linalg | FileCheck %s

// Training-mode dropout: seed and offset are read from rng_state; each
// element's mask is Philox4x32-10 of (row-major index, offset) under the
// seed, computed in the elementwise body: 10 rounds of two 32x32->64
// multiplies. p = 0.25 keeps words >= 0.25 * 2^32 = 1073741824 and scales
// the kept elements by 1 / (1 - p).
// CHECK-LABEL: func @dropout_training
// CHECK: tensor.extract %{{.*}}[%{{.*}}] : tensor<2xi64>
// CHECK: tensor.extract %{{.*}}[%{{.*}}] : tensor<2xi64>
// CHECK: linalg.generic
// CHECK: linalg.index 0
// CHECK: linalg.index 1
// CHECK-COUNT-20: arith.mului_extended
// CHECK: %[[T:.*]] = arith.constant 1073741824 : i32
// CHECK: %[[KEEP:.*]] = arith.cmpi uge, %{{.*}}, %[[T]] : i32
// CHECK: %[[S:.*]] = arith.constant 1.33333337 : f32
// CHECK: %[[SCALED:.*]] = arith.mulf %{{.*}}, %[[S]] : f32
// CHECK: arith.select %[[KEEP]], %[[SCALED]], %{{.*}} : f32
func.func @dropout_training(%x: tensor<4x8xf32>, %s: tensor<2xi64>) -> tensor<4x8xf32> {
  %0 = ms.dropout %x, %s {p = 0.25 : f32, training} : tensor<4x8xf32>, tensor<2xi64>
  return %0 : tensor<4x8xf32>
}

// At inference it is the identity.
// CHECK-LABEL: func @dropout_inference
// CHECK-NEXT: return %arg0
func.func @dropout_inference(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = ms.dropout %x {p = 0.25 : f32} : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
