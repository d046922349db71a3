// layer_norm: two in-order sums over the normalized dims into a kept-shape
// [8, 1, 1] tensor (the mean, then the squared deviations), each divided by
// the count, and one elementwise pass that broadcasts mean, variance, gamma
// and beta.
// RUN: ms-opt %s --convert-ms-to-linalg | FileCheck %s

// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[KEPT:.*]] = affine_map<(d0, d1, d2) -> (d0, 0, 0)>
// CHECK-DAG: #[[PARAM:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func @ln
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[KEPT]]], iterator_types = ["parallel", "reduction", "reduction"]}
// CHECK-SAME: ins(%{{.*}} : tensor<8x16x32xf32>) outs(%{{.*}} : tensor<8x1x1xf32>)
// CHECK: arith.addf
// CHECK: %[[MEAN:.*]] = linalg.generic
// CHECK: %[[N:.*]] = arith.constant 5.120000e+02 : f32
// CHECK: arith.divf %{{.*}}, %[[N]]
// CHECK: %[[SQ:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[KEPT]], #[[KEPT]]], iterator_types = ["parallel", "reduction", "reduction"]}
// CHECK-SAME: ins(%{{.*}}, %[[MEAN]] : tensor<8x16x32xf32>, tensor<8x1x1xf32>)
// CHECK: %[[D:.*]] = arith.subf
// CHECK: %[[D2:.*]] = arith.mulf %[[D]], %[[D]]
// CHECK: arith.addf %{{.*}}, %[[D2]]
// CHECK: %[[VAR:.*]] = linalg.generic
// CHECK: arith.divf
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[KEPT]], #[[KEPT]], #[[PARAM]], #[[PARAM]], #[[ID]]]
// CHECK-SAME: ins(%{{.*}}, %[[MEAN]], %[[VAR]], %{{.*}}, %{{.*}} :
// CHECK: %[[C:.*]] = arith.subf
// CHECK: %[[E:.*]] = arith.constant 9.99999974E-6 : f32
// CHECK: %[[S:.*]] = arith.addf %{{.*}}, %[[E]]
// CHECK: %[[R:.*]] = math.sqrt %[[S]]
// CHECK: %[[Q:.*]] = arith.divf %[[C]], %[[R]]
// CHECK: %[[G:.*]] = arith.mulf %[[Q]]
// CHECK: arith.addf %[[G]]
func.func @ln(%x: tensor<8x16x32xf32>, %g: tensor<16x32xf32>, %b: tensor<16x32xf32>) -> tensor<8x16x32xf32> {
  %0 = ms.layer_norm %x, %g, %b begin_norm_axis 1 begin_params_axis 1 epsilon 1.000000e-05 : tensor<8x16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>
  return %0 : tensor<8x16x32xf32>
}
