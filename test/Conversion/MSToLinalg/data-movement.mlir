// slice -> tensor.extract_slice, pad -> tensor.pad, broadcast_to -> a
// copying linalg.generic with numpy's broadcast map, gather -> a
// linalg.generic that extracts the indexed element, zero out of range.
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
