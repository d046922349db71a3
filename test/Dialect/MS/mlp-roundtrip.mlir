// The seed MLP round-trips in the custom and in the generic form.
// RUN: ms-opt %S/../../../examples/mlp.mlir | ms-opt | FileCheck %s
// RUN: ms-opt %S/../../../examples/mlp.mlir --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: ms-opt %S/../../../examples/mlp.mlir --mlir-print-op-generic | ms-opt | FileCheck %s
// A dense whose inner dimensions disagree: ms-opt exits with code 1 and the
// message names ms.dense and both dimensions.
// RUN: %python -c "import subprocess, sys; r = subprocess.run(sys.argv[1:], capture_output=True, text=True); sys.stdout.write(r.stderr); sys.exit(0 if r.returncode == 1 else 1)" ms-opt %s | FileCheck %s --check-prefix=BAD

// CHECK: ms.flatten %{{.*}} : tensor<64x1x28x28xf32>
// CHECK: ms.dense %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x784xf32>, tensor<512x784xf32>, tensor<512xf32>
// CHECK: ms.relu %{{.*}} : tensor<64x512xf32>
// CHECK: ms.dense %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x512xf32>, tensor<512x512xf32>, tensor<512xf32>
// CHECK: ms.relu
// CHECK: ms.dense %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x512xf32>, tensor<10x512xf32>, tensor<10xf32>
// GENERIC: "ms.flatten"(%{{.*}}) : (tensor<64x1x28x28xf32>) -> tensor<64x784xf32>
// GENERIC: "ms.dense"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<64x784xf32>, tensor<512x784xf32>, tensor<512xf32>) -> tensor<64x512xf32>
// BAD: error: 'ms.dense' op input feature size 784 (last dim of input [64, 784]) does not match weight in-dim 100 (dim 1 of weight [512, 100])
func.func @bad(%x: tensor<64x784xf32>, %w: tensor<512x100xf32>) {
  %0 = ms.dense %x, %w : tensor<64x784xf32>, tensor<512x100xf32>
  return
}
