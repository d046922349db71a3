// The seed network (examples/mlp.mlir) at batch 1, on the first image of
// the MLP reference (test/Run/reference/mlp). O2 asks for its dense weights
// as [in, out] (ms-pack-parameters) and the runtime passes packed copies:
// the result is still the reference's first row, and every mode, level and
// thread count gives the same bits as the batch-64 graph's first row
// (batch invariance, DESIGN section 7).
// RUN: %python -c "import numpy as n, sys; n.save(sys.argv[2], n.load(sys.argv[1])[:1]); n.save(sys.argv[4], n.load(sys.argv[3])[:1])" %S/reference/mlp/input.npy %t.input.npy %S/reference/mlp/expected.npy %t.expected.npy
// RUN: ms-run %S/../../examples/mlp.mlir --jit-level=O0 --params=%S/reference/mlp/params.safetensors \
// RUN:   --input=%S/reference/mlp/input.npy --output=%t.b64.npy
// RUN: %python -c "import numpy as n, sys; n.save(sys.argv[2], n.load(sys.argv[1])[:1])" %t.b64.npy %t.b64row0.npy
// RUN: ms-run %s --jit-level=O2 --num-threads=1 --params=%S/reference/mlp/params.safetensors \
// RUN:   --input=%t.input.npy --output=%t.o2.npy --dump-ir-after-all=%t.dump
// RUN: %compare %t.o2.npy %t.expected.npy
// RUN: %compare --exact %t.o2.npy %t.b64row0.npy
// RUN: FileCheck %s --check-prefix=PACKED < %t.dump/03_vectorize.mlir
// One thread reads the panels from the last on every other call: the
// second call's result (after one warm-up call) has the same bits.
// RUN: ms-run %s --jit-level=O2 --num-threads=1 --warmup=1 --params=%S/reference/mlp/params.safetensors \
// RUN:   --input=%t.input.npy --output=%t.o2second.npy
// RUN: %compare --exact %t.o2second.npy %t.o2.npy
// The 512-wide weights come in panels as wide as the register tile (256
// with AVX-512, 64 with AVX2), one (vectorized) matmul per panel in an
// scf.forall; the 10-wide one as [in, out].
// PACKED: %arg1: tensor<{{2x784x256|8x784x64}}xf32> {ms.packed = "panels{{256|64}}", ms.param = "dense_relu_sequential.0.weight"}
// PACKED-SAME: %arg3: tensor<{{2x512x256|8x512x64}}xf32> {ms.packed = "panels{{256|64}}", ms.param = "dense_relu_sequential.2.weight"}
// PACKED-SAME: %arg5: tensor<512x10xf32> {ms.packed = "transpose", ms.param = "dense_relu_sequential.4.weight"}
// PACKED: scf.forall
// PACKED: tensor.parallel_insert_slice
// PACKED: scf.forall
// PACKED: tensor.parallel_insert_slice
// Two threads share out the panels.
// RUN: ms-run %s --jit-level=O2 --num-threads=2 --params=%S/reference/mlp/params.safetensors \
// RUN:   --input=%t.input.npy --output=%t.o2t2.npy --dump-ir-after-all=%t.dump2
// RUN: %compare --exact %t.o2t2.npy %t.o2.npy
// RUN: FileCheck %s --check-prefix=PACKED < %t.dump2/03_vectorize.mlir
// RUN: ms-run %s --jit-level=O2 --exc-mode=no_sink --params=%S/reference/mlp/params.safetensors \
// RUN:   --input=%t.input.npy --output=%t.nosink.npy
// RUN: %compare --exact %t.nosink.npy %t.o2.npy
// RUN: ms-run %s --jit-level=O1 --params=%S/reference/mlp/params.safetensors \
// RUN:   --input=%t.input.npy --output=%t.o1.npy
// RUN: %compare --exact %t.o1.npy %t.o2.npy
// RUN: ms-run %s --jit-level=O0 --params=%S/reference/mlp/params.safetensors \
// RUN:   --input=%t.input.npy --output=%t.o0.npy
// RUN: %compare --exact %t.o0.npy %t.o2.npy
// RUN: ms-run %s --mode=pynative --params=%S/reference/mlp/params.safetensors \
// RUN:   --input=%t.input.npy --output=%t.pynative.npy
// RUN: %compare --exact %t.pynative.npy %t.o2.npy
// Repeated calls reuse the packed copies and keep the bits.
// RUN: ms-run %s --jit-level=O2 --params=%S/reference/mlp/params.safetensors \
// RUN:   --input=%t.input.npy --output=%t.repeat.npy --repeat=3
// RUN: %compare --exact %t.repeat.npy %t.o2.npy
func.func @construct(
    %x: tensor<1x1x28x28xf32>,
    %w0: tensor<512x784xf32> {ms.param = "dense_relu_sequential.0.weight"},
    %b0: tensor<512xf32> {ms.param = "dense_relu_sequential.0.bias"},
    %w2: tensor<512x512xf32> {ms.param = "dense_relu_sequential.2.weight"},
    %b2: tensor<512xf32> {ms.param = "dense_relu_sequential.2.bias"},
    %w4: tensor<10x512xf32> {ms.param = "dense_relu_sequential.4.weight"},
    %b4: tensor<10xf32> {ms.param = "dense_relu_sequential.4.bias"})
    -> tensor<1x10xf32> {
  %0 = ms.flatten %x : tensor<1x1x28x28xf32> loc("flatten")
  %1 = ms.dense %0, %w0, %b0 : tensor<1x784xf32>, tensor<512x784xf32>, tensor<512xf32> loc("dense_relu_sequential.0")
  %2 = ms.relu %1 : tensor<1x512xf32> loc("dense_relu_sequential.1")
  %3 = ms.dense %2, %w2, %b2 : tensor<1x512xf32>, tensor<512x512xf32>, tensor<512xf32> loc("dense_relu_sequential.2")
  %4 = ms.relu %3 : tensor<1x512xf32> loc("dense_relu_sequential.3")
  %5 = ms.dense %4, %w4, %b4 : tensor<1x512xf32>, tensor<10x512xf32>, tensor<10xf32> loc("dense_relu_sequential.4")
  return %5 : tensor<1x10xf32>
}
