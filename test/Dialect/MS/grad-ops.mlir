// The gradient ops (MSGradOps.td) print and parse back, with their result
// types inferred; stop_gradient folds away.
// RUN: ms-opt %s | ms-opt | FileCheck %s
// RUN: ms-opt %s --canonicalize | FileCheck %s --check-prefix=CANON

// CHECK-LABEL: func @grad_ops
// CHECK: ms.stop_gradient %{{.*}} : tensor<4x6xf32>
// CHECK: ms.relu_grad %{{.*}}, %{{.*}} : tensor<4x6xf32>, tensor<4x6xf32>
// CHECK: ms.gelu_grad %{{.*}}, %{{.*}} : tensor<4x6xf32>, tensor<4x6xf32>
// CHECK: ms.gelu_grad %{{.*}}, %{{.*}} {approximate = false} : tensor<4x6xf32>, tensor<4x6xf32>
// CHECK: ms.slice %{{.*}} begin [1, 2] end [3, 6] strides [1, 1] : tensor<4x6xf32>
// CHECK: ms.max_pool2d_grad %{{.*}}, %{{.*}} kernel_size [2, 2] stride [2, 2] : tensor<1x2x6x6xf32>, tensor<1x2x3x3xf32>
// CHECK: ms.avg_pool2d_grad %{{.*}}, %{{.*}} kernel_size [3, 3] stride [2, 2] pad_mode "same" : tensor<1x2x6x6xf32>, tensor<1x2x3x3xf32>
// CHECK: ms.conv2d_backprop_input %{{.*}}, %{{.*}} shape [1, 4, 9, 9] pad_mode "pad" padding [1, 1, 1, 1] stride [2, 2] group 2 : tensor<1x6x5x5xf32>, tensor<6x2x3x3xf32>
// CHECK: ms.conv2d_backprop_filter %{{.*}}, %{{.*}} shape [6, 2, 3, 3] pad_mode "pad" padding [1, 1, 1, 1] stride [2, 2] group 2 : tensor<1x6x5x5xf32>, tensor<1x4x9x9xf32>
// CHECK: ms.max_pool2d_grad_grad %{{.*}}, %{{.*}} kernel_size [3, 3] stride [2, 2] pad_mode "same" : tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>
// CANON-LABEL: func @grad_ops
// CANON-NOT: ms.stop_gradient
// CANON: return %arg0,
func.func @grad_ops(%x: tensor<4x6xf32>, %p: tensor<1x2x6x6xf32>, %dp: tensor<1x2x3x3xf32>,
                    %c: tensor<1x4x9x9xf32>, %w: tensor<6x2x3x3xf32>, %dc: tensor<1x6x5x5xf32>)
    -> (tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<2x4xf32>,
        tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>, tensor<1x4x9x9xf32>, tensor<6x2x3x3xf32>,
        tensor<1x2x3x3xf32>) {
  %0 = ms.stop_gradient %x : tensor<4x6xf32>
  %1 = ms.relu_grad %x, %x : tensor<4x6xf32>, tensor<4x6xf32>
  %2 = ms.gelu_grad %x, %x : tensor<4x6xf32>, tensor<4x6xf32>
  %3 = ms.gelu_grad %x, %x {approximate = false} : tensor<4x6xf32>, tensor<4x6xf32>
  %4 = ms.slice %x begin [1, 2] end [3, 6] strides [1, 1] : tensor<4x6xf32>
  %5 = ms.max_pool2d_grad %p, %dp kernel_size [2, 2] stride [2, 2] : tensor<1x2x6x6xf32>, tensor<1x2x3x3xf32>
  %6 = ms.avg_pool2d_grad %p, %dp kernel_size [3, 3] stride [2, 2] pad_mode "same" : tensor<1x2x6x6xf32>, tensor<1x2x3x3xf32>
  %7 = ms.conv2d_backprop_input %dc, %w shape [1, 4, 9, 9] pad_mode "pad" padding [1, 1, 1, 1] stride [2, 2] group 2 : tensor<1x6x5x5xf32>, tensor<6x2x3x3xf32>
  %8 = ms.conv2d_backprop_filter %dc, %c shape [6, 2, 3, 3] pad_mode "pad" padding [1, 1, 1, 1] stride [2, 2] group 2 : tensor<1x6x5x5xf32>, tensor<1x4x9x9xf32>
  %9 = ms.max_pool2d_grad_grad %p, %p kernel_size [3, 3] stride [2, 2] pad_mode "same" : tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<2x4xf32>, tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>, tensor<1x4x9x9xf32>, tensor<6x2x3x3xf32>, tensor<1x2x3x3xf32>
}
