// ms-vectorize-convs{pool-epilogues=false} (jit_level O0: no fusion across
// ops) gives the conv its channel-lane tiles but leaves the relu and the max
// pool separate ops; by default they run in the conv's tiles.
// RUN: ms-opt %s --convert-ms-to-linalg="conv-as-matmul" --ms-vectorize-convs="vector-lanes=8 vector-registers=16 pool-epilogues=false" | FileCheck %s --check-prefix=SEPARATE
// RUN: ms-opt %s --convert-ms-to-linalg="conv-as-matmul" --ms-vectorize-convs="vector-lanes=8 vector-registers=16" | FileCheck %s --check-prefix=POOLED

// SEPARATE-LABEL: func @conv_relu_pool
// SEPARATE-SAME: strategy = "channel-lanes"
// SEPARATE: scf.forall
// SEPARATE: vector.transfer_read
// SEPARATE: math.fma
// SEPARATE: tensor.parallel_insert_slice
// SEPARATE: linalg.generic
// SEPARATE: arith.maximumf
// SEPARATE: linalg.fill
// SEPARATE: linalg.generic
// SEPARATE-SAME: iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]
// SEPARATE: arith.maximumf
// SEPARATE: return

// POOLED-LABEL: func @conv_relu_pool
// POOLED-SAME: strategy = "pooled"
// POOLED-NOT: linalg.generic
// POOLED: return
func.func @conv_relu_pool(%x: tensor<2x2x6x10xf32>, %w: tensor<16x2x3x3xf32>) -> tensor<2x16x2x4xf32> {
  %0 = ms.conv2d %x, %w pad_mode "valid" : tensor<2x2x6x10xf32>, tensor<16x2x3x3xf32>
  %1 = ms.relu %0 : tensor<2x16x4x8xf32>
  %2 = ms.max_pool2d %1 kernel_size [2, 2] stride [2, 2] : tensor<2x16x4x8xf32>
  return %2 : tensor<2x16x2x4xf32>
}
