// Round trip of interpolate in its custom and generic forms.
// RUN: ms-opt %s | ms-opt | FileCheck %s
// RUN: ms-opt %s --mlir-print-op-generic | ms-opt | FileCheck %s

// CHECK-LABEL: func @interpolate
func.func @interpolate(%x: tensor<1x3x4x6xf32>, %d: tensor<2x1x5x5xf64>) {
  // CHECK: ms.interpolate %{{.*}} size [8, 12] : tensor<1x3x4x6xf32>
  %0 = ms.interpolate %x size [8, 12] : tensor<1x3x4x6xf32>
  // CHECK: ms.interpolate %{{.*}} size [8, 12] mode "bilinear" align_corners : tensor<1x3x4x6xf32>
  %1 = ms.interpolate %x size [8, 12] mode "bilinear" align_corners : tensor<1x3x4x6xf32>
  // CHECK: ms.interpolate %{{.*}} size [2, 3] mode "bilinear" scales [2.000000e+00, 2.000000e+00] : tensor<1x3x4x6xf32>
  %2 = ms.interpolate %x size [2, 3] mode "bilinear" scales [2.0, 2.0] : tensor<1x3x4x6xf32>
  // CHECK: ms.interpolate %{{.*}} size [3, 7] : tensor<2x1x5x5xf64>
  %3 = ms.interpolate %d size [3, 7] mode "nearest" : tensor<2x1x5x5xf64>
  return
}
