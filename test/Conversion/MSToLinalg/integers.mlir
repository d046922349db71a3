// Numeric ops on integers: arith's integer ops, wrapping as numpy's do;
// ui8 (stored as i8) picks the unsigned ones.
// RUN: ms-opt %s --convert-ms-to-linalg | FileCheck %s

// CHECK-LABEL: func @signed
// CHECK-SAME: (%{{.*}}: tensor<4xi32>, %{{.*}}: tensor<4xi32>)
// CHECK: arith.addi %{{.*}}, %{{.*}} : i32
// CHECK: arith.subi %{{.*}}, %{{.*}} : i32
// CHECK: arith.muli %{{.*}}, %{{.*}} : i32
// CHECK: arith.maxsi %{{.*}}, %{{.*}} : i32
// CHECK: arith.minsi %{{.*}}, %{{.*}} : i32
// neg is 0 - x.
// CHECK: %[[Z:.*]] = arith.constant 0 : i32
// CHECK: arith.subi %[[Z]], %{{.*}} : i32
// abs is max(x, 0 - x) (|INT_MIN| wraps to INT_MIN).
// CHECK: %[[Z1:.*]] = arith.constant 0 : i32
// CHECK: %[[N:.*]] = arith.subi %[[Z1]], %[[X:.*]] : i32
// CHECK: arith.maxsi %[[X]], %[[N]] : i32
// CHECK: %[[Z2:.*]] = arith.constant 0 : i32
// CHECK: arith.maxsi %{{.*}}, %[[Z2]] : i32
func.func @signed(%a: tensor<4xi32>, %b: tensor<4xi32>)
    -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {
  %0 = ms.add %a, %b : tensor<4xi32>, tensor<4xi32>
  %1 = ms.sub %a, %b : tensor<4xi32>, tensor<4xi32>
  %2 = ms.mul %a, %b : tensor<4xi32>, tensor<4xi32>
  %3 = ms.maximum %a, %b : tensor<4xi32>, tensor<4xi32>
  %4 = ms.minimum %a, %b : tensor<4xi32>, tensor<4xi32>
  %5 = ms.neg %a : tensor<4xi32>
  %6 = ms.abs %a : tensor<4xi32>
  %7 = ms.relu %a : tensor<4xi32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}

// CHECK-LABEL: func @unsigned
// CHECK-SAME: (%{{.*}}: tensor<4xi8>, %{{.*}}: tensor<4xi8>) -> (tensor<4xi8>, tensor<4xi8>, tensor<4xi8>, tensor<4xi8>)
// CHECK: arith.maxui %{{.*}}, %{{.*}} : i8
// CHECK: arith.minui %{{.*}}, %{{.*}} : i8
// An unsigned abs and relu are the identity.
// CHECK: ^bb0(%[[X:.*]]: i8, %{{.*}}: i8):
// CHECK-NEXT: linalg.yield %[[X]] : i8
// CHECK: arith.maxui
func.func @unsigned(%a: tensor<4xui8>, %b: tensor<4xui8>)
    -> (tensor<4xui8>, tensor<4xui8>, tensor<4xui8>, tensor<4xui8>) {
  %0 = ms.maximum %a, %b : tensor<4xui8>, tensor<4xui8>
  %1 = ms.minimum %a, %b : tensor<4xui8>, tensor<4xui8>
  %2 = ms.abs %a : tensor<4xui8>
  %3 = ms.relu %a : tensor<4xui8>
  return %0, %1, %2, %3 : tensor<4xui8>, tensor<4xui8>, tensor<4xui8>, tensor<4xui8>
}

// reduce_max starts from the type's lowest value: INT8_MIN, or 0 for ui8.
// CHECK-LABEL: func @reductions
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i16
// CHECK: linalg.fill ins(%[[ZERO]] : i16)
// CHECK: linalg.reduce { arith.addi
// CHECK: %[[MIN:.*]] = arith.constant -128 : i8
// CHECK: linalg.fill ins(%[[MIN]] : i8)
// CHECK: linalg.reduce { arith.maxsi }
// CHECK: %[[UMIN:.*]] = arith.constant 0 : i8
// CHECK: linalg.fill ins(%[[UMIN]] : i8)
// CHECK: linalg.reduce { arith.maxui }
func.func @reductions(%a: tensor<4x3xi16>, %b: tensor<4x3xi8>, %u: tensor<4x3xui8>)
    -> (tensor<4xi16>, tensor<3xi8>, tensor<4xui8>) {
  %0 = ms.reduce_sum %a axes [1] : tensor<4x3xi16>
  %1 = ms.reduce_max %b axes [0] : tensor<4x3xi8>
  %2 = ms.reduce_max %u axes [1] : tensor<4x3xui8>
  return %0, %1, %2 : tensor<4xi16>, tensor<3xi8>, tensor<4xui8>
}

// Integer contractions multiply and add with muli/addi from a zero fill.
// CHECK-LABEL: func @contractions
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x3xi64>, tensor<3x5xi64>)
// CHECK: arith.muli %{{.*}}, %{{.*}} : i8
// CHECK: arith.addi %{{.*}}, %{{.*}} : i8
// The dense bias is added with addi.
// CHECK: arith.addi %{{.*}}, %{{.*}} : i8
func.func @contractions(%a: tensor<4x3xi64>, %b: tensor<3x5xi64>, %x: tensor<2x4x3xui8>,
    %w: tensor<5x3xui8>, %bias: tensor<5xui8>) -> (tensor<4x5xi64>, tensor<2x4x5xui8>) {
  %0 = ms.matmul %a, %b : tensor<4x3xi64>, tensor<3x5xi64>
  %1 = ms.matmul %x, %w transpose_b : tensor<2x4x3xui8>, tensor<5x3xui8>
  %2 = ms.dense %x, %w, %bias : tensor<2x4x3xui8>, tensor<5x3xui8>, tensor<5xui8>
  return %0, %2 : tensor<4x5xi64>, tensor<2x4x5xui8>
}

// argmax of ui8 compares unsigned from 0.
// CHECK-LABEL: func @argmax_unsigned
// CHECK: arith.constant 0 : i8
// CHECK: arith.cmpi ugt, %{{.*}}, %{{.*}} : i8
func.func @argmax_unsigned(%u: tensor<4x3xui8>) -> tensor<4xi64> {
  %0 = ms.argmax %u axis 1 output_type i64 : tensor<4x3xui8>
  return %0 : tensor<4xi64>
}

// Data movement moves bools and ui8 as their stored bytes; pad and gather
// fill with integer constants.
// CHECK-LABEL: func @data_movement
// CHECK-SAME: (%[[B:.*]]: tensor<2x3xi8>, %[[U:.*]]: tensor<2x3xi8>, %{{.*}}: tensor<4xi32>)
// CHECK: tensor.collapse_shape %[[B]] {{.*}} : tensor<2x3xi8> into tensor<6xi8>
// CHECK: linalg.transpose ins(%[[U]] : tensor<2x3xi8>)
// CHECK: %[[ONE:.*]] = arith.constant 1 : i8
// CHECK: tensor.pad %[[B]]
// CHECK: tensor.yield %[[ONE]] : i8
// CHECK: %[[NONE:.*]] = arith.constant 0 : i8
// CHECK: arith.select %{{.*}}, %{{.*}}, %[[NONE]] : i8
func.func @data_movement(%b: tensor<2x3xi1>, %u: tensor<2x3xui8>, %ids: tensor<4xi32>)
    -> (tensor<6xi1>, tensor<3x2xui8>, tensor<3x4xi1>, tensor<4x3xui8>) {
  %0 = ms.reshape %b to [6] : tensor<2x3xi1>
  %1 = ms.transpose %u perm [1, 0] : tensor<2x3xui8>
  %2 = ms.pad %b low [1, 0] high [0, 1] value 2.0 : tensor<2x3xi1>
  %3 = ms.gather %u, %ids axis 0 : tensor<2x3xui8>, tensor<4xi32>
  return %0, %1, %2, %3 : tensor<6xi1>, tensor<3x2xui8>, tensor<3x4xi1>, tensor<4x3xui8>
}
