// RUN: ms-opt %s --ms-copy-to-linalg | FileCheck %s

// CHECK-LABEL: func @copy
// CHECK-SAME: (%[[A:.*]]: memref<4x3xf32, strided<[8, 1]>>, %[[B:.*]]: memref<4x3xf32>)
// CHECK-NEXT: linalg.copy ins(%[[A]] : memref<4x3xf32, strided<[8, 1]>>) outs(%[[B]] : memref<4x3xf32>)
// CHECK-NOT: memref.copy
func.func @copy(%a: memref<4x3xf32, strided<[8, 1]>>, %b: memref<4x3xf32>) {
  memref.copy %a, %b : memref<4x3xf32, strided<[8, 1]>> to memref<4x3xf32>
  return
}
