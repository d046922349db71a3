// O1/O2 convs: im2col + matmul per image in an scf.forall, then conv bias,
// batch_norm and relu fused into one elementwise epilogue over the NCHW
// result, with the unfused arithmetic (bias add; (x - mean) / sqrt(var +
// eps) * gamma + beta; max with 0) in the unfused order. ms-fuse-batch-loops
// then moves that epilogue into the conv's loop, one image at a time.
// RUN: ms-opt %s --pass-pipeline="builtin.module(canonicalize,convert-ms-to-linalg{conv-as-matmul},ms-decompose-aggregates,ms-transpose-matmul-operands,canonicalize,func.func(linalg-generalize-named-ops),ms-contraction-to-fma,ms-interchange-contractions,linalg-fuse-elementwise-ops,canonicalize)" | FileCheck %s
// RUN: ms-opt %s --pass-pipeline="builtin.module(canonicalize,convert-ms-to-linalg{conv-as-matmul},ms-decompose-aggregates,ms-transpose-matmul-operands,canonicalize,func.func(linalg-generalize-named-ops),ms-contraction-to-fma,ms-interchange-contractions,linalg-fuse-elementwise-ops,canonicalize,ms-fuse-batch-loops,canonicalize)" | FileCheck %s --check-prefix=FUSED
// RUN: ms-opt %s --ms-pipeline-O2=num-threads=2 | FileCheck %s --check-prefix=O2

// CHECK-LABEL: func @construct
// CHECK: %[[CONV:.*]] = scf.forall
// CHECK: math.fma
// CHECK: scf.forall.in_parallel
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel"]{{.*}} ins(%[[CONV]], %{{.*}} : tensor<2x5x9x9xf32>, tensor<5x1x1xf32>
// CHECK-NEXT: ^bb0
// CHECK-NEXT: %[[BIASED:.*]] = arith.addf
// CHECK-NEXT: %[[C:.*]] = arith.subf %[[BIASED]]
// CHECK-NEXT: %[[S:.*]] = arith.addf
// CHECK-NEXT: %[[R:.*]] = math.sqrt %[[S]]
// CHECK-NEXT: %[[N:.*]] = arith.divf %[[C]], %[[R]]
// CHECK-NEXT: %[[G:.*]] = arith.mulf %[[N]]
// CHECK-NEXT: %[[B:.*]] = arith.addf %[[G]]
// CHECK-NEXT: arith.maximumf %[[B]]
// CHECK-NEXT: linalg.yield
// CHECK-NOT: linalg.generic

// FUSED-LABEL: func @construct
// FUSED: %[[LOOP:.*]] = scf.forall (%[[I:.*]]) in (2) shared_outs(%[[OUT:.*]] = %{{.*}}) -> (tensor<2x5x9x9xf32>)
// FUSED: math.fma
// FUSED: %[[IMAGE:.*]] = tensor.expand_shape {{.*}} into tensor<1x5x9x9xf32>
// FUSED: %[[SLOT:.*]] = tensor.extract_slice %[[OUT]][%[[I]], 0, 0, 0] [1, 5, 9, 9] [1, 1, 1, 1]
// FUSED: %[[EPI:.*]] = linalg.generic {{.*}} ins(%[[IMAGE]], %{{.*}} : tensor<1x5x9x9xf32>, tensor<5x1x1xf32>{{.*}} outs(%[[SLOT]] : tensor<1x5x9x9xf32>)
// FUSED: arith.maximumf
// FUSED: scf.forall.in_parallel
// FUSED-NEXT: tensor.parallel_insert_slice %[[EPI]] into %[[OUT]][%[[I]], 0, 0, 0] [1, 5, 9, 9]
// FUSED-NOT: linalg.generic
// FUSED: return %[[LOOP]]
// O2: omp.parallel
// O2: llvm.func @_mlir_ciface_construct
func.func @construct(%x: tensor<2x3x9x9xf32>, %w: tensor<5x3x3x3xf32>, %b: tensor<5xf32>, %g: tensor<5xf32>, %be: tensor<5xf32>, %m: tensor<5xf32>, %v: tensor<5xf32>) -> tensor<2x5x9x9xf32> {
  %0 = ms.conv2d %x, %w, %b : tensor<2x3x9x9xf32>, tensor<5x3x3x3xf32>, tensor<5xf32>
  %1 = ms.batch_norm %0, %g, %be, %m, %v : tensor<2x5x9x9xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>
  %2 = ms.relu %1 : tensor<2x5x9x9xf32>
  return %2 : tensor<2x5x9x9xf32>
}
