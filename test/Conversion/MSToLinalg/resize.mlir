// RUN: ms-opt %s --convert-ms-to-linalg | FileCheck %s

// nearest, 4 -> 3 rows and 6 -> 12 columns: the source tables are
// constants (floor(o * 4 / 3) rows; doubling halves the column index), read
// per row (d2) and column (d3).
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1, d2, d3) -> (d2)>
// CHECK-DAG: #[[COL:.*]] = affine_map<(d0, d1, d2, d3) -> (d3)>
// CHECK-LABEL: func @nearest
// CHECK-DAG: %[[ROWS:.*]] = arith.constant dense<[0, 1, 2]> : tensor<3xi64>
// CHECK-DAG: %[[COLS:.*]] = arith.constant dense<[0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]> : tensor<12xi64>
// CHECK: linalg.generic {indexing_maps = [#[[ROW]], #[[COL]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[ROWS]], %[[COLS]] : tensor<3xi64>, tensor<12xi64>) outs(%{{.*}} : tensor<1x2x3x12xf32>)
// CHECK: %[[N:.*]] = linalg.index 0 : index
// CHECK: %[[C:.*]] = linalg.index 1 : index
// CHECK: %[[H:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: %[[W:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: tensor.extract %{{.*}}[%[[N]], %[[C]], %[[H]], %[[W]]] : tensor<1x2x4x6xf32>
func.func @nearest(%x: tensor<1x2x4x6xf32>) -> tensor<1x2x3x12xf32> {
  %0 = ms.interpolate %x size [3, 12] : tensor<1x2x4x6xf32>
  return %0 : tensor<1x2x3x12xf32>
}

// bilinear with align_corners, 2 -> 3: rows 0, 0.5, 1 of the input, so
// indices (0, 1), (0, 1), (1, 1) and weights of the upper row 1, 0.5, 1.
// Four reads, the columns blended first.
// CHECK-LABEL: func @bilinear
// CHECK-DAG: arith.constant dense<[0, 0, 1]> : tensor<3xi64>
// CHECK-DAG: arith.constant dense<1> : tensor<3xi64>
// CHECK-DAG: arith.constant dense<[1.000000e+00, 5.000000e-01, 1.000000e+00]> : tensor<3xf32>
// CHECK-DAG: arith.constant dense<[0.000000e+00, 5.000000e-01, 0.000000e+00]> : tensor<3xf32>
// CHECK: linalg.generic
// CHECK: ^bb0(%[[H0:.*]]: i64, %[[W0:.*]]: i64, %[[H1:.*]]: i64, %[[W1:.*]]: i64, %[[WH0:.*]]: f32, %[[WW0:.*]]: f32, %[[WH1:.*]]: f32, %[[WW1:.*]]: f32, %{{.*}}: f32):
// CHECK-COUNT-4: tensor.extract
// CHECK: %[[A:.*]] = arith.mulf %{{.*}}, %[[WW0]] : f32
// CHECK: %[[B:.*]] = arith.mulf %{{.*}}, %[[WW1]] : f32
// CHECK: %[[TOP:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK: %[[BOTTOM:.*]] = arith.addf
// CHECK: %[[T:.*]] = arith.mulf %[[TOP]], %[[WH0]] : f32
// CHECK: %[[U:.*]] = arith.mulf %[[BOTTOM]], %[[WH1]] : f32
// CHECK: arith.addf %[[T]], %[[U]] : f32
func.func @bilinear(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x3x3xf32> {
  %0 = ms.interpolate %x size [3, 3] mode "bilinear" align_corners : tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x3x3xf32>
}

// f16 input computes in f32, as torch does.
// CHECK-LABEL: func @bilinear_f16
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @bilinear_f16(%x: tensor<1x1x2x2xf16>) -> tensor<1x1x3x3xf16> {
  %0 = ms.interpolate %x size [3, 3] mode "bilinear" : tensor<1x1x2x2xf16>
  return %0 : tensor<1x1x3x3xf16>
}
