// The seed MLP with weights and input made by PyTorch (make_reference.py):
// graph mode matches PyTorch to 1e-5 relative, and PyNative matches graph
// mode bit for bit, both on the file output and on the printed numbers.
// RUN: ms-run %S/../../examples/mlp.mlir --exc-mode=sink --params=%S/reference/mlp/params.safetensors \
// RUN:   --input=%S/reference/mlp/input.npy --output=%t.graph.npy --print > %t.graph.txt
// RUN: %compare %t.graph.npy %S/reference/mlp/expected.npy
// RUN: ms-run %S/../../examples/mlp.mlir --mode=pynative --params=%S/reference/mlp/params.safetensors \
// RUN:   --input=%S/reference/mlp/input.npy --output=%t.pynative.npy --print > %t.pynative.txt
// RUN: %compare --exact %t.pynative.npy %t.graph.npy
// RUN: diff %t.graph.txt %t.pynative.txt
// Every jit_level and thread count gives the same bits.
// RUN: ms-run %S/../../examples/mlp.mlir --jit-level=O1 --params=%S/reference/mlp/params.safetensors \
// RUN:   --input=%S/reference/mlp/input.npy --output=%t.o1.npy
// RUN: %compare --exact %t.o1.npy %t.graph.npy
// RUN: ms-run %S/../../examples/mlp.mlir --jit-level=O2 --num-threads=1 --params=%S/reference/mlp/params.safetensors \
// RUN:   --input=%S/reference/mlp/input.npy --output=%t.o2.npy
// RUN: %compare --exact %t.o2.npy %t.graph.npy
// RUN: ms-run %S/../../examples/mlp.mlir --jit-level=O2 --num-threads=2 --params=%S/reference/mlp/params.safetensors \
// RUN:   --input=%S/reference/mlp/input.npy --output=%t.o2t2.npy
// RUN: %compare --exact %t.o2t2.npy %t.graph.npy
// RUN: ms-run %S/../../examples/mlp.mlir --mode=pynative --jit-level=O2 --params=%S/reference/mlp/params.safetensors \
// RUN:   --input=%S/reference/mlp/input.npy --output=%t.pynative.o2.npy
// RUN: %compare --exact %t.pynative.o2.npy %t.graph.npy
// RUN: ms-run %S/../../examples/mlp.mlir --jit-level=O0 --exc-mode=sink --params=%S/reference/mlp/params.safetensors \
// RUN:   --input=%S/reference/mlp/input.npy --output=%t.o0.npy
// RUN: %compare --exact %t.o0.npy %t.graph.npy
// Three threads do not divide the 512 rows: the leftover rows run on one
// thread (this failed to compile: an affine.min of the thread index bounded
// an affine loop).
// RUN: ms-run %S/../../examples/mlp.mlir --jit-level=O2 --num-threads=3 --params=%S/reference/mlp/params.safetensors \
// RUN:   --input=%S/reference/mlp/input.npy --output=%t.o2t3.npy
// RUN: %compare --exact %t.o2t3.npy %t.graph.npy
