// The stock mlir-opt of LLVM 22 parses and verifies ms IR with the plugin.
// RUN: %mlir_opt --load-dialect-plugin=%ms_plugin %S/../../examples/mlp.mlir | FileCheck %s
// RUN: not %mlir_opt --load-dialect-plugin=%ms_plugin %s --split-input-file 2>&1 | FileCheck %s --check-prefix=ERR

// CHECK: ms.flatten %{{.*}} : tensor<64x1x28x28xf32>
// CHECK: ms.dense %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x784xf32>, tensor<512x784xf32>, tensor<512xf32>
// ERR: 'ms.dense' op input feature size 784 (last dim of input [64, 784]) does not match weight in-dim 100
func.func @bad(%x: tensor<64x784xf32>, %w: tensor<512x100xf32>) {
  %0 = ms.dense %x, %w : tensor<64x784xf32>, tensor<512x100xf32>
  return
}
