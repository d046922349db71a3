// A chain of 3,000 elementwise ops compiles (in linear time: O1's fusion
// stops at ms-fuse-elementwise's body bound; issue 55, item 6) and every
// level gives the bits of O0, which fuses nothing. The chain's values
// against numpy: make_chain_reference.py.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/make_chain.py 3000 > %t/chain.mlir
// RUN: %python %S/make_chain_reference.py 3000 %t
// RUN: ms-run %t/chain.mlir --jit-level=O0 --exc-mode=sink --input=%t/x.npy --input=%t/y.npy --output=%t/o0.npy
// RUN: %compare %t/o0.npy %t/expected.npy
// RUN: ms-run %t/chain.mlir --jit-level=O1 --input=%t/x.npy --input=%t/y.npy --output=%t/o1.npy
// RUN: %compare --exact %t/o1.npy %t/o0.npy
// RUN: ms-run %t/chain.mlir --jit-level=O2 --input=%t/x.npy --input=%t/y.npy --output=%t/o2.npy
// RUN: %compare --exact %t/o2.npy %t/o0.npy
