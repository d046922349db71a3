// O0's fusion: elementwise linalg ops fuse only when one ms op lowered to
// both, which the location they share says (a transposing copy and a bias
// add below; the pipelines make a dense layer's transpose back a named op
// first). Ops from different ms ops, ops without a location, and a
// producer read twice stay apart.
// RUN: ms-opt %s --ms-fuse-within-ops --split-input-file | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#t = affine_map<(d0, d1) -> (d1, d0)>
#row = affine_map<(d0, d1) -> (d1)>

// The dense's transpose back and bias add fuse; the relu after it, another
// op, does not.
// CHECK-LABEL: func @dense_then_relu
// CHECK: %[[DENSE:.*]] = linalg.generic {{{.*}}iterator_types = ["parallel", "parallel"]} ins(%{{.*}}, %{{.*}} : tensor<8x4xf32>, tensor<8xf32>)
// CHECK: arith.addf
// CHECK: linalg.generic {{.*}} ins(%[[DENSE]] : tensor<4x8xf32>)
// CHECK: arith.maximumf
// CHECK-NOT: linalg.generic
func.func @dense_then_relu(%wx: tensor<8x4xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %back = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%wx : tensor<8x4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x8xf32> loc("net.dense")
  %biased = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%back, %b : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32> loc("net.dense")
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%biased : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %zero = arith.constant 0.0 : f32
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32> loc("net.relu")
  return %relu : tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// Without a location nothing says they are one op; a producer read twice
// would be computed twice.
// CHECK-LABEL: func @stay_apart
// CHECK-COUNT-4: linalg.generic
// CHECK-NOT: linalg.generic
func.func @stay_apart(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<4x8xf32> loc(unknown)
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<4x8xf32> loc(unknown)
  %c = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<4x8xf32> loc("net.op")
  %d = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<4x8xf32> loc("net.op")
  return %b, %c, %d : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}
