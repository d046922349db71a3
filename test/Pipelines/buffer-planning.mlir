// O2's buffer planning: the loop over images that O1 fuses a conv's layers
// into allocates each image's intermediates once per thread, each thread
// taking one chunk of consecutive images (ms-plan-buffers), instead of
// allocating and freeing them for every image, as O1 does.
// RUN: ms-opt %s --ms-pipeline-O2=num-threads=1 --mlir-print-ir-after=ms-plan-buffers -o /dev/null 2>&1 | FileCheck %s --check-prefix=O2
// RUN: ms-opt %s --ms-pipeline-O1=num-threads=1 --mlir-print-ir-after=scf-forall-to-for -o /dev/null 2>&1 | FileCheck %s --check-prefix=O1
// RUN: ms-opt %s --ms-pipeline-O2=num-threads=2 --mlir-print-ir-after=ms-plan-buffers -o /dev/null 2>&1 | FileCheck %s --check-prefix=PARALLEL

// O2-LABEL: func.func @construct
// O2: memref.alloc() {{.*}} : memref<6x8x8xf32>
// O2-NEXT: memref.alloc() {{.*}} : memref<1x6x4x4xf32>
// O2-NEXT: memref.alloc() {{.*}} : memref<16x2x2xf32>
// O2-NEXT: scf.for %{{.*}} = %{{.*}} to %c4
// O2-NOT: memref.alloc
// O2: return

// O1-LABEL: func.func @construct
// O1: scf.for %{{.*}} = %{{.*}} to %c4
// O1-NEXT: memref.alloc() {{.*}} : memref<6x8x8xf32>
// O1: memref.alloc() {{.*}} : memref<1x6x4x4xf32>
// O1: memref.alloc() {{.*}} : memref<16x2x2xf32>

// PARALLEL-LABEL: func.func @construct
// PARALLEL: scf.forall (%{{.*}}) in (2) {
// PARALLEL: memref.alloc() {{.*}} : memref<6x8x8xf32>
// PARALLEL-NEXT: memref.alloc() {{.*}} : memref<1x6x4x4xf32>
// PARALLEL-NEXT: memref.alloc() {{.*}} : memref<16x2x2xf32>
// PARALLEL-NEXT: scf.for
// PARALLEL-NOT: memref.alloc
// PARALLEL: return
func.func @construct(%x: tensor<4x1x12x12xf32>,
                     %w: tensor<6x1x5x5xf32> {ms.param = "conv1.weight"},
                     %w2: tensor<16x6x3x3xf32> {ms.param = "conv2.weight"})
    -> tensor<4x16x2x2xf32> {
  %0 = ms.conv2d %x, %w pad_mode "valid" : tensor<4x1x12x12xf32>, tensor<6x1x5x5xf32>
  %1 = ms.relu %0 : tensor<4x6x8x8xf32>
  %2 = ms.max_pool2d %1 kernel_size [2, 2] stride [2, 2] : tensor<4x6x8x8xf32>
  %3 = ms.conv2d %2, %w2 pad_mode "valid" : tensor<4x6x4x4xf32>, tensor<16x6x3x3xf32>
  %4 = ms.relu %3 : tensor<4x16x2x2xf32>
  return %4 : tensor<4x16x2x2xf32>
}
