// ms-autodiff on the backward ops (second order, as MindSpore's bprops of
// ReluGrad, GeLUGrad, MaxPoolGrad, AvgPoolGrad and Conv2DBackpropFilter) and
// on all_reduce. The ops linear in dy get the transpose; inputs that only
// select (relu_grad's y, the pools' x) get no cotangent (zeros).
// RUN: ms-opt %s -split-input-file --ms-autodiff | FileCheck %s

// CHECK-LABEL: func.func @construct_grad(
// CHECK-SAME: %[[DY:.*]]: tensor<2x3xf32>, %[[Y:.*]]: tensor<2x3xf32>, %[[S:.*]]: tensor<2x3xf32>)
// CHECK: %[[F:.*]] = ms.relu_grad %[[DY]], %[[Y]]
// CHECK: %[[DDY:.*]] = ms.relu_grad %[[S]], %[[Y]]
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<2x3xf32>
// CHECK: return %[[F]], %[[DDY]], %[[ZERO]]
func.func @construct(%dy: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = ms.relu_grad %dy, %y : tensor<2x3xf32>, tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// gelu (tanh form): d dy = gelu_grad(s, x); d x = s * dy * gelu''(x) with
// gelu'' = (1 - t^2) (u' + x (3 a c x - t u'^2)).
// CHECK-LABEL: func.func @construct_grad(
// CHECK-SAME: %[[DY:.*]]: tensor<2x3xf32>, %[[X:.*]]: tensor<2x3xf32>, %[[S:.*]]: tensor<2x3xf32>)
// CHECK: %[[DDY:.*]] = ms.gelu_grad %[[S]], %[[X]] : tensor<2x3xf32>, tensor<2x3xf32>
// CHECK: ms.tanh
// CHECK: %[[SECH2:.*]] = ms.sub %{{.*}}, %{{.*}} : tensor<f32>, tensor<2x3xf32>
// CHECK: %[[CURV:.*]] = ms.mul %[[SECH2]], %{{.*}}
// CHECK: %[[SDY:.*]] = ms.mul %[[S]], %[[DY]]
// CHECK: %[[DX:.*]] = ms.mul %[[SDY]], %[[CURV]]
// CHECK: return %{{.*}}, %[[DDY]], %[[DX]]
func.func @construct(%dy: tensor<2x3xf32>, %x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = ms.gelu_grad %dy, %x : tensor<2x3xf32>, tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// gelu (erf form): gelu'' = exp(-x^2 / 2) / sqrt(2 pi) * (2 - x^2).
// CHECK-LABEL: func.func @construct_grad(
// CHECK-SAME: %[[DY:.*]]: tensor<2x3xf32>, %[[X:.*]]: tensor<2x3xf32>, %[[S:.*]]: tensor<2x3xf32>)
// CHECK: ms.gelu_grad %[[S]], %[[X]] {approximate = false}
// CHECK: %[[X2:.*]] = ms.mul %[[X]], %[[X]]
// CHECK: ms.exp
// CHECK: arith.constant dense<0.398942292> : tensor<f32>
// CHECK: ms.sub %{{.*}}, %[[X2]] : tensor<f32>, tensor<2x3xf32>
func.func @construct(%dy: tensor<2x3xf32>, %x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = ms.gelu_grad %dy, %x {approximate = false} : tensor<2x3xf32>, tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// max_pool2d_grad sends each window's dy to its first maximum, so dy's
// cotangent reads each window's maximum back: max_pool2d_grad_grad.
// CHECK-LABEL: func.func @construct_grad(
// CHECK-SAME: %[[X:.*]]: tensor<1x2x4x4xf32>, %[[DY:.*]]: tensor<1x2x2x2xf32>, %[[S:.*]]: tensor<1x2x4x4xf32>)
// CHECK: %[[DDY:.*]] = ms.max_pool2d_grad_grad %[[X]], %[[S]] kernel_size [2, 2] stride [2, 2] : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<1x2x4x4xf32>
// CHECK: return %{{.*}}, %[[ZERO]], %[[DDY]]
func.func @construct(%x: tensor<1x2x4x4xf32>, %dy: tensor<1x2x2x2xf32>) -> tensor<1x2x4x4xf32> {
  %0 = ms.max_pool2d_grad %x, %dy kernel_size [2, 2] stride [2, 2] : tensor<1x2x4x4xf32>, tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// -----

// CHECK-LABEL: func.func @construct_grad(
// CHECK-SAME: %[[X:.*]]: tensor<1x2x4x4xf32>, %[[G:.*]]: tensor<1x2x4x4xf32>, %[[S:.*]]: tensor<1x2x2x2xf32>)
// CHECK: %[[DG:.*]] = ms.max_pool2d_grad %[[X]], %[[S]] kernel_size [2, 2] stride [2, 2] : tensor<1x2x4x4xf32>, tensor<1x2x2x2xf32>
// CHECK: return %{{.*}}, %{{.*}}, %[[DG]]
func.func @construct(%x: tensor<1x2x4x4xf32>, %g: tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32> {
  %0 = ms.max_pool2d_grad_grad %x, %g kernel_size [2, 2] stride [2, 2] : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x2x2xf32>
}

// -----

// avg_pool2d_grad spreads dy / count over each window: its transpose is
// the average over the window, avg_pool2d with the same geometry.
// CHECK-LABEL: func.func @construct_grad(
// CHECK-SAME: %[[X:.*]]: tensor<1x2x5x5xf32>, %[[DY:.*]]: tensor<1x2x3x3xf32>, %[[S:.*]]: tensor<1x2x5x5xf32>)
// CHECK: %[[DDY:.*]] = ms.avg_pool2d %[[S]] kernel_size [3, 3] stride [2, 2] pad_mode "same" : tensor<1x2x5x5xf32>
// CHECK: return %{{.*}}, %{{.*}}, %[[DDY]]
func.func @construct(%x: tensor<1x2x5x5xf32>, %dy: tensor<1x2x3x3xf32>) -> tensor<1x2x5x5xf32> {
  %0 = ms.avg_pool2d_grad %x, %dy kernel_size [3, 3] stride [2, 2] pad_mode "same" : tensor<1x2x5x5xf32>, tensor<1x2x3x3xf32>
  return %0 : tensor<1x2x5x5xf32>
}

// -----

// The filter gradient is bilinear in dy and x: d dy = conv2d(x, s),
// d x = conv2d_backprop_input(dy, s), with the forward conv's geometry.
// CHECK-LABEL: func.func @construct_grad(
// CHECK-SAME: %[[DY:.*]]: tensor<1x6x5x5xf32>, %[[X:.*]]: tensor<1x4x9x9xf32>, %[[S:.*]]: tensor<6x2x3x3xf32>)
// CHECK: %[[DDY:.*]] = ms.conv2d %[[X]], %[[S]] pad_mode "pad" padding [1, 1, 1, 1] stride [2, 2] group 2 : tensor<1x4x9x9xf32>, tensor<6x2x3x3xf32>
// CHECK: %[[DX:.*]] = ms.conv2d_backprop_input %[[DY]], %[[S]] shape [1, 4, 9, 9] pad_mode "pad" padding [1, 1, 1, 1] stride [2, 2] group 2 : tensor<1x6x5x5xf32>, tensor<6x2x3x3xf32>
// CHECK: return %{{.*}}, %[[DDY]], %[[DX]]
func.func @construct(%dy: tensor<1x6x5x5xf32>, %x: tensor<1x4x9x9xf32>) -> tensor<6x2x3x3xf32> {
  %0 = ms.conv2d_backprop_filter %dy, %x shape [6, 2, 3, 3] pad_mode "pad" padding [1, 1, 1, 1] stride [2, 2] group 2 : tensor<1x6x5x5xf32>, tensor<1x4x9x9xf32>
  return %0 : tensor<6x2x3x3xf32>
}

// -----

// gather_elements_grad scatters dy into the indexed positions; its
// transpose gathers from them. The indices get no cotangent.
// CHECK-LABEL: func.func @construct_grad(
// CHECK-SAME: %[[DY:.*]]: tensor<4x2xf32>, %[[I:.*]]: tensor<4x2xi32>, %[[S:.*]]: tensor<4x5xf32>)
// CHECK-SAME: -> (tensor<4x5xf32>, tensor<4x2xf32>)
// CHECK: %[[DDY:.*]] = ms.gather_elements %[[S]], %[[I]] axis 1 : tensor<4x5xf32>, tensor<4x2xi32>
// CHECK: return %{{.*}}, %[[DDY]]
func.func @construct(%dy: tensor<4x2xf32>, %i: tensor<4x2xi32>) -> tensor<4x5xf32> {
  %0 = ms.gather_elements_grad %dy, %i axis 1 size 5 : tensor<4x2xf32>, tensor<4x2xi32>
  return %0 : tensor<4x5xf32>
}

// -----

// all_reduce: every rank's x reaches every rank's y, so each cotangent
// starts from the sum over ranks of dy (an all_reduce of its own). sum
// passes it on, max sends it where x equals y, prod scales it by y / x
// (all_reduce(dy * y) / x, as MindSpore forms it). Results are visited
// last to first.
// CHECK-LABEL: func.func @construct_grad(
// CHECK-SAME: %[[X:.*]]: tensor<4x8xf32>, %[[S0:.*]]: tensor<4x8xf32>, %[[S1:.*]]: tensor<4x8xf32>, %[[S2:.*]]: tensor<4x8xf32>)
// CHECK: %[[MAX:.*]] = ms.all_reduce %[[X]] reduce_op "max"
// CHECK: %[[PROD:.*]] = ms.all_reduce %[[X]] reduce_op "prod"
// CHECK: %[[SCALED:.*]] = ms.mul %[[S2]], %[[PROD]]
// CHECK: %[[SUMS:.*]] = ms.all_reduce %[[SCALED]] : tensor<4x8xf32>
// CHECK: %[[DPROD:.*]] = ms.div %[[SUMS]], %[[X]]
// CHECK: %[[SUM1:.*]] = ms.all_reduce %[[S1]] : tensor<4x8xf32>
// CHECK: %[[EQ:.*]] = ms.equal %[[X]], %[[MAX]]
// CHECK: %[[DMAX:.*]] = ms.select %[[EQ]], %[[SUM1]], %{{.*}} : tensor<4x8xi1>, tensor<4x8xf32>, tensor<f32>
// CHECK: %[[ACC:.*]] = ms.add %[[DPROD]], %[[DMAX]]
// CHECK: %[[DSUM:.*]] = ms.all_reduce %[[S0]] : tensor<4x8xf32>
// CHECK: %[[DX:.*]] = ms.add %[[ACC]], %[[DSUM]]
// CHECK: return %{{.*}}, %{{.*}}, %{{.*}}, %[[DX]]
func.func @construct(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = ms.all_reduce %x : tensor<4x8xf32>
  %1 = ms.all_reduce %x reduce_op "max" : tensor<4x8xf32>
  %2 = ms.all_reduce %x reduce_op "prod" : tensor<4x8xf32>
  return %0, %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}
