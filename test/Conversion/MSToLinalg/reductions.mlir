// RUN: ms-opt %s --convert-ms-to-linalg | FileCheck %s

// CHECK-LABEL: func @softmax
// CHECK: linalg.softmax dimension(1) ins(%{{.*}} : tensor<4x10xf32>)
func.func @softmax(%x: tensor<4x10xf32>) -> tensor<4x10xf32> {
  %0 = ms.softmax %x axis -1 : tensor<4x10xf32>
  return %0 : tensor<4x10xf32>
}

// log_softmax = (x - max) - log(sum(exp(x - max)))
// CHECK-LABEL: func @log_softmax
// CHECK: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[MAXINIT:.*]] = linalg.fill ins(%[[NEGINF]]
// CHECK: %[[MAX:.*]] = linalg.reduce { arith.maximumf } ins(%{{.*}} : tensor<4x10xf32>) outs(%[[MAXINIT]] : tensor<4xf32>) dimensions = [1]
// CHECK: %[[SHIFTED:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[MAX]] : tensor<4x10xf32>, tensor<4xf32>)
// CHECK: arith.subf
// CHECK: %[[EXP:.*]] = linalg.generic {{.*}} ins(%[[SHIFTED]]
// CHECK: math.exp
// CHECK: %[[SUM:.*]] = linalg.reduce { arith.addf } ins(%[[EXP]]
// CHECK: linalg.generic {{.*}} ins(%[[SHIFTED]], %[[SUM]]
// CHECK: math.log
// CHECK-NEXT: arith.subf
func.func @log_softmax(%x: tensor<4x10xf32>) -> tensor<4x10xf32> {
  %0 = ms.log_softmax %x axis 1 : tensor<4x10xf32>
  return %0 : tensor<4x10xf32>
}

// CHECK-LABEL: func @reduce_sum
// CHECK: linalg.reduce { arith.addf } ins(%{{.*}} : tensor<2x3x4xf32>) outs(%{{.*}} : tensor<3xf32>) dimensions = [0, 2]
func.func @reduce_sum(%x: tensor<2x3x4xf32>) -> tensor<3xf32> {
  %0 = ms.reduce_sum %x axes [2, 0] : tensor<2x3x4xf32>
  return %0 : tensor<3xf32>
}

// mean = sum / count, then keep_dims re-inserts the reduced axis.
// CHECK-LABEL: func @reduce_mean_keep_dims
// CHECK: %[[S:.*]] = linalg.reduce { arith.addf } {{.*}} dimensions = [1]
// CHECK: %[[M:.*]] = linalg.generic {{.*}} ins(%[[S]] : tensor<4xf32>)
// CHECK: arith.constant 1.000000e+01 : f32
// CHECK: arith.divf
// CHECK: tensor.expand_shape %[[M]] {{\[\[}}0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
func.func @reduce_mean_keep_dims(%x: tensor<4x10xf32>) -> tensor<4x1xf32> {
  %0 = ms.reduce_mean %x axes [1] keep_dims : tensor<4x10xf32>
  return %0 : tensor<4x1xf32>
}

// CHECK-LABEL: func @reduce_max_all
// CHECK: %[[R:.*]] = linalg.reduce { arith.maximumf } ins(%{{.*}} : tensor<4x10xf32>) outs(%{{.*}} : tensor<f32>) dimensions = [0, 1]
// CHECK: tensor.expand_shape %[[R]] [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
func.func @reduce_max_all(%x: tensor<4x10xf32>) -> tensor<1x1xf32> {
  %0 = ms.reduce_max %x axes [] keep_dims : tensor<4x10xf32>
  return %0 : tensor<1x1xf32>
}
