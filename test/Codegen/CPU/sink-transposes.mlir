// An elementwise op that reads a 2-D transpose whole runs on the
// transpose's input, over the swapped iteration space, and the transpose
// follows it; a bias (one dim) or a scalar is re-indexed; a transpose of a
// transpose cancels. An op whose other input would become a strided read,
// an op that reads its init, and other permutations are left alone.
// RUN: ms-opt %s --ms-sink-transposes --split-input-file | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>

// A dense layer's bias add and relu on its transposed matmul result, then
// the next layer's x^T: both run on [out, batch] and the transposes cancel.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func @dense_chain
// CHECK-SAME: (%[[YT:.*]]: tensor<8x4xf32>, %[[B:.*]]: tensor<8xf32>)
// CHECK: %[[ADD:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], {{.*}} ins(%[[YT]], %[[B]] : tensor<8x4xf32>, tensor<8xf32>) outs(%{{.*}} : tensor<8x4xf32>)
// CHECK: arith.addf
// CHECK: %[[RELU:.*]] = linalg.generic {{.*}} ins(%[[ADD]] : tensor<8x4xf32>) outs(%{{.*}} : tensor<8x4xf32>)
// CHECK: arith.maximumf
// CHECK-NOT: linalg.transpose
// CHECK: return %[[RELU]] : tensor<8x4xf32>
func.func @dense_chain(%yt: tensor<8x4xf32>, %b: tensor<8xf32>) -> tensor<8x4xf32> {
  %cst = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x8xf32>
  %y = linalg.transpose ins(%yt : tensor<8x4xf32>) outs(%e0 : tensor<4x8xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<4x8xf32>
  %add = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%y, %b : tensor<4x8xf32>, tensor<8xf32>) outs(%e1 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%add : tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %cst : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %e3 = tensor.empty() : tensor<8x4xf32>
  %next = linalg.transpose ins(%relu : tensor<4x8xf32>) outs(%e3 : tensor<8x4xf32>) permutation = [1, 0]
  return %next : tensor<8x4xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// The activation is also returned as it was (a train step keeps it for
// backward): one transpose after the op gives it back.
// CHECK-LABEL: func @kept
// CHECK-SAME: (%[[YT:.*]]: tensor<8x4xf32>)
// CHECK: %[[NEG:.*]] = linalg.generic {{.*}} ins(%[[YT]] : tensor<8x4xf32>) outs(%{{.*}} : tensor<8x4xf32>)
// CHECK: %[[BACK:.*]] = linalg.transpose ins(%[[NEG]] : tensor<8x4xf32>) outs(%{{.*}} : tensor<4x8xf32>) permutation = [1, 0]
// CHECK: return %[[BACK]], %[[NEG]] : tensor<4x8xf32>, tensor<8x4xf32>
func.func @kept(%yt: tensor<8x4xf32>) -> (tensor<4x8xf32>, tensor<8x4xf32>) {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %y = linalg.transpose ins(%yt : tensor<8x4xf32>) outs(%e0 : tensor<4x8xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<4x8xf32>
  %neg = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%y : tensor<4x8xf32>) outs(%e1 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<4x8xf32>
  %e2 = tensor.empty() : tensor<8x4xf32>
  %next = linalg.transpose ins(%neg : tensor<4x8xf32>) outs(%e2 : tensor<8x4xf32>) permutation = [1, 0]
  return %neg, %next : tensor<4x8xf32>, tensor<8x4xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#scalar = affine_map<(d0, d1) -> ()>

// Two transposed inputs and a scalar: all read as plainly after the swap.
// CHECK-LABEL: func @both_transposed
// CHECK-SAME: (%[[AT:.*]]: tensor<8x4xf32>, %[[BT:.*]]: tensor<8x4xf32>, %[[S:.*]]: tensor<f32>)
// CHECK: %[[MUL:.*]] = linalg.generic {{.*}} ins(%[[AT]], %[[BT]], %[[S]] : tensor<8x4xf32>, tensor<8x4xf32>, tensor<f32>) outs(%{{.*}} : tensor<8x4xf32>)
// CHECK: %[[BACK:.*]] = linalg.transpose ins(%[[MUL]] : tensor<8x4xf32>) outs(%{{.*}} : tensor<4x8xf32>) permutation = [1, 0]
// CHECK: return %[[BACK]]
func.func @both_transposed(%at: tensor<8x4xf32>, %bt: tensor<8x4xf32>, %s: tensor<f32>) -> tensor<4x8xf32> {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %a = linalg.transpose ins(%at : tensor<8x4xf32>) outs(%e0 : tensor<4x8xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<4x8xf32>
  %b = linalg.transpose ins(%bt : tensor<8x4xf32>) outs(%e1 : tensor<4x8xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<4x8xf32>
  %m = linalg.generic {indexing_maps = [#id, #id, #scalar, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %b, %s : tensor<4x8xf32>, tensor<4x8xf32>, tensor<f32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %q = arith.mulf %p, %z : f32
    linalg.yield %q : f32
  } -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// relu_grad(transpose(dy), x): x would be read column by column. Left alone.
// CHECK-LABEL: func @other_input_full
// CHECK: %[[T:.*]] = linalg.transpose
// CHECK: linalg.generic {{.*}} ins(%[[T]], %{{.*}} : tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK-NOT: linalg.transpose
func.func @other_input_full(%dyt: tensor<8x4xf32>, %x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %cst = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x8xf32>
  %dy = linalg.transpose ins(%dyt : tensor<8x4xf32>) outs(%e0 : tensor<4x8xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<4x8xf32>
  %g = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%dy, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e1 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %pos = arith.cmpf ogt, %b, %cst : f32
    %r = arith.select %pos, %a, %cst : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// An op that accumulates into its init reads it: left alone.
// CHECK-LABEL: func @reads_init
// CHECK: %[[T:.*]] = linalg.transpose
// CHECK: linalg.generic {{.*}} ins(%[[T]] : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK-NOT: linalg.transpose
func.func @reads_init(%yt: tensor<8x4xf32>, %acc: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %y = linalg.transpose ins(%yt : tensor<8x4xf32>) outs(%e0 : tensor<4x8xf32>) permutation = [1, 0]
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%y : tensor<4x8xf32>) outs(%acc : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// A 3-D permutation is not a matrix transpose: left alone.
// CHECK-LABEL: func @rank3
// CHECK: %[[T:.*]] = linalg.transpose {{.*}} permutation = [2, 0, 1]
// CHECK: linalg.generic {{.*}} ins(%[[T]] : tensor<4x2x8xf32>)
// CHECK-NOT: linalg.transpose
func.func @rank3(%x: tensor<2x8x4xf32>) -> tensor<4x2x8xf32> {
  %e0 = tensor.empty() : tensor<4x2x8xf32>
  %t = linalg.transpose ins(%x : tensor<2x8x4xf32>) outs(%e0 : tensor<4x2x8xf32>) permutation = [2, 0, 1]
  %e1 = tensor.empty() : tensor<4x2x8xf32>
  %g = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%t : tensor<4x2x8xf32>) outs(%e1 : tensor<4x2x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<4x2x8xf32>
  return %g : tensor<4x2x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// A payload that reads the indices (dropout's counter-based mask) would
// see them swapped: left alone.
// CHECK-LABEL: func @reads_indices
// CHECK: %[[T:.*]] = linalg.transpose
// CHECK: linalg.generic {{.*}} ins(%[[T]] : tensor<4x8xf32>)
// CHECK: linalg.index 1
// CHECK-NOT: linalg.transpose
func.func @reads_indices(%yt: tensor<8x4xf32>) -> tensor<4x8xf32> {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %y = linalg.transpose ins(%yt : tensor<8x4xf32>) outs(%e0 : tensor<4x8xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<4x8xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%y : tensor<4x8xf32>) outs(%e1 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %jf = arith.sitofp %ji : i32 to f32
    %s = arith.addf %a, %jf : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// A per-row operand ([4] along the result's rows) is read per column of
// the swapped space.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[COL:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func @row_operand
// CHECK-SAME: (%[[YT:.*]]: tensor<8x4xf32>, %[[R:.*]]: tensor<4xf32>)
// CHECK: %[[MUL:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[COL]], #[[ID]]], {{.*}} ins(%[[YT]], %[[R]] : tensor<8x4xf32>, tensor<4xf32>) outs(%{{.*}} : tensor<8x4xf32>)
// CHECK: linalg.transpose ins(%[[MUL]] : tensor<8x4xf32>)
func.func @row_operand(%yt: tensor<8x4xf32>, %r: tensor<4xf32>) -> tensor<4x8xf32> {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %y = linalg.transpose ins(%yt : tensor<8x4xf32>) outs(%e0 : tensor<4x8xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<4x8xf32>
  %g = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%y, %r : tensor<4x8xf32>, tensor<4xf32>) outs(%e1 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// A transpose something else reads too would stay, and sinking would add
// a second one: left alone.
// CHECK-LABEL: func @transpose_read_twice
// CHECK: %[[T:.*]] = linalg.transpose
// CHECK: %[[G:.*]] = linalg.generic {{.*}} ins(%[[T]] : tensor<4x8xf32>)
// CHECK-NOT: linalg.transpose
// CHECK: return %[[G]], %[[T]]
func.func @transpose_read_twice(%yt: tensor<8x4xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %y = linalg.transpose ins(%yt : tensor<8x4xf32>) outs(%e0 : tensor<4x8xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<4x8xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%y : tensor<4x8xf32>) outs(%e1 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<4x8xf32>
  return %g, %y : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// Two results: left alone.
// CHECK-LABEL: func @two_results
// CHECK: %[[T:.*]] = linalg.transpose
// CHECK: linalg.generic {{.*}} ins(%[[T]] : tensor<4x8xf32>)
// CHECK-NOT: linalg.transpose
func.func @two_results(%yt: tensor<8x4xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %y = linalg.transpose ins(%yt : tensor<8x4xf32>) outs(%e0 : tensor<4x8xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<4x8xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %g:2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%y : tensor<4x8xf32>) outs(%e1, %e2 : tensor<4x8xf32>, tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32, %p: f32):
    %n = arith.negf %a : f32
    linalg.yield %n, %a : f32, f32
  } -> (tensor<4x8xf32>, tensor<4x8xf32>)
  return %g#0, %g#1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// A transpose of a transpose cancels, whatever reads it.
// CHECK-LABEL: func @cancel
// CHECK-SAME: (%[[X:.*]]: tensor<8x4xf32>)
// CHECK-NOT: linalg.transpose
// CHECK: linalg.generic {{.*}} ins(%[[X]] : tensor<8x4xf32>)
func.func @cancel(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %t = linalg.transpose ins(%x : tensor<8x4xf32>) outs(%e0 : tensor<4x8xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<8x4xf32>
  %tt = linalg.transpose ins(%t : tensor<4x8xf32>) outs(%e1 : tensor<8x4xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<8x4xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%tt : tensor<8x4xf32>) outs(%e2 : tensor<8x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<8x4xf32>
  return %g : tensor<8x4xf32>
}
