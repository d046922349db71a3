// RUN: ms-opt %s --convert-ms-to-linalg | FileCheck %s

// The maps of the rank-2 kernels with one extra reduction dim d2: ROWI
// reads element (row, d1), ROWJ element (row, d2).
// CHECK-DAG: #[[ROWI:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[ROWJ:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>

// cumsum: an scf.for along the axis (backwards with `reverse`) carrying the
// running sum, updated in place by one add per step; `exclusive` stores the
// sum before the step's add.
// CHECK-LABEL: func @cumsum
// CHECK: %[[ZEROS:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4xf32>)
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ZEROS]], %[[OUT:.*]] = %{{.*}}) -> (tensor<4xf32>, tensor<4x5xf32>)
// CHECK: %[[POS:.*]] = arith.subi %{{.*}}, %[[I]] : index
// CHECK: %[[SLICE:.*]] = tensor.extract_slice %{{.*}}[0, %[[POS]]] [4, 1] [1, 1] : tensor<4x5xf32> to tensor<4xf32>
// CHECK: %[[STORED:.*]] = tensor.insert_slice %[[ACC]] into %[[OUT]][0, %[[POS]]] [4, 1] [1, 1]
// CHECK: %[[NEXT:.*]] = linalg.generic {{.*}} ins(%[[SLICE]] : tensor<4xf32>) outs(%[[ACC]] : tensor<4xf32>)
// CHECK: arith.addf
// CHECK: scf.yield %[[NEXT]], %[[STORED]]
func.func @cumsum(%x: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %0 = ms.cumsum %x axis 1 exclusive reverse : tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// Inclusive, integers: addi, and the new sum is stored.
// CHECK-LABEL: func @cumsum_i64
// CHECK: scf.for
// CHECK: %[[NEXT:.*]] = linalg.generic
// CHECK: arith.addi
// CHECK: tensor.insert_slice %[[NEXT]]
func.func @cumsum_i64(%x: tensor<6xi64>) -> tensor<6xi64> {
  %0 = ms.cumsum %x axis 0 : tensor<6xi64>
  return %0 : tensor<6xi64>
}

// argsort: per row (a loop over the other dims), a bottom-up merge sort of
// positions in a [2n] buffer (passes alternate halves), then the first k
// positions written out. Pass count ceil(log2 5) = 3; each merge step reads
// both run heads (clamped to n - 1 = 4) and takes the left one unless the
// right strictly precedes it (descending: greater, or NaN over a number).
// CHECK-LABEL: func @argsort
// CHECK: scf.for %[[ROW:.*]] = %{{.*}} to %c4 step %{{.*}} iter_args(%[[RES:.*]] = %{{.*}}) -> (tensor<4x2xi32>)
// CHECK-DAG: %[[N:.*]] = arith.constant 5 : index
// CHECK-DAG: %[[LAST:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[PASSES:.*]] = arith.constant 3 : index
// CHECK: %[[IOTA:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<10xindex>)
// CHECK: linalg.index 0 : index
// CHECK: scf.for %[[P:.*]] = %{{.*}} to %[[PASSES]] step %{{.*}} iter_args(%{{.*}} = %[[IOTA]]) -> (tensor<10xindex>)
// CHECK: %[[W:.*]] = arith.shli %{{.*}}, %[[P]] : index
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args({{.*}}) -> (index, index, tensor<10xindex>)
// CHECK: arith.remui %[[K]]
// CHECK: arith.minui %{{.*}}, %[[LAST]] : index
// CHECK: %[[LP:.*]] = tensor.extract %{{.*}} : tensor<10xindex>
// CHECK: %[[LX:.*]] = tensor.extract %{{.*}}[%[[ROW]], %[[LP]]] : tensor<4x5xf32>
// CHECK: %[[RP:.*]] = tensor.extract %{{.*}} : tensor<10xindex>
// CHECK: %[[RX:.*]] = tensor.extract %{{.*}}[%[[ROW]], %[[RP]]] : tensor<4x5xf32>
// CHECK: arith.cmpf ogt, %[[RX]], %[[LX]] : f32
// CHECK: arith.cmpf uno, %[[RX]], %[[RX]] : f32
// CHECK: arith.cmpf ord, %[[LX]], %[[LX]] : f32
// CHECK: %[[PICK:.*]] = arith.select %{{.*}}, %[[LP]], %[[RP]] : index
// CHECK: tensor.insert %[[PICK]]
// CHECK: scf.for %[[Q:.*]] = %{{.*}} to %c2 step %{{.*}} iter_args(%[[OUT:.*]] = %[[RES]]) -> (tensor<4x2xi32>)
// CHECK: %[[POS:.*]] = tensor.extract
// CHECK: %[[POSI:.*]] = arith.index_cast %[[POS]] : index to i32
// CHECK: tensor.insert %[[POSI]] into %[[OUT]][%[[ROW]], %[[Q]]] : tensor<4x2xi32>
func.func @argsort(%x: tensor<4x5xf32>) -> tensor<4x2xi32> {
  %0 = ms.argsort %x axis 1 descending k 2 output_type i32 : tensor<4x5xf32>
  return %0 : tensor<4x2xi32>
}

// Unsigned elements compare unsigned, stored as signless i8.
// CHECK-LABEL: func @argsort_ui8
// CHECK-SAME: (%{{.*}}: tensor<5xi8>) -> tensor<5xi64>
// CHECK: arith.cmpi ult, %{{.*}}, %{{.*}} : i8
func.func @argsort_ui8(%x: tensor<5xui8>) -> tensor<5xi64> {
  %0 = ms.argsort %x axis 0 output_type i64 : tensor<5xui8>
  return %0 : tensor<5xi64>
}

// gather_elements: a bounds-checked tensor.extract per result element.
// CHECK-LABEL: func @gather_elements
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<4x2xi32>) outs(%{{.*}} : tensor<4x2xi64>)
// CHECK: %[[IDX:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: %[[OK:.*]] = arith.andi
// CHECK: %[[SAFE:.*]] = arith.select %[[OK]], %[[IDX]], %{{.*}} : index
// CHECK: %[[ROW:.*]] = linalg.index 0 : index
// CHECK: %[[E:.*]] = tensor.extract %{{.*}}[%[[ROW]], %[[SAFE]]] : tensor<4x5xi64>
// CHECK: arith.select %[[OK]], %[[E]], %{{.*}} : i64
func.func @gather_elements(%x: tensor<4x5xi64>, %i: tensor<4x2xi32>) -> tensor<4x2xi64> {
  %0 = ms.gather_elements %x, %i axis 1 : tensor<4x5xi64>, tensor<4x2xi32>
  return %0 : tensor<4x2xi64>
}

// gather_elements_grad: for each input position, the in-order sum of the dy
// elements whose index names it.
// CHECK-LABEL: func @gather_elements_grad
// CHECK: linalg.generic {indexing_maps = [#[[ROWJ]], #[[ROWJ]], #[[ROWI]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<4x2xf32>, tensor<4x2xi32>) outs(%{{.*}} : tensor<4x5xf32>)
// CHECK: %[[POS:.*]] = linalg.index 1 : index
// CHECK: %[[POSI:.*]] = arith.index_cast %[[POS]] : index to i32
// CHECK: %[[HIT:.*]] = arith.cmpi eq, %{{.*}}, %[[POSI]] : i32
// CHECK: %[[PICK:.*]] = arith.select %[[HIT]], %{{.*}}, %{{.*}} : f32
// CHECK: arith.addf %{{.*}}, %[[PICK]] : f32
func.func @gather_elements_grad(%dy: tensor<4x2xf32>, %i: tensor<4x2xi32>) -> tensor<4x5xf32> {
  %0 = ms.gather_elements_grad %dy, %i axis 1 size 5 : tensor<4x2xf32>, tensor<4x2xi32>
  return %0 : tensor<4x5xf32>
}
