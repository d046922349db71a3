// Tensor-dependent control flow runs: a while loop (n iterations) and an if
// on the result, against numpy (make_control_flow_reference.py), with both
// branches taken (n = 0: negation, n = 3: the matmuls). Every level gives
// the same bits. The kernel-by-kernel runner (no_sink) runs ms ops only, so
// O0 runs sunk here; PyNative mode reports the scf op it cannot run.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/make_control_flow_reference.py %t
// RUN: ms-run %s --jit-level=O0 --exc-mode=sink --input=%t/x.npy --input=%t/n0.npy --output=%t/o0_n0.npy
// RUN: %compare %t/o0_n0.npy %t/expected_n0.npy
// RUN: ms-run %s --jit-level=O1 --input=%t/x.npy --input=%t/n0.npy --output=%t/o1_n0.npy
// RUN: %compare --exact %t/o1_n0.npy %t/o0_n0.npy
// RUN: ms-run %s --jit-level=O2 --num-threads=2 --input=%t/x.npy --input=%t/n0.npy --output=%t/o2_n0.npy
// RUN: %compare --exact %t/o2_n0.npy %t/o0_n0.npy
// RUN: ms-run %s --jit-level=O0 --exc-mode=sink --input=%t/x.npy --input=%t/n3.npy --output=%t/o0_n3.npy
// RUN: %compare %t/o0_n3.npy %t/expected_n3.npy
// RUN: ms-run %s --jit-level=O1 --input=%t/x.npy --input=%t/n3.npy --output=%t/o1_n3.npy
// RUN: %compare --exact %t/o1_n3.npy %t/o0_n3.npy
// RUN: ms-run %s --jit-level=O2 --num-threads=2 --input=%t/x.npy --input=%t/n3.npy --output=%t/o2_n3.npy
// RUN: %compare --exact %t/o2_n3.npy %t/o0_n3.npy
// RUN: not ms-run %s --mode=pynative --input=%t/x.npy --input=%t/n0.npy 2>&1 | FileCheck %s --check-prefix=PYNATIVE
// PYNATIVE: control-flow.mlir:{{[0-9]+}}:{{[0-9]+}}: error: PyNative runs ms ops only; 'scf.while' is not one

func.func @construct(%x: tensor<8x16xf32>, %n: tensor<i32>) -> tensor<8x16xf32> {
  %i0 = arith.constant dense<0> : tensor<i32>
  %one = arith.constant dense<1> : tensor<i32>
  %r:2 = scf.while (%i = %i0, %a = %x) : (tensor<i32>, tensor<8x16xf32>) -> (tensor<i32>, tensor<8x16xf32>) {
    %lt = ms.less %i, %n : tensor<i32>, tensor<i32>
    %b = tensor.extract %lt[] : tensor<i1>
    scf.condition(%b) %i, %a : tensor<i32>, tensor<8x16xf32>
  } do {
  ^bb0(%i: tensor<i32>, %a: tensor<8x16xf32>):
    %a2 = ms.add %a, %a : tensor<8x16xf32>, tensor<8x16xf32>
    %i2 = ms.add %i, %one : tensor<i32>, tensor<i32>
    scf.yield %i2, %a2 : tensor<i32>, tensor<8x16xf32>
  }
  %s = ms.reduce_sum %r#1 axes [0, 1] : tensor<8x16xf32>
  %limit = arith.constant dense<100.0> : tensor<f32>
  %big = ms.greater %s, %limit : tensor<f32>, tensor<f32>
  %c = tensor.extract %big[] : tensor<i1>
  %out = scf.if %c -> (tensor<8x16xf32>) {
    %y = ms.relu %r#1 : tensor<8x16xf32>
    %z = ms.matmul %y, %r#1 transpose_b : tensor<8x16xf32>, tensor<8x16xf32>
    %w = ms.matmul %z, %y : tensor<8x8xf32>, tensor<8x16xf32>
    scf.yield %w : tensor<8x16xf32>
  } else {
    %y = ms.neg %r#1 : tensor<8x16xf32>
    scf.yield %y : tensor<8x16xf32>
  }
  return %out : tensor<8x16xf32>
}
