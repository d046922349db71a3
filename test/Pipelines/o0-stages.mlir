// The O0 pipeline stage by stage (the stages ms-run --dump-ir-after-all
// writes): the matmul on register tiles like every level's, then each op's
// epilogue in a loop of its own (no fusion across ops at O0).
// Bufferization turns the result into an out-param written in place.
// RUN: ms-opt %s --pass-pipeline="builtin.module(canonicalize,convert-ms-to-linalg{conv-as-matmul},ms-decompose-aggregates,ms-vectorize-convs{pool-epilogues=false},ms-transpose-matmul-operands,canonicalize,ms-vectorize-matmuls{num-threads=1},ms-sink-transposes,canonicalize,func.func(linalg-generalize-named-ops),ms-contraction-to-fma,ms-interchange-contractions,canonicalize,ms-collapse-transposes,ms-fuse-within-ops,canonicalize,ms-collapse-transposes,ms-vectorize-pooling,canonicalize)" \
// RUN:   | FileCheck %s --check-prefix=GENERIC
// RUN: ms-opt %s --canonicalize --convert-ms-to-linalg --ms-decompose-aggregates \
// RUN:   --ms-emit-c-interface \
// RUN:   --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
// RUN:   --buffer-results-to-out-params="hoist-static-allocs modify-public-functions" \
// RUN:   | FileCheck %s --check-prefix=BUFFER

// GENERIC-LABEL: func @construct
// GENERIC: vector.contract
// The bias, then the relu (canonicalization folds relu(relu(x))), each its
// own loop on the matmul's [out, batch] rows, then the result transposed
// back once (a 2-D linalg.transpose, later a call to the runtime's
// transpose kernel).
// GENERIC: linalg.generic {{.*}} outs(%{{.*}} : tensor<3x4xf32>)
// GENERIC-NEXT: ^bb0
// GENERIC-NEXT: arith.addf
// GENERIC-NEXT: linalg.yield
// GENERIC: linalg.generic {{.*}} outs(%{{.*}} : tensor<3x4xf32>)
// GENERIC-NEXT: ^bb0
// GENERIC-NEXT: arith.maximumf
// GENERIC-NEXT: linalg.yield
// GENERIC: linalg.transpose ins(%{{.*}} : tensor<3x4xf32>) outs(%{{.*}} : tensor<4x3xf32>)
// GENERIC-NOT: linalg.matmul

// BUFFER: func.func @construct(%{{.*}}: memref<4x8xf32>, {{.*}}, %[[OUT:[a-z0-9]+]]: memref<4x3xf32> {ms.result = 0 : i64}) attributes {llvm.emit_c_interface}
// BUFFER: linalg.generic {{.*}} outs(%[[OUT]] : memref<4x3xf32>)
// BUFFER-NOT: memref.copy
func.func @construct(%x: tensor<4x8xf32>, %w: tensor<3x8xf32> {ms.param = "fc.weight"},
                     %b: tensor<3xf32> {ms.param = "fc.bias"}) -> tensor<4x3xf32> {
  %0 = ms.dense %x, %w, %b : tensor<4x8xf32>, tensor<3x8xf32>, tensor<3xf32>
  %1 = ms.relu %0 : tensor<4x3xf32>
  %2 = ms.relu %1 : tensor<4x3xf32>
  return %2 : tensor<4x3xf32>
}
