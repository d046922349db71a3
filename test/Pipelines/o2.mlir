// O2: register-tiled vectorized matmul (vector.contract, then vector.fma),
// rows split over threads (scf.forall, then omp.parallel/omp.wsloop), on a
// shape nothing divides evenly (batch 37, 300 -> 70).
// RUN: ms-opt %s --pass-pipeline="builtin.module(canonicalize,convert-ms-to-linalg,ms-decompose-aggregates,ms-transpose-matmul-operands,canonicalize,ms-vectorize-matmuls{num-threads=2 vector-lanes=8 l1-kib=32 l2-kib=512})" | FileCheck %s --check-prefix=VEC
// RUN: ms-opt %s --ms-pipeline-O2=num-threads=2 | FileCheck %s --check-prefix=LLVM
// RUN: ms-opt %s --ms-pipeline-O2=num-threads=1 | FileCheck %s --check-prefix=SERIAL

// 60 rows over two threads, 30 each: 5 tiles of 6 rows; columns 2 x 16 + 5.
// VEC: scf.forall (%{{.*}}) in (2)
// VEC: vector.contract {{.*}} : vector<6x1xf32>, vector<1x16xf32> into vector<6x16xf32>
// VEC: vector.contract {{.*}} : vector<6x1xf32>, vector<1x5xf32> into vector<6x5xf32>
// The leftover 70 - 60 = 10 rows, on one thread: 6-row tiles, then 4 rows.
// VEC: vector.contract {{.*}} : vector<6x1xf32>, vector<1x16xf32> into vector<6x16xf32>
// VEC: vector.contract {{.*}} : vector<6x1xf32>, vector<1x5xf32> into vector<6x5xf32>
// VEC: vector.contract {{.*}} : vector<4x1xf32>, vector<1x16xf32> into vector<4x16xf32>
// VEC: vector.contract {{.*}} : vector<4x1xf32>, vector<1x5xf32> into vector<4x5xf32>

// LLVM: omp.parallel
// LLVM: omp.wsloop
// Rows of two vectors: 2 x 8 lanes, or 2 x 16 where 512-bit FMAs run at full
// width (TileSizeModel's matmulLanes, from the host).
// LLVM: llvm.intr.fma({{.*}}) : (vector<[[W:16|32]]xf32>, vector<[[W]]xf32>, vector<[[W]]xf32>) -> vector<[[W]]xf32>
// LLVM-NOT: fmuladd
// LLVM: llvm.func @_mlir_ciface_construct
// SERIAL-NOT: omp.
// SERIAL: llvm.intr.fma({{.*}}) : (vector<{{16|32}}xf32>
func.func @construct(%x: tensor<37x300xf32>, %w: tensor<70x300xf32> {ms.param = "fc.weight"},
                     %b: tensor<70xf32> {ms.param = "fc.bias"}) -> tensor<37x70xf32> {
  %0 = ms.dense %x, %w, %b : tensor<37x300xf32>, tensor<70x300xf32>, tensor<70xf32>
  %1 = ms.relu %0 : tensor<37x70xf32>
  return %1 : tensor<37x70xf32>
}
