// slice -> tensor.extract_slice, pad -> tensor.pad, broadcast_to -> a
// copying linalg.generic with numpy's broadcast map, gather -> a
// linalg.generic that extracts the indexed element, zero out of range;
// slice_update -> tensor.insert_slice, scatter_update -> an scf.for.
// RUN: ms-opt %s --convert-ms-to-linalg | FileCheck %s

// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[IDX:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// CHECK-LABEL: func @slice
// CHECK: tensor.extract_slice %{{.*}}[0, 1] [4, 4] [1, 2] : tensor<4x8xf32> to tensor<4x4xf32>
func.func @slice(%x: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %0 = ms.slice %x begin [0, 1] end [4, 8] strides [1, 2] : tensor<4x8xf32>
  return %0 : tensor<4x4xf32>
}

// CHECK-LABEL: func @pad
// CHECK: %[[V:.*]] = arith.constant 5.000000e-01 : f32
// CHECK: tensor.pad %{{.*}} low[0, 1] high[2, 3]
// CHECK: tensor.yield %[[V]]
func.func @pad(%x: tensor<4x8xf32>) -> tensor<6x12xf32> {
  %0 = ms.pad %x low [0, 1] high [2, 3] value 0.5 : tensor<4x8xf32>
  return %0 : tensor<6x12xf32>
}

// CHECK-LABEL: func @broadcast_to
// CHECK: linalg.generic {indexing_maps = [#[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[IN]] : f32
func.func @broadcast_to(%b: tensor<10xf32>) -> tensor<64x10xf32> {
  %0 = ms.broadcast_to %b to [64, 10] : tensor<10xf32>
  return %0 : tensor<64x10xf32>
}

// CHECK-LABEL: func @gather
// CHECK: linalg.generic {indexing_maps = [#[[IDX]], #[[OUT]]]
// CHECK: %[[I:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: %[[LO:.*]] = arith.cmpi sge, %[[I]]
// CHECK: %[[HI:.*]] = arith.cmpi slt, %[[I]]
// CHECK: %[[OK:.*]] = arith.andi %[[LO]], %[[HI]]
// CHECK: %[[SAFE:.*]] = arith.select %[[OK]], %[[I]]
// CHECK: %[[D2:.*]] = linalg.index 2
// CHECK: %[[E:.*]] = tensor.extract %{{.*}}[%[[SAFE]], %[[D2]]] : tensor<100x16xf32>
// CHECK: arith.select %[[OK]], %[[E]]
func.func @gather(%t: tensor<100x16xf32>, %ids: tensor<8x5xi32>) -> tensor<8x5x16xf32> {
  %0 = ms.gather %t, %ids axis 0 : tensor<100x16xf32>, tensor<8x5xi32>
  return %0 : tensor<8x5x16xf32>
}

// slice_update -> one tensor.insert_slice at the slice's offsets and
// strides, into a copy of the input (never into the argument's buffer).
// CHECK-LABEL: func @slice_update
// CHECK: %[[C:.*]] = bufferization.alloc_tensor() copy(%{{.*}}) : tensor<4x8xf32>
// CHECK: tensor.insert_slice %{{.*}} into %[[C]][0, 1] [4, 4] [1, 2] : tensor<4x4xf32> into tensor<4x8xf32>
func.func @slice_update(%x: tensor<4x8xf32>, %u: tensor<4x4xf32>) -> tensor<4x8xf32> {
  %0 = ms.slice_update %x, %u begin [0, 1] end [4, 8] strides [1, 2] : tensor<4x8xf32>, tensor<4x4xf32>
  return %0 : tensor<4x8xf32>
}

// scatter_update -> an scf.for over the flattened indices, in order,
// carrying the result; an in-range index inserts its row, others keep it.
// CHECK-LABEL: func @scatter_update
// CHECK-DAG: %[[IDS:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<2x3xi64> into tensor<6xi64>
// CHECK-DAG: %[[ROWS:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
// CHECK-DAG: %[[N:.*]] = arith.constant 6 : index
// CHECK-DAG: %[[SIZE:.*]] = arith.constant 10 : index
// CHECK: %[[C:.*]] = bufferization.alloc_tensor() copy(%{{.*}}) : tensor<10x4xf32>
// CHECK: %[[R:.*]] = scf.for %[[M:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[C]]) -> (tensor<10x4xf32>)
// CHECK: %[[RAW:.*]] = tensor.extract %[[IDS]][%[[M]]] : tensor<6xi64>
// CHECK: %[[I:.*]] = arith.index_cast %[[RAW]] : i64 to index
// CHECK: %[[LO:.*]] = arith.cmpi sge, %[[I]]
// CHECK: %[[HI:.*]] = arith.cmpi slt, %[[I]], %[[SIZE]]
// CHECK: %[[OK:.*]] = arith.andi %[[LO]], %[[HI]]
// CHECK: scf.if %[[OK]] -> (tensor<10x4xf32>)
// CHECK: %[[ROW:.*]] = tensor.extract_slice %[[ROWS]][%[[M]], 0] [1, 4] [1, 1] : tensor<6x4xf32> to tensor<4xf32>
// CHECK: %[[W:.*]] = tensor.insert_slice %[[ROW]] into %[[ACC]][%[[I]], 0] [1, 4] [1, 1] : tensor<4xf32> into tensor<10x4xf32>
// CHECK: scf.yield %[[W]]
// CHECK: } else {
// CHECK: scf.yield %[[ACC]]
// CHECK: return %[[R]]
func.func @scatter_update(%x: tensor<10x4xf32>, %ids: tensor<2x3xi64>, %rows: tensor<2x3x4xf32>) -> tensor<10x4xf32> {
  %0 = ms.scatter_update %x, %ids, %rows : tensor<10x4xf32>, tensor<2x3xi64>, tensor<2x3x4xf32>
  return %0 : tensor<10x4xf32>
}

// A rank-0 index writes one element of a rank-1 input.
// CHECK-LABEL: func @scatter_update_scalar
// CHECK: tensor.expand_shape %{{.*}} [] output_shape [1] : tensor<i32> into tensor<1xi32>
// CHECK: scf.for
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[%{{.*}}] [1] [1] : tensor<f32> into tensor<5xf32>
func.func @scatter_update_scalar(%y: tensor<5xf32>, %j: tensor<i32>, %s: tensor<f32>) -> tensor<5xf32> {
  %0 = ms.scatter_update %y, %j, %s : tensor<5xf32>, tensor<i32>, tensor<f32>
  return %0 : tensor<5xf32>
}
