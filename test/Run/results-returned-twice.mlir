// One value returned twice runs at every level (it crashed
// buffer-results-to-out-params: issue 55, item 1), and in PyNative mode.
// RUN: ms-run %s --jit-level=O0 --exc-mode=sink --input=ones --print | FileCheck %s
// RUN: ms-run %s --jit-level=O1 --input=ones --print | FileCheck %s
// RUN: ms-run %s --jit-level=O2 --num-threads=2 --input=ones --print | FileCheck %s
// RUN: ms-run %s --mode=pynative --input=ones --print | FileCheck %s
// CHECK: [1. 1. 1. 1.]
// CHECK-NEXT: [-1. -1. -1. -1.]
// CHECK-NEXT: [1. 1. 1. 1.]
func.func @construct(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %y = ms.relu %x : tensor<4xf32>
  %z = ms.neg %y : tensor<4xf32>
  return %y, %z, %y : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
