// ms-vectorize-convs on the linalg form convert-ms-to-linalg{conv-as-matmul}
// gives a conv (an image loop of im2col matmuls), here followed by a leaky
// relu written as compare-and-select and a 2x2 max pool. The elementwise
// body runs on each accumulator with vector types per op (the compare
// gives vector<16xi1>), and, with no relu at the end, the window combines
// with exact maximumf.
// RUN: ms-opt %s --ms-vectorize-convs="vector-lanes=8 vector-registers=16" --canonicalize --cse | FileCheck %s

// CHECK-LABEL: func @leaky_relu_pooled
// CHECK-DAG: %[[SLOPE:.*]] = arith.constant dense<6.250000e-02> : vector<16xf32>
// CHECK-DAG: %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : vector<16xf32>
// CHECK: scf.forall {{.*}} -> (tensor<2x16x2x4xf32>)
// CHECK: %[[SUMS:.*]]:4 = scf.for
// CHECK: %[[POS:.*]] = arith.cmpf ogt, %[[SUMS]]#0, %[[ZEROS]] : vector<16xf32>
// CHECK: %[[SCALED:.*]] = arith.mulf %[[SUMS]]#0, %[[SLOPE]] : vector<16xf32>
// CHECK: %[[Y0:.*]] = arith.select %[[POS]], %[[SUMS]]#0, %[[SCALED]] : vector<16xi1>, vector<16xf32>
// CHECK-COUNT-3: arith.select
// CHECK: %[[M:.*]] = arith.maximumf %[[Y0]], %{{[^ ]*}} : vector<16xf32>
// CHECK-COUNT-2: arith.maximumf %{{[^ ]*}}, %{{[^ ]*}} : vector<16xf32>
// CHECK-NOT: arith.maximumf
// CHECK-NOT: linalg.generic
// CHECK: return
#map = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 + d3, d2 + d4)>
#map1 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map3 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>
#map4 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
#map5 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
module {
  func.func @leaky_relu_pooled(%arg0: tensor<2x2x6x10xf32>, %arg1: tensor<16x2x3x3xf32>) -> tensor<2x16x2x4xf32> {
    %collapsed = tensor.collapse_shape %arg1 [[0], [1, 2, 3]] : tensor<16x2x3x3xf32> into tensor<16x18xf32>
    %0 = tensor.empty() : tensor<2x16x4x8xf32>
    %1 = scf.forall (%arg2) in (2) shared_outs(%arg3 = %0) -> (tensor<2x16x4x8xf32>) {
      %extracted_slice = tensor.extract_slice %arg0[%arg2, 0, 0, 0] [1, 2, 6, 10] [1, 1, 1, 1] : tensor<2x2x6x10xf32> to tensor<2x6x10xf32>
      %8 = tensor.empty() : tensor<2x3x3x4x8xf32>
      %9 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice : tensor<2x6x10xf32>) outs(%8 : tensor<2x3x3x4x8xf32>) {
      ^bb0(%in: f32, %out: f32):
        linalg.yield %in : f32
      } -> tensor<2x3x3x4x8xf32>
      %collapsed_0 = tensor.collapse_shape %9 [[0, 1, 2], [3, 4]] : tensor<2x3x3x4x8xf32> into tensor<18x32xf32>
      %extracted_slice_1 = tensor.extract_slice %arg3[%arg2, 0, 0, 0] [1, 16, 4, 8] [1, 1, 1, 1] : tensor<2x16x4x8xf32> to tensor<1x16x4x8xf32>
      %collapsed_2 = tensor.collapse_shape %extracted_slice_1 [[0, 1], [2, 3]] : tensor<1x16x4x8xf32> into tensor<16x32xf32>
      %cst_3 = arith.constant 0.000000e+00 : f32
      %10 = linalg.fill ins(%cst_3 : f32) outs(%collapsed_2 : tensor<16x32xf32>) -> tensor<16x32xf32>
      %11 = linalg.matmul ins(%collapsed, %collapsed_0 : tensor<16x18xf32>, tensor<18x32xf32>) outs(%10 : tensor<16x32xf32>) -> tensor<16x32xf32>
      %expanded = tensor.expand_shape %11 [[0, 1], [2, 3]] output_shape [1, 16, 4, 8] : tensor<16x32xf32> into tensor<1x16x4x8xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %expanded into %arg3[%arg2, 0, 0, 0] [1, 16, 4, 8] [1, 1, 1, 1] : tensor<1x16x4x8xf32> into tensor<2x16x4x8xf32>
      }
    }
    %2 = tensor.empty() : tensor<2x16x4x8xf32>
    %3 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%1 : tensor<2x16x4x8xf32>) outs(%2 : tensor<2x16x4x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %lk0 = arith.constant 0.000000e+00 : f32
      %lka = arith.constant 0.0625 : f32
      %lkc = arith.cmpf ogt, %in, %lk0 : f32
      %lkm = arith.mulf %in, %lka : f32
      %lks = arith.select %lkc, %in, %lkm : f32
      linalg.yield %lks : f32
    } -> tensor<2x16x4x8xf32>
    %4 = tensor.empty() : tensor<2x2xf32>
    %5 = tensor.empty() : tensor<2x16x2x4xf32>
    %cst = arith.constant 0xFF800000 : f32
    %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<2x16x2x4xf32>) -> tensor<2x16x2x4xf32>
    %7 = linalg.generic {indexing_maps = [#map3, #map4, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%3, %4 : tensor<2x16x4x8xf32>, tensor<2x2xf32>) outs(%6 : tensor<2x16x2x4xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %8 = arith.maximumf %out, %in : f32
      linalg.yield %8 : f32
    } -> tensor<2x16x2x4xf32>
    return %7 : tensor<2x16x2x4xf32>
  }
}

