// The stock mlir-opt runs ms's passes and pipelines from the plugin.
// RUN: %mlir_opt --load-dialect-plugin=%ms_plugin --load-pass-plugin=%ms_plugin %s --pass-pipeline="builtin.module(convert-ms-to-linalg)" | FileCheck %s
// RUN: %mlir_opt --load-dialect-plugin=%ms_plugin --load-pass-plugin=%ms_plugin %s --pass-pipeline="builtin.module(ms-pipeline-O0)" | FileCheck %s --check-prefix=LLVM

// CHECK-LABEL: func @construct
// CHECK: linalg.generic
// CHECK: arith.maximumf
// LLVM: llvm.func @_mlir_ciface_construct
func.func @construct(%x: tensor<4x10xf32>) -> tensor<4x10xf32> {
  %0 = ms.relu %x : tensor<4x10xf32>
  return %0 : tensor<4x10xf32>
}
