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
// CHECK: arith.cmpi ugt, %{{.*}}, %{{.*}} : i1
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

// Float to integer is defined for every value: NaN -> 0, clamped to int64
// in f64, then wrapped to the target width.
// CHECK-LABEL: func @casts
// CHECK: arith.extf %{{.*}} : f32 to f64
// CHECK: arith.cmpf uno
// CHECK: arith.maximumf
// CHECK: arith.minimumf
// CHECK: arith.fptosi %{{.*}} : f64 to i64
// CHECK: arith.trunci %{{.*}} : i64 to i32
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

// ui8 is stored as i8 and converts as unsigned; i8 as signed.
// CHECK-LABEL: func @unsigned_casts
// CHECK-SAME: (%{{.*}}: tensor<4xi8>, %{{.*}}: tensor<4xi8>, %{{.*}}: tensor<4xf64>)
// CHECK-SAME: -> (tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xi32>, tensor<4xi8>, tensor<4xi8>)
// CHECK: arith.uitofp %{{.*}} : i8 to f32
// CHECK: arith.extui %{{.*}} : i8 to i32
// CHECK: arith.sitofp %{{.*}} : i8 to f32
// CHECK: arith.extsi %{{.*}} : i8 to i32
// CHECK: arith.fptosi %{{.*}} : f64 to i64
// CHECK: arith.trunci %{{.*}} : i64 to i8
// The same bytes: no op in the body.
// CHECK: ^bb0(%[[IN:.*]]: i8, %{{.*}}: i8):
// CHECK-NEXT: linalg.yield %[[IN]] : i8
func.func @unsigned_casts(%u: tensor<4xui8>, %s: tensor<4xi8>, %d: tensor<4xf64>)
    -> (tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xi32>, tensor<4xui8>, tensor<4xi8>) {
  %0 = ms.cast %u to f32 : tensor<4xui8>
  %1 = ms.cast %u to i32 : tensor<4xui8>
  %2 = ms.cast %s to f32 : tensor<4xi8>
  %3 = ms.cast %s to i32 : tensor<4xi8>
  %4 = ms.cast %d to ui8 : tensor<4xf64>
  %5 = ms.cast %u to i8 : tensor<4xui8>
  return %0, %1, %2, %3, %4, %5 : tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xi32>, tensor<4xui8>, tensor<4xi8>
}

// bf16 and f16 hold neither each other: through f32.
// CHECK-LABEL: func @half_casts
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @half_casts(%x: tensor<4xbf16>) -> tensor<4xf16> {
  %0 = ms.cast %x to f16 : tensor<4xbf16>
  return %0 : tensor<4xf16>
}

// f64 and integers reach bf16 in one rounding: to f32 rounded to odd (toward
// zero, last bit set when inexact), then to bf16.
// CHECK-LABEL: func @to_bf16
// CHECK: arith.truncf %{{.*}} : f64 to f32
// CHECK: arith.bitcast %{{.*}} : f32 to i32
// CHECK: arith.cmpf ogt
// CHECK: arith.cmpf une
// CHECK: arith.ori
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: arith.sitofp %{{.*}} : i32 to f64
// CHECK: arith.truncf %{{.*}} : f64 to f32
// CHECK: arith.truncf %{{.*}} : f32 to bf16
func.func @to_bf16(%x: tensor<4xf64>, %i: tensor<4xi32>) -> (tensor<4xbf16>, tensor<4xbf16>) {
  %0 = ms.cast %x to bf16 : tensor<4xf64>
  %1 = ms.cast %i to bf16 : tensor<4xi32>
  return %0, %1 : tensor<4xbf16>, tensor<4xbf16>
}

// ui8 compares unsigned, i8 signed.
// CHECK-LABEL: func @compare_unsigned
// CHECK: arith.cmpi ult, %{{.*}}, %{{.*}} : i8
// CHECK: arith.cmpi uge, %{{.*}}, %{{.*}} : i8
// CHECK: arith.cmpi slt, %{{.*}}, %{{.*}} : i8
func.func @compare_unsigned(%a: tensor<4xui8>, %b: tensor<4xui8>, %c: tensor<4xi8>)
    -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %0 = ms.less %a, %b : tensor<4xui8>, tensor<4xui8>
  %1 = ms.greater_equal %a, %b : tensor<4xui8>, tensor<4xui8>
  %2 = ms.less %c, %c : tensor<4xi8>, tensor<4xi8>
  return %0, %1, %2 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// A captured ui8 constant is stored as i8, the same bytes.
// CHECK-LABEL: func @ui8_constant
// CHECK: arith.constant dense<[1, -1, 127]> : tensor<3xi8>
// CHECK: arith.maxui
func.func @ui8_constant(%a: tensor<3xui8>) -> tensor<3xui8> {
  %c = arith.constant dense<[1, 255, 127]> : tensor<3xui8>
  %0 = ms.maximum %a, %c : tensor<3xui8>, tensor<3xui8>
  return %0 : tensor<3xui8>
}
