// The stock mlir-opt differentiates with ms-autodiff from the plugin.
// RUN: %mlir_opt --load-dialect-plugin=%ms_plugin --load-pass-plugin=%ms_plugin %s --pass-pipeline="builtin.module(ms-autodiff{wrt=0 grad-name=backward})" | FileCheck %s

// CHECK-LABEL: func.func @backward(
// CHECK-SAME: %[[X:.*]]: tensor<4x10xf32>, %[[S:.*]]: tensor<4x10xf32>) -> (tensor<4x10xf32>, tensor<4x10xf32>)
// CHECK: %[[Y:.*]] = ms.relu %[[X]]
// CHECK: %[[DX:.*]] = ms.relu_grad %[[S]], %[[Y]]
// CHECK: return %[[Y]], %[[DX]]
func.func @construct(%x: tensor<4x10xf32>) -> tensor<4x10xf32> {
  %0 = ms.relu %x : tensor<4x10xf32>
  return %0 : tensor<4x10xf32>
}
