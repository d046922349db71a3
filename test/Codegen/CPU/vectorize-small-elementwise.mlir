// A small elementwise op (a fused chain on [1, 10]) becomes vector ops on
// the whole tensor; large ones, reductions and ops with calls stay loops.
// RUN: ms-opt %s --ms-vectorize-small-elementwise | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func @small_chain
// CHECK: vector.transfer_read {{.*}} : tensor<1x10xf32>, vector<1x10xf32>
// CHECK: arith.addf {{.*}} : vector<1x10xf32>
// CHECK: math.tanh {{.*}} : vector<1x10xf32>
// CHECK: vector.transfer_write
// CHECK-NOT: linalg.generic
func.func @small_chain(%x: tensor<1x10xf32>, %y: tensor<1x10xf32>) -> tensor<1x10xf32> {
  %e = tensor.empty() : tensor<1x10xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<1x10xf32>, tensor<1x10xf32>) outs(%e : tensor<1x10xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    %t = math.tanh %s : f32
    linalg.yield %t : f32
  } -> tensor<1x10xf32>
  return %r : tensor<1x10xf32>
}

// CHECK-LABEL: func @large
// CHECK: linalg.generic
func.func @large(%x: tensor<64x512xf32>) -> tensor<64x512xf32> {
  %e = tensor.empty() : tensor<64x512xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64x512xf32>) outs(%e : tensor<64x512xf32>) {
  ^bb0(%a: f32, %out: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<64x512xf32>
  return %r : tensor<64x512xf32>
}

// CHECK-LABEL: func @reduction
// CHECK: linalg.generic
func.func @reduction(%x: tensor<4x8xf32>, %acc: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%a: f32, %out: f32):
    %s = arith.addf %out, %a : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
