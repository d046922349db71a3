// O2: register-tiled vectorized matmul (vector.contract, then vector.fma),
// rows split over threads (scf.forall, then omp.parallel/omp.wsloop), on a
// shape no tile divides evenly (batch 37, 300 -> 70, and 300 -> 71).
// RUN: ms-opt %s --pass-pipeline="builtin.module(canonicalize,convert-ms-to-linalg,ms-decompose-aggregates,ms-transpose-matmul-operands,canonicalize,ms-vectorize-matmuls{num-threads=2 vector-lanes=8 vector-registers=16 l1-kib=32 l2-kib=512})" | FileCheck %s --check-prefix=VEC
// RUN: ms-opt %s --ms-pipeline-O2=num-threads=2 | FileCheck %s --check-prefix=LLVM
// RUN: ms-opt %s --ms-pipeline-O2=num-threads=1 | FileCheck %s --check-prefix=SERIAL

// 70 rows split evenly over two threads, 35 each: 5 tiles of 6 rows and
// one of 5. No rows are left for one thread. Of the 37 columns, 32 are two
// 16-lane tiles; the last 5 would be a 5-lane vector, so the last 8 lanes
// are a tile of their own from column 29, overlapping 3 columns
// (chooseOverlappedColumnStart), and every vector is whole.
// VEC-LABEL: func.func @construct
// VEC: scf.forall (%{{.*}}) in (2) {{.*}} -> (tensor<70x32xf32>)
// VEC: vector.contract {{.*}} : vector<6x1xf32>, vector<1x16xf32> into vector<6x16xf32>
// VEC: vector.contract {{.*}} : vector<5x1xf32>, vector<1x16xf32> into vector<5x16xf32>
// VEC: scf.forall (%{{.*}}) in (2) {{.*}} -> (tensor<70x8xf32>)
// VEC: vector.contract {{.*}} : vector<6x1xf32>, vector<1x8xf32> into vector<6x8xf32>
// VEC: vector.contract {{.*}} : vector<5x1xf32>, vector<1x8xf32> into vector<5x8xf32>
// VEC: tensor.insert_slice {{.*}}[0, 29] [70, 8] [1, 1] : tensor<70x8xf32> into tensor<70x37xf32>
// VEC-NOT: vector<1x5xf32>
// VEC-NOT: vector<4x1xf32>
// VEC-LABEL: func.func @odd_rows
// 71 rows do not split evenly: 60 over two threads, 30 each (5 tiles of 6
// rows); the leftover 11 rows on one thread: a 6-row tile, then 5 rows.
// The columns as above.
// VEC: scf.forall (%{{.*}}) in (2) {{.*}} -> (tensor<60x32xf32>)
// VEC: vector.contract {{.*}} : vector<6x1xf32>, vector<1x16xf32> into vector<6x16xf32>
// VEC: scf.forall.in_parallel
// VEC: vector.contract {{.*}} : vector<6x1xf32>, vector<1x16xf32> into vector<6x16xf32>
// VEC: vector.contract {{.*}} : vector<5x1xf32>, vector<1x16xf32> into vector<5x16xf32>
// VEC: scf.forall (%{{.*}}) in (2) {{.*}} -> (tensor<60x8xf32>)
// VEC: vector.contract {{.*}} : vector<6x1xf32>, vector<1x8xf32> into vector<6x8xf32>
// VEC: scf.forall.in_parallel
// VEC: vector.contract {{.*}} : vector<6x1xf32>, vector<1x8xf32> into vector<6x8xf32>
// VEC: vector.contract {{.*}} : vector<5x1xf32>, vector<1x8xf32> into vector<5x8xf32>
// VEC-NOT: vector<1x5xf32>

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

func.func @odd_rows(%x: tensor<37x300xf32>, %w: tensor<71x300xf32> {ms.param = "fc.weight"},
                    %b: tensor<71xf32> {ms.param = "fc.bias"}) -> tensor<37x71xf32> {
  %0 = ms.dense %x, %w, %b : tensor<37x300xf32>, tensor<71x300xf32>, tensor<71xf32>
  return %0 : tensor<37x71xf32>
}
