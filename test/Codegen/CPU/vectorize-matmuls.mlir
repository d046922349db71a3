// ms-vectorize-matmuls shares a matmul out over the threads as an scf.forall
// and moves the zero fill of its init into it, so each thread zeroes the
// chunk it then accumulates into (one parallel region, not two). A serial
// tail also reads the fill, so the fill stays outside then; an init that is
// no fill is left alone. Fixed targets, so the tiles do not depend on the
// host.
// RUN: ms-opt %s --ms-vectorize-matmuls="num-threads=2 vector-lanes=8 vector-registers=16 l1-kib=32 l2-kib=512" --split-input-file | FileCheck %s
// RUN: ms-opt %s --ms-vectorize-matmuls="num-threads=1 vector-lanes=8 vector-registers=16 l1-kib=32 l2-kib=512" --split-input-file | FileCheck %s --check-prefix=SERIAL

// 24 rows: 12 a thread, each two 6 x 16 register tiles of contractions.
// CHECK-LABEL: func @rows
// CHECK-SAME: micro_tile = array<i64: 6, 16>{{.*}}threads = 2
// CHECK-NOT: linalg.fill
// CHECK: scf.forall (%{{.*}}) in (2) shared_outs(%[[OUT:.*]] = %{{.*}})
// CHECK: %[[CHUNK:.*]] = tensor.extract_slice %[[OUT]][%{{.*}}, 0] [12, 32]
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[CHUNK]] : tensor<12x32xf32>)
// CHECK: vector.contract {{.*}} : vector<6x1xf32>, vector<1x16xf32> into vector<6x16xf32>
// CHECK: scf.forall.in_parallel
// CHECK-NOT: linalg.matmul
// SERIAL-LABEL: func @rows
// SERIAL-SAME: threads = 1
// SERIAL-NOT: scf.forall
// SERIAL: linalg.fill
// SERIAL-NOT: scf.forall
// SERIAL: vector.contract
func.func @rows(%a: tensor<24x16xf32>, %b: tensor<16x32xf32>) -> tensor<24x32xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<24x32xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<24x32xf32>) -> tensor<24x32xf32>
  %m = linalg.matmul ins(%a, %b : tensor<24x16xf32>, tensor<16x32xf32>) outs(%f : tensor<24x32xf32>) -> tensor<24x32xf32>
  return %m : tensor<24x32xf32>
}

// -----

// 25 rows: two chunks of 12, then the last row on one thread, from the
// same fill.
// CHECK-LABEL: func @tail
// CHECK: %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<25x32xf32>)
// CHECK: tensor.extract_slice %[[FILL]][0, 0] [24, 32]
// CHECK: scf.forall (%{{.*}}) in (2)
// CHECK-NOT: linalg.fill
// CHECK: scf.forall.in_parallel
// CHECK: tensor.extract_slice %{{.*}}[24, 0] [1, 32]
func.func @tail(%a: tensor<25x16xf32>, %b: tensor<16x32xf32>) -> tensor<25x32xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<25x32xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<25x32xf32>) -> tensor<25x32xf32>
  %m = linalg.matmul ins(%a, %b : tensor<25x16xf32>, tensor<16x32xf32>) outs(%f : tensor<25x32xf32>) -> tensor<25x32xf32>
  return %m : tensor<25x32xf32>
}

// -----

// One row (batch 1): the columns share out instead, 64 a thread, and the
// schedule says so.
// CHECK-LABEL: func @cols
// CHECK-SAME: micro_tile = array<i64: 1, 64>{{.*}}threads = 2
// CHECK-NOT: linalg.fill
// CHECK: scf.forall (%{{.*}}) in (2) shared_outs(%[[OUT:.*]] = %{{.*}})
// CHECK: %[[CHUNK:.*]] = tensor.extract_slice %[[OUT]][0, %{{.*}}] [1, 64]
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[CHUNK]] : tensor<1x64xf32>)
// CHECK: scf.forall.in_parallel
func.func @cols(%a: tensor<1x16xf32>, %b: tensor<16x128xf32>) -> tensor<1x128xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x128xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x128xf32>) -> tensor<1x128xf32>
  %m = linalg.matmul ins(%a, %b : tensor<1x16xf32>, tensor<16x128xf32>) outs(%f : tensor<1x128xf32>) -> tensor<1x128xf32>
  return %m : tensor<1x128xf32>
}

// -----

// An init that is no fill (an accumulation into %c) is the forall's shared
// output as it is.
// CHECK-LABEL: func @accumulate
// CHECK-SAME: %[[C:[a-z0-9]+]]: tensor<24x32xf32>
// CHECK-NOT: linalg.fill
// CHECK: scf.forall (%{{.*}}) in (2) shared_outs(%{{.*}} = %[[C]])
// CHECK-NOT: linalg.fill
// CHECK: return
func.func @accumulate(%a: tensor<24x16xf32>, %b: tensor<16x32xf32>, %c: tensor<24x32xf32>) -> tensor<24x32xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<24x16xf32>, tensor<16x32xf32>) outs(%c : tensor<24x32xf32>) -> tensor<24x32xf32>
  return %m : tensor<24x32xf32>
}
