// RUN: ms-opt %s --convert-ms-to-linalg | FileCheck %s

// one_hot: each result position compares its index along the new axis with
// the index read from `indices` (which skips that axis).
// CHECK-DAG: #[[SKIP0:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[ID3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func @one_hot
// CHECK: linalg.generic {indexing_maps = [#[[SKIP0]], #[[ID3]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{.*}} : tensor<2x3xi64>) outs(%{{.*}} : tensor<4x2x3xf32>)
// CHECK: ^bb0(%[[IDX:.*]]: i64, %{{.*}}: f32):
// CHECK: %[[POS:.*]] = linalg.index 0 : index
// CHECK: %[[POSI:.*]] = arith.index_cast %[[POS]] : index to i64
// CHECK: %[[HIT:.*]] = arith.cmpi eq, %[[IDX]], %[[POSI]] : i64
// CHECK-DAG: %[[OFF:.*]] = arith.constant -1.000000e+00 : f32
// CHECK-DAG: %[[ON:.*]] = arith.constant 5.000000e-01 : f32
// CHECK: arith.select %[[HIT]], %[[ON]], %[[OFF]] : f32
func.func @one_hot(%m: tensor<2x3xi64>) -> tensor<4x2x3xf32> {
  %0 = ms.one_hot %m depth 4 axis 0 on_value 0.5 off_value -1.0 : tensor<2x3xi64>
  return %0 : tensor<4x2x3xf32>
}

// argmax: one in-order reduction carrying (best value, its index); a
// strictly greater value, a NaN after a number, or the first element wins.
// CHECK-LABEL: func @argmax
// CHECK: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[V:.*]] = linalg.fill ins(%[[NEGINF]] : f32) outs(%{{.*}} : tensor<4xf32>)
// CHECK: %[[I:.*]] = linalg.fill ins(%{{.*}} : i64) outs(%{{.*}} : tensor<4xi64>)
// CHECK: %[[R:.*]]:2 = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<4x5xf32>) outs(%[[V]], %[[I]] : tensor<4xf32>, tensor<4xi64>)
// CHECK: arith.cmpf ogt
// CHECK: arith.cmpf uno
// CHECK: arith.cmpf ord
// CHECK: linalg.index 1
// CHECK: arith.select
// CHECK: arith.select
// CHECK: return %[[R]]#1 : tensor<4xi64>
func.func @argmax(%x: tensor<4x5xf32>) -> tensor<4xi64> {
  %0 = ms.argmax %x axis 1 output_type i64 : tensor<4x5xf32>
  return %0 : tensor<4xi64>
}

// argmin of integers compares signed and keeps the axis as size 1.
// CHECK-LABEL: func @argmin_keep_dims
// CHECK: arith.constant 2147483647 : i32
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]
// CHECK: arith.cmpi slt
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [1, 5] : tensor<5xi32> into tensor<1x5xi32>
func.func @argmin_keep_dims(%x: tensor<4x5xi32>) -> tensor<1x5xi32> {
  %0 = ms.argmin %x axis 0 keep_dims output_type i32 : tensor<4x5xi32>
  return %0 : tensor<1x5xi32>
}
