// ms-pipeline-O0 takes the seed MLP all the way to the LLVM dialect: no ms,
// linalg, tensor or memref op is left, contractions accumulate with the fma
// intrinsic on vectors (O0's kernels are every level's), results become
// out-params, and the entry gets a C interface.
// RUN: ms-opt %S/../../examples/mlp.mlir --ms-pipeline-O0 | FileCheck %s
// RUN: ms-opt %S/../../examples/mlp.mlir --ms-pipeline-O0 | FileCheck %s --check-prefix=NONE

// CHECK: llvm.func @construct(
// CHECK: llvm.intr.fma({{.*}}) : (vector<
// CHECK: llvm.func @_mlir_ciface_construct(
// NONE-NOT: {{= (ms|linalg|tensor|memref|bufferization|affine|scf)\.[a-z_]+ }}
// NONE-NOT: func.func
