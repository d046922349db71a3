// A 2-D f32 or f64 transpose on buffers becomes a call to the runtime's
// transpose kernel, declared once per module with MLIR's C interface; the
// buffers go as fully dynamic strided memrefs. Other element types, and
// permutations of more dims, stay linalg ops.
// RUN: ms-opt %s --ms-transposes-to-calls --split-input-file | FileCheck %s

// Each declaration goes at the module's start, the latest first.
// CHECK: func.func private @ms_transpose_f64(memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>) attributes {llvm.emit_c_interface}
// CHECK-NEXT: func.func private @ms_transpose_f32(memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>) attributes {llvm.emit_c_interface}
// CHECK-LABEL: func @matrices
// CHECK-SAME: (%[[A:.*]]: memref<64x784xf32>, %[[B:.*]]: memref<784x64xf32>, %[[C:.*]]: memref<3x5xf64, strided<[10, 1], offset: 2>>, %[[D:.*]]: memref<5x3xf64>, %[[E:.*]]: memref<8x8xf32>, %[[F:.*]]: memref<8x8xf32>)
// CHECK: %[[CA:.*]] = memref.cast %[[A]] : memref<64x784xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK: %[[CB:.*]] = memref.cast %[[B]] : memref<784x64xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK: call @ms_transpose_f32(%[[CA]], %[[CB]])
// CHECK: %[[CC:.*]] = memref.cast %[[C]] : memref<3x5xf64, strided<[10, 1], offset: 2>> to memref<?x?xf64, strided<[?, ?], offset: ?>>
// CHECK: %[[CD:.*]] = memref.cast %[[D]]
// CHECK: call @ms_transpose_f64(%[[CC]], %[[CD]])
// CHECK: call @ms_transpose_f32
// CHECK-NOT: linalg.transpose
// CHECK-NOT: func.func private @ms_transpose
func.func @matrices(%a: memref<64x784xf32>, %b: memref<784x64xf32>,
                    %c: memref<3x5xf64, strided<[10, 1], offset: 2>>,
                    %d: memref<5x3xf64>, %e: memref<8x8xf32>,
                    %f: memref<8x8xf32>) {
  linalg.transpose ins(%a : memref<64x784xf32>) outs(%b : memref<784x64xf32>) permutation = [1, 0]
  linalg.transpose ins(%c : memref<3x5xf64, strided<[10, 1], offset: 2>>) outs(%d : memref<5x3xf64>) permutation = [1, 0]
  linalg.transpose ins(%e : memref<8x8xf32>) outs(%f : memref<8x8xf32>) permutation = [1, 0]
  return
}

// -----

// CHECK-LABEL: func @left_alone
// CHECK: linalg.transpose ins(%{{.*}} : memref<4x6xi32>)
// CHECK: linalg.transpose ins(%{{.*}} : memref<2x3x4xf32>)
// CHECK: linalg.transpose ins(%{{.*}} : tensor<4x6xf32>)
// CHECK-NOT: call
// CHECK-NOT: ms_transpose
func.func @left_alone(%a: memref<4x6xi32>, %b: memref<6x4xi32>,
                      %c: memref<2x3x4xf32>, %d: memref<4x2x3xf32>,
                      %t: tensor<4x6xf32>) -> tensor<6x4xf32> {
  linalg.transpose ins(%a : memref<4x6xi32>) outs(%b : memref<6x4xi32>) permutation = [1, 0]
  linalg.transpose ins(%c : memref<2x3x4xf32>) outs(%d : memref<4x2x3xf32>) permutation = [2, 0, 1]
  %e = tensor.empty() : tensor<6x4xf32>
  %r = linalg.transpose ins(%t : tensor<4x6xf32>) outs(%e : tensor<6x4xf32>) permutation = [1, 0]
  return %r : tensor<6x4xf32>
}
