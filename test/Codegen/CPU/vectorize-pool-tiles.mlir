// The max-pool gradient over windows that tile the input (ms-to-linalg's
// routing generic on the [.., H/kh, kh, W/kw, kw] view, loops
// (n, c, i, a, j, b)) becomes loops over the (n, c, i, a) rows, each row
// vectors: every input row is read once, contiguously, and split by
// shuffles into the kw columns of its windows; the generic's body runs on
// those vectors once per column b (linalg.index b a constant, a the loop
// index); the columns are interleaved back into the output row. Generics of
// another shape are left alone.
// RUN: ms-opt %s --ms-vectorize-pooling --canonicalize --cse --split-input-file | FileCheck %s

#t00 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, 0, d4, 0)>
#t01 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, 0, d4, 1)>
#t10 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, 1, d4, 0)>
#t11 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, 1, d4, 1)>
#tile = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d4)>
#own = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>

// The 2x2 routing with a relu gradient fused in (the element itself read
// too): 6-wide rows, split into the even and odd columns (3 lanes each).
// CHECK-LABEL: func @route_with_relu
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x3x2x3x2xf32>, %[[DY:.*]]: tensor<1x2x3x3xf32>)
// CHECK-DAG: %[[XR:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0], [1], [2], [3], [4, 5]] : tensor<1x2x3x2x3x2xf32> into tensor<1x2x3x2x6xf32>
// The batch loop (extent 1) folds away.
// CHECK: scf.for %[[C:[a-z0-9_]+]] =
// CHECK: scf.for %[[I:[a-z0-9_]+]] =
// CHECK: scf.for %[[A:[a-z0-9_]+]] =
// CHECK-DAG: %[[ROW0:.*]] = vector.transfer_read %[[XR]][%c0, %[[C]], %[[I]], %c0, %c0]{{.*}} : tensor<1x2x3x2x6xf32>, vector<6xf32>
// CHECK-DAG: %[[ROW1:.*]] = vector.transfer_read %[[XR]][%c0, %[[C]], %[[I]], %c1, %c0]{{.*}} : tensor<1x2x3x2x6xf32>, vector<6xf32>
// CHECK-DAG: %[[OWN:.*]] = vector.transfer_read %[[XR]][%c0, %[[C]], %[[I]], %[[A]], %c0]{{.*}} : tensor<1x2x3x2x6xf32>, vector<6xf32>
// CHECK-DAG: vector.shuffle %[[ROW0]], %[[ROW0]] [0, 2, 4] : vector<6xf32>, vector<6xf32>
// CHECK-DAG: vector.shuffle %[[ROW0]], %[[ROW0]] [1, 3, 5] : vector<6xf32>, vector<6xf32>
// CHECK-DAG: vector.transfer_read %[[DY]][%c0, %[[C]], %[[I]], %c0]{{.*}} : tensor<1x2x3x3xf32>, vector<3xf32>
// CHECK-DAG: arith.cmpf ogt, {{.*}} : vector<3xf32>
// CHECK-DAG: arith.cmpi eq, {{.*}} : vector<3xindex>
// CHECK: %[[BOTH:.*]] = vector.shuffle %{{.*}}, %{{.*}} [0, 1, 2, 3, 4, 5] : vector<3xf32>, vector<3xf32>
// CHECK: %[[ROW:.*]] = vector.shuffle %[[BOTH]], %[[BOTH]] [0, 3, 1, 4, 2, 5] : vector<6xf32>, vector<6xf32>
// CHECK: vector.transfer_write %[[ROW]], %{{.*}}[%c0, %[[C]], %[[I]], %[[A]], %c0] {in_bounds = [true]} : vector<6xf32>, tensor<1x2x3x2x6xf32>
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0], [1], [2], [3], [4, 5]] output_shape [1, 2, 3, 2, 3, 2] : tensor<1x2x3x2x6xf32> into tensor<1x2x3x2x3x2xf32>
// CHECK-NOT: linalg.generic
func.func @route_with_relu(%x: tensor<1x2x3x2x3x2xf32>, %dy: tensor<1x2x3x3xf32>) -> tensor<1x2x3x2x3x2xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %e = tensor.empty() : tensor<1x2x3x2x3x2xf32>
  %r = linalg.generic {indexing_maps = [#t00, #t01, #t10, #t11, #tile, #own, #own], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%x, %x, %x, %x, %dy, %x : tensor<1x2x3x2x3x2xf32>, tensor<1x2x3x2x3x2xf32>, tensor<1x2x3x2x3x2xf32>, tensor<1x2x3x2x3x2xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x2x3x2xf32>) outs(%e : tensor<1x2x3x2x3x2xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %g: f32, %own: f32, %out: f32):
    %g0 = arith.cmpf ogt, %a0, %ninf : f32
    %b0 = arith.select %g0, %a0, %ninf : f32
    %g1 = arith.cmpf ogt, %a1, %b0 : f32
    %b1 = arith.select %g1, %a1, %b0 : f32
    %i1 = arith.select %g1, %c1, %c0 : index
    %g2 = arith.cmpf ogt, %a2, %b1 : f32
    %b2 = arith.select %g2, %a2, %b1 : f32
    %i2 = arith.select %g2, %c2, %i1 : index
    %g3 = arith.cmpf ogt, %a3, %b2 : f32
    %i3 = arith.select %g3, %c3, %i2 : index
    %col = linalg.index 5 : index
    %row = linalg.index 3 : index
    %rw = arith.muli %row, %c2 : index
    %tap = arith.addi %rw, %col : index
    %is = arith.cmpi eq, %i3, %tap : index
    %routed = arith.select %is, %g, %zero : f32
    %pos = arith.cmpf ogt, %own, %zero : f32
    %relu = arith.select %pos, %routed, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<1x2x3x2x3x2xf32>
  return %r : tensor<1x2x3x2x3x2xf32>
}

// -----

// Reading along j (linalg.index of the tile column) would need a vector of
// j: left alone. So is a generic without window taps.
// CHECK-LABEL: func @not_tiles
// CHECK-COUNT-2: linalg.generic
#t00 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, 0, d4, 0)>
#own = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>
func.func @not_tiles(%x: tensor<1x2x3x2x3x2xf32>) -> (tensor<1x2x3x2x3x2xf32>, tensor<1x2x3x2x3x2xf32>) {
  %e = tensor.empty() : tensor<1x2x3x2x3x2xf32>
  %r = linalg.generic {indexing_maps = [#t00, #own], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x2x3x2x3x2xf32>) outs(%e : tensor<1x2x3x2x3x2xf32>) {
  ^bb0(%a: f32, %out: f32):
    %j = linalg.index 4 : index
    %ji = arith.index_cast %j : index to i64
    %jf = arith.sitofp %ji : i64 to f32
    %s = arith.addf %a, %jf : f32
    linalg.yield %s : f32
  } -> tensor<1x2x3x2x3x2xf32>
  %s = linalg.generic {indexing_maps = [#own, #own], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x2x3x2x3x2xf32>) outs(%e : tensor<1x2x3x2x3x2xf32>) {
  ^bb0(%a: f32, %out: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<1x2x3x2x3x2xf32>
  return %r, %s : tensor<1x2x3x2x3x2xf32>, tensor<1x2x3x2x3x2xf32>
}
