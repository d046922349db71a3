// Pooling generics become loops over output rows, each row one vector: per
// window position in (kh, kw) order, a contiguous read of the input row,
// a shuffle keeping every stride-th element, and the generic's body. Max
// and min pools (with a relu or other clamp fused in) read each input row
// once, combine the rows, shuffle out each column position and clamp once.
// Odd row lengths are padded to whole registers with the extra lanes
// masked off; an output a fill initialised starts from the filled value.
// Ops that are not pooling-shaped are left alone.
// RUN: ms-opt %s --ms-vectorize-pooling --canonicalize --cse --split-input-file | FileCheck %s

#window = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>
#kernel = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
#pooled = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>

// Max pooling with a fused relu: each of the window's 2 input rows is read
// once (7 columns as 8 lanes, the 8th past the row masked off), the rows
// are combined, the even and odd columns shuffled out and combined, and the
// relu applied once, then the output row. max and relu are exact
// selections and relu is monotone, so this order gives the same bits as
// relu-then-max element by element. Since relu sends -0 and +0 to +0, the
// window is combined by maximumf with the nsz flag (a NaN still wins, -0 and
// +0 may tie), whose lowering skips the signed-zero ordering. The relu
// itself keeps plain maximumf: it must turn -0 into +0.
// CHECK-LABEL: func @max_pool_relu
// CHECK-SAME: (%[[X:.*]]: tensor<2x2x7x7xf32>, %[[INIT:.*]]: tensor<2x2x3x3xf32>)
// CHECK: %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : vector<4xf32>
// CHECK: scf.for %[[N:[[:alnum:]_]+]] =
// CHECK: scf.for %[[C:[[:alnum:]_]+]] =
// CHECK: scf.for %[[OH:[[:alnum:]_]+]] = {{.*}} iter_args(%[[OUT:[[:alnum:]_]+]] =
// CHECK: %[[M3:.*]] = vector.constant_mask [3] : vector<4xi1>
// CHECK: %[[ACC:[[:alnum:]_]+]] = vector.transfer_read %[[OUT]][%[[N]], %[[C]], %[[OH]], %[[C0:[[:alnum:]_]+]]], %{{.*}}, %[[M3]] {in_bounds = [true]} : tensor<2x2x3x3xf32>, vector<4xf32>
// CHECK: %[[ROW:[[:alnum:]_]+]] = arith.muli %[[OH]], %{{.*}} : index
// CHECK: %[[M7:.*]] = vector.constant_mask [7] : vector<8xi1>
// CHECK: %[[R0:[[:alnum:]_]+]] = vector.transfer_read %[[X]][%[[N]], %[[C]], %[[ROW]], %[[C0]]], %{{.*}}, %[[M7]] {in_bounds = [true]} : tensor<2x2x7x7xf32>, vector<8xf32>
// CHECK: %[[ROW1:[[:alnum:]_]+]] = arith.addi %[[ROW]], %{{.*}} : index
// CHECK: %[[R1:[[:alnum:]_]+]] = vector.transfer_read %[[X]][%[[N]], %[[C]], %[[ROW1]], %[[C0]]], %{{.*}}, %[[M7]] {in_bounds = [true]} : tensor<2x2x7x7xf32>, vector<8xf32>
// CHECK: %[[ROWS:[[:alnum:]_]+]] = arith.maximumf %[[R0]], %[[R1]] fastmath<nsz> : vector<8xf32>
// CHECK: %[[EVEN:[[:alnum:]_]+]] = vector.shuffle %[[ROWS]], %[[ROWS]] [0, 2, 4, 6] : vector<8xf32>, vector<8xf32>
// CHECK: %[[ODD:[[:alnum:]_]+]] = vector.shuffle %[[ROWS]], %[[ROWS]] [1, 3, 5, 7] : vector<8xf32>, vector<8xf32>
// CHECK: %[[WINDOW:[[:alnum:]_]+]] = arith.maximumf %[[EVEN]], %[[ODD]] fastmath<nsz> : vector<4xf32>
// CHECK: %[[RELU:[[:alnum:]_]+]] = arith.maximumf %[[WINDOW]], %[[ZEROS]] : vector<4xf32>
// CHECK: %[[POOLED:[[:alnum:]_]+]] = arith.maximumf %[[ACC]], %[[RELU]] : vector<4xf32>
// CHECK: vector.transfer_write %[[POOLED]], %[[OUT]][%[[N]], %[[C]], %[[OH]], %[[C0]]], %[[M3]] {in_bounds = [true]} : vector<4xf32>, tensor<2x2x3x3xf32>
// CHECK-NOT: linalg.generic
func.func @max_pool_relu(%x: tensor<2x2x7x7xf32>, %init: tensor<2x2x3x3xf32>) -> tensor<2x2x3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %k = tensor.empty() : tensor<2x2xf32>
  %pool = linalg.generic {indexing_maps = [#window, #kernel, #pooled], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%x, %k : tensor<2x2x7x7xf32>, tensor<2x2xf32>) outs(%init : tensor<2x2x3x3xf32>) {
  ^bb0(%in: f32, %unused: f32, %o: f32):
    %r = arith.maximumf %in, %zero : f32
    %m = arith.maximumf %o, %r : f32
    linalg.yield %m : f32
  } -> tensor<2x2x3x3xf32>
  return %pool : tensor<2x2x3x3xf32>
}

// -----

#window = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>
#kernel = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
#pooled = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>

// The -inf fill is not written and read back: each row starts from -inf
// (which the max then folds away) and goes straight into the fill's
// destination.
// CHECK-LABEL: func @filled_max_pool
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x8x8xf32>, %[[DEST:.*]]: tensor<1x2x4x4xf32>)
// CHECK-NOT: linalg.
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[DEST]])
// CHECK-NOT: vector.transfer_read %{{.*}} : tensor<1x2x4x4xf32>
// CHECK: %[[R0:.*]] = vector.transfer_read %[[X]]
// CHECK: %[[R1:.*]] = vector.transfer_read %[[X]]
// CHECK: %[[ROWS:.*]] = arith.maximumf %[[R0]], %[[R1]] : vector<8xf32>
// CHECK: %[[EVEN:.*]] = vector.shuffle %[[ROWS]], %[[ROWS]] [0, 2, 4, 6]
// CHECK: %[[ODD:.*]] = vector.shuffle %[[ROWS]], %[[ROWS]] [1, 3, 5, 7]
// CHECK: %[[POOLED:.*]] = arith.maximumf %[[EVEN]], %[[ODD]] : vector<4xf32>
// CHECK-NEXT: vector.transfer_write %[[POOLED]]
func.func @filled_max_pool(%x: tensor<1x2x8x8xf32>, %dest: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %init = linalg.fill ins(%ninf : f32) outs(%dest : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %k = tensor.empty() : tensor<2x2xf32>
  %pool = linalg.generic {indexing_maps = [#window, #kernel, #pooled], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%x, %k : tensor<1x2x8x8xf32>, tensor<2x2xf32>) outs(%init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %unused: f32, %o: f32):
    %m = arith.maximumf %o, %in : f32
    linalg.yield %m : f32
  } -> tensor<1x2x4x4xf32>
  return %pool : tensor<1x2x4x4xf32>
}

// -----

#dilated = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 + d3 * 2, d2 + d4 * 2)>
#kernel3 = affine_map<(d0, d1, d2, d3, d4) -> (d3, d4)>
#out3 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>

// Stride 1 needs no shuffle; dilation 2 moves each window read by 2. The
// 3 output columns are 4 lanes; the read at column 4 has 3 left in the row.
// CHECK-LABEL: func @dilated_sum
// CHECK-NOT: vector.shuffle
// CHECK: scf.for %[[N:[[:alnum:]_]+]] =
// CHECK: scf.for %[[OH:[[:alnum:]_]+]] = {{.*}} iter_args(%[[OUT:[[:alnum:]_]+]] =
// CHECK: %[[M3:.*]] = vector.constant_mask [3] : vector<4xi1>
// CHECK: %[[ACC:[[:alnum:]_]+]] = vector.transfer_read %[[OUT]][%[[N]], %[[OH]], %[[C0:[[:alnum:]_]+]]], %{{.*}}, %[[M3]]
// CHECK: %[[R0:[[:alnum:]_]+]] = vector.transfer_read %{{.*}}[%[[N]], %[[OH]], %[[C0]]]{{.*}} {in_bounds = [true]} : tensor<2x7x7xf32>, vector<4xf32>
// CHECK: %[[S0:[[:alnum:]_]+]] = arith.addf %[[ACC]], %[[R0]] : vector<4xf32>
// CHECK: %[[R1:[[:alnum:]_]+]] = vector.transfer_read %{{.*}}[%[[N]], %[[OH]], %[[C2:[[:alnum:]_]+]]]{{.*}} {in_bounds = [true]} : tensor<2x7x7xf32>, vector<4xf32>
// CHECK: arith.addf %[[S0]], %[[R1]] : vector<4xf32>
// CHECK: vector.transfer_read %{{.*}}[%[[N]], %[[OH]], %[[C4:[[:alnum:]_]+]]], %{{.*}}, %[[M3]]
// CHECK: %[[ROW1:[[:alnum:]_]+]] = arith.addi %[[OH]], %[[C2]] : index
// CHECK: vector.transfer_read %{{.*}}[%[[N]], %[[ROW1]], %[[C0]]]
// CHECK-COUNT-6: arith.addf
// CHECK: vector.transfer_write %{{.*}}, %[[OUT]][%[[N]], %[[OH]], %[[C0]]], %[[M3]]
// CHECK-NOT: linalg.generic
func.func @dilated_sum(%x: tensor<2x7x7xf32>, %init: tensor<2x3x3xf32>) -> tensor<2x3x3xf32> {
  %k = tensor.empty() : tensor<3x3xf32>
  %sum = linalg.generic {indexing_maps = [#dilated, #kernel3, #out3], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%x, %k : tensor<2x7x7xf32>, tensor<3x3xf32>) outs(%init : tensor<2x3x3xf32>) {
  ^bb0(%in: f32, %unused: f32, %o: f32):
    %s = arith.addf %o, %in : f32
    linalg.yield %s : f32
  } -> tensor<2x3x3xf32>
  return %sum : tensor<2x3x3xf32>
}

// -----

#window = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>
#kernel = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
#pooled = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>

// A body that also reads the kernel operand, or an index, is not pooling.
// CHECK-LABEL: func @not_pooling
// CHECK-NOT: vector.
// CHECK: linalg.generic
// CHECK: linalg.generic
func.func @not_pooling(%x: tensor<1x2x8x8xf32>, %k: tensor<2x2xf32>, %init: tensor<1x2x4x4xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %weighted = linalg.generic {indexing_maps = [#window, #kernel, #pooled], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%x, %k : tensor<1x2x8x8xf32>, tensor<2x2xf32>) outs(%init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %w: f32, %o: f32):
    %p = arith.mulf %in, %w : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x2x4x4xf32>
  %indexed = linalg.generic {indexing_maps = [#window, #kernel, #pooled], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%x, %k : tensor<1x2x8x8xf32>, tensor<2x2xf32>) outs(%init : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %unused: f32, %o: f32):
    %i = linalg.index 3 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %p = arith.mulf %in, %f : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x2x4x4xf32>
  return %weighted, %indexed : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}

// -----

#window = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>
#kernel = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
#pooled = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>

// An add before the max is not a selection (it rounds), so each window
// position is read and combined in order, as the generic does.
// CHECK-LABEL: func @max_of_sums
// CHECK-COUNT-4: vector.transfer_read %{{.*}} : tensor<1x1x8x8xf32>, vector<8xf32>
// CHECK-NOT: vector.transfer_read %{{.*}} : tensor<1x1x8x8xf32>
// CHECK: vector.transfer_write
func.func @max_of_sums(%x: tensor<1x1x8x8xf32>, %init: tensor<1x1x4x4xf32>, %bias: f32) -> tensor<1x1x4x4xf32> {
  %k = tensor.empty() : tensor<2x2xf32>
  %pool = linalg.generic {indexing_maps = [#window, #kernel, #pooled], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%x, %k : tensor<1x1x8x8xf32>, tensor<2x2xf32>) outs(%init : tensor<1x1x4x4xf32>) {
  ^bb0(%in: f32, %unused: f32, %o: f32):
    %s = arith.addf %in, %bias : f32
    %m = arith.maximumf %o, %s : f32
    linalg.yield %m : f32
  } -> tensor<1x1x4x4xf32>
  return %pool : tensor<1x1x4x4xf32>
}

// -----

#window = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>
#kernel = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
#pooled = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>

// A clamp at -1 keeps -0 and +0 apart, so the window combines with
// maximumf, which puts +0 above -0; a min pool under relu may drop the
// sign of zero like a max pool.
// CHECK-LABEL: func @clamps_and_zero_signs
// CHECK-NOT: fastmath
// CHECK: arith.maximumf %{{[^ ]*}}, %{{[^ ]*}} : vector<8xf32>
// CHECK-NOT: fastmath
// CHECK: vector.transfer_write
// CHECK: arith.minimumf %{{.*}}, %{{.*}} fastmath<nsz> : vector<8xf32>
// CHECK: arith.minimumf %{{.*}}, %{{.*}} fastmath<nsz> : vector<4xf32>
// CHECK: arith.maximumf %{{[^ ]*}}, %{{[^ ]*}} : vector<4xf32>
// CHECK: arith.minimumf %{{[^ ]*}}, %{{[^ ]*}} : vector<4xf32>
func.func @clamps_and_zero_signs(%x: tensor<1x1x8x8xf32>, %init: tensor<1x1x4x4xf32>) -> (tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>) {
  %minus_one = arith.constant -1.0 : f32
  %zero = arith.constant 0.0 : f32
  %k = tensor.empty() : tensor<2x2xf32>
  %clamped = linalg.generic {indexing_maps = [#window, #kernel, #pooled], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%x, %k : tensor<1x1x8x8xf32>, tensor<2x2xf32>) outs(%init : tensor<1x1x4x4xf32>) {
  ^bb0(%in: f32, %unused: f32, %o: f32):
    %c = arith.maximumf %in, %minus_one : f32
    %m = arith.maximumf %o, %c : f32
    linalg.yield %m : f32
  } -> tensor<1x1x4x4xf32>
  %min_relu = linalg.generic {indexing_maps = [#window, #kernel, #pooled], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%x, %k : tensor<1x1x8x8xf32>, tensor<2x2xf32>) outs(%init : tensor<1x1x4x4xf32>) {
  ^bb0(%in: f32, %unused: f32, %o: f32):
    %r = arith.maximumf %in, %zero : f32
    %m = arith.minimumf %o, %r : f32
    linalg.yield %m : f32
  } -> tensor<1x1x4x4xf32>
  return %clamped, %min_relu : tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>
}

// -----

#window = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 + d4, d3 + d5)>
#kernel = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
#pooled = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>

// Windows are unrolled tap by tap, so past kMaxUnrolledTaps (64) taps, or
// rows longer than kMaxVectorLanes (256), the pool stays a loop nest:
// compile time must not grow with the kernel or the image. 8x8 = 64 taps
// is vectorized, 9x8 = 72 is not; a 257-wide output row is not.
// CHECK-LABEL: func @unroll_bounds
// CHECK: vector.transfer_read
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK-NOT: linalg.generic
func.func @unroll_bounds(%x: tensor<1x1x16x16xf32>, %init: tensor<1x1x9x9xf32>, %init2: tensor<1x1x8x9xf32>, %wide: tensor<1x1x2x258xf32>, %init3: tensor<1x1x1x257xf32>) -> (tensor<1x1x9x9xf32>, tensor<1x1x8x9xf32>, tensor<1x1x1x257xf32>) {
  %k64 = tensor.empty() : tensor<8x8xf32>
  %k72 = tensor.empty() : tensor<9x8xf32>
  %k4 = tensor.empty() : tensor<2x2xf32>
  %a = linalg.generic {indexing_maps = [#window, #kernel, #pooled], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%x, %k64 : tensor<1x1x16x16xf32>, tensor<8x8xf32>) outs(%init : tensor<1x1x9x9xf32>) {
  ^bb0(%in: f32, %unused: f32, %o: f32):
    %s = arith.addf %o, %in : f32
    linalg.yield %s : f32
  } -> tensor<1x1x9x9xf32>
  %b = linalg.generic {indexing_maps = [#window, #kernel, #pooled], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%x, %k72 : tensor<1x1x16x16xf32>, tensor<9x8xf32>) outs(%init2 : tensor<1x1x8x9xf32>) {
  ^bb0(%in: f32, %unused: f32, %o: f32):
    %s = arith.addf %o, %in : f32
    linalg.yield %s : f32
  } -> tensor<1x1x8x9xf32>
  %c = linalg.generic {indexing_maps = [#window, #kernel, #pooled], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%wide, %k4 : tensor<1x1x2x258xf32>, tensor<2x2xf32>) outs(%init3 : tensor<1x1x1x257xf32>) {
  ^bb0(%in: f32, %unused: f32, %o: f32):
    %s = arith.addf %o, %in : f32
    linalg.yield %s : f32
  } -> tensor<1x1x1x257xf32>
  return %a, %b, %c : tensor<1x1x9x9xf32>, tensor<1x1x8x9xf32>, tensor<1x1x1x257xf32>
}
