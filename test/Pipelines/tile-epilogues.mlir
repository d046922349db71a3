// O1 and O2 apply an SGD update, w - lr * (dy^T x), in the register tiles
// of the weight gradient's matmul (ms-fuse-tile-epilogues): the gradient
// never gets a buffer, and no elementwise pass over it follows. O0 runs
// the product and the difference as kernels of their own, over the
// gradient's buffer.
// RUN: ms-opt %s --ms-pipeline-O1=num-threads=1 --mlir-print-ir-after=ms-fuse-tile-epilogues -o /dev/null 2>&1 | FileCheck %s
// RUN: ms-opt %s --ms-pipeline-O2=num-threads=1 --mlir-print-ir-after=ms-fuse-tile-epilogues -o /dev/null 2>&1 | FileCheck %s
// RUN: ms-opt %s --ms-pipeline-O0=num-threads=1 --mlir-print-ir-after=ms-lower-vectors -o /dev/null 2>&1 | FileCheck %s --check-prefix=O0

// CHECK-LABEL: func.func @construct
// CHECK-SAME: %[[W:[^:]*]]: memref<40x64xf32>, %[[LR:[^:]*]]: memref<f32>, %[[OUT:[^:]*]]: memref<40x64xf32>
// CHECK-NOT: memref.alloc() {{.*}} : memref<40x64xf32>
// The register tile's width follows the host's vectors (16 or 32 floats).
// CHECK: %[[TILE:.*]] = scf.for {{.*}} -> (vector<{{[0-9]+}}x{{[0-9]+}}xf32>)
// CHECK: math.fma
// CHECK: %[[WT:.*]] = vector.transfer_read %[[W]]
// CHECK: %[[L:.*]] = memref.load %[[LR]][]
// CHECK: %[[LV:.*]] = vector.broadcast %[[L]]
// CHECK: %[[STEP:.*]] = arith.mulf %[[LV]], %[[TILE]]
// CHECK: %[[NEW:.*]] = arith.subf %[[WT]], %[[STEP]]
// CHECK: vector.transfer_write %[[NEW]], %[[OUT]]
// CHECK-NOT: linalg.generic

// O0-LABEL: func.func @construct
// O0: %[[G:.*]] = memref.alloc() {{.*}} : memref<40x64xf32>
// O0: vector.transfer_write %{{.*}}, %[[G]]
// O0: linalg.generic {{.*}} ins(%{{.*}}, %[[G]] :
// O0: arith.mulf
// O0: linalg.generic
// O0: arith.subf
func.func @construct(%dy: tensor<16x40xf32>, %x: tensor<16x64xf32>,
                     %w: tensor<40x64xf32>, %lr: tensor<f32>)
    -> tensor<40x64xf32> {
  %g = ms.matmul %dy, %x transpose_a : tensor<16x40xf32>, tensor<16x64xf32>
  %step = ms.mul %lr, %g : tensor<f32>, tensor<40x64xf32>
  %new = ms.sub %w, %step : tensor<40x64xf32>, tensor<40x64xf32>
  return %new : tensor<40x64xf32>
}
