// floor against numpy on the values where rounding down is easy to get
// wrong (halves, -0, values just below an integer, infinities, NaN, values
// too large to have a fraction), bit for bit in every mode and jit_level.
// RUN: %python -c "import numpy as np; np.save('%t.in.npy', np.array([[-2.5, -0.5, -0.0, 0.0, 0.5, 1.0, 2.7, -1e-30, 0.99999994, -0.99999994], [16777217.0, -8388609.5, 3e38, -3e38, 1.5, -1.5, float('inf'), float('-inf'), float('nan'), 7.0]], np.float32)); np.save('%t.expected.npy', np.floor(np.load('%t.in.npy')))"
// RUN: ms-run %s --jit-level=O0 --exc-mode=sink --input=%t.in.npy --output=%t.graph.npy
// RUN: %compare --exact %t.graph.npy %t.expected.npy
// RUN: ms-run %s --mode=pynative --input=%t.in.npy --output=%t.pynative.npy
// RUN: %compare --exact %t.pynative.npy %t.expected.npy
// RUN: ms-run %s --jit-level=O1 --input=%t.in.npy --output=%t.o1.npy
// RUN: %compare --exact %t.o1.npy %t.expected.npy
// RUN: ms-run %s --jit-level=O2 --num-threads=2 --input=%t.in.npy --output=%t.o2.npy
// RUN: %compare --exact %t.o2.npy %t.expected.npy
// RUN: ms-run %s --jit-level=O2 --exc-mode=no_sink --input=%t.in.npy --output=%t.nosink.npy
// RUN: %compare --exact %t.nosink.npy %t.expected.npy
func.func @construct(%a0: tensor<2x10xf32>) -> tensor<2x10xf32> {
  %0 = ms.floor %a0 : tensor<2x10xf32>
  return %0 : tensor<2x10xf32>
}
