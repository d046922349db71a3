// ms-autodiff through ms.interpolate: dx = R^T dy C, with R [OH, H] and
// C [OW, W] the constant per-axis weight matrices (the lowering's tables).
// Nearest puts a 1 at each output's source; bilinear the two weights,
// summed where both neighbours are the edge sample. f16 goes through f32
// (as the forward computes), f64 keeps f64 weights.
// RUN: ms-opt %s --ms-autodiff='func=nearest wrt=0' | FileCheck %s --check-prefix=NEAREST
// RUN: ms-opt %s --ms-autodiff='func=align wrt=0' | FileCheck %s --check-prefix=ALIGN
// RUN: ms-opt %s --ms-autodiff='func=scales wrt=0' | FileCheck %s --check-prefix=SCALES

// Rows 2 -> 4 (doubling: 0 0 1 1), columns 3 -> 2 (floor(o * 1.5): 0 1).
// NEAREST-LABEL: func.func @nearest_grad(
// NEAREST-SAME: %{{[^:]*}}: tensor<1x1x2x3xf32>, %[[DY:[^:]*]]: tensor<1x1x4x2xf32>)
// NEAREST: %[[RT:.*]] = arith.constant dense<{{\[}}[1.000000e+00, 1.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 1.000000e+00, 1.000000e+00]]> : tensor<2x4xf32>
// NEAREST: %[[C:.*]] = arith.constant dense<{{\[}}[1.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 1.000000e+00, 0.000000e+00]]> : tensor<2x3xf32>
// NEAREST: %[[P:.*]] = ms.matmul %[[RT]], %[[DY]] : tensor<2x4xf32>, tensor<1x1x4x2xf32>
// NEAREST: %[[DX:.*]] = ms.matmul %[[P]], %[[C]] : tensor<1x1x2x2xf32>, tensor<2x3xf32>
// NEAREST: return %{{.*}}, %[[DX]]
func.func @nearest(%x: tensor<1x1x2x3xf32>) -> tensor<1x1x4x2xf32> {
  %0 = ms.interpolate %x size [4, 2] mode "nearest" : tensor<1x1x2x3xf32>
  return %0 : tensor<1x1x4x2xf32>
}

// align_corners: rows 3 -> 5 step 0.5, columns 2 -> 3 step 0.5.
// ALIGN-LABEL: func.func @align_grad(
// ALIGN-SAME: %[[DY:[^:]*]]: tensor<2x1x5x3xf16>)
// ALIGN: %[[RT:.*]] = arith.constant dense<{{\[}}[1.000000e+00, 5.000000e-01, 0.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 5.000000e-01, 1.000000e+00, 5.000000e-01, 0.000000e+00], [0.000000e+00, 0.000000e+00, 0.000000e+00, 5.000000e-01, 1.000000e+00]]> : tensor<3x5xf32>
// ALIGN: %[[C:.*]] = arith.constant dense<{{\[}}[1.000000e+00, 0.000000e+00], [5.000000e-01, 5.000000e-01], [0.000000e+00, 1.000000e+00]]> : tensor<3x2xf32>
// ALIGN: %[[DY32:.*]] = ms.cast %[[DY]] to f32 : tensor<2x1x5x3xf16>
// ALIGN: %[[P:.*]] = ms.matmul %[[RT]], %[[DY32]] : tensor<3x5xf32>, tensor<2x1x5x3xf32>
// ALIGN: %[[D32:.*]] = ms.matmul %[[P]], %[[C]] : tensor<2x1x3x3xf32>, tensor<3x2xf32>
// ALIGN: %[[DX:.*]] = ms.cast %[[D32]] to f16 : tensor<2x1x3x2xf32>
// ALIGN: return %{{.*}}, %[[DX]]
func.func @align(%x: tensor<2x1x3x2xf16>) -> tensor<2x1x5x3xf16> {
  %0 = ms.interpolate %x size [5, 3] mode "bilinear" align_corners : tensor<2x1x3x2xf16>
  return %0 : tensor<2x1x5x3xf16>
}

// Given scales (1 / scale_factor) set the step; the last row's source
// 1.0625 clamps to row 1 for both neighbours: 0.9375 + 0.0625 = 1.
// SCALES-LABEL: func.func @scales_grad(
// SCALES: arith.constant dense<{{\[}}[1.000000e+00, 5.625000e-01, 0.000000e+00], [0.000000e+00, 4.375000e-01, 1.000000e+00]]> : tensor<2x3xf64>
// SCALES: arith.constant dense<{{\[}}[1.000000e+00, 0.000000e+00], [7.500000e-01, 2.500000e-01], [2.500000e-01, 7.500000e-01], [0.000000e+00, 1.000000e+00]]> : tensor<4x2xf64>
// SCALES: ms.matmul {{.*}} : tensor<2x3xf64>, tensor<1x1x3x4xf64>
// SCALES: ms.matmul {{.*}} : tensor<1x1x2x4xf64>, tensor<4x2xf64>
func.func @scales(%x: tensor<1x1x2x2xf64>) -> tensor<1x1x3x4xf64> {
  %0 = ms.interpolate %x size [3, 4] mode "bilinear" scales [0.625, 0.5] : tensor<1x1x2x2xf64>
  return %0 : tensor<1x1x3x4xf64>
}
