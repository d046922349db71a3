// Every verifier error of the gradient ops (MSGradOps.td).
// RUN: ms-opt %s -split-input-file -verify-diagnostics

func.func @relu_grad_types(%a: tensor<4xf32>, %b: tensor<5xf32>) {
  // expected-error@+1 {{'ms.relu_grad' op dy 'tensor<4xf32>' and y 'tensor<5xf32>' must have the same type}}
  %0 = ms.relu_grad %a, %b : tensor<4xf32>, tensor<5xf32>
  return
}

// -----

func.func @gelu_grad_dynamic(%a: tensor<?xf32>, %b: tensor<?xf32>) {
  // expected-error@+1 {{'ms.gelu_grad' op dy must be a tensor of static shape, got 'tensor<?xf32>'}}
  %0 = ms.gelu_grad %a, %b : tensor<?xf32>, tensor<?xf32>
  return
}

// -----

func.func @pool_grad_dy(%x: tensor<1x2x6x6xf32>, %dy: tensor<1x2x2x2xf32>) {
  // expected-error@+1 {{'ms.max_pool2d_grad' op dy 'tensor<1x2x2x2xf32>' must have the pooled type 'tensor<1x2x3x3xf32>' of x}}
  %0 = ms.max_pool2d_grad %x, %dy kernel_size [2, 2] stride [2, 2] : tensor<1x2x6x6xf32>, tensor<1x2x2x2xf32>
  return
}

// -----

func.func @pool_grad_grad_type(%x: tensor<1x2x6x6xf32>, %g: tensor<1x2x6x5xf32>) {
  // expected-error@+1 {{'ms.max_pool2d_grad_grad' op x 'tensor<1x2x6x6xf32>' and grad 'tensor<1x2x6x5xf32>' must have the same type}}
  %0 = ms.max_pool2d_grad_grad %x, %g kernel_size [2, 2] stride [2, 2] : tensor<1x2x6x6xf32>, tensor<1x2x6x5xf32>
  return
}

// -----

func.func @pool_grad_grad_window(%x: tensor<1x2x2x2xf32>) {
  // expected-error@+1 {{'ms.max_pool2d_grad_grad' op the height 2 is smaller than the kernel size 3}}
  %0 = ms.max_pool2d_grad_grad %x, %x kernel_size [3, 3] : tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>
  return
}

// -----

func.func @pool_grad_kernel(%x: tensor<1x2x6x6xf32>, %dy: tensor<1x2x3x3xf32>) {
  // expected-error@+1 {{'ms.avg_pool2d_grad' op kernel_size [0, 2] must be two positive sizes [h, w]}}
  %0 = ms.avg_pool2d_grad %x, %dy kernel_size [0, 2] : tensor<1x2x6x6xf32>, tensor<1x2x3x3xf32>
  return
}

// -----

func.func @conv_grad_shape(%dy: tensor<1x6x5x5xf32>, %w: tensor<6x2x3x3xf32>) {
  // expected-error@+1 {{'ms.conv2d_backprop_input' op shape [1, 4, 9] must be four sizes, positive but the batch (which may be 0)}}
  %0 = ms.conv2d_backprop_input %dy, %w shape [1, 4, 9] : tensor<1x6x5x5xf32>, tensor<6x2x3x3xf32>
  return
}

// -----

func.func @conv_grad_empty_channels(%dy: tensor<0x6x5x5xf32>, %w: tensor<6x2x3x3xf32>) {
  // expected-error@+1 {{'ms.conv2d_backprop_input' op shape [0, 0, 7, 7] must be four sizes, positive but the batch (which may be 0)}}
  %0 = ms.conv2d_backprop_input %dy, %w shape [0, 0, 7, 7] : tensor<0x6x5x5xf32>, tensor<6x2x3x3xf32>
  return
}

// -----

func.func @conv_grad_rank(%dy: tensor<6x5x5xf32>, %w: tensor<6x2x3x3xf32>) {
  // expected-error@+1 {{'ms.conv2d_backprop_input' op dy and weight must have rank 4}}
  %0 = ms.conv2d_backprop_input %dy, %w shape [1, 4, 9, 9] : tensor<6x5x5xf32>, tensor<6x2x3x3xf32>
  return
}

// -----

func.func @conv_grad_group(%dy: tensor<1x6x9x9xf32>, %w: tensor<6x2x3x3xf32>) {
  // expected-error@+1 {{'ms.conv2d_backprop_input' op input [1, 4, 9, 9] and weight [6, 2, 3, 3] do not agree with group 1}}
  %0 = ms.conv2d_backprop_input %dy, %w shape [1, 4, 9, 9] : tensor<1x6x9x9xf32>, tensor<6x2x3x3xf32>
  return
}

// -----

func.func @conv_grad_geometry(%dy: tensor<1x6x5x5xf32>, %x: tensor<1x4x9x9xf32>) {
  // expected-error@+1 {{'ms.conv2d_backprop_filter' op pad_mode must be "same", "valid" or "pad", got "bad"}}
  %0 = ms.conv2d_backprop_filter %dy, %x shape [6, 4, 3, 3] pad_mode "bad" : tensor<1x6x5x5xf32>, tensor<1x4x9x9xf32>
  return
}

// -----

func.func @conv_grad_dy(%dy: tensor<1x6x5x5xf32>, %x: tensor<1x4x9x9xf32>) {
  // expected-error@+1 {{'ms.conv2d_backprop_filter' op dy shape [1, 6, 5, 5] is not the conv2d output shape [1, 6, 7, 7] of input [1, 4, 9, 9] and weight [6, 4, 3, 3]}}
  %0 = ms.conv2d_backprop_filter %dy, %x shape [6, 4, 3, 3] pad_mode "valid" : tensor<1x6x5x5xf32>, tensor<1x4x9x9xf32>
  return
}
