// Bool tensors are stored as i8 (0 or 1): signatures, constants and every
// op's result; i1 exists only as scalars inside the bodies.
// RUN: ms-opt %s --convert-ms-to-linalg | FileCheck %s

// CHECK-LABEL: func @compare
// CHECK-SAME: -> tensor<4x3xi8>
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x3xf32>, tensor<3xf32>) outs(%{{.*}} : tensor<4x3xi8>)
// CHECK: %[[C:.*]] = arith.cmpf olt, %{{.*}}, %{{.*}} : f32
// CHECK: %[[B:.*]] = arith.extui %[[C]] : i1 to i8
// CHECK: linalg.yield %[[B]] : i8
func.func @compare(%x: tensor<4x3xf32>, %y: tensor<3xf32>) -> tensor<4x3xi1> {
  %0 = ms.less %x, %y : tensor<4x3xf32>, tensor<3xf32>
  return %0 : tensor<4x3xi1>
}

// not_equal is true for a NaN (unordered), the integer forms are signed.
// CHECK-LABEL: func @predicates
// CHECK: arith.cmpf une
// CHECK: arith.cmpi sge
func.func @predicates(%x: tensor<4xf32>, %a: tensor<4xi32>) -> (tensor<4xi1>, tensor<4xi1>) {
  %0 = ms.not_equal %x, %x : tensor<4xf32>, tensor<4xf32>
  %1 = ms.greater_equal %a, %a : tensor<4xi32>, tensor<4xi32>
  return %0, %1 : tensor<4xi1>, tensor<4xi1>
}

// Bools compare as 0 and 1, not as signed i1.
// CHECK-LABEL: func @compare_bools
// CHECK-SAME: (%{{.*}}: tensor<4xi8>, %{{.*}}: tensor<4xi8>) -> tensor<4xi8>
// CHECK: arith.trunci %{{.*}} : i8 to i1
// CHECK: arith.extui %{{.*}} : i1 to i8
// CHECK: arith.cmpi sgt, %{{.*}}, %{{.*}} : i8
func.func @compare_bools(%a: tensor<4xi1>, %b: tensor<4xi1>) -> tensor<4xi1> {
  %0 = ms.greater %a, %b : tensor<4xi1>, tensor<4xi1>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func @logic
// CHECK: arith.andi %{{.*}}, %{{.*}} : i1
// CHECK: arith.ori %{{.*}}, %{{.*}} : i1
// CHECK: %[[TRUE:.*]] = arith.constant true
// CHECK: arith.xori %{{.*}}, %[[TRUE]] : i1
func.func @logic(%a: tensor<4xi1>, %b: tensor<1xi1>) -> tensor<4xi1> {
  %0 = ms.logical_and %a, %b : tensor<4xi1>, tensor<1xi1>
  %1 = ms.logical_or %0, %a : tensor<4xi1>, tensor<4xi1>
  %2 = ms.logical_not %1 : tensor<4xi1>
  return %2 : tensor<4xi1>
}

// CHECK-LABEL: func @select
// CHECK: ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4x1xi8>, tensor<3xf32>, tensor<f32>) outs(%{{.*}} : tensor<4x3xf32>)
// CHECK: %[[C:.*]] = arith.trunci %{{.*}} : i8 to i1
// CHECK: arith.select %[[C]], %{{.*}}, %{{.*}} : f32
func.func @select(%c: tensor<4x1xi1>, %x: tensor<3xf32>, %y: tensor<f32>) -> tensor<4x3xf32> {
  %0 = ms.select %c, %x, %y : tensor<4x1xi1>, tensor<3xf32>, tensor<f32>
  return %0 : tensor<4x3xf32>
}

// CHECK-LABEL: func @casts
// CHECK: arith.fptosi %{{.*}} : f32 to i32
// CHECK: arith.sitofp %{{.*}} : i64 to f32
// CHECK: arith.uitofp %{{.*}} : i1 to f32
// CHECK: arith.cmpf une
// CHECK: arith.extui %{{.*}} : i1 to i8
// CHECK: arith.trunci %{{.*}} : i64 to i32
// CHECK: arith.extf %{{.*}} : f16 to f32
func.func @casts(%x: tensor<4xf32>, %a: tensor<4xi64>, %b: tensor<4xi1>, %h: tensor<4xf16>)
    -> (tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi1>, tensor<4xi32>, tensor<4xf32>) {
  %0 = ms.cast %x to i32 : tensor<4xf32>
  %1 = ms.cast %a to f32 : tensor<4xi64>
  %2 = ms.cast %b to f32 : tensor<4xi1>
  %3 = ms.cast %x to i1 : tensor<4xf32>
  %4 = ms.cast %a to i32 : tensor<4xi64>
  %5 = ms.cast %h to f32 : tensor<4xf16>
  return %0, %1, %2, %3, %4, %5 : tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi1>, tensor<4xi32>, tensor<4xf32>
}

// A captured bool constant becomes its stored bytes.
// CHECK-LABEL: func @bool_constant
// CHECK: arith.constant dense<[1, 0, 1]> : tensor<3xi8>
func.func @bool_constant(%a: tensor<3xi1>) -> tensor<3xi1> {
  %c = arith.constant dense<[true, false, true]> : tensor<3xi1>
  %0 = ms.logical_and %a, %c : tensor<3xi1>, tensor<3xi1>
  return %0 : tensor<3xi1>
}
