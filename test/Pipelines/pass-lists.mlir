// Each jit_level's pass list. Every level compiles the same vectorized
// kernels (convs and matmuls on register tiles, pooling and transposes as
// vectors, contractions as FMAs); O0 runs each op as its own kernel, so it
// has no fusion across ops (only within one op's lowering); O1 adds fusion
// (elementwise chains, conv + relu + pool in the conv tiles, elementwise
// epilogues in the matmul tiles, batch loops); O2 adds whole-graph work
// (parameter prepacking, buffer planning, concatenations computed in
// place, sign facts across the fused ops). Every level makes a
// data-parallel step's gradient buckets arguments the runtime provides.
// Threads serve every level.
// RUN: ms-opt %s --ms-pipeline-O0=num-threads=1 --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefixes=ALL,O0
// RUN: ms-opt %s --ms-pipeline-O0=num-threads=1 --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOFUSE
// RUN: ms-opt %s --ms-pipeline-O1=num-threads=1 --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefixes=ALL,FUSE
// RUN: ms-opt %s --ms-pipeline-O1=num-threads=1 --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOPACK
// RUN: ms-opt %s --ms-pipeline-O0=num-threads=1 --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOPACK
// RUN: ms-opt %s --ms-pipeline-O2=num-threads=1 --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefixes=ALL,FUSE,PACK
// RUN: ms-opt %s --ms-pipeline-O1=num-threads=1 --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=ACROSS
// RUN: ms-opt %s --ms-pipeline-O2=num-threads=1 --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=ACROSS
// RUN: ms-opt %s --ms-pipeline-O0=num-threads=2 --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=THREADS
// RUN: ms-opt %s --ms-pipeline-O0=num-threads=1 --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=SERIAL
// RUN: ms-opt %s --ms-pipeline-O2=num-threads=2 --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLAN2
// RUN: ms-opt %s --ms-pipeline-O1=num-threads=2 --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOPACK

// ALL: ms-start-collectives-early
// ALL: ms-check-tensor-sizes
// ALL-NEXT: convert-ms-to-linalg{conv-as-matmul=true}
// ALL-NEXT: ms-decompose-aggregates
// ALL-NEXT: ms-check-tensor-sizes
// PACK: ms-pack-parameters
// O0: ms-vectorize-convs{pool-epilogues=false
// FUSE: ms-vectorize-convs{pool-epilogues=true
// ALL: ms-transpose-matmul-operands
// ALL: ms-vectorize-matmuls{{.*}}num-threads=1
// ALL: ms-sink-transposes
// ALL: linalg-generalize-named-ops
// ALL: ms-contraction-to-fma
// ALL: ms-interchange-contractions
// ALL: ms-collapse-transposes
// FUSE: ms-fuse-elementwise{max-body-ops=256}
// O0: ms-fuse-within-ops
// ALL: ms-collapse-transposes
// FUSE: ms-fuse-batch-loops
// ALL: ms-vectorize-pooling
// ALL: ms-vectorize-small-elementwise
// ALL: ms-distinct-results
// ALL: one-shot-bufferize
// ALL: ms-transposes-to-calls
// ALL: fold-memref-alias-ops
// ALL: ms-lower-vectors
// FUSE: ms-fuse-tile-epilogues
// PACK: ms-concat-in-place
// ALL: ms-share-gradient-buckets
// ALL: convert-linalg-to-affine-loops
// ALL: affine-scalrep
// PACK: ms-plan-buffers{num-threads=1}
// ALL: ownership-based-buffer-deallocation
// PACK: ms-sign-facts
// ALL: ms-approximate-transcendentals
// ALL: reconcile-unrealized-casts

// NOFUSE-NOT: ms-fuse-elementwise
// NOFUSE-NOT: ms-fuse-batch-loops
// NOFUSE-NOT: pool-epilogues=true
// NOFUSE-NOT: ms-fuse-tile-epilogues

// O1 and O2 fuse across ops, so they need no within-op fusion.
// ACROSS-NOT: ms-fuse-within-ops

// Parameter prepacking, buffer planning and sign facts are whole-graph
// work: O2 only.
// NOPACK-NOT: ms-pack-parameters
// NOPACK-NOT: ms-plan-buffers
// NOPACK-NOT: ms-concat-in-place
// NOPACK-NOT: ms-sign-facts
// PLAN2: ms-plan-buffers{num-threads=2}
// PLAN2-NEXT: scf-forall-to-parallel

// THREADS: ms-vectorize-matmuls{{.*}}num-threads=2
// THREADS: ms-parallelize-generics{{.*}}num-threads=2
// THREADS: scf-forall-to-parallel
// THREADS: convert-scf-to-openmp
// THREADS: ms-omp-loops-nowait
// THREADS: convert-openmp-to-llvm
// SERIAL-NOT: ms-parallelize-generics
// SERIAL-NOT: openmp
// SERIAL-NOT: ms-omp-loops-nowait
module {
}
