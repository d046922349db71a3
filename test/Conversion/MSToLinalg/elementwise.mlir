// Elementwise ops become one linalg.generic each; broadcast operands read
// through maps that drop or pin (to 0) the stretched dims.
// RUN: ms-opt %s --convert-ms-to-linalg | FileCheck %s

// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[COL:.*]] = affine_map<(d0, d1) -> (d0, 0)>

// CHECK-LABEL: func @binary
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]]
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.addf
// CHECK: linalg.generic {indexing_maps = [#[[ROW]], #[[ID]], #[[ID]]]
// CHECK: arith.subf
// CHECK: linalg.generic {indexing_maps = [#[[COL]], #[[ROW]], #[[ID]]]
// CHECK: arith.mulf
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[COL]], #[[ID]]]
// CHECK: arith.divf
// CHECK: arith.maximumf
// CHECK: arith.minimumf
func.func @binary(%x: tensor<4x10xf32>, %y: tensor<10xf32>, %z: tensor<4x1xf32>) {
  %0 = ms.add %x, %y : tensor<4x10xf32>, tensor<10xf32>
  %1 = ms.sub %y, %x : tensor<10xf32>, tensor<4x10xf32>
  %2 = ms.mul %z, %y : tensor<4x1xf32>, tensor<10xf32>
  %3 = ms.div %x, %z : tensor<4x10xf32>, tensor<4x1xf32>
  %4 = ms.maximum %x, %x : tensor<4x10xf32>, tensor<4x10xf32>
  %5 = ms.minimum %x, %y : tensor<4x10xf32>, tensor<10xf32>
  return
}

// CHECK-LABEL: func @unary
// relu: max(x, 0)
// CHECK: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: arith.maximumf %[[IN]], %[[Z]] : f32
// sigmoid: e = exp(-|x|), (x >= 0 ? 1 : e) / (1 + e)
// CHECK: %[[A:.*]] = math.absf
// CHECK-NEXT: %[[N:.*]] = arith.negf %[[A]]
// CHECK-NEXT: %[[E:.*]] = math.exp %[[N]]
// CHECK-NEXT: %[[D:.*]] = arith.addf %{{.*}}, %[[E]]
// CHECK: %[[GE:.*]] = arith.cmpf oge
// CHECK-NEXT: %[[NUM:.*]] = arith.select %[[GE]], %{{.*}}, %[[E]]
// CHECK-NEXT: %[[Q:.*]] = arith.divf %[[NUM]], %[[D]]
// then corrected for the roundings of d and of the division:
// CHECK: math.fma %{{.*}}, %[[D]], %[[NUM]]
// CHECK: math.fma
// CHECK-NEXT: math.fma %{{.*}}, %{{.*}}, %[[Q]]
// CHECK: math.tanh
// CHECK: math.exp
// CHECK: math.log
// CHECK: math.sqrt
// CHECK: arith.negf
// CHECK: math.absf
// CHECK: ^bb0(%[[FIN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[FLOOR:.*]] = math.floor %[[FIN]] : f32
// CHECK-NEXT: linalg.yield %[[FLOOR]] : f32
func.func @unary(%x: tensor<4x10xf32>) {
  %0 = ms.relu %x : tensor<4x10xf32>
  %1 = ms.sigmoid %x : tensor<4x10xf32>
  %2 = ms.tanh %x : tensor<4x10xf32>
  %3 = ms.exp %x : tensor<4x10xf32>
  %4 = ms.log %x : tensor<4x10xf32>
  %5 = ms.sqrt %x : tensor<4x10xf32>
  %6 = ms.neg %x : tensor<4x10xf32>
  %7 = ms.abs %x : tensor<4x10xf32>
  %8 = ms.floor %x : tensor<4x10xf32>
  return
}

// CHECK-LABEL: func @gelu
// tanh approximation: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
// CHECK: arith.constant 4.471500e-02 : f32
// CHECK: arith.constant 0.797884583 : f32
// CHECK: math.tanh
// exact: 0.5 x (1 + erf(x / sqrt 2))
// CHECK: arith.constant 0.707106769 : f32
// CHECK: math.erf
func.func @gelu(%x: tensor<4xf32>) {
  %0 = ms.gelu %x : tensor<4xf32>
  %1 = ms.gelu %x {approximate = false} : tensor<4xf32>
  return
}
