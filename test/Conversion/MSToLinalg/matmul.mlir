// RUN: ms-opt %s --convert-ms-to-linalg | FileCheck %s

// CHECK-DAG: #[[MK:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[KN:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[NK:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[KM:.*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-DAG: #[[MN:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[BA:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[BB:.*]] = affine_map<(d0, d1, d2, d3) -> (0, d3, d2)>
// CHECK-DAG: #[[BC:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>

// CHECK-LABEL: func @plain
// CHECK: linalg.fill
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x3xf32>, tensor<3x5xf32>) outs(%{{.*}} : tensor<4x5xf32>)
func.func @plain(%a: tensor<4x3xf32>, %b: tensor<3x5xf32>) -> tensor<4x5xf32> {
  %0 = ms.matmul %a, %b : tensor<4x3xf32>, tensor<3x5xf32>
  return %0 : tensor<4x5xf32>
}

// CHECK-LABEL: func @transpose_b
// CHECK: linalg.matmul indexing_maps = [#[[MK]], #[[NK]], #[[MN]]]
func.func @transpose_b(%a: tensor<4x3xf32>, %b: tensor<5x3xf32>) -> tensor<4x5xf32> {
  %0 = ms.matmul %a, %b transpose_b : tensor<4x3xf32>, tensor<5x3xf32>
  return %0 : tensor<4x5xf32>
}

// CHECK-LABEL: func @transpose_a
// CHECK: linalg.matmul indexing_maps = [#[[KM]], #[[KN]], #[[MN]]]
func.func @transpose_a(%a: tensor<3x4xf32>, %b: tensor<3x5xf32>) -> tensor<4x5xf32> {
  %0 = ms.matmul %a, %b transpose_a : tensor<3x4xf32>, tensor<3x5xf32>
  return %0 : tensor<4x5xf32>
}

// Both transposed, or batched with broadcasting: a generic contraction whose
// last loop is the reduction.
// CHECK-LABEL: func @transpose_both
// CHECK: linalg.generic {indexing_maps = [#[[KM]], #[[NK]], #[[MN]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK: %[[P:.*]] = arith.mulf
// CHECK: arith.addf %{{.*}}, %[[P]]
func.func @transpose_both(%a: tensor<3x4xf32>, %b: tensor<5x3xf32>) -> tensor<4x5xf32> {
  %0 = ms.matmul %a, %b transpose_a transpose_b : tensor<3x4xf32>, tensor<5x3xf32>
  return %0 : tensor<4x5xf32>
}

// CHECK-LABEL: func @batched_broadcast
// CHECK: linalg.generic {indexing_maps = [#[[BA]], #[[BB]], #[[BC]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<8x4x3xf32>, tensor<1x3x5xf32>) outs(%{{.*}} : tensor<8x4x5xf32>)
func.func @batched_broadcast(%p: tensor<8x4x3xf32>, %q: tensor<1x3x5xf32>) -> tensor<8x4x5xf32> {
  %0 = ms.matmul %p, %q : tensor<8x4x3xf32>, tensor<1x3x5xf32>
  return %0 : tensor<8x4x5xf32>
}
