// RUN: ms-opt %s --ms-contraction-to-fma | FileCheck %s

#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>

// CHECK-LABEL: func @contraction
// CHECK: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[F:.*]] = math.fma %[[A]], %[[B]], %[[ACC]] : f32
// CHECK-NEXT: linalg.yield %[[F]]
func.func @contraction(%a: tensor<4x3xf32>, %b: tensor<3x5xf32>, %c: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %0 = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<4x3xf32>, tensor<3x5xf32>) outs(%c : tensor<4x5xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// Parallel-only generics are elementwise: a multiply and an add there stay
// two roundings, as in PyNative where they are two kernels.
// CHECK-LABEL: func @elementwise
// CHECK: arith.mulf
// CHECK-NEXT: arith.addf
// CHECK-NOT: math.fma
#id = affine_map<(i) -> (i)>
func.func @elementwise(%a: tensor<4xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%c : tensor<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %p = arith.mulf %x, %x : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
