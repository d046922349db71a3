// Every verifier and shape-inference error of interpolate.
// RUN: ms-opt %s -split-input-file -verify-diagnostics

func.func @rank(%x: tensor<3x4x6xf32>) {
  // expected-error@+1 {{'ms.interpolate' op input must be 4-D NCHW, got shape [3, 4, 6]}}
  %0 = ms.interpolate %x size [8, 12] : tensor<3x4x6xf32>
  return
}

// -----

func.func @size_count(%x: tensor<1x3x4x6xf32>) {
  // expected-error@+1 {{'ms.interpolate' op size must be two positive sizes [h, w], got [8]}}
  %0 = ms.interpolate %x size [8] : tensor<1x3x4x6xf32>
  return
}

// -----

func.func @size_zero(%x: tensor<1x3x4x6xf32>) {
  // expected-error@+1 {{'ms.interpolate' op size must be two positive sizes [h, w], got [0, 3]}}
  %0 = ms.interpolate %x size [0, 3] : tensor<1x3x4x6xf32>
  return
}

// -----

func.func @mode(%x: tensor<1x3x4x6xf32>) {
  // expected-error@+1 {{'ms.interpolate' op mode must be "nearest" or "bilinear", got "bicubic"}}
  %0 = ms.interpolate %x size [8, 12] mode "bicubic" : tensor<1x3x4x6xf32>
  return
}

// -----

func.func @align_nearest(%x: tensor<1x3x4x6xf32>) {
  // expected-error@+1 {{'ms.interpolate' op align_corners needs mode "bilinear"}}
  %0 = ms.interpolate %x size [8, 12] align_corners : tensor<1x3x4x6xf32>
  return
}

// -----

func.func @scales(%x: tensor<1x3x4x6xf32>) {
  // expected-error@+1 {{'ms.interpolate' op scales must be two positive ratios}}
  %0 = ms.interpolate %x size [8, 12] scales [0.5, -1.0] : tensor<1x3x4x6xf32>
  return
}

// -----

func.func @empty(%x: tensor<1x3x0x6xf32>) {
  // expected-error@+1 {{'ms.interpolate' op input shape [1, 3, 0, 6] has an empty spatial dim; there is nothing to sample}}
  %0 = ms.interpolate %x size [8, 12] : tensor<1x3x0x6xf32>
  return
}

// -----

func.func @dynamic(%x: tensor<1x3x?x6xf32>) {
  // expected-error@+1 {{'ms.interpolate' op input must have a static shape, got 'tensor<1x3x?x6xf32>'}}
  %0 = ms.interpolate %x size [8, 12] : tensor<1x3x?x6xf32>
  return
}

// -----

func.func @no_size(%x: tensor<1x3x4x6xf32>) {
  // expected-error@+1 {{'ms.interpolate' op requires attribute 'size'}}
  %0 = "ms.interpolate"(%x) : (tensor<1x3x4x6xf32>) -> tensor<1x3x8x12xf32>
  return
}

// -----

func.func @integer(%x: tensor<1x3x4x6xi32>) {
  // expected-error@+1 {{operand #0 must be ranked tensor of floats (f16, bf16, f32 or f64), but got}}
  %0 = "ms.interpolate"(%x) {size = array<i64: 8, 12>} : (tensor<1x3x4x6xi32>) -> tensor<1x3x8x12xi32>
  return
}
