// ms-split-dynamic-batch: a ?-batch function becomes loops over static
// batch tiles, largest first, each running the function's ops specialized
// to that tile size on the tile's rows; unbatched arguments (parameters)
// are read whole.
// RUN: ms-opt %s --ms-split-dynamic-batch="batch-tiles=8,1" | FileCheck %s
// RUN: ms-opt %s --ms-split-dynamic-batch | FileCheck %s --check-prefix=DEFAULT

// CHECK-LABEL: func.func @construct(
// CHECK-SAME: %[[X:.*]]: tensor<?x1x28x28xf32>, %[[W:.*]]: tensor<10x784xf32> {ms.param = "fc.weight"}, %[[B:.*]]: tensor<10xf32> {ms.param = "fc.bias"}) -> tensor<?x10xf32>
// CHECK: %[[N:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x1x28x28xf32>
// CHECK: %[[OUT:.*]] = tensor.empty(%[[N]]) : tensor<?x10xf32>
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[R8:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %[[C8]] iter_args(%[[ACC:.*]] = %[[OUT]])
// CHECK:   %[[S:.*]] = tensor.extract_slice %[[X]][%[[I]], 0, 0, 0] [8, 1, 28, 28] [1, 1, 1, 1] : tensor<?x1x28x28xf32> to tensor<8x1x28x28xf32>
// CHECK:   %[[F:.*]] = ms.flatten %[[S]] : tensor<8x1x28x28xf32>
// CHECK:   %[[D:.*]] = ms.dense %[[F]], %[[W]], %[[B]] : tensor<8x784xf32>, tensor<10x784xf32>, tensor<10xf32>
// CHECK:   %[[Y:.*]] = ms.log_softmax %[[D]] axis -1 : tensor<8x10xf32>
// CHECK:   tensor.insert_slice %[[Y]] into %[[ACC]][%[[I]], 0] [8, 10] [1, 1] : tensor<8x10xf32> into tensor<?x10xf32>
// CHECK: %[[R1:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[R8]])
// CHECK:   tensor.extract_slice %[[X]]{{.*}} [1, 1, 28, 28] [1, 1, 1, 1] : tensor<?x1x28x28xf32> to tensor<1x1x28x28xf32>
// CHECK:   ms.dense %{{.*}} : tensor<1x784xf32>, tensor<10x784xf32>, tensor<10xf32>
// CHECK: return %[[R1]] : tensor<?x10xf32>
// The copies the tiles were made from are gone.
// CHECK-NOT: __batch

// DEFAULT: tensor.extract_slice {{.*}} to tensor<64x1x28x28xf32>
// DEFAULT: tensor.extract_slice {{.*}} to tensor<16x1x28x28xf32>
// DEFAULT: tensor.extract_slice {{.*}} to tensor<4x1x28x28xf32>
// DEFAULT: tensor.extract_slice {{.*}} to tensor<1x1x28x28xf32>
func.func @construct(%x: tensor<?x1x28x28xf32>,
                     %w: tensor<10x784xf32> {ms.param = "fc.weight"},
                     %b: tensor<10xf32> {ms.param = "fc.bias"})
    -> tensor<?x10xf32> {
  %0 = ms.flatten %x : tensor<?x1x28x28xf32>
  %1 = ms.dense %0, %w, %b : tensor<?x784xf32>, tensor<10x784xf32>, tensor<10xf32>
  %2 = ms.log_softmax %1 axis -1 : tensor<?x10xf32>
  return %2 : tensor<?x10xf32>
}

// A static function is left alone.
// CHECK-LABEL: func.func @static(
// CHECK-NEXT: ms.relu
func.func @static(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = ms.relu %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// Elementwise ops keep the rows apart by their trait (MS_Elementwise), so
// the pass knows a new one without naming it.
// CHECK-LABEL: func.func @elementwise(
// CHECK: scf.for
// CHECK:   ms.floor %{{.*}} : tensor<8x3xf32>
// CHECK:   ms.sub %{{.*}}, %{{.*}} : tensor<8x3xf32>, tensor<8x3xf32>
func.func @elementwise(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = ms.floor %x : tensor<?x3xf32>
  %1 = ms.sub %x, %0 : tensor<?x3xf32>, tensor<?x3xf32>
  return %1 : tensor<?x3xf32>
}
