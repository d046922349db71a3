// O1's elementwise fusion, bounded: a chain fuses into kernels whose bodies
// hold at most max-body-ops operations (the yield counts), so a long chain
// compiles in linear time; below the bound it is linalg-fuse-elementwise-ops.
// RUN: ms-opt %s --convert-ms-to-linalg --ms-fuse-elementwise | FileCheck %s --check-prefix=WHOLE
// RUN: ms-opt %s --convert-ms-to-linalg --ms-fuse-elementwise=max-body-ops=4 | FileCheck %s --check-prefix=BOUND
// RUN: ms-opt %s --convert-ms-to-linalg --linalg-fuse-elementwise-ops | FileCheck %s --check-prefix=WHOLE

// Six adds: one kernel by default, as upstream makes it.
// WHOLE-LABEL: func.func @chain(
// WHOLE-COUNT-1: linalg.generic
// WHOLE-COUNT-6: arith.addf
// WHOLE-NOT: linalg.generic
// With a bound of 4 body ops: kernels of 3 adds and a yield, then the rest.
// BOUND-LABEL: func.func @chain(
// BOUND: %[[A:.*]] = linalg.generic
// BOUND-COUNT-3: arith.addf
// BOUND: linalg.yield
// BOUND: linalg.generic {{.*}} ins(%[[A]]
// BOUND-COUNT-3: arith.addf
// BOUND: linalg.yield
// BOUND-NOT: linalg.generic
func.func @chain(%x: tensor<64xf32>) -> tensor<64xf32> {
  %0 = ms.add %x, %x : tensor<64xf32>, tensor<64xf32>
  %1 = ms.add %0, %x : tensor<64xf32>, tensor<64xf32>
  %2 = ms.add %1, %x : tensor<64xf32>, tensor<64xf32>
  %3 = ms.add %2, %x : tensor<64xf32>, tensor<64xf32>
  %4 = ms.add %3, %x : tensor<64xf32>, tensor<64xf32>
  %5 = ms.add %4, %x : tensor<64xf32>, tensor<64xf32>
  return %5 : tensor<64xf32>
}
