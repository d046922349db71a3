// RUN: ms-opt %s --ms-pack-parameters --split-input-file | FileCheck %s
// The output parses again and a second run changes nothing.
// RUN: ms-opt %s --ms-pack-parameters --split-input-file | ms-opt --ms-pack-parameters --split-input-file | FileCheck %s
// RUN: ms-opt %s --ms-pack-parameters=max-rows=0 --split-input-file | FileCheck %s --check-prefix=NONE
// RUN: ms-opt %s --ms-pack-parameters=num-threads=2 --split-input-file | FileCheck %s --check-prefix=THREADS
// RUN: ms-opt %s --ms-pack-parameters=panel-width=64 --split-input-file | FileCheck %s --check-prefix=PANELS
// RUN: ms-opt %s --ms-pack-parameters=panel-width=64 --split-input-file | ms-opt --ms-pack-parameters=panel-width=64 --split-input-file | FileCheck %s --check-prefix=PANELS
// Each matmul over panels has a counter of its own (three here), and a
// second run adds none.
// RUN: ms-opt %s --ms-pack-parameters=panel-width=64 --split-input-file | ms-opt --ms-pack-parameters=panel-width=64 --split-input-file | grep -c 'memref.global "private" @__ms_panel_calls' | FileCheck %s --check-prefix=COUNTERS
// COUNTERS: 3
// RUN: ms-opt %s --ms-pack-parameters="panel-width=64 alternate-panels=false" --split-input-file | FileCheck %s --check-prefix=IN-ORDER
// RUN: ms-opt %s --ms-pack-parameters="panel-width=64 num-threads=2" --split-input-file | FileCheck %s --check-prefix=IN-ORDER
// RUN: ms-opt %s --ms-pack-parameters=num-threads=2 --split-input-file | ms-opt --ms-pack-parameters=num-threads=2 --split-input-file | FileCheck %s --check-prefix=THREADS

#mA = affine_map<(m, n, k) -> (m, k)>
#mBt = affine_map<(m, n, k) -> (n, k)>
#mC = affine_map<(m, n, k) -> (m, n)>

// A batch-1 dense weight is asked for as [in, out]; the matmul reads it as
// a plain B operand.
// CHECK-LABEL: func.func @gemv
// CHECK-SAME: %[[W:arg[0-9]+]]: tensor<16x8xf32> {ms.packed = "transpose", ms.param = "fc.weight"}
// CHECK: linalg.matmul ins(%{{.*}}, %[[W]] : tensor<1x16xf32>, tensor<16x8xf32>)
// NONE-LABEL: func.func @gemv
// NONE-SAME: tensor<8x16xf32> {ms.param = "fc.weight"}
// NONE-NOT: ms.packed
func.func @gemv(%x: tensor<1x16xf32>, %w: tensor<8x16xf32> {ms.param = "fc.weight"}) -> tensor<1x8xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<1x8xf32>) -> tensor<1x8xf32>
  %r = linalg.matmul indexing_maps = [#mA, #mBt, #mC] ins(%x, %w : tensor<1x16xf32>, tensor<8x16xf32>) outs(%f : tensor<1x8xf32>) -> tensor<1x8xf32>
  return %r : tensor<1x8xf32>
}

// -----

#mA = affine_map<(m, n, k) -> (m, k)>
#mBt = affine_map<(m, n, k) -> (n, k)>
#mC = affine_map<(m, n, k) -> (m, n)>

// Too many rows (batch 64 keeps the register-tiled x @ w^T path); a
// non-parameter; a parameter with another use: all left alone.
// CHECK-LABEL: func.func @kept
// CHECK-SAME: tensor<8x16xf32> {ms.param = "big.weight"}
// CHECK-SAME: %{{.*}}: tensor<8x16xf32>,
// CHECK-SAME: tensor<8x16xf32> {ms.param = "shared.weight"}
// CHECK-NOT: ms.packed
func.func @kept(%x64: tensor<64x16xf32>, %x: tensor<1x16xf32>,
                %w: tensor<8x16xf32> {ms.param = "big.weight"},
                %v: tensor<8x16xf32>,
                %s: tensor<8x16xf32> {ms.param = "shared.weight"})
    -> (tensor<64x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<8x16xf32>) {
  %c0 = arith.constant 0.0 : f32
  %e64 = tensor.empty() : tensor<64x8xf32>
  %f64 = linalg.fill ins(%c0 : f32) outs(%e64 : tensor<64x8xf32>) -> tensor<64x8xf32>
  %r0 = linalg.matmul indexing_maps = [#mA, #mBt, #mC] ins(%x64, %w : tensor<64x16xf32>, tensor<8x16xf32>) outs(%f64 : tensor<64x8xf32>) -> tensor<64x8xf32>
  %e = tensor.empty() : tensor<1x8xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<1x8xf32>) -> tensor<1x8xf32>
  %r1 = linalg.matmul indexing_maps = [#mA, #mBt, #mC] ins(%x, %v : tensor<1x16xf32>, tensor<8x16xf32>) outs(%f : tensor<1x8xf32>) -> tensor<1x8xf32>
  %r2 = linalg.matmul indexing_maps = [#mA, #mBt, #mC] ins(%x, %s : tensor<1x16xf32>, tensor<8x16xf32>) outs(%f : tensor<1x8xf32>) -> tensor<1x8xf32>
  return %r0, %r1, %r2, %s : tensor<64x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<8x16xf32>
}

// -----

#mA = affine_map<(m, n, k) -> (m, k)>
#mBt = affine_map<(m, n, k) -> (n, k)>
#mC = affine_map<(m, n, k) -> (m, n)>

// A function with a caller keeps its signature (the call passes [out, in]).
// CHECK-LABEL: func.func private @called
// CHECK-SAME: tensor<8x16xf32> {ms.param = "fc.weight"}
// CHECK-NOT: ms.packed
func.func private @called(%x: tensor<1x16xf32>, %w: tensor<8x16xf32> {ms.param = "fc.weight"}) -> tensor<1x8xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<1x8xf32>) -> tensor<1x8xf32>
  %r = linalg.matmul indexing_maps = [#mA, #mBt, #mC] ins(%x, %w : tensor<1x16xf32>, tensor<8x16xf32>) outs(%f : tensor<1x8xf32>) -> tensor<1x8xf32>
  return %r : tensor<1x8xf32>
}
func.func @caller(%x: tensor<1x16xf32>, %w: tensor<8x16xf32>) -> tensor<1x8xf32> {
  %r = func.call @called(%x, %w) : (tensor<1x16xf32>, tensor<8x16xf32>) -> tensor<1x8xf32>
  return %r : tensor<1x8xf32>
}

// -----

#mA = affine_map<(m, n, k) -> (m, k)>
#mBt = affine_map<(m, n, k) -> (n, k)>
#mC = affine_map<(m, n, k) -> (m, n)>

// A weight read by a 1-row and a 64-row matmul (a ?-batch graph's tiles):
// the 64-row one keeps the argument and its x @ w^T; the 1-row one reads a
// trailing [in, out] copy that the runtime makes from argument 1. A second
// run adds no second copy.
// CHECK-LABEL: func.func @tiles
// CHECK-SAME: %[[X1:arg[0-9]+]]: tensor<1x16xf32>, %[[X64:arg[0-9]+]]: tensor<64x16xf32>,
// CHECK-SAME: %[[W:arg[0-9]+]]: tensor<8x16xf32> {ms.param = "fc.weight"},
// CHECK-SAME: %[[WT:arg[0-9]+]]: tensor<16x8xf32> {ms.packed = "transpose", ms.packed_copy_of = 2 : i64, ms.param = "fc.weight"})
// CHECK-NOT: ms.packed_copy_of
// CHECK: linalg.matmul ins(%[[X1]], %[[WT]] : tensor<1x16xf32>, tensor<16x8xf32>)
// CHECK: linalg.matmul indexing_maps = {{.*}} ins(%[[X64]], %[[W]] : tensor<64x16xf32>, tensor<8x16xf32>)
// NONE-LABEL: func.func @tiles
// NONE-NOT: ms.packed
func.func @tiles(%x1: tensor<1x16xf32>, %x64: tensor<64x16xf32>,
                 %w: tensor<8x16xf32> {ms.param = "fc.weight"})
    -> (tensor<1x8xf32>, tensor<64x8xf32>) {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<1x8xf32>) -> tensor<1x8xf32>
  %r1 = linalg.matmul indexing_maps = [#mA, #mBt, #mC] ins(%x1, %w : tensor<1x16xf32>, tensor<8x16xf32>) outs(%f : tensor<1x8xf32>) -> tensor<1x8xf32>
  %e64 = tensor.empty() : tensor<64x8xf32>
  %f64 = linalg.fill ins(%c0 : f32) outs(%e64 : tensor<64x8xf32>) -> tensor<64x8xf32>
  %r64 = linalg.matmul indexing_maps = [#mA, #mBt, #mC] ins(%x64, %w : tensor<64x16xf32>, tensor<8x16xf32>) outs(%f64 : tensor<64x8xf32>) -> tensor<64x8xf32>
  return %r1, %r64 : tensor<1x8xf32>, tensor<64x8xf32>
}

// -----

#mA = affine_map<(m, n, k) -> (m, k)>
#mBt = affine_map<(m, n, k) -> (n, k)>
#mC = affine_map<(m, n, k) -> (m, n)>

// Rows of 32 f32 are two cache lines. Threads split them, so with two the
// packed rows get a third line of zeros and the matmuls read the [in, out]
// slice; one thread reads whole rows, unpadded. Rows of 48 f32 (three
// lines) are never padded.
// CHECK-LABEL: func.func @padded
// CHECK-SAME: tensor<16x32xf32> {ms.packed = "transpose", ms.param = "fc.weight"}
// CHECK-SAME: tensor<16x48xf32> {ms.packed = "transpose", ms.param = "odd.weight"}
// CHECK-NOT: tensor.extract_slice
// THREADS-LABEL: func.func @padded
// THREADS-SAME: %[[W:arg[0-9]+]]: tensor<16x48xf32> {ms.packed = "transpose_padded", ms.param = "fc.weight"}
// THREADS-SAME: %[[V:arg[0-9]+]]: tensor<16x48xf32> {ms.packed = "transpose", ms.param = "odd.weight"}
// THREADS-SAME: %[[T:arg[0-9]+]]: tensor<16x48xf32> {ms.packed = "transpose_padded", ms.packed_copy_of = 3 : i64, ms.param = "tiles.weight"})
// THREADS: %[[S:.*]] = tensor.extract_slice %[[W]][0, 0] [16, 32] [1, 1] : tensor<16x48xf32> to tensor<16x32xf32>
// THREADS: linalg.matmul ins(%{{.*}}, %[[S]] : tensor<1x16xf32>, tensor<16x32xf32>)
// THREADS: linalg.matmul ins(%{{.*}}, %[[V]] : tensor<1x16xf32>, tensor<16x48xf32>)
// THREADS: %[[TS:.*]] = tensor.extract_slice %[[T]][0, 0] [16, 32] [1, 1]
// THREADS: linalg.matmul ins(%{{.*}}, %[[TS]] : tensor<1x16xf32>, tensor<16x32xf32>)
func.func @padded(%x: tensor<1x16xf32>, %w: tensor<32x16xf32> {ms.param = "fc.weight"},
                  %v: tensor<48x16xf32> {ms.param = "odd.weight"},
                  %t: tensor<32x16xf32> {ms.param = "tiles.weight"},
                  %x64: tensor<64x16xf32>)
    -> (tensor<1x32xf32>, tensor<1x48xf32>, tensor<1x32xf32>, tensor<64x32xf32>) {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<1x32xf32>) -> tensor<1x32xf32>
  %r = linalg.matmul indexing_maps = [#mA, #mBt, #mC] ins(%x, %w : tensor<1x16xf32>, tensor<32x16xf32>) outs(%f : tensor<1x32xf32>) -> tensor<1x32xf32>
  %e48 = tensor.empty() : tensor<1x48xf32>
  %f48 = linalg.fill ins(%c0 : f32) outs(%e48 : tensor<1x48xf32>) -> tensor<1x48xf32>
  %r48 = linalg.matmul indexing_maps = [#mA, #mBt, #mC] ins(%x, %v : tensor<1x16xf32>, tensor<48x16xf32>) outs(%f48 : tensor<1x48xf32>) -> tensor<1x48xf32>
  %rt = linalg.matmul indexing_maps = [#mA, #mBt, #mC] ins(%x, %t : tensor<1x16xf32>, tensor<32x16xf32>) outs(%f : tensor<1x32xf32>) -> tensor<1x32xf32>
  %e64 = tensor.empty() : tensor<64x32xf32>
  %f64 = linalg.fill ins(%c0 : f32) outs(%e64 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %r64 = linalg.matmul indexing_maps = [#mA, #mBt, #mC] ins(%x64, %t : tensor<64x16xf32>, tensor<32x16xf32>) outs(%f64 : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %r, %r48, %rt, %r64 : tensor<1x32xf32>, tensor<1x48xf32>, tensor<1x32xf32>, tensor<64x32xf32>
}

// -----

#mA = affine_map<(m, n, k) -> (m, k)>
#mBt = affine_map<(m, n, k) -> (n, k)>
#mC = affine_map<(m, n, k) -> (m, n)>

// 128 outputs are two panels of 64: the weight comes as [2, 16, 64] and the
// matmul runs once per panel in an scf.forall, each reading its panel and
// writing its 64 columns, from a zero fill of its own (so the register
// tiles still start from zero). 96 outputs are not whole panels of 64
// (nor two of them): [in, out]. Without the option the host's register
// tile picks the width; these shapes are too small for either.
// On one thread every other call runs the panels from the last: the
// matmul counts its calls in a private global of its own and takes panel
// 1 - p when the count before this call is odd. With alternate-panels=false
// or two threads (each would get the other's panels) panel p is p.
// PANELS: memref.global "private" @[[CALLS:__ms_panel_calls]] : memref<i32> = dense<0>
// PANELS-LABEL: func.func @panels
// PANELS-SAME: %[[X:arg[0-9]+]]: tensor<1x16xf32>
// PANELS-SAME: %[[W:arg[0-9]+]]: tensor<2x16x64xf32> {ms.packed = "panels64", ms.param = "fc.weight"}
// PANELS-SAME: tensor<16x96xf32> {ms.packed = "transpose", ms.param = "ragged.weight"}
// PANELS: %[[FILL:.*]] = linalg.fill
// PANELS: %[[REF:.*]] = memref.get_global @[[CALLS]] : memref<i32>
// PANELS: %[[ONE:.*]] = arith.constant 1 : i32
// PANELS: %[[COUNT:.*]] = memref.atomic_rmw addi %[[ONE]], %[[REF]][] : (i32, memref<i32>) -> i32
// PANELS: %[[LOW:.*]] = arith.andi %[[COUNT]], %[[ONE]] : i32
// PANELS: %[[ODD:.*]] = arith.trunci %[[LOW]] : i32 to i1
// PANELS: %[[R:.*]] = scf.forall (%[[I:.*]]) in (2) shared_outs(%[[O:.*]] = %[[FILL]]) -> (tensor<1x128xf32>)
// PANELS: %[[LAST:.*]] = arith.constant 1 : index
// PANELS: %[[BACK:.*]] = arith.subi %[[LAST]], %[[I]] : index
// PANELS: %[[P:.*]] = arith.select %[[ODD]], %[[BACK]], %[[I]] : index
// PANELS: %[[PANEL:.*]] = tensor.extract_slice %[[W]][%[[P]], 0, 0] [1, 16, 64] [1, 1, 1] : tensor<2x16x64xf32> to tensor<16x64xf32>
// PANELS: %[[COL:.*]] = affine.apply #{{.*}}(%[[P]])
// PANELS: %[[ACC:.*]] = tensor.extract_slice %[[O]][0, %[[COL]]] [1, 64] [1, 1]
// PANELS: %[[ZERO:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[ACC]] : tensor<1x64xf32>)
// PANELS: %[[PART:.*]] = linalg.matmul ins(%[[X]], %[[PANEL]] : tensor<1x16xf32>, tensor<16x64xf32>) outs(%[[ZERO]] : tensor<1x64xf32>)
// PANELS: tensor.parallel_insert_slice %[[PART]] into %[[O]][0, %[[COL]]] [1, 64] [1, 1]
// PANELS: return %[[R]]
// IN-ORDER-NOT: memref.global
// IN-ORDER-LABEL: func.func @panels
// IN-ORDER-SAME: %[[W:arg[0-9]+]]: tensor<2x16x64xf32> {ms.packed = "panels64"
// IN-ORDER-NOT: atomic_rmw
// IN-ORDER: scf.forall (%[[P:.*]]) in (2)
// IN-ORDER-NEXT: tensor.extract_slice %[[W]][%[[P]], 0, 0] [1, 16, 64]
// CHECK-LABEL: func.func @panels
// CHECK-NOT: scf.forall
func.func @panels(%x: tensor<1x16xf32>, %w: tensor<128x16xf32> {ms.param = "fc.weight"},
                  %v: tensor<96x16xf32> {ms.param = "ragged.weight"})
    -> (tensor<1x128xf32>, tensor<1x96xf32>) {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x128xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<1x128xf32>) -> tensor<1x128xf32>
  %r = linalg.matmul indexing_maps = [#mA, #mBt, #mC] ins(%x, %w : tensor<1x16xf32>, tensor<128x16xf32>) outs(%f : tensor<1x128xf32>) -> tensor<1x128xf32>
  %e96 = tensor.empty() : tensor<1x96xf32>
  %f96 = linalg.fill ins(%c0 : f32) outs(%e96 : tensor<1x96xf32>) -> tensor<1x96xf32>
  %r96 = linalg.matmul indexing_maps = [#mA, #mBt, #mC] ins(%x, %v : tensor<1x16xf32>, tensor<96x16xf32>) outs(%f96 : tensor<1x96xf32>) -> tensor<1x96xf32>
  return %r, %r96 : tensor<1x128xf32>, tensor<1x96xf32>
}

// -----

#mA = affine_map<(m, n, k) -> (m, k)>
#mBt = affine_map<(m, n, k) -> (n, k)>
#mC = affine_map<(m, n, k) -> (m, n)>

// Two batch-1 matmuls read one weight: each counts its own calls.
// PANELS: memref.global "private" @[[ONE:__ms_panel_calls[_0-9]*]] : memref<i32> = dense<0>
// PANELS: memref.global "private" @[[TWO:__ms_panel_calls[_0-9]*]] : memref<i32> = dense<0>
// PANELS-LABEL: func.func @two_readers
// PANELS: memref.get_global @[[ONE]]
// PANELS: scf.forall
// PANELS: memref.get_global @[[TWO]]
// PANELS: scf.forall
func.func @two_readers(%x: tensor<1x16xf32>, %z: tensor<1x16xf32>,
                       %w: tensor<128x16xf32> {ms.param = "fc.weight"})
    -> (tensor<1x128xf32>, tensor<1x128xf32>) {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x128xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<1x128xf32>) -> tensor<1x128xf32>
  %r = linalg.matmul indexing_maps = [#mA, #mBt, #mC] ins(%x, %w : tensor<1x16xf32>, tensor<128x16xf32>) outs(%f : tensor<1x128xf32>) -> tensor<1x128xf32>
  %s = linalg.matmul indexing_maps = [#mA, #mBt, #mC] ins(%z, %w : tensor<1x16xf32>, tensor<128x16xf32>) outs(%f : tensor<1x128xf32>) -> tensor<1x128xf32>
  return %r, %s : tensor<1x128xf32>, tensor<1x128xf32>
}
