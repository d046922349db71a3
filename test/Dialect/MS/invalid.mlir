// Every verifier and shape-inference error of the ms dialect.
// RUN: ms-opt %s -split-input-file -verify-diagnostics

func.func @dense_inner_mismatch(%x: tensor<64x784xf32>, %w: tensor<512x100xf32>) {
  // expected-error@+1 {{'ms.dense' op input feature size 784 (last dim of input [64, 784]) does not match weight in-dim 100 (dim 1 of weight [512, 100])}}
  %0 = ms.dense %x, %w : tensor<64x784xf32>, tensor<512x100xf32>
  return
}

// -----

func.func @dense_weight_rank(%x: tensor<4x8xf32>, %w: tensor<8xf32>) {
  // expected-error@+1 {{'ms.dense' op weight must have rank 2 ([out, in]), got shape [8]}}
  %0 = ms.dense %x, %w : tensor<4x8xf32>, tensor<8xf32>
  return
}

// -----

func.func @dense_input_rank(%x: tensor<f32>, %w: tensor<2x1xf32>) {
  // expected-error@+1 {{'ms.dense' op input must have rank 1 or more}}
  %0 = ms.dense %x, %w : tensor<f32>, tensor<2x1xf32>
  return
}

// -----

func.func @dense_bias(%x: tensor<4x8xf32>, %w: tensor<3x8xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{'ms.dense' op bias shape [4] does not match weight out-dim 3 (expected [3])}}
  %0 = ms.dense %x, %w, %b : tensor<4x8xf32>, tensor<3x8xf32>, tensor<4xf32>
  return
}

// -----

func.func @dense_weight_dtype(%x: tensor<4x8xf32>, %w: tensor<3x8xf16>) {
  // expected-error@+1 {{'ms.dense' op element types differ: input 'f32' vs weight 'f16'}}
  %0 = ms.dense %x, %w : tensor<4x8xf32>, tensor<3x8xf16>
  return
}

// -----

func.func @dense_bias_dtype(%x: tensor<4x8xf32>, %w: tensor<3x8xf32>, %b: tensor<3xf16>) {
  // expected-error@+1 {{'ms.dense' op element types differ: input 'f32' vs bias 'f16'}}
  %0 = ms.dense %x, %w, %b : tensor<4x8xf32>, tensor<3x8xf32>, tensor<3xf16>
  return
}

// -----

func.func @dense_dynamic(%x: tensor<?x8xf32>, %w: tensor<?x8xf32>) {
  // expected-error@+1 {{'ms.dense' op weight must have a static shape, got 'tensor<?x8xf32>'}}
  %0 = ms.dense %x, %w : tensor<?x8xf32>, tensor<?x8xf32>
  return
}

// -----

func.func @unranked(%x: tensor<*xf32>) {
  // expected-error@+1 {{'ms.relu' op operand #0 must be ranked tensor of numbers (f16, bf16, f32, f64, i8, i16, i32, i64 or ui8), but got 'tensor<*xf32>'}}
  %0 = "ms.relu"(%x) : (tensor<*xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @numbers_only(%x: tensor<4xi1>) {
  // expected-error@+1 {{'ms.relu' op operand #0 must be ranked tensor of numbers (f16, bf16, f32, f64, i8, i16, i32, i64 or ui8), but got 'tensor<4xi1>'}}
  %0 = ms.relu %x : tensor<4xi1>
  return
}

// -----

func.func @matmul_k(%a: tensor<4x3xf32>, %b: tensor<4x5xf32>) {
  // expected-error@+1 {{'ms.matmul' op contraction sizes differ: lhs [4, 3] has K = 3, rhs [4, 5] has K = 4}}
  %0 = ms.matmul %a, %b : tensor<4x3xf32>, tensor<4x5xf32>
  return
}

// -----

func.func @matmul_k_transposed(%a: tensor<4x3xf32>, %b: tensor<5x4xf32>) {
  // expected-error@+1 {{'ms.matmul' op contraction sizes differ: lhs [4, 3] has K = 3, rhs [5, 4] (transposed) has K = 4}}
  %0 = ms.matmul %a, %b transpose_b : tensor<4x3xf32>, tensor<5x4xf32>
  return
}

// -----

func.func @matmul_rank(%a: tensor<3xf32>, %b: tensor<3x5xf32>) {
  // expected-error@+1 {{'ms.matmul' op operands must have rank 2 or more, got lhs [3] and rhs [3, 5]}}
  %0 = ms.matmul %a, %b : tensor<3xf32>, tensor<3x5xf32>
  return
}

// -----

func.func @matmul_batch(%a: tensor<2x4x3xf32>, %b: tensor<5x3x5xf32>) {
  // expected-error@+1 {{'ms.matmul' op batch dimensions do not broadcast: lhs [2] vs rhs [5]}}
  %0 = ms.matmul %a, %b : tensor<2x4x3xf32>, tensor<5x3x5xf32>
  return
}

// -----

func.func @matmul_dtype(%a: tensor<4x3xf32>, %b: tensor<3x5xf16>) {
  // expected-error@+1 {{'ms.matmul' op element types differ: lhs 'f32' vs rhs 'f16'}}
  %0 = ms.matmul %a, %b : tensor<4x3xf32>, tensor<3x5xf16>
  return
}

// -----

func.func @broadcast(%a: tensor<4x3xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{'ms.add' op operands do not broadcast: lhs shape [4, 3] vs rhs shape [4]}}
  %0 = ms.add %a, %b : tensor<4x3xf32>, tensor<4xf32>
  return
}

// -----

func.func @binary_dtype(%a: tensor<4xf32>, %b: tensor<4xf16>) {
  // expected-error@+1 {{'ms.mul' op element types differ: lhs 'f32' vs rhs 'f16'}}
  %0 = ms.mul %a, %b : tensor<4xf32>, tensor<4xf16>
  return
}

// -----

func.func @inferred_mismatch(%a: tensor<4xf32>) {
  // expected-error@+2 {{'ms.relu' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<5xf32>'}}
  // expected-error@+1 {{'ms.relu' op failed to infer returned types}}
  %0 = "ms.relu"(%a) : (tensor<4xf32>) -> tensor<5xf32>
  return
}

// -----

func.func @dropout_p(%a: tensor<4xf32>) {
  // expected-error@+1 {{'ms.dropout' op p = 1.500000e+00 must lie in [0, 1)}}
  %0 = ms.dropout %a {p = 1.5 : f32} : tensor<4xf32>
  return
}

// -----

func.func @flatten_rank(%a: tensor<4xf32>) {
  // expected-error@+1 {{'ms.flatten' op input must have rank 2 or more ([N, ...]), got [4]}}
  %0 = ms.flatten %a : tensor<4xf32>
  return
}

// -----

func.func @reshape_count(%a: tensor<4x3xf32>) {
  // expected-error@+1 {{'ms.reshape' op cannot reshape [4, 3] (12 elements) to [5, 2] (10 elements)}}
  %0 = ms.reshape %a to [5, 2] : tensor<4x3xf32>
  return
}

// -----

func.func @reshape_inferred_dim(%a: tensor<4x3xf32>) {
  // expected-error@+1 {{'ms.reshape' op cannot reshape [4, 3] (12 elements) to [5, -1]}}
  %0 = ms.reshape %a to [5, -1] : tensor<4x3xf32>
  return
}

// -----

func.func @reshape_two_unknown(%a: tensor<4x3xf32>) {
  // expected-error@+1 {{'ms.reshape' op shape [-1, -1] has more than one -1}}
  %0 = ms.reshape %a to [-1, -1] : tensor<4x3xf32>
  return
}

// -----

func.func @reshape_negative(%a: tensor<4x3xf32>) {
  // expected-error@+1 {{'ms.reshape' op shape [-2, 6] has negative size -2 at dim 0}}
  %0 = ms.reshape %a to [-2, 6] : tensor<4x3xf32>
  return
}

// -----

func.func @reshape_missing_shape(%a: tensor<4x3xf32>) {
  // expected-error@+1 {{'ms.reshape' op requires attribute 'shape'}}
  %0 = "ms.reshape"(%a) : (tensor<4x3xf32>) -> tensor<12xf32>
  return
}

// -----

func.func @transpose_size(%a: tensor<4x3xf32>) {
  // expected-error@+1 {{'ms.transpose' op perm [0] has 1 entries but the input has rank 2}}
  %0 = ms.transpose %a perm [0] : tensor<4x3xf32>
  return
}

// -----

func.func @transpose_perm(%a: tensor<4x3xf32>) {
  // expected-error@+1 {{'ms.transpose' op perm [1, 1] is not a permutation of [0, 2)}}
  %0 = ms.transpose %a perm [1, 1] : tensor<4x3xf32>
  return
}

// -----

func.func @transpose_missing_perm(%a: tensor<4x3xf32>) {
  // expected-error@+1 {{'ms.transpose' op requires attribute 'perm'}}
  %0 = "ms.transpose"(%a) : (tensor<4x3xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @concat_dim(%a: tensor<4x3xf32>, %b: tensor<5x3xf32>) {
  // expected-error@+1 {{'ms.concat' op input 1 has size 5 at dim 0, input 0 has 4 (only axis 1 may differ)}}
  %0 = ms.concat %a, %b axis 1 : tensor<4x3xf32>, tensor<5x3xf32>
  return
}

// -----

func.func @concat_rank(%a: tensor<4x3xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{'ms.concat' op input 1 has rank 1, input 0 has rank 2}}
  %0 = ms.concat %a, %b axis 0 : tensor<4x3xf32>, tensor<4xf32>
  return
}

// -----

func.func @concat_dtype(%a: tensor<4xf32>, %b: tensor<4xf16>) {
  // expected-error@+1 {{'ms.concat' op input 1 has element type 'f16', input 0 has 'f32'}}
  %0 = ms.concat %a, %b axis 0 : tensor<4xf32>, tensor<4xf16>
  return
}

// -----

func.func @concat_axis(%a: tensor<4xf32>) {
  // expected-error@+1 {{'ms.concat' op axis 1 is out of range for rank 1 (expected [-1, 1))}}
  %0 = ms.concat %a, %a axis 1 : tensor<4xf32>, tensor<4xf32>
  return
}

// -----

func.func @concat_rank0(%a: tensor<f32>) {
  // expected-error@+1 {{'ms.concat' op inputs must have rank 1 or more}}
  %0 = ms.concat %a axis 0 : tensor<f32>
  return
}

// -----

func.func @concat_empty() {
  // expected-error@+2 {{'ms.concat' op needs at least one input}}
  // expected-error@+1 {{'ms.concat' op failed to infer returned types}}
  %0 = "ms.concat"() {axis = 0 : i64} : () -> tensor<4xf32>
  return
}

// -----

func.func @softmax_axis(%a: tensor<4x3xf32>) {
  // expected-error@+1 {{'ms.softmax' op axis 2 is out of range for rank 2 (expected [-2, 2))}}
  %0 = ms.softmax %a axis 2 : tensor<4x3xf32>
  return
}

// -----

func.func @softmax_rank0(%a: tensor<f32>) {
  // expected-error@+1 {{'ms.log_softmax' op input must have rank 1 or more}}
  %0 = ms.log_softmax %a axis 0 : tensor<f32>
  return
}

// -----

func.func @reduce_axis(%a: tensor<4x3xf32>) {
  // expected-error@+1 {{'ms.reduce_sum' op axis -3 is out of range for rank 2 (expected [-2, 2))}}
  %0 = ms.reduce_sum %a axes [-3] : tensor<4x3xf32>
  return
}

// -----

func.func @reduce_twice(%a: tensor<4x3xf32>) {
  // expected-error@+1 {{'ms.reduce_max' op axes [1, -1] name the same axis twice}}
  %0 = ms.reduce_max %a axes [1, -1] : tensor<4x3xf32>
  return
}

// -----

func.func @reduce_missing_axes(%a: tensor<4x3xf32>) {
  // expected-error@+1 {{'ms.reduce_mean' op requires attribute 'axes'}}
  %0 = "ms.reduce_mean"(%a) : (tensor<4x3xf32>) -> tensor<f32>
  return
}

// -----

func.func @conv_group(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>) {
  // expected-error@+1 {{'ms.conv2d' op weight [6, 4, 3, 3] has 4 input channels per group, input has 4 / 2 = 2}}
  %0 = ms.conv2d %x, %w group 2 : tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>
  return
}

// -----

func.func @conv_group_divides(%x: tensor<1x5x8x8xf32>, %w: tensor<6x2x3x3xf32>) {
  // expected-error@+1 {{'ms.conv2d' op group 2 must divide the input channels 5 and the output channels 6}}
  %0 = ms.conv2d %x, %w group 2 : tensor<1x5x8x8xf32>, tensor<6x2x3x3xf32>
  return
}

// -----

func.func @conv_rank(%x: tensor<4x8x8xf32>, %w: tensor<6x4x3x3xf32>) {
  // expected-error@+1 {{'ms.conv2d' op input [4, 8, 8] and weight [6, 4, 3, 3] must have rank 4 (NCHW and [out, in / group, kh, kw])}}
  %0 = ms.conv2d %x, %w : tensor<4x8x8xf32>, tensor<6x4x3x3xf32>
  return
}

// -----

func.func @conv_pad_mode(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>) {
  // expected-error@+1 {{'ms.conv2d' op pad_mode must be "same", "valid" or "pad", got "full"}}
  %0 = ms.conv2d %x, %w pad_mode "full" : tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>
  return
}

// -----

func.func @conv_padding_needs_pad(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>) {
  // expected-error@+1 {{'ms.conv2d' op padding [1, 1, 1, 1] needs pad_mode "pad"}}
  %0 = ms.conv2d %x, %w padding [1, 1, 1, 1] : tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>
  return
}

// -----

func.func @conv_padding_size(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>) {
  // expected-error@+1 {{'ms.conv2d' op padding [1, 1] must be four non-negative sizes [top, bottom, left, right]}}
  %0 = ms.conv2d %x, %w pad_mode "pad" padding [1, 1] : tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>
  return
}

// -----

func.func @conv_stride(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>) {
  // expected-error@+1 {{'ms.conv2d' op stride [0, 1] and dilation [1, 1] must be two positive sizes [h, w]}}
  %0 = ms.conv2d %x, %w stride [0, 1] : tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>
  return
}

// -----

func.func @conv_kernel_too_big(%x: tensor<1x4x4x8xf32>, %w: tensor<6x4x3x3xf32>) {
  // expected-error@+1 {{'ms.conv2d' op the height 4 is smaller than the dilated kernel extent 5}}
  %0 = ms.conv2d %x, %w pad_mode "valid" dilation [2, 1] : tensor<1x4x4x8xf32>, tensor<6x4x3x3xf32>
  return
}

// -----

func.func @conv_bias(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{'ms.conv2d' op bias shape [4] does not match the 6 output channels}}
  %0 = ms.conv2d %x, %w, %b : tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>, tensor<4xf32>
  return
}

// -----

func.func @conv_dtype(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf16>) {
  // expected-error@+1 {{'ms.conv2d' op element types differ: input 'f32' vs weight 'f16'}}
  %0 = ms.conv2d %x, %w : tensor<1x4x8x8xf32>, tensor<6x4x3x3xf16>
  return
}

// -----

func.func @pool_rank(%x: tensor<6x28x28xf32>) {
  // expected-error@+1 {{'ms.max_pool2d' op input [6, 28, 28] must have rank 4 (NCHW)}}
  %0 = ms.max_pool2d %x kernel_size [2, 2] : tensor<6x28x28xf32>
  return
}

// -----

func.func @pool_pad_mode(%x: tensor<1x6x28x28xf32>) {
  // expected-error@+1 {{'ms.avg_pool2d' op pad_mode must be "valid" or "same", got "pad"}}
  %0 = ms.avg_pool2d %x pad_mode "pad" : tensor<1x6x28x28xf32>
  return
}

// -----

func.func @pool_kernel(%x: tensor<1x6x28x28xf32>) {
  // expected-error@+1 {{'ms.max_pool2d' op kernel_size [0, 2] must be two positive sizes [h, w]}}
  %0 = ms.max_pool2d %x kernel_size [0, 2] : tensor<1x6x28x28xf32>
  return
}

// -----

func.func @pool_too_big(%x: tensor<1x6x2x2xf32>) {
  // expected-error@+1 {{'ms.max_pool2d' op the height 2 is smaller than the kernel size 3}}
  %0 = ms.max_pool2d %x kernel_size [3, 3] : tensor<1x6x2x2xf32>
  return
}

// -----

func.func @pool_stride(%x: tensor<1x6x8x8xf32>) {
  // expected-error@+1 {{'ms.avg_pool2d' op stride [2] and dilation [1, 1] must be two positive sizes [h, w]}}
  %0 = ms.avg_pool2d %x stride [2] : tensor<1x6x8x8xf32>
  return
}

// -----

func.func @batch_norm_param(%x: tensor<8x6x4x4xf32>, %p: tensor<6xf32>, %q: tensor<5xf32>) {
  // expected-error@+1 {{'ms.batch_norm' op moving_variance has shape [5], expected [6] (the channels of input [8, 6, 4, 4])}}
  %0 = ms.batch_norm %x, %p, %p, %p, %q : tensor<8x6x4x4xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<5xf32>
  return
}

// -----

func.func @batch_norm_rank(%x: tensor<6xf32>, %p: tensor<6xf32>) {
  // expected-error@+1 {{'ms.batch_norm' op input [6] must have rank 2 or more ([N, C, ...])}}
  %0 = ms.batch_norm %x, %p, %p, %p, %p : tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>
  return
}

// -----

func.func @layer_norm_param(%x: tensor<8x16x32xf32>, %p: tensor<16x32xf32>, %q: tensor<32xf32>) {
  // expected-error@+1 {{'ms.layer_norm' op beta has shape [32], expected [16, 32] (the dims of input [8, 16, 32] from begin_params_axis 1)}}
  %0 = ms.layer_norm %x, %p, %q begin_norm_axis 1 begin_params_axis 1 : tensor<8x16x32xf32>, tensor<16x32xf32>, tensor<32xf32>
  return
}

// -----

func.func @layer_norm_norm_axis(%x: tensor<8x16xf32>, %p: tensor<16xf32>) {
  // expected-error@+1 {{'ms.layer_norm' op begin_norm_axis 2 is out of range for rank 2 (expected [-2, 2))}}
  %0 = ms.layer_norm %x, %p, %p begin_norm_axis 2 : tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>
  return
}

// -----

func.func @layer_norm_params_axis(%x: tensor<8x16xf32>, %p: tensor<16xf32>) {
  // expected-error@+1 {{'ms.layer_norm' op begin_params_axis -3 is out of range for rank 2 (expected [-2, 2))}}
  %0 = ms.layer_norm %x, %p, %p begin_params_axis -3 : tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>
  return
}

// -----

func.func @layer_norm_rank0(%x: tensor<f32>, %p: tensor<f32>) {
  // expected-error@+1 {{'ms.layer_norm' op input must have rank 1 or more}}
  %0 = ms.layer_norm %x, %p, %p : tensor<f32>, tensor<f32>, tensor<f32>
  return
}

// -----

func.func @layer_norm_generic(%x: tensor<8x16xf32>, %p: tensor<16xf32>) {
  // expected-error@+2 {{'ms.layer_norm' op gamma has shape [16], expected [8, 16] (the dims of input [8, 16] from begin_params_axis 0)}}
  // expected-error@+1 {{'ms.layer_norm' op failed to infer returned types}}
  %0 = "ms.layer_norm"(%x, %p, %p) <{begin_params_axis = 0 : i64}> : (tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  return
}

// -----

// Sizes past int64 are rejected, not wrapped (flatten of this verified as
// tensor<2x0xf32>).
func.func @flatten_overflow(%a: tensor<2x4294967296x4294967296xf32>) {
  // expected-error@+1 {{'ms.flatten' op input shape [2, 4294967296, 4294967296] has more elements than int64 can count}}
  %0 = ms.flatten %a : tensor<2x4294967296x4294967296xf32>
  return
}

// -----

// A zero dim does not hide an overflow among the others.
func.func @flatten_overflow_zero(%a: tensor<0x4294967296x4294967296xf32>) {
  // expected-error@+1 {{'ms.flatten' op input shape [0, 4294967296, 4294967296] has more elements than int64 can count}}
  %0 = ms.flatten %a : tensor<0x4294967296x4294967296xf32>
  return
}

// -----

func.func @reshape_overflow(%a: tensor<4xf32>) {
  // expected-error@+1 {{'ms.reshape' op shape [4294967296, 4294967296, 0] has more elements than int64 can count}}
  %0 = ms.reshape %a to [4294967296, 4294967296, 0] : tensor<4xf32>
  return
}

// -----

func.func @concat_overflow(%a: tensor<9223372036854775807xf32>, %b: tensor<1xf32>) {
  // expected-error@+1 {{'ms.concat' op the sizes along axis 0 add up to more than int64 can count}}
  %0 = ms.concat %a, %b axis 0 : tensor<9223372036854775807xf32>, tensor<1xf32>
  return
}

// -----

func.func @conv_stride_overflow(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>) {
  // expected-error@+1 {{'ms.conv2d' op the height geometry (input 8, kernel 3, stride 1, dilation 9223372036854775807) has sizes that int64 cannot count}}
  %0 = ms.conv2d %x, %w dilation [9223372036854775807, 1] : tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>
  return
}

// -----

func.func @conv_padding_overflow(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>) {
  // expected-error@+1 {{'ms.conv2d' op the width geometry (input 8, kernel 3, stride 1, dilation 1) has sizes that int64 cannot count}}
  %0 = ms.conv2d %x, %w pad_mode "pad" padding [0, 0, 9223372036854775807, 1] : tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>
  return
}

// -----

func.func @pool_padding_overflow(%x: tensor<1x1x4x4xf32>) {
  // expected-error@+1 {{'ms.max_pool2d' op the height geometry (input 4, kernel 9223372036854775807, stride 2, dilation 1) has sizes that int64 cannot count}}
  %0 = ms.max_pool2d %x kernel_size [9223372036854775807, 1] stride [2, 2] pad_mode "same" : tensor<1x1x4x4xf32>
  return
}
