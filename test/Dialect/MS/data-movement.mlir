// slice, broadcast_to, pad and gather round-trip through the custom and the
// generic form, with their inferred result types.
// RUN: ms-opt %s | FileCheck %s
// RUN: ms-opt %s --mlir-print-op-generic | ms-opt | FileCheck %s

// CHECK-LABEL: func @slice
// CHECK: ms.slice %{{.*}} begin [0, 1] end [4, 8] strides [1, 2] : tensor<4x8xf32>
func.func @slice(%x: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %0 = ms.slice %x begin [0, 1] end [4, 8] strides [1, 2] : tensor<4x8xf32>
  return %0 : tensor<4x4xf32>
}

// CHECK-LABEL: func @broadcast_to
// CHECK: ms.broadcast_to %{{.*}} to [64, 10] : tensor<10xf32>
func.func @broadcast_to(%b: tensor<10xf32>) -> tensor<64x10xf32> {
  %0 = ms.broadcast_to %b to [64, 10] : tensor<10xf32>
  return %0 : tensor<64x10xf32>
}

// CHECK-LABEL: func @pad
// CHECK: ms.pad %{{.*}} low [0, 1] high [2, 3] value 5.000000e-01 : tensor<4x8xf32>
// CHECK: ms.pad %{{.*}} low [1, 1] high [1, 1] : tensor<4x8xf32>
func.func @pad(%x: tensor<4x8xf32>) -> (tensor<6x12xf32>, tensor<6x10xf32>) {
  %0 = ms.pad %x low [0, 1] high [2, 3] value 0.5 : tensor<4x8xf32>
  %1 = ms.pad %x low [1, 1] high [1, 1] : tensor<4x8xf32>
  return %0, %1 : tensor<6x12xf32>, tensor<6x10xf32>
}

// CHECK-LABEL: func @gather
// CHECK: ms.gather %{{.*}}, %{{.*}} axis 0 : tensor<100x16xf32>, tensor<8x5xi32>
// CHECK: ms.gather %{{.*}}, %{{.*}} axis -1 : tensor<2x3x4xf32>, tensor<6xi64>
func.func @gather(%t: tensor<100x16xf32>, %ids: tensor<8x5xi32>, %x: tensor<2x3x4xf32>, %j: tensor<6xi64>) -> (tensor<8x5x16xf32>, tensor<2x3x6xf32>) {
  %0 = ms.gather %t, %ids axis 0 : tensor<100x16xf32>, tensor<8x5xi32>
  %1 = ms.gather %x, %j axis -1 : tensor<2x3x4xf32>, tensor<6xi64>
  return %0, %1 : tensor<8x5x16xf32>, tensor<2x3x6xf32>
}

// CHECK-LABEL: func @slice_update
// CHECK: ms.slice_update %{{.*}}, %{{.*}} begin [0, 1] end [4, 8] strides [1, 2] : tensor<4x8xf32>, tensor<4x4xf32>
// CHECK: ms.slice_update %{{.*}}, %{{.*}} begin [1] end [2] strides [1] : tensor<3xi32>, tensor<1xi32>
func.func @slice_update(%x: tensor<4x8xf32>, %u: tensor<4x4xf32>, %i: tensor<3xi32>, %v: tensor<1xi32>) -> (tensor<4x8xf32>, tensor<3xi32>) {
  %0 = ms.slice_update %x, %u begin [0, 1] end [4, 8] strides [1, 2] : tensor<4x8xf32>, tensor<4x4xf32>
  %1 = ms.slice_update %i, %v begin [1] end [2] strides [1] : tensor<3xi32>, tensor<1xi32>
  return %0, %1 : tensor<4x8xf32>, tensor<3xi32>
}

// CHECK-LABEL: func @scatter_update
// CHECK: ms.scatter_update %{{.*}}, %{{.*}}, %{{.*}} : tensor<10x4xf32>, tensor<2x3xi64>, tensor<2x3x4xf32>
// CHECK: ms.scatter_update %{{.*}}, %{{.*}}, %{{.*}} : tensor<5xf32>, tensor<i32>, tensor<f32>
func.func @scatter_update(%x: tensor<10x4xf32>, %ids: tensor<2x3xi64>, %rows: tensor<2x3x4xf32>, %y: tensor<5xf32>, %j: tensor<i32>, %s: tensor<f32>) -> (tensor<10x4xf32>, tensor<5xf32>) {
  %0 = ms.scatter_update %x, %ids, %rows : tensor<10x4xf32>, tensor<2x3xi64>, tensor<2x3x4xf32>
  %1 = ms.scatter_update %y, %j, %s : tensor<5xf32>, tensor<i32>, tensor<f32>
  return %0, %1 : tensor<10x4xf32>, tensor<5xf32>
}
