// ms-vectorize-matmuls shares a matmul out over the threads as an scf.forall:
// by rows when each thread gets a micro-tile of them (a serial tail after,
// when they do not divide evenly), else by columns, and records the split
// in ms.schedules. Fixed targets, so the tiles do not depend on the host.
// RUN: ms-opt %s --ms-vectorize-matmuls="num-threads=2 vector-lanes=8 vector-registers=16 l1-kib=32 l1-ways=8 l2-kib=512" --split-input-file | FileCheck %s
// RUN: ms-opt %s --ms-vectorize-matmuls="num-threads=1 vector-lanes=8 vector-registers=16 l1-kib=32 l1-ways=8 l2-kib=512" --split-input-file | FileCheck %s --check-prefix=SERIAL
// RUN: ms-opt %s --ms-vectorize-matmuls="num-threads=1 vector-lanes=16 vector-registers=32 l1-kib=32 l1-ways=8 l2-kib=512" --split-input-file | FileCheck %s --check-prefix=WIDE

// 24 rows: 12 a thread, each two 6 x 16 register tiles of contractions.
// The result starts as zeros and K = 16 is one pass: each register tile
// starts from a zero tile of its own, and the fill of the whole result is
// gone (zero_start).
// CHECK-LABEL: func @rows
// CHECK-SAME: micro_tile = array<i64: 6, 16>{{.*}}threads = 2{{.*}}zero_start
// CHECK: %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : vector<6x16xf32>
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<24x32xf32>
// CHECK-NOT: linalg.fill
// CHECK: scf.forall (%{{.*}}) in (2) shared_outs(%[[OUT:.*]] = %[[EMPTY]])
// CHECK: tensor.extract_slice %[[OUT]][%{{.*}}, 0] [12, 32]
// CHECK: %[[TILE:.*]] = tensor.extract_slice %{{.*}} [6, 16] [1, 1]
// CHECK: %[[START:.*]] = vector.transfer_write %[[ZEROS]], %[[TILE]][%c0, %c0]
// The K loop carries the tile as a vector (in registers), read before it
// and written after it.
// CHECK: %[[ACC:.*]] = vector.transfer_read %[[START]][%c0, %c0]
// CHECK: %[[K:.*]]:2 = scf.for {{.*}} iter_args(%{{.*}} = %[[START]], %{{.*}} = %[[ACC]]) -> (tensor<6x16xf32>, vector<6x16xf32>)
// CHECK: vector.contract {{.*}} : vector<6x1xf32>, vector<1x16xf32> into vector<6x16xf32>
// CHECK: vector.transfer_write %[[K]]#1, %[[K]]#0[%c0, %c0]
// CHECK: scf.forall.in_parallel
// CHECK-NOT: linalg.matmul
// SERIAL-LABEL: func @rows
// SERIAL-SAME: threads = 1
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

// 25 rows: two chunks of 12, then the last row on one thread.
// CHECK-LABEL: func @tail
// CHECK-SAME: threads = 2
// CHECK: scf.forall (%{{.*}}) in (2)
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
// schedule says it runs on 2 threads.
// CHECK-LABEL: func @cols
// CHECK-SAME: micro_tile = array<i64: 1, 64>{{.*}}threads = 2
// CHECK: scf.forall (%{{.*}}) in (2) shared_outs(%[[OUT:.*]] = %{{.*}})
// CHECK: tensor.extract_slice %[[OUT]][0, %{{.*}}] [1, 64]
// CHECK: scf.forall.in_parallel
func.func @cols(%a: tensor<1x16xf32>, %b: tensor<16x128xf32>) -> tensor<1x128xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x128xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x128xf32>) -> tensor<1x128xf32>
  %m = linalg.matmul ins(%a, %b : tensor<1x16xf32>, tensor<16x128xf32>) outs(%f : tensor<1x128xf32>) -> tensor<1x128xf32>
  return %m : tensor<1x128xf32>
}

// -----

// One row and 64 columns: a single micro-tile, too small to share, on one
// thread.
// CHECK-LABEL: func @small
// CHECK-SAME: threads = 1
// CHECK-NOT: scf.forall
// CHECK: return
func.func @small(%a: tensor<1x16xf32>, %b: tensor<16x64xf32>) -> tensor<1x64xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x64xf32>) -> tensor<1x64xf32>
  %m = linalg.matmul ins(%a, %b : tensor<1x16xf32>, tensor<16x64xf32>) outs(%f : tensor<1x64xf32>) -> tensor<1x64xf32>
  return %m : tensor<1x64xf32>
}

// -----

// Conv1's filter gradient in LeNet-5, one image: 25 columns. Past the one
// whole 16-lane vector (the wide run, vector-lanes=16), 9 columns would be a
// vector<9xf32>, which LLVM builds lane by lane. So the matmul becomes two,
// columns [0, 16) and [9, 25), each from the accumulator passed in (the sum
// so far over the images), and the second's result is written last: the 7
// columns both compute get the same value twice. With 8 lanes, 25 columns
// are 3 whole vectors and one column, which a scalar takes: no split.
// CHECK-LABEL: func @overlapped_columns
// CHECK-SAME: ms.schedules = [{{{[^}]*}}shape = array<i64: 6, 25, 784>{{[^}]*}}}]
// WIDE-LABEL: func @overlapped_columns
// WIDE-SAME: shape = array<i64: 6, 16, 784>{{.*}}shape = array<i64: 6, 16, 784>
// WIDE: tensor.extract_slice %[[ACC:.*]][0, 0] [6, 16] [1, 1]
// WIDE: vector.transfer_read %[[B:.*]][%{{.*}}, %c0]{{.*}} : tensor<784x25xf32>, vector<1x16xf32>
// WIDE: tensor.extract_slice %[[ACC]][0, 9] [6, 16] [1, 1]
// WIDE: vector.transfer_read %[[B]][%{{.*}}, %c9]{{.*}} : tensor<784x25xf32>, vector<1x16xf32>
// WIDE: %[[HEAD:.*]] = tensor.insert_slice %{{.*}} into %[[ACC]][0, 0] [6, 16] [1, 1]
// WIDE: tensor.insert_slice %{{.*}} into %[[HEAD]][0, 9] [6, 16] [1, 1]
// WIDE-NOT: vector<1x9xf32>
// WIDE-NOT: linalg.matmul
func.func @overlapped_columns(%a: tensor<6x784xf32>, %b: tensor<784x25xf32>, %acc: tensor<6x25xf32>) -> tensor<6x25xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<6x784xf32>, tensor<784x25xf32>) outs(%acc : tensor<6x25xf32>) -> tensor<6x25xf32>
  return %m : tensor<6x25xf32>
}

// -----

// Columns past the last whole vector that fill a register (8 of 24 on 16
// lanes, or 4 of 36 on 8) stay as they are.
// WIDE-LABEL: func @whole_register_remainders
// WIDE-SAME: ms.schedules = [{{{[^}]*}}shape = array<i64: 6, 24, 64>{{[^}]*}}}]
func.func @whole_register_remainders(%a: tensor<6x64xf32>, %b: tensor<64x24xf32>, %acc: tensor<6x24xf32>) -> tensor<6x24xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<6x64xf32>, tensor<64x24xf32>) outs(%acc : tensor<6x24xf32>) -> tensor<6x24xf32>
  return %m : tensor<6x24xf32>
}

// -----

// 64 rows with AVX-512's 32 registers: 6-row tiles would leave one of 4
// rows, so the tiles are 8 rows tall (chooseDividingRowTile); with 16
// registers, 6 rows and a 4-row tail.
// WIDE-LABEL: func @dividing_rows
// WIDE-SAME: micro_tile = array<i64: 8, 32>
// WIDE: vector.contract {{.*}} : vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
// WIDE-NOT: vector<4x1xf32>
// SERIAL-LABEL: func @dividing_rows
// SERIAL-SAME: micro_tile = array<i64: 6, 16>
// SERIAL: vector.contract {{.*}} : vector<6x1xf32>, vector<1x16xf32> into vector<6x16xf32>
// SERIAL: vector.contract {{.*}} : vector<4x1xf32>, vector<1x16xf32> into vector<4x16xf32>
func.func @dividing_rows(%a: tensor<64x32xf32>, %b: tensor<32x32xf32>, %acc: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x32xf32>) outs(%acc : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %m : tensor<64x32xf32>
}

// -----

// B's rows 2 KiB apart (512 columns): the 64 rows of each micro-panel would
// fall in 2 of a 4 KiB way's 64 line offsets, 32 lines to an 8-way set. The
// matmul reads B from a copy with rows one line longer (528: every offset),
// padded with poison, and records the row length.
// SERIAL-LABEL: func @padded_rows
// SERIAL-SAME: rhs_row_length = 528 : i64
// SERIAL: %[[POISON:.*]] = ub.poison : f32
// SERIAL: %[[PADDED:.*]] = tensor.pad %arg1 nofold low[0, 0] high[0, 16]
// SERIAL-NEXT: ^bb0
// SERIAL-NEXT: tensor.yield %[[POISON]] : f32
// SERIAL-NEXT: } : tensor<64x512xf32> to tensor<64x528xf32>
// SERIAL: vector.transfer_read %[[PADDED]][%{{.*}}, %{{.*}}], %{{.*}} {in_bounds = [true, true]} : tensor<64x528xf32>, vector<1x16xf32>
// SERIAL-NOT: tensor<64x512xf32>, vector<1x16xf32>
func.func @padded_rows(%a: tensor<48x64xf32>, %b: tensor<64x512xf32>, %acc: tensor<48x512xf32>) -> tensor<48x512xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<48x64xf32>, tensor<64x512xf32>) outs(%acc : tensor<48x512xf32>) -> tensor<48x512xf32>
  return %m : tensor<48x512xf32>
}

// -----

// B read in place: rows 3136 bytes apart (784 columns) land on every line
// offset; 42 rows are fewer than 8 row tiles to share a copy; and a
// 512 x 512 B (1 MiB) would not fit in the 512 KiB L2.
// SERIAL-LABEL: func @unpadded_rows
// SERIAL-NOT: tensor.pad
// SERIAL-NOT: rhs_row_length
// SERIAL: return
func.func @unpadded_rows(%a: tensor<48x64xf32>, %b: tensor<64x784xf32>, %acc: tensor<48x784xf32>,
                         %c: tensor<42x64xf32>, %d: tensor<64x512xf32>, %acc2: tensor<42x512xf32>,
                         %e: tensor<64x512xf32>, %f: tensor<512x512xf32>, %acc3: tensor<64x512xf32>)
    -> (tensor<48x784xf32>, tensor<42x512xf32>, tensor<64x512xf32>) {
  %m = linalg.matmul ins(%a, %b : tensor<48x64xf32>, tensor<64x784xf32>) outs(%acc : tensor<48x784xf32>) -> tensor<48x784xf32>
  %n = linalg.matmul ins(%c, %d : tensor<42x64xf32>, tensor<64x512xf32>) outs(%acc2 : tensor<42x512xf32>) -> tensor<42x512xf32>
  %o = linalg.matmul ins(%e, %f : tensor<64x512xf32>, tensor<512x512xf32>) outs(%acc3 : tensor<64x512xf32>) -> tensor<64x512xf32>
  return %m, %n, %o : tensor<48x784xf32>, tensor<42x512xf32>, tensor<64x512xf32>
}

// -----

// The tiles start from the result, and its fill stays, when K takes more
// than one pass (512 > the 256-row K block: later passes add to the
// partial sums), and when the result is not a zero fill.
// SERIAL-LABEL: func @accumulator_start
// SERIAL-NOT: zero_start
// SERIAL: linalg.fill
// SERIAL-NOT: zero_start
// SERIAL: return
func.func @accumulator_start(%a: tensor<6x512xf32>, %b: tensor<512x16xf32>,
                             %c: tensor<6x16xf32>, %d: tensor<16x16xf32>,
                             %acc: tensor<6x16xf32>)
    -> (tensor<6x16xf32>, tensor<6x16xf32>, tensor<6x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<6x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<6x16xf32>) -> tensor<6x16xf32>
  %m = linalg.matmul ins(%a, %b : tensor<6x512xf32>, tensor<512x16xf32>) outs(%f : tensor<6x16xf32>) -> tensor<6x16xf32>
  %g = linalg.fill ins(%one : f32) outs(%e : tensor<6x16xf32>) -> tensor<6x16xf32>
  %n = linalg.matmul ins(%c, %d : tensor<6x16xf32>, tensor<16x16xf32>) outs(%g : tensor<6x16xf32>) -> tensor<6x16xf32>
  %o = linalg.matmul ins(%c, %d : tensor<6x16xf32>, tensor<16x16xf32>) outs(%acc : tensor<6x16xf32>) -> tensor<6x16xf32>
  return %m, %n, %o : tensor<6x16xf32>, tensor<6x16xf32>, tensor<6x16xf32>
}
