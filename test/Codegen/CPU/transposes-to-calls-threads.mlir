// With threads, a large transpose outside parallel loops becomes one call
// per band of output rows in an scf.forall (chooseTransposeBand: a multiple
// of 8 rows, at most one band per thread, the last band clamped). Small
// transposes, dynamic ones and those already in a thread's share stay whole.
// RUN: ms-opt %s --ms-transposes-to-calls=num-threads=2 --split-input-file | FileCheck %s
// RUN: ms-opt %s --ms-transposes-to-calls --split-input-file | FileCheck %s --check-prefix=ONE

// CHECK-DAG: #[[OFF:.*]] = affine_map<(d0) -> (d0 * 392)>
// CHECK-DAG: #[[SIZE:.*]] = affine_map<(d0) -> (392, d0 * -392 + 784)>
// CHECK-LABEL: func @x_transposed
// CHECK-SAME: (%[[X:.*]]: memref<64x784xf32>, %[[XT:.*]]: memref<784x64xf32>)
// CHECK: scf.forall (%[[I:.*]]) in (2) {
// CHECK:   %[[O:.*]] = affine.apply #[[OFF]](%[[I]])
// CHECK:   %[[S:.*]] = affine.min #[[SIZE]](%[[I]])
// CHECK:   %[[IN:.*]] = memref.subview %[[X]][0, %[[O]]] [64, %[[S]]] [1, 1]
// CHECK:   %[[OUT:.*]] = memref.subview %[[XT]][%[[O]], 0] [%[[S]], 64] [1, 1]
// CHECK:   %[[CIN:.*]] = memref.cast %[[IN]]
// CHECK:   %[[COUT:.*]] = memref.cast %[[OUT]]
// CHECK:   func.call @ms_transpose_f32(%[[CIN]], %[[COUT]])
// CHECK: }
// CHECK-NOT: linalg.transpose
// ONE-LABEL: func @x_transposed
// ONE-NOT: scf.forall
// ONE: call @ms_transpose_f32
func.func @x_transposed(%x: memref<64x784xf32>, %xt: memref<784x64xf32>) {
  linalg.transpose ins(%x : memref<64x784xf32>) outs(%xt : memref<784x64xf32>) permutation = [1, 0]
  return
}

// -----

// 100 columns: bands of 56 and 44 rows.
// CHECK-DAG: #[[SIZE:.*]] = affine_map<(d0) -> (56, d0 * -56 + 100)>
// CHECK-LABEL: func @uneven_f64
// CHECK: scf.forall (%{{.*}}) in (2)
// CHECK: affine.min #[[SIZE]]
// CHECK: func.call @ms_transpose_f64
func.func @uneven_f64(%a: memref<1000x100xf64>, %b: memref<100x1000xf64>) {
  linalg.transpose ins(%a : memref<1000x100xf64>) outs(%b : memref<100x1000xf64>) permutation = [1, 0]
  return
}

// -----

// CHECK-LABEL: func @stay_whole
// CHECK-NOT: scf.forall (%{{.*}}) in (2)
// CHECK: call @ms_transpose_f32
// CHECK: scf.forall (%{{.*}}) in (4) {
// CHECK-NOT: scf.forall
// CHECK: call @ms_transpose_f32
// CHECK-NEXT: }
// CHECK: call @ms_transpose_f32
// CHECK-NOT: scf.forall
func.func @stay_whole(%small: memref<64x511xf32>, %smallT: memref<511x64xf32>,
                      %big: memref<512x64xf32>, %bigT: memref<64x512xf32>,
                      %dyn: memref<?x?xf32>, %dynT: memref<?x?xf32>) {
  // Fewer than 32768 elements.
  linalg.transpose ins(%small : memref<64x511xf32>) outs(%smallT : memref<511x64xf32>) permutation = [1, 0]
  // Already one thread's share.
  scf.forall (%i) in (4) {
    linalg.transpose ins(%big : memref<512x64xf32>) outs(%bigT : memref<64x512xf32>) permutation = [1, 0]
  }
  // Sizes unknown here.
  linalg.transpose ins(%dyn : memref<?x?xf32>) outs(%dynT : memref<?x?xf32>) permutation = [1, 0]
  return
}
